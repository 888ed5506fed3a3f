"""The status, the plan commands (`session`, `task`, `plan`) and `tg-git estimate`.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- status

table_title
    en  ## 🔋 Token gauge (self-estimated)
    ko  ## 🔋 토큰 게이지 (자가 추정)

table_head
    en  | Item | Estimated tokens |
    ko  | 항목 | 추정 토큰 |

input_row
    en  Input (user requests + context)
    ko  입력 (유저 요청 + 컨텍스트)

output_row
    en  Output {n}: {what}
    ko  출력 {n}: {what}

output_more
    en  {path} and {n} more file(s)
    ko  {path} 외 {n}개 파일

output_none
    en  commit
    ko  커밋

earlier_row
    en  Outputs 1–{n}: earlier commits
    ko  출력 1–{n}: 이전 커밋

total_row
    en  **Cumulative**
    ko  **누적**

level_line
    en  Level: **{level}** (warning {warning:,} · force-save {force_save:,} · halt {halt:,})
    ko  단계: **{level}** (경고 {warning:,} · 강제 저장 {force_save:,} · 중단 {halt:,})

remaining_line
    en  Remaining: ~{remaining:,} tokens ({to_halt:,} before the halt level)
    ko  남은 토큰: ~{remaining:,} (중단 단계까지 {to_halt:,})

tasks_title
    en  ## 📋 Tasks
    ko  ## 📋 작업

next_title
    en  ## ⏭️ Next steps
    ko  ## ⏭️ 다음 단계

task.pending
    en  pending
    ko  대기

task.in_progress
    en  in progress
    ko  진행 중

task.blocked
    en  blocked
    ko  막힘

task.done
    en  done
    ko  완료

task_line
    en  - [{status}] {title}
    ko  - [{status}] {title}

task_at
    en  "   at: {at}"
    ko  "   중단 지점: {at}"

task_blocker
    en  "   blocked by: {why}"
    ko  "   막힌 이유: {why}"

no_tasks
    en  No tasks yet (`tg-git task add TITLE`).
    ko  작업이 없습니다 (`tg-git task add 제목`).

# ---- plan commands

records_subject
    en  tg-git: records (the session reached its halt level)
    ko  tg-git: 기록 (세션이 중단 단계에 도달함)

recorded
    en  tg-git: recorded {count:,} input tokens; session at {used:,}/{max:,}.
    ko  tg-git: 입력 토큰 {count:,}개를 기록했습니다. 세션 {used:,}/{max:,}.

task_done_msg
    en  tg-git: task {op}: {title}
    ko  tg-git: 작업 {op}: {title}

task_op.add
    en  added
    ko  추가

task_op.start
    en  started
    ko  시작

task_op.done
    en  done
    ko  완료

task_op.block
    en  blocked
    ko  막힘

task_empty
    en  a task needs a title.
    ko  작업에는 제목이 필요합니다.

text_too_long
    en  this text is at most {limit} characters; shorten it.
    ko  이 텍스트는 최대 {limit}자입니다. 줄여 주세요.

text_controls
    en  this text must be one line without control characters; retype it.
    ko  이 텍스트는 제어 문자 없는 한 줄이어야 합니다. 다시 입력하세요.

task_unknown
    en  no task {title!r} in this session; add it with `tg-git task add {quoted}` (`tg-git task list` shows the plan).
    ko  이 세션에 {title!r} 작업이 없습니다. 추가하려면: `tg-git task add {quoted}` (계획은 `tg-git task list`로 확인).

task_exists
    en  task {title!r} already exists ({status}); start it with `tg-git task start {quoted}`.
    ko  {title!r} 작업이 이미 있습니다({status}). 시작하려면: `tg-git task start {quoted}`.

note_empty
    en  a note needs text; say what the next session must know.
    ko  메모 내용이 필요합니다. 다음 세션이 알아야 할 내용을 적으세요.

noted
    en  tg-git: noted.
    ko  tg-git: 메모했습니다.

next_added
    en  tg-git: next step added: {text}
    ko  tg-git: 다음 단계 추가: {text}

next_cleared
    en  tg-git: next steps cleared.
    ko  tg-git: 다음 단계를 비웠습니다.

next_needs
    en  give the next step as text, or --clear.
    ko  다음 단계 내용을 적거나 --clear를 주세요.

session_started
    en  tg-git: session {id} started with a budget of {max:,} tokens.
    ko  tg-git: 예산 {max:,} 토큰으로 {id} 세션을 시작했습니다.

tokens_negative
    en  --tokens must be a whole number >= 0.
    ko  --tokens는 0 이상의 정수여야 합니다.

cannot_read
    en  cannot read {path} ({why}); check the path.
    ko  {path}: 읽을 수 없습니다({why}). 경로를 확인하세요.

# ---- estimate

estimate_no_such_path
    en  {path}: no such file or directory; check the path.
    ko  {path}: 그런 파일이나 폴더가 없습니다. 경로를 확인하세요.

estimate_not_a_file
    en  {path}: not a regular file (a device, a pipe or a socket); tg-git reads only files.
    ko  {path}: 일반 파일이 아닙니다(장치, 파이프 또는 소켓). tg-git은 파일만 읽습니다.

estimate_too_large
    en  {path}: over {limit:,} bytes, more than any agent's context holds; tg-git reads files up to that size.
    ko  {path}: {limit:,}바이트를 넘습니다. 어떤 에이전트의 컨텍스트에도 들어가지 않는 크기라 tg-git은 그 크기까지의 파일만 읽습니다.

estimate_unreadable_dir
    en  {path}: is a directory that cannot be read; check the path.
    ko  {path}: 읽을 수 없는 폴더입니다. 경로를 확인하세요.

estimate_unreadable
    en  cannot read {path} ({error}); check its permissions.
    ko  {path}: 읽을 수 없습니다 ({error}). 권한을 확인하세요.

estimate_profile
    en  unknown profile {profile!r}; choose one of {names}.
    ko  알 수 없는 프로필 {profile!r}입니다. 다음 중 하나를 고르세요: {names}.

estimate_staged_paths
    en  --staged takes no paths; it estimates the whole index against HEAD.
    ko  --staged에는 경로를 주지 않습니다. HEAD 대비 인덱스 전체를 추정합니다.

estimate_nothing
    en  give a PATH, `-` for standard input, or --staged.
    ko  경로, 표준 입력을 뜻하는 `-`, 또는 --staged를 주세요.

estimate_total
    en  total
    ko  합계

estimate_binary
    en  binary
    ko  바이너리

estimate_excluded
    en  excluded
    ko  제외됨
"""
