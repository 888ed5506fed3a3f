"""Checkpoints: the log, CHECKPOINT.md, the resume briefing and the hand-off to an agent.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- checkpoint and log

saved
    en  tg-git: saved {tag} ({title})
    ko  tg-git: 체크포인트를 저장했습니다: {tag} ({title})

nothing_new
    en  tg-git: nothing new since {tag}; no checkpoint commit made.
    ko  tg-git: {tag} 이후 새로운 것이 없어 체크포인트 커밋을 만들지 않았습니다.

no_checkpoints
    en  tg-git: no checkpoints yet (`tg-git checkpoint` makes one).
    ko  tg-git: 아직 체크포인트가 없습니다 (`tg-git checkpoint`로 생성).

log_row
    en  {tag}  {commit}  {time}  {figures} tokens  {files} files, {tasks} tasks completed
    ko  {tag}  {commit}  {time}  {figures} 토큰  파일 {files}개, 완료 작업 {tasks}개

busy_operation
    en  a merge, rebase, cherry-pick or revert is in progress; finish or abort it, then save.
    ko  병합, 리베이스, 체리픽 또는 되돌리기가 진행 중입니다. 끝내거나 취소한 뒤 저장하세요.

checkpoint_path_dir
    en  {path} is a directory, so no checkpoint can be written there; move it aside and save again with `tg-git checkpoint`.
    ko  {path}: 폴더라서 체크포인트를 쓸 수 없습니다. 다른 곳으로 옮긴 뒤 `tg-git checkpoint`로 다시 저장하세요.

resume_not_committed
    en  the new session started, but git made no commit of its start (see the lines above); it rides in your next commit, or run `tg-git resume --commit` again.
    ko  새 세션은 시작했지만 git이 그 시작을 커밋하지 않았습니다(위 메시지 참고). 다음 커밋에 함께 들어가며, `tg-git resume --commit`을 다시 실행해도 됩니다.

checkpoint_dir_bad
    en  `checkpoint.dir` cannot be {value!r}: {why}; choose a folder inside the work tree, such as `tg-git config set checkpoint.dir .tg-git/checkpoint`.
    ko  `checkpoint.dir` 값으로 쓸 수 없습니다: {value!r} ({why}). `tg-git config set checkpoint.dir .tg-git/checkpoint`처럼 작업 트리 안의 폴더를 고르세요.

config_bad_checkpoint_dir
    en  {where}: `checkpoint.dir` cannot be {value!r}: {why}; set a folder inside the work tree with `tg-git config set checkpoint.dir FOLDER`.
    ko  {where}: `checkpoint.dir` 값으로 쓸 수 없습니다: {value!r} ({why}). 작업 트리 안의 폴더를 다음 명령으로 지정하세요: `tg-git config set checkpoint.dir 폴더`

checkpoint_dir.absolute
    en  it is an absolute path
    ko  절대 경로

checkpoint_dir.characters
    en  it holds a backslash or a control character
    ko  역슬래시나 제어 문자 포함

checkpoint_dir.dotdot
    en  it climbs out with `..`
    ko  `..`로 작업 트리 밖을 가리킴

checkpoint_dir.git
    en  it is inside `.git`
    ko  `.git` 안의 폴더

checkpoint_dir.long
    en  it is longer than 200 characters
    ko  200자 초과

checkpoint_dir.link
    en  {path} is a symbolic link, and tg-git writes nothing through one
    ko  {path}: 심볼릭 링크, tg-git은 링크를 거쳐 아무것도 쓰지 않음

checkpoint_dir.file
    en  {path} is a file, not a folder
    ko  {path}: 폴더가 아닌 파일

kept_edit
    en  tg-git: your {where} edit of {path} was kept at {kept}
    ko  tg-git: {path}의 {where} 수정본을 {kept}에 보관했습니다

where.staged
    en  staged
    ko  스테이징된

where.unstaged
    en  unstaged
    ko  스테이징되지 않은

where.symlink
    en  symbolic link
    ko  심볼릭 링크

finished_interrupted
    en  tg-git: finished an interrupted save: {tag}
    ko  tg-git: 도중에 멈췄던 저장을 마쳤습니다: {tag}

not_signed
    en  tg-git: the checkpoint commit is NOT signed: commit.gpgsign is set but signing failed ({why}); check user.signingKey and gpg.program.
    ko  tg-git: 체크포인트 커밋에 서명이 없습니다: commit.gpgsign이 설정되어 있지만 서명에 실패했습니다({why}). user.signingKey와 gpg.program을 확인하세요.

resume_instructions
    en  Run `tg-git resume`: it verifies every completed file (intact, modified, missing) and starts a new session. Continue each in_progress item from its stopping_point, then next_steps in order; pending is the queue; blocked items wait for their blockers. Completed files were finished earlier: check what resume reports before building on them, and change them when a task needs it.
    ko  `tg-git resume`를 실행하세요: completed 파일을 모두 검증하고(온전함, 수정됨, 없음) 새 세션을 시작합니다. in_progress의 각 항목은 stopping_point부터 재개하고, 이어서 next_steps를 순서대로 진행합니다. pending은 대기 목록이고, blocked 항목은 막힌 이유가 풀릴 때까지 기다립니다. completed 파일은 이전에 끝낸 것이니 그 위에 작업하기 전에 `tg-git resume`의 검증 결과를 확인하고, 작업에 필요하면 수정하세요.

# ---- CHECKPOINT.md (the seed's template; additions after its sections)

md.saved
    en  Saved
    ko  저장 시각

md.context_budget
    en  Context
    ko  컨텍스트

md.spend_budget
    en  Spend
    ko  사용량

md.completed
    en  ✅ Completed
    ko  ✅ 완료

md.in_progress
    en  🔄 In progress
    ko  🔄 진행 중

md.next
    en  ⏭️ Next steps
    ko  ⏭️ 다음 단계

md.context
    en  🔑 Critical context
    ko  🔑 필수 컨텍스트

md.blocked
    en  ⛔ Blocked
    ko  ⛔ 막힘

md.pending
    en  📋 Pending
    ko  📋 대기

md.done
    en  📝 Done this session
    ko  📝 이번 세션에 한 일

md.message
    en  Message
    ko  메시지

md.files
    en  Files ({n})
    ko  파일 ({n}개)

md.tasks
    en  Tasks ({n})
    ko  작업 ({n}개)

md.commits
    en  {n} commit(s), ~{tokens:,} output tokens
    ko  커밋 {n}개, 출력 ~{tokens:,} 토큰

md.more
    en  … and {n} more
    ko  … 외 {n}개

md.none
    en  (none)
    ko  (없음)

md.blocked_by
    en  blocked by
    ko  막힌 이유

# ---- resume briefing

brief.title
    en  ## 🔄 Session resumed
    ko  ## 🔄 세션 재개

brief.checkpoint
    en  **Checkpoint**
    ko  **체크포인트**

brief.completed
    en  **Completed**
    ko  **완료**

brief.files
    en  {n} file(s)
    ko  {n}개 파일

brief.files_more
    en  {n:,} file(s), {listed:,} of them listed and checked; the rest: `git diff --name-only --diff-filter=AMT {since} {where}`
    ko  {n:,}개 파일(목록에 적고 확인한 것은 {listed:,}개, 나머지는 다음 명령으로 볼 수 있습니다: `git diff --name-only --diff-filter=AMT {since} {where}`)

brief.tasks
    en  {n} task(s): {titles}
    ko  작업 {n}개: {titles}

brief.resume_at
    en  **Resume at**
    ko  **재개 지점**

brief.blocked
    en  **Blocked**
    ko  **막힘**

brief.remaining
    en  **Remaining**
    ko  **남은 작업**

brief.next
    en  **Next steps**
    ko  **다음 단계**

brief.context
    en  **Critical context**
    ko  **필수 컨텍스트**

brief.integrity
    en  **Integrity**
    ko  **무결성**

brief.integrity_ok
    en  all {n} intact
    ko  {n}개 모두 온전함

brief.drift
    en  **Drift**
    ko  **불일치**

brief.budget
    en  **New session**: {id}, budget {max:,} tokens (warning {warning:,} · force-save {force_save:,} · halt {halt:,})
    ko  **새 세션**: {id}, 예산 {max:,} 토큰 (경고 {warning:,} · 강제 저장 {force_save:,} · 중단 {halt:,})

brief.reused
    en  (already started by an earlier resume)
    ko  (이전 `tg-git resume`에서 이미 시작됨)

brief.staged
    en  **Still staged** (a refused commit left them; commit them now): {files}
    ko  **스테이징된 채 남은 파일** (거부된 커밋이 남김, 지금 커밋하세요): {files}

brief.done
    en  **Done last session**
    ko  **지난 세션에 한 일**

brief.message
    en  **Message**
    ko  **메시지**

brief.skipped
    en  tg-git: skipped {tag}: {why}; resuming from the next newest checkpoint.
    ko  tg-git: {tag} 건너뜀: {why}. 바로 이전 체크포인트에서 재개합니다.

no_checkpoint
    en  no checkpoint found (no checkpoint/ tag, no `checkpoint:` commit, no harness_checkpoint.json); save one with `tg-git checkpoint`, or fetch tags with `git fetch --tags`.
    ko  체크포인트가 없습니다 (checkpoint/ 태그, `checkpoint:` 커밋, harness_checkpoint.json 모두 없음). `tg-git checkpoint`로 저장하거나 `git fetch --tags`로 태그를 가져오세요.

no_checkpoint_tag
    en  no checkpoint tag {name!r}; list them with `tg-git log`.
    ko  체크포인트 태그가 없습니다: {name!r}. `tg-git log`로 목록을 보세요.

bad_checkpoint
    en  {detail}
    ko  체크포인트를 쓸 수 없습니다: {detail} (`tg-git resume --from 태그`로 다른 체크포인트를 고르세요.)

status.intact
    en  intact
    ko  온전함

status.modified
    en  modified
    ko  수정됨

status.missing
    en  missing
    ko  없음

status.rejected
    en  rejected
    ko  거부됨

status.not-a-file
    en  not a file
    ko  파일 아님

resume_commit
    en  tg-git: session {id} resumed from {origin}
    ko  tg-git: {id} 세션 재개 (출발점 {origin})

# ---- hand-off (`tg-git resume --agent NAME`, tg_git/agents/handoff.py)

brief.written_by
    en  **Saved by**
    ko  **저장한 에이전트**

handoff.from
    en  Hand-off: this checkpoint was saved by {by}; {to} continues from it.
    ko  인계: {by}에서 저장한 체크포인트를 {to}에서 이어서 진행합니다.

handoff.to
    en  Hand-off: {to} continues from this checkpoint.
    ko  인계: {to}에서 이 체크포인트부터 이어서 진행합니다.

handoff.skill
    en  Skill: {path}: {wording}
    ko  스킬: {path}: {wording}

handoff.install
    en  Run `tg-git agent install {agent}` first, so its hooks and skill are in place.
    ko  먼저 이 명령으로 훅과 스킬을 설치하세요: `tg-git agent install {agent}`.

handoff.start
    en  Start it in this clone with `{start}`: its {event} hook hands the model this briefing and the new session's budget.
    ko  이 클론에서 시작하세요: `{start}`. {event} 훅이 이 브리핑과 새 세션의 예산을 모델에 전달합니다.

# ---- a clone whose hooks are missing (`tg-git resume`, tg_git/commands/resume.py)

resume.hooks_missing
    en  tg-git: this clone's hooks are missing ({hooks}): commits here are not counted or saved; run `tg-git resume --install` or `tg-git install`.
    ko  tg-git: 이 클론에 훅이 설치되어 있지 않습니다({hooks}). 여기서 한 커밋은 집계·저장되지 않습니다. `tg-git resume --install` 또는 `tg-git install`을 실행하세요.

resume.hooks_partly
    en  tg-git: this clone lacks the {hooks} hook(s): commits are counted and saved, but {lost}; run `tg-git install`.
    ko  tg-git: 이 클론에 {hooks} 훅이 없습니다. 커밋은 집계·저장되지만 {lost}. `tg-git install`을 실행하세요.

resume.lost.post-merge
    en  a merge saves only at the next commit
    ko  병합은 다음 커밋에서야 저장됩니다

resume.lost.pre-push
    en  pushes are not checked
    ko  푸시는 검사되지 않습니다

resume.lost.both
    en  a merge saves only at the next commit and pushes are not checked
    ko  병합은 다음 커밋에서야 저장되고 푸시는 검사되지 않습니다

# ---- a checkpoint that cannot be resumed from (tg_git/services/resume.py)

checkpoint_bad.no_file
    en  {where} has no {file}; pick another with --from.
    ko  {where}에 {file} 파일이 없습니다. --from으로 다른 체크포인트를 고르세요.

checkpoint_bad.too_large_in
    en  {file} in {where} is {size:,} bytes, over the {most:,}-byte limit; it is not a tg-git checkpoint, pick another with --from.
    ko  {where}의 {file} 파일은 {size:,}바이트로 한도 {most:,}바이트를 넘습니다. tg-git 체크포인트가 아니니 --from으로 다른 체크포인트를 고르세요.

checkpoint_bad.symlink
    en  {file} is a symbolic link; tg-git reads only a regular file there.
    ko  {file}: 심볼릭 링크입니다. tg-git은 그 자리에 있는 일반 파일만 읽습니다.

checkpoint_bad.too_large_file
    en  {file} is {size:,} bytes, over the {most:,}-byte limit; it is not a tg-git checkpoint.
    ko  {file}: {size:,}바이트로 한도 {most:,}바이트를 넘습니다. tg-git 체크포인트가 아닙니다.

checkpoint_bad.over_limit
    en  the checkpoint in {where} is over the {most:,}-byte limit.
    ko  {where}의 체크포인트가 한도 {most:,}바이트를 넘습니다.

checkpoint_bad.not_utf8
    en  the checkpoint in {where} is not UTF-8 text; pick another with --from.
    ko  {where}의 체크포인트는 UTF-8 텍스트가 아닙니다. --from으로 다른 체크포인트를 고르세요.

checkpoint_bad.too_deep
    en  the checkpoint in {where} is nested too deeply to be one.
    ko  {where}의 체크포인트는 너무 깊이 중첩되어 있어 체크포인트일 수 없습니다.

checkpoint_bad.not_json
    en  the checkpoint in {where} is not valid JSON ({reason}); pick another with --from.
    ko  {where}의 체크포인트는 올바른 JSON이 아닙니다 ({reason}). --from으로 다른 체크포인트를 고르세요.

json_reason
    en  {reason}
    ko  {line}번째 줄, {column}번째 칸

checkpoint_bad.deeper
    en  the checkpoint in {where} is nested deeper than {most} levels.
    ko  {where}의 체크포인트는 {most}단계보다 깊게 중첩되어 있습니다.

checkpoint_bad.version
    en  the checkpoint in {where} has schema_version {version!r}; tg-git reads every "1.x".
    ko  {where}의 체크포인트는 schema_version {version!r}입니다. tg-git은 모든 "1.x"를 읽습니다.

checkpoint_bad.schema
    en  the checkpoint in {where} does not match schema {version}: {problems}.
    ko  {where}의 체크포인트가 스키마 {version}에 맞지 않습니다: {problems}.

schema_problems
    en  {problems}
    ko  문제 {n}개

checkpoint_bad.count
    en  the checkpoint in {where} holds a token count over {most}; pick another with --from.
    ko  {where}의 체크포인트에 있는 토큰 수가 한도 {most}보다 큽니다. --from으로 다른 체크포인트를 고르세요.

checkpoint_bad.path
    en  the checkpoint in {where} lists a path no file system can hold ({path}); pick another with --from.
    ko  {where}의 체크포인트에 어떤 파일 시스템도 담을 수 없는 경로가 있습니다({path}). --from으로 다른 체크포인트를 고르세요.
"""
