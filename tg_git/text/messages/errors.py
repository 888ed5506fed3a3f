"""Errors that reach the command line from anywhere: wrong arguments, an unreadable
ledger or work tree, hostile input.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- wrong arguments (argparse)

usage_error
    en  {message}; see `{prog} --help`.
    ko  {message}. `{prog} --help`를 참고하세요.

# ---- the work tree's ledger (workspace)

ws_no_session
    en  no tg-git session has started here; run `tg-git session start`.
    ko  여기서 시작된 tg-git 세션이 없습니다. `tg-git session start`를 실행하세요.

ws_dropped
    en  tg-git: {path} has {n} line(s) that are not events, left out; the next commit drops them, or run `tg-git repair`.
    ko  tg-git: {path}에 이벤트가 아닌 줄 {n}개가 있어 빼고 읽었습니다. 다음 커밋이 지우며, `tg-git repair`로 바로 고칠 수도 있습니다.

ws_attributes
    en  tg-git: add `{line}` to .gitattributes so branches merge the ledger.
    ko  tg-git: 브랜치끼리 원장을 병합하도록 .gitattributes에 다음 줄을 추가하세요: `{line}`

ws_held
    en  tg-git: recorded in tg-git's journal, but {path} was not written ({why}); the next commit writes it: do not record it again.
    ko  tg-git: tg-git 저널에는 기록했지만 {path} 파일은 쓰지 못했습니다({why}). 다음 커밋에서 씁니다. 다시 기록하지 마세요.

ws_not_staged
    en  tg-git: recorded, but could not stage {path} ({error}); the next commit stages it.
    ko  tg-git: 기록했지만 {path} 파일을 스테이징하지 못했습니다({error}). 다음 커밋에서 스테이징합니다.

hook_no_session
    en  tg-git: no session has started, so this commit is not counted; run `tg-git session start`.
    ko  tg-git: 시작된 세션이 없어 이 커밋은 집계하지 않았습니다. `tg-git session start`를 실행하세요.

# ---- errors that reach the command line from anywhere (main, errors.os_fix)

interrupted
    en  interrupted.
    ko  취소되었습니다.

crash
    en  internal error ({error}); please report it with `TG_GIT_DEBUG=1` output.
    ko  내부 오류({error}). `TG_GIT_DEBUG=1`로 실행한 출력과 함께 알려 주세요.

os_fix.space
    en  free some disk space, then try again
    ko  디스크 공간을 확보한 뒤 다시 시도하세요

os_fix.read_only
    en  the file system is read-only; remount it read-write, then try again
    ko  파일 시스템이 읽기 전용입니다. 읽기-쓰기로 다시 마운트한 뒤 다시 시도하세요

os_fix.permissions
    en  make it writable (check its owner and permissions), then try again
    ko  쓸 수 있게 한 뒤(소유자와 권한 확인) 다시 시도하세요

os_fix.path
    en  check the path and its permissions, then try again
    ko  경로와 권한을 확인한 뒤 다시 시도하세요

# ---- a ledger that cannot be read (ledger.py: raised as keys, said in the reader's language)

ledger_long_line
    en  a line of the ledger is over {n:,} characters; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).
    ko  원장의 한 줄이 {n:,}자를 넘습니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).

ledger_too_large
    en  {where} is too large to read as hand-written TOML; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).
    ko  {where}: 손으로 쓴 TOML로 읽기에는 너무 큽니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).

ledger_not_event
    en  {where}: entry `{key}` is not a tg-git event; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).
    ko  {where}: `{key}` 항목은 tg-git 이벤트가 아닙니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).

ledger_not_file
    en  {where} is not a regular file; remove it, then run `tg-git repair`.
    ko  {where}: 일반 파일이 아닙니다. 지운 뒤 `tg-git repair`를 실행하세요.

ledger_unreadable
    en  cannot read {where} ({error}); check its permissions.
    ko  {where}: 읽을 수 없습니다({error}). 권한을 확인하세요.

ledger_not_utf8
    en  {where} is not UTF-8 text; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).
    ko  {where}: UTF-8 텍스트가 아닙니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).

ledger_bad_count
    en  a ledger event's `{name}` must be a whole number from 0 to {n:,}; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).
    ko  원장 이벤트의 `{name}` 값은 0부터 {n:,}까지의 정수여야 합니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).

# ---- hostile input

usage_not_regular
    en  skipped {name}: not a regular file (tg-git reads no FIFO, device or link there).
    ko  {name} 건너뜀: 일반 파일이 아닙니다(tg-git은 FIFO·장치·링크를 읽지 않습니다).

usage_too_big
    en  skipped {name}: over {limit:,} bytes, more than the agent ever writes there.
    ko  {name} 건너뜀: {limit:,}바이트를 넘습니다. 에이전트가 그곳에 쓰는 크기보다 큽니다.

budget_too_large
    en  the budget must be at most {most} tokens, the most a ledger reads back; use one such as 200000.
    ko  토큰 예산은 원장이 읽을 수 있는 최대값 {most} 토큰 이하여야 합니다. 200000 같은 값을 쓰세요.

project_name_long
    en  project_name must be at most {most:,} characters, as a checkpoint holds it; use a shorter name.
    ko  project_name은 체크포인트에 담기는 최대 {most:,}자 이하여야 합니다. 더 짧은 이름을 쓰세요.

write_through_link
    en  {path} is a symbolic link, and tg-git writes nothing through one (it could lead outside the repository); replace it with a plain file or folder.
    ko  {path}: 심볼릭 링크입니다. tg-git은 링크를 거쳐서는 아무것도 쓰지 않습니다(저장소 밖을 가리킬 수 있습니다). 일반 파일이나 폴더로 바꾸세요.

usage_foreign
    en  refused {path}: it is not a transcript of this work tree, so its tokens are not this repository's.
    ko  {path} 거부: 이 작업 트리의 대화 기록이 아니므로 그 토큰은 이 저장소의 것이 아닙니다.

# ---- why the system refused a read or write (its own sentence is English in any locale)

os_reason.ENOENT
    en  No such file or directory
    ko  그런 파일이나 폴더가 없음

os_reason.ENOTDIR
    en  Not a directory
    ko  폴더가 아님

os_reason.EISDIR
    en  Is a directory
    ko  폴더임

os_reason.EEXIST
    en  File exists
    ko  이미 있음

os_reason.EACCES
    en  Permission denied
    ko  권한 없음

os_reason.EPERM
    en  Operation not permitted
    ko  허용되지 않는 작업

os_reason.ENOSPC
    en  No space left on device
    ko  장치에 남은 공간 없음

os_reason.EDQUOT
    en  Disk quota exceeded
    ko  디스크 할당량 초과

os_reason.EROFS
    en  Read-only file system
    ko  읽기 전용 파일 시스템

os_reason.EIO
    en  Input/output error
    ko  입출력 오류

os_reason.ELOOP
    en  Too many levels of symbolic links
    ko  심볼릭 링크가 너무 많이 겹침

os_reason.ENAMETOOLONG
    en  File name too long
    ko  파일 이름이 너무 김

os_reason.EBUSY
    en  Device or resource busy
    ko  장치나 자원이 사용 중

os_reason.ETXTBSY
    en  Text file busy
    ko  실행 중인 파일

os_reason.EMFILE
    en  Too many open files
    ko  열린 파일이 너무 많음

os_reason.ENFILE
    en  Too many open files in system
    ko  시스템에 열린 파일이 너무 많음

os_reason.other
    en  {error} [{name}]
    ko  {name}

# ---- tg-git's own files that cannot be written, a committed ledger that is not TOML

journal_unwritable
    en  cannot write tg-git's journal in {folder} ({error}); {fix}.
    ko  {folder}에 tg-git 저널을 쓸 수 없습니다 ({error}). {fix}.

journal_lock
    en  cannot open tg-git's lock {path} ({error}); {fix}.
    ko  tg-git 잠금 파일을 열 수 없습니다: {path} ({error}). {fix}.

file_unwritable
    en  cannot write {name} in {folder} ({error}); {fix}.
    ko  {folder}에 {name} 파일을 쓸 수 없습니다 ({error}). {fix}.

ledger_repair
    en  run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).
    ko  `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).

toml_reason
    en  {reason}
    ko  구문 오류

toml_reason_at
    en  {reason}
    ko  {line}번째 줄, {column}번째 칸

ledger_symlink
    en  {folder} is a symbolic link; tg-git writes its ledger only inside the repository: replace the link with a folder.
    ko  {folder}: 심볼릭 링크입니다. tg-git은 저장소 안에만 원장을 씁니다. 링크를 폴더로 바꾸세요.

write_unnoted
    en  cannot note the write in {folder}
    ko  {folder}에 쓰기 기록을 남길 수 없습니다

unknown_command
    en  unknown command {command!r}
    ko  알 수 없는 명령 {command!r}

not_a_commit
    en  {rev!r} is not a commit here; give the commit id `tg-git verify` names.
    ko  {rev!r}: 이 저장소의 커밋이 아닙니다. `tg-git verify`가 알려 준 커밋 id를 쓰세요.

git_failed
    en  git {command} failed ({reason}); check the repository with `git status`.
    ko  git {command} 실패 ({reason}). `git status`로 저장소를 확인하세요.

git_odd_output
    en  git {command} gave unexpected output; update git and retry.
    ko  git {command}의 출력이 예상과 다릅니다. git을 업데이트한 뒤 다시 시도하세요.

# ---- before a config is read (the locale's language: messages.locale_language)

not_a_repository
    en  not inside a git work tree; run tg-git from a repository (`git init` makes one).
    ko  git 작업 트리 안이 아닙니다. 저장소 안에서 tg-git을 실행하세요 (`git init`으로 만들 수 있습니다).

not_a_work_tree
    en  not inside a git work tree; run tg-git from a repository's work tree.
    ko  git 작업 트리 안이 아닙니다. 저장소의 작업 트리 안에서 tg-git을 실행하세요.

not_set_up
    en  tg-git is not set up in this repository; run `tg-git init` first.
    ko  이 저장소에는 tg-git이 설정되지 않았습니다. 먼저 `tg-git init`을 실행하세요.

cwd_deleted
    en  the current directory was deleted; `cd` into the repository again and rerun.
    ko  현재 폴더가 삭제되었습니다. 저장소로 다시 `cd`한 뒤 다시 실행하세요.
"""

# argparse's own error sentences (CPython 3.10-3.13) and their Korean; groups keep what it named.
ARGPARSE_KO = (
    (r"the following arguments are required: (.+)", "필요한 인수가 없습니다: {0}"),
    (r"one of the arguments (.+) is required", "다음 인수 중 하나가 필요합니다: {0}"),
    (r"unrecognized arguments: (.+)", "알 수 없는 인수: {0}"),
    (
        r"argument COMMAND: invalid choice: (.+?) \(choose from (.+)\)",
        "알 수 없는 명령: {0} (명령 목록: {1})",
    ),
    (
        r"argument (.+?): invalid choice: (.+?) \(choose from (.+)\)",
        "인수 {0}: 고를 수 없는 값 {1} (선택지: {2})",
    ),
    (r"argument (.+?): invalid int value: (.+)", "인수 {0}: 정수가 아닙니다: {1}"),
    (r"argument (.+?): invalid float value: (.+)", "인수 {0}: 숫자가 아닙니다: {1}"),
    (r"argument (.+?): invalid (\S+) value: (.+)", "인수 {0}: 올바르지 않은 값: {2}"),
    (r"argument (.+?): expected one argument", "인수 {0}: 값이 하나 필요합니다"),
    (r"argument (.+?): expected at least one argument", "인수 {0}: 값이 하나 이상 필요합니다"),
    (r"argument (.+?): not allowed with argument (.+)", "인수 {0}: {1} 인수와 함께 쓸 수 없습니다"),
    (r"argument (.+?): ignored explicit argument (.+)", "인수 {0}: 값을 받지 않습니다({1})"),
    (r"ambiguous option: (.+?) could match (.+)", "모호한 옵션: {0} (후보: {1})"),
)
