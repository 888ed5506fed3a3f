"""The config file's values, `init`, `config`, `install` and `uninstall`.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- the config file's values (config.from_mapping)

config_wrong_type
    en  {where}: `{key}` should be {kind}, not {value!r}; fix it or delete the line to use the default.
    ko  {where}: `{key}`: {value!r} 값은 쓸 수 없습니다. 필요한 값: {kind}. 고치거나 그 줄을 지워 기본값을 쓰세요.

toml_invalid
    en  {what} is not valid TOML ({reason}); {fix}
    ko  {what}: 올바른 TOML이 아닙니다 ({reason}). {fix}

toml_where
    en  line {line}, column {column}
    ko  {line}번째 줄, {column}번째 칸

config_toml_fix
    en  fix it or restore it with `git checkout -- {path}`.
    ko  고치거나 다음 명령으로 복원하세요: `git checkout -- {path}`.

config_kind.int
    en  int
    ko  정수

config_kind.str
    en  str
    ko  문자열

config_kind.list
    en  list
    ko  목록

config_kind.number
    en  a number
    ko  숫자

config_kind.tokens
    en  a whole number of tokens
    ko  토큰 수를 나타내는 정수

config_kind.percent
    en  a percentage (0-100)
    ko  백분율(0-100)

config_kind.choice
    en  one of {choices}
    ko  {choices} 중 하나

config_kind.line
    en  one line of text
    ko  한 줄의 텍스트

config_not_strings
    en  {where}: `{key}` should be a list of strings; fix it.
    ko  {where}: `{key}` 값은 문자열 목록이어야 합니다. 고치세요.

config_not_tables
    en  {where}: [thresholds] and [files] must be tables; fix the file.
    ko  {where}: [thresholds]와 [files]는 테이블이어야 합니다. 파일을 고치세요.

config_budget_not_table
    en  {where}: [budget] must be a table; fix the file.
    ko  {where}: [budget]은 테이블이어야 합니다. 파일을 고치세요.

config_bad_export
    en  {where}: `{key}` must be an http(s) address (push, otlp) or a number of seconds up to 10 (timeout), not {value!r}; fix the file.
    ko  {where}: `{key}` 값은 http(s) 주소(push, otlp)나 10 이하의 초 단위 숫자(timeout)여야 합니다({value!r} 불가). 파일을 고치세요.

config_bad_outside
    en  {where}: `verify.outside` must be one of {choices}, not {value!r}.
    ko  {where}: `verify.outside` 값은 {choices} 중 하나여야 합니다({value!r} 불가).

config_bad_source
    en  {where}: `budget.source` must be "auto" or "estimate", not {value!r}.
    ko  {where}: `budget.source` 값은 "auto" 또는 "estimate"여야 합니다({value!r} 불가).

config_not_positive
    en  {where}: `max_tokens` must be positive; set a budget such as 200000.
    ko  {where}: `max_tokens` 값은 양수여야 합니다. 200000 같은 예산을 설정하세요.

config_too_large
    en  {where}: `max_tokens` must be at most {most}, the most a ledger reads back; set a budget such as 200000.
    ko  {where}: `max_tokens` 값은 원장이 읽을 수 있는 최대값 {most} 이하여야 합니다. 200000 같은 예산을 설정하세요.

config_thresholds_rise
    en  {where}: thresholds must rise, warning <= force_save <= halt <= 100; fix [thresholds].
    ko  {where}: 임계값은 `warning <= force_save <= halt <= 100` 순서로 커져야 합니다. [thresholds]를 고치세요.

config_bad_language
    en  {where}: `language` must be "en" or "ko", not {value!r}.
    ko  {where}: `language` 값은 "en" 또는 "ko"여야 합니다({value!r} 불가).

config_bad_profile
    en  {where}: unknown `profile` {value!r}; use one of {names}.
    ko  {where}: 알 수 없는 `profile` {value!r}입니다. 다음 중 하나를 쓰세요: {names}.

# ---- install, uninstall

install_both_exist
    en  both {hook} and {kept} exist; move one aside, then run install again.
    ko  {hook}, {kept} 두 파일이 모두 있습니다. 하나를 옮긴 뒤 `tg-git install`을 다시 실행하세요.

install_kept
    en  tg-git: kept your {name} hook as {kept}; it still runs first.
    ko  tg-git: 기존 {name} 훅을 다음 이름으로 보관했습니다: {kept}. 그 훅이 여전히 먼저 실행됩니다.

install_done
    en  tg-git: installed {hooks} in {folder}
    ko  tg-git: {folder}에 훅을 설치했습니다: {hooks}

install_undo
    en  " (undo: `tg-git uninstall`)"
    ko  " (되돌리기: `tg-git uninstall`)"

install_hooks_path_outside
    en  core.hooksPath is {folder}, outside this repository: tg-git writes no hook there (every repository that uses the folder would run it); give this repository a folder of its own with `git config core.hooksPath .git/hooks` (run your shared hooks from there), then run `tg-git install` again.
    ko  core.hooksPath가 이 저장소 밖의 {folder}입니다. 그 폴더를 쓰는 모든 저장소에서 실행되므로 tg-git은 그곳에 훅을 쓰지 않습니다. `git config core.hooksPath .git/hooks`로 이 저장소만의 폴더를 정하고(공용 훅은 그 폴더에서 실행하세요) `tg-git install`을 다시 실행하세요.

install_chain
    en  tg-git: core.hooksPath is {folder}, a folder this repository tracks: tg-git changes nothing in it and installed {hooks} in {shims}. To run them, add this line to each of those hooks in {folder} (create the missing ones; a clone without tg-git skips the line):
        {line}
        Undo: `tg-git uninstall`, then take the line out again.
    ko  tg-git: core.hooksPath가 이 저장소가 추적하는 폴더 {folder}입니다. tg-git은 그 폴더를 바꾸지 않고 {shims}에 훅을 설치했습니다: {hooks}. 이 훅을 실행하려면 {folder}의 해당 훅마다 다음 줄을 추가하세요(없는 훅은 새로 만드세요. tg-git이 없는 클론에서는 이 줄이 아무 일도 하지 않습니다):
        {line}
        되돌리기: `tg-git uninstall`을 실행한 뒤 이 줄을 지우세요.

uninstall_chain
    en  tg-git: {folder} is left as it is: take the line that ends in `# tg-git` out of its hooks.
    ko  tg-git: {folder} 폴더는 그대로 두었습니다. 그 훅에서 `# tg-git`으로 끝나는 줄을 지우세요.

install_follow_tags_on
    en  tg-git: push.followTags is already on here: `git push` sends checkpoint tags.
    ko  tg-git: 이 저장소는 이미 push.followTags가 켜져 있어 `git push`가 체크포인트 태그도 보냅니다.

install_follow_tags_set
    en  tg-git: set push.followTags=true in this repository's config, so a plain `git push` also sends the checkpoint tags of the commits it pushes.
    ko  tg-git: 이 저장소 설정에 push.followTags=true를 켰습니다. 이제 `git push`만으로 푸시하는 커밋의 체크포인트 태그도 함께 보냅니다.

uninstall_restored
    en  tg-git: restored your {name} hook.
    ko  tg-git: 기존 {name} 훅을 되돌려 놓았습니다.

uninstall_done
    en  tg-git: removed tg-git's hooks from {folder}
    ko  tg-git: {folder}에서 tg-git 훅을 제거했습니다.

uninstall_follow_tags
    en  tg-git: unset the push.followTags that install had set.
    ko  tg-git: 설치 때 켰던 push.followTags 설정을 해제했습니다.

purge_unstaged
    en  {folder}/ or .gitattributes has unstaged edits; commit or stash them, then run `tg-git uninstall --purge` again (nothing was changed).
    ko  {folder}/ 또는 .gitattributes에 스테이징되지 않은 수정이 있습니다. 커밋하거나 `git stash`로 치워 둔 뒤 `tg-git uninstall --purge`를 다시 실행하세요(아무것도 바뀌지 않았습니다).

purge_folder
    en  tg-git: removed {folder}/ (config and ledger) from the work tree and the index.
    ko  tg-git: 작업 트리와 인덱스에서 {folder}/ 폴더(설정과 원장)를 제거했습니다.

purge_attributes
    en  tg-git: removed the ledger's merge=union line from .gitattributes.
    ko  tg-git: .gitattributes에서 원장의 merge=union 줄을 제거했습니다.

purge_done
    en  tg-git: purged; commit the removal (`git commit`). History, checkpoint commits and tags are untouched.
    ko  tg-git: 제거를 마쳤습니다. 제거 내용을 커밋하세요(`git commit`). 히스토리, 체크포인트 커밋과 태그는 그대로입니다.

# ---- init and config

wrote
    en  tg-git: wrote {item}
    ko  tg-git: 작성했습니다: {item}

session_item
    en  {path} (session {id})
    ko  {path} (세션 {id})

set_up_already
    en  tg-git: already set up here; nothing changed.
    ko  tg-git: 이미 설정되어 있습니다. 바뀐 것이 없습니다.

init_next
    en  tg-git: next, `tg-git install` adds the git hooks; commit .tg-git/ and .gitattributes.
    ko  tg-git: 다음으로 `tg-git install`로 git 훅을 설치하고 .tg-git/와 .gitattributes를 커밋하세요.

init_updated
    en  tg-git: set {key} = {value} in {path}
    ko  tg-git: {path}에 설정했습니다: {key} = {value}

left_unstaged
    en  tg-git: {path} has your unstaged edits, so it was left unstaged; review it and `git add {path}`.
    ko  tg-git: {path}에 스테이징되지 않은 수정이 있어 그대로 두었습니다. 확인 후 `git add {path}` 하세요.

attributes_symlink
    en  tg-git: .gitattributes is a symbolic link, so tg-git did not write through it; add the line `{line}` to the file it points to yourself.
    ko  tg-git: .gitattributes가 심볼릭 링크라서 쓰지 않았습니다. 가리키는 파일에 `{line}` 줄을 직접 추가하세요.

attributes_not_file
    en  .gitattributes is not a regular file; move it aside, then run `tg-git init` again.
    ko  .gitattributes가 일반 파일이 아닙니다. 옮긴 뒤 `tg-git init`을 다시 실행하세요.

config_set
    en  tg-git: {key} = {value}
    ko  tg-git: {key} = {value}

config_next_session
    en  tg-git: the current session keeps its budget; the new one applies from the next session (`tg-git session start`).
    ko  tg-git: 현재 세션은 기존 예산을 유지합니다. 새 값은 다음 세션부터 적용됩니다 (`tg-git session start`).

config_unknown_key
    en  unknown config key {key!r}; use one of {keys}.
    ko  알 수 없는 설정 키 {key!r}입니다. 다음 중 하나를 쓰세요: {keys}.

config_bad_value
    en  {key} must be {kind}, not {value!r}; for example `tg-git config set {key} {example}`.
    ko  {key}: {value!r} 값은 쓸 수 없습니다. 필요한 값: {kind}. 예: `tg-git config set {key} {example}`.

config_needs_value
    en  `tg-git config set` needs a KEY and a VALUE.
    ko  `tg-git config set`에는 키와 값이 필요합니다.

not_counted_no_tg_git
    en  tg-git: THIS COMMIT IS NOT COUNTED: this branch has no .tg-git/ (an orphan branch?) though this clone uses tg-git; run `git checkout main -- .tg-git .gitattributes` (your branch's name for main) so its commits are counted.
    ko  tg-git: 이 커밋은 집계되지 않습니다: 이 클론은 tg-git을 쓰지만 이 브랜치에는 .tg-git/ 폴더가 없습니다(`--orphan` 브랜치?). 커밋이 집계되도록 `git checkout main -- .tg-git .gitattributes`를 실행하세요(main 자리에는 이 저장소의 기본 브랜치 이름).

am_three_way_set
    en  tg-git: set am.threeWay=true in this repository's config, so a plain `git am` merges ledger lines as merges do.
    ko  tg-git: 이 저장소 설정에 am.threeWay=true를 넣었습니다. 이제 일반 `git am`도 병합처럼 원장 줄을 합칩니다.

save_raced
    en  tg-git: the checkpoint was not saved: other commits kept moving HEAD during the save; run `tg-git checkpoint` again.
    ko  tg-git: 체크포인트를 저장하지 못했습니다: 저장 중에 다른 커밋이 계속 HEAD를 옮겼습니다. `tg-git checkpoint`를 다시 실행하세요.

# ---- a config file that cannot be read at all

config_unreadable
    en  cannot read {path} ({error}); restore it with `git checkout`.
    ko  {path}: 읽을 수 없습니다 ({error}). `git checkout`으로 되돌리세요.

config_not_utf8
    en  not UTF-8 text
    ko  UTF-8 텍스트가 아님
"""
