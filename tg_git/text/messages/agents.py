"""Agent installation (`tg-git agent ...`) and what the agent hooks say: landing mode,
compaction, resume.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- agent install (tg_git/agents/settings.py, commands/agent.py)

agent.no_user_hooks
    en  {agent} reads its hooks from the repository only (.github/hooks/); run `tg-git agent install {agent}` without --user.
    ko  {agent}: 저장소의 훅(.github/hooks/)만 읽습니다. --user 없이 실행하세요: `tg-git agent install {agent}`.

agent.line_wrapped
    en  your status line is kept: its output first, then tg-git's gauge
    ko  기존 상태 줄은 유지됩니다: 그 출력 다음에 tg-git 게이지가 표시됩니다

agent.line_wrapped_home
    en  your status line from your home settings is kept here: its output first, then tg-git's gauge
    ko  홈 설정의 상태 줄을 여기서도 유지합니다: 그 출력 다음에 tg-git 게이지가 표시됩니다

agent.line_not_command
    en  statusLine in {path} is not a command, so tg-git's gauge was not added to it
    ko  {path}의 statusLine이 명령이 아니어서 tg-git 게이지를 추가하지 않았습니다

agent.aligned
    en  {key} = {value}: the agent compacts after tg-git's force-save
    ko  {key} = {value}: 에이전트는 tg-git 강제 저장 뒤에 압축합니다

agent.align_skipped
    en  {key} is not a table there, so the compaction threshold was not set
    ko  {key}: 테이블이 아니어서 압축 기준을 설정하지 않았습니다

agent.no_align
    en  tg-git: {agent}: no compaction threshold setting; tg-git saves at its pre-compaction hook instead.
    ko  tg-git: {agent}: 압축 기준 설정이 없습니다. 대신 압축 전 훅에서 tg-git이 저장합니다.

agent.none_found
    en  no agent's folder or settings were found here or in your home; name one, e.g. `tg-git agent install claude` ({agents}).
    ko  여기나 홈에서 에이전트 폴더나 설정을 찾지 못했습니다. 하나를 지정하세요. 예: `tg-git agent install claude` ({agents}).

agent.unknown
    en  unknown agent {name!r}; use {agents} or all.
    ko  알 수 없는 에이전트 {name!r}입니다. {agents} 또는 all을 쓰세요.

agent.check_ok
    en  {agent}: {where} ({events})
    ko  {agent}: {where} ({events})

agent.check_not_on_path
    en  {agent}: the hooks in {where} run `{command}` from PATH, which is not on PATH here
    ko  {agent}: {where}의 훅이 실행하는 `{command}` 명령이 이 컴퓨터의 PATH에 없습니다

agent.codex_trust
    en  Codex runs these hooks only once you trust them: start `codex` here, type /hooks and choose `Trust all and continue` (again after any change to them); `codex exec --dangerously-bypass-hook-trust` trusts them for one run.
    ko  Codex는 이 훅을 신뢰한 뒤에만 실행합니다: 여기서 `codex`를 시작해 /hooks를 입력하고 `Trust all and continue`를 고르세요(훅이 바뀔 때마다 다시). `codex exec --dangerously-bypass-hook-trust`는 한 번의 실행 동안만 신뢰합니다.

agent.check_codex_untrusted
    en  codex: tg-git's hooks in {where} are not trusted in Codex ({events}), so Codex runs none of them
    ko  codex: {where}의 tg-git 훅({events})을 Codex가 신뢰하지 않아 하나도 실행하지 않습니다

agent.check_codex_fix
    en  start `codex` in this repository, type /hooks and choose `Trust all and continue`
    ko  이 저장소에서 `codex`를 시작해 /hooks를 입력하고 `Trust all and continue`를 고르세요

agent.check_python
    en  {agent}: the hooks in {where} run {python}, which no longer exists
    ko  {agent}: {where}의 훅이 실행하는 {python} 파일이 더 이상 없습니다

agent.check_older
    en  {agent}: the tool-call hook in {where} ({events}) was written by an older tg-git, so every tool call starts Python
    ko  {agent}: {where}의 도구 호출 훅({events})은 이전 버전의 tg-git이 쓴 것이라 도구를 호출할 때마다 Python이 시작됩니다

agent.check_older_wait
    en  {agent}: the hooks in {where} ({events}) were written by an older tg-git: a shell waits for tg-git there, so a hung one can outlive the agent's timeout
    ko  {agent}: {where}의 훅({events})은 이전 버전의 tg-git이 쓴 것이라 셸이 tg-git을 기다립니다: 멈춘 tg-git이 에이전트의 시간 제한 뒤에도 남을 수 있습니다

agent.check_unreadable
    en  {agent}: {where} cannot be read
    ko  {agent}: {where}: 읽을 수 없습니다

agent.check_malformed
    en  {agent}: {where} does not parse as {agent} reads it ({why}), so {agent} loads none of its hooks
    ko  {agent}: {where} 파일을 {agent} 방식으로 해석할 수 없어({why}) 에이전트가 그 훅을 하나도 불러오지 않습니다

agent.check_malformed_silent
    en  {agent}: {where} does not parse ({why}); {agent} drops such a file without a word, so none of its hooks run
    ko  {agent}: {where} 파일을 해석할 수 없습니다({why}). 이 에이전트는 이런 파일을 알리지 않고 버리므로 그 훅이 하나도 실행되지 않습니다

agent.check_malformed_fix
    en  fix {where} by hand so that it parses (JSON: no comments, no trailing comma, no NaN), then run `tg-git doctor` again
    ko  {where} 파일이 해석되도록 직접 고친 뒤(JSON은 주석, 끝 쉼표, NaN 불가) `tg-git doctor`를 다시 실행하세요

agent.parse_error
    en  {why} at line {line}, column {column}
    ko  {line}행 {column}열: {why}

agent.not_an_object
    en  not a JSON object
    ko  JSON 객체가 아님

agent.check_version
    en  {agent} {here} here; tg-git's tests drive {verified}
    ko  {agent}: 이 컴퓨터에는 {here}, tg-git 테스트가 검증한 버전은 {verified}

agent.check_version_same
    en  {agent} {here} here, the version tg-git's tests drive
    ko  {agent}: 이 컴퓨터의 버전 {here}, tg-git 테스트가 검증한 버전과 같습니다

agent.check_fix
    en  run `tg-git agent install {agent}{user}` with the tg-git you use now.
    ko  지금 쓰는 tg-git으로 다시 실행하세요: `tg-git agent install {agent}{user}`.

agent.check_none
    en  no agent is wired; `tg-git agent install all` guards every agent found here
    ko  연결된 에이전트가 없습니다. `tg-git agent install all`은 여기서 찾은 모든 에이전트를 보호합니다

# ---- agent hooks: landing mode, compaction, resume (tg_git/agents/hook.py)

agent.blocked.context
    en  tg-git: this prompt was not sent: the context window is full; compact or clear the conversation (/compact, /clear) to go on, or start a new agent session, which is briefed from the checkpoint.
    ko  tg-git: 이 프롬프트는 전송되지 않았습니다: 컨텍스트 창이 가득 찼습니다. 대화를 압축하거나 비우면(/compact, /clear) 계속할 수 있고, 새 에이전트 세션을 시작하면 체크포인트 내용으로 브리핑을 받습니다.

agent.blocked.spend
    en  tg-git: this prompt was not sent: the session's spend budget is spent; only a person lifts this halt, with `tg-git session start` or a raised spend budget.
    ko  tg-git: 이 프롬프트는 전송되지 않았습니다: 세션의 사용량 예산이 소진되었습니다. 이 중단은 사람이 `tg-git session start` 또는 사용량 예산 상향으로만 해제합니다.

agent.blocked.window
    en  tg-git: this prompt was not sent: this repository's share of the plan's window is used; a person lifts this halt with `tg-git session start` or a larger share, or wait for the window's reset.
    ko  tg-git: 이 프롬프트는 전송되지 않았습니다: 이 저장소에 배정된 요금제 한도 몫을 다 썼습니다. 사람이 `tg-git session start` 또는 몫 상향으로 해제하거나, 한도가 초기화될 때까지 기다리세요.

agent.halted
    en  tg-git: stop here: the session is halted and only tool calls that land work run now; {way_out}
    ko  tg-git: 여기서 멈추세요: 세션이 중단되어 이제 작업을 반영하는 도구 호출만 실행됩니다. {way_out}

agent.way_out.context
    en  compact or clear the conversation (/compact, /clear) to go on.
    ko  계속하려면 대화를 압축하거나 비우세요(/compact, /clear).

agent.way_out.spend
    en  a person lifts this halt with `tg-git session start` or a raised spend budget.
    ko  이 중단은 사람이 `tg-git session start` 또는 사용량 예산 상향으로 해제합니다.

agent.way_out.window
    en  a person lifts this halt with `tg-git session start` or a larger share of the plan's window; the window's reset lifts it too.
    ko  이 중단은 사람이 `tg-git session start` 또는 요금제 한도 몫 상향으로 해제하며, 요금제 한도가 초기화되어도 풀립니다.

agent.way_out.context.codex
    en  compact the conversation (/compact) or start a new one (/new) to go on.
    ko  계속하려면 대화를 압축하거나(/compact) 새 대화를 시작하세요(/new).

agent.blocked.context.codex
    en  tg-git: this prompt was not sent: the context window is full; compact the conversation (/compact) or start a new one (/new) to go on: the new one is briefed from the checkpoint.
    ko  tg-git: 이 프롬프트는 전송되지 않았습니다: 컨텍스트 창이 가득 찼습니다. 계속하려면 대화를 압축하거나(/compact) 새 대화를 시작하세요(/new). 새 대화는 체크포인트에서 브리핑합니다.

agent.way_out.context.gemini
    en  compress or clear the conversation (/compress, /clear) to go on.
    ko  계속하려면 대화를 압축하거나 비우세요(/compress, /clear).

agent.blocked.context.gemini
    en  tg-git: this prompt was not sent: the context window is full; compress or clear the conversation (/compress, /clear) to go on, or start a new agent session, which is briefed from the checkpoint.
    ko  tg-git: 이 프롬프트는 전송되지 않았습니다: 컨텍스트 창이 가득 찼습니다. 대화를 압축하거나 비우면(/compress, /clear) 계속할 수 있고, 새 에이전트 세션을 시작하면 체크포인트에서 브리핑합니다.

agent.compact_spend
    en  tg-git: this compaction was not started: the session's spend budget is spent and a compaction is a paid summary request; a person lifts this halt with `tg-git session start` or a raised spend budget.
    ko  tg-git: 이번 압축은 시작하지 않았습니다: 세션의 사용량 예산이 소진되었고 압축은 비용이 드는 요약 요청입니다. 이 중단은 사람이 `tg-git session start` 또는 사용량 예산 상향으로 해제합니다.

agent.denied
    en  tg-git: landing mode: this {tool} call was denied because the session is halted; only reading files, `git status/diff/add/commit` (a one-line `git commit -m '...'`) and `tg-git status/checkpoint/task/note` run now; {way_out}
    ko  tg-git: 착륙 모드: 세션이 중단되어 이 {tool} 호출은 거부되었습니다. 이제 파일 읽기, `git status/diff/add/commit`(한 줄 `git commit -m '...'`), `tg-git status/checkpoint/task/note`만 실행됩니다. {way_out}

agent.denied_shell
    en  tg-git: landing mode: this {tool} call was denied because the session is halted; only `git status/diff/add/commit` and `tg-git status/checkpoint/task/note` run now, in the repository itself (no `cd`), each word plain or in single quotes (a one-line `git commit -m '...'`, options spelled in full, no `* ? [ ] {{ }} ~ # $ \ < >`); {way_out}
    ko  tg-git: 착륙 모드: 세션이 중단되어 이 {tool} 호출은 거부되었습니다. 이제 `git status/diff/add/commit`, `tg-git status/checkpoint/task/note`만 저장소 안에서(`cd` 없이) 실행되며, 각 단어는 그대로 쓰거나 작은따옴표로 감싸야 합니다(한 줄 `git commit -m '...'`, 옵션은 줄이지 않은 이름으로, `* ? [ ] {{ }} ~ # $ \ < >` 없이). {way_out}

agent.still_halted
    en  tg-git: this session is still halted; {way_out}
    ko  tg-git: 이 세션은 아직 중단 상태입니다. {way_out}

agent.kept
    en  tg-git: session {id} goes on (nothing was spent in it yet).
    ko  tg-git: {id} 세션을 이어갑니다(아직 사용한 토큰이 없습니다).

agent.compacted
    en  tg-git: the context was compacted; session {id} goes on from the checkpoint saved before it:
    ko  tg-git: 컨텍스트가 압축되었습니다. {id} 세션은 압축 전에 저장한 체크포인트에서 이어갑니다:

agent.before_compaction
    en  (before the compaction; measured again at the next request)
    ko  (압축 전 수치이며 다음 요청에서 다시 측정합니다)

agent.compact_waits
    en  tg-git: this automatic compaction waits: the checkpoint is saved once the merge, pick, revert or rebase under way is finished, and the next compaction goes ahead regardless.
    ko  tg-git: 이번 자동 압축은 보류됩니다: 진행 중인 병합·체리픽·되돌리기·리베이스가 끝나면 체크포인트를 저장하며, 다음 압축은 어떤 경우에도 진행됩니다.

agent.compact_unsaved
    en  tg-git: the checkpoint before this compaction was not saved ({why}); the compaction goes ahead.
    ko  tg-git: 이번 압축 전 체크포인트가 저장되지 않았습니다({why}). 압축은 진행됩니다.

# ---- agent install lines (tg_git/agents/settings.py, skills.py)

agent.linked
    en  {link} is a symbolic link: tg-git writes nothing through a link in the repository (a clone's link can lead anywhere outside it), so {path} was left untouched; replace the link with a real file or folder, or install for your user with `--user`.
    ko  {link}: 심볼릭 링크입니다. 저장소 안의 링크는 저장소 밖 어디로든 이어질 수 있어 링크를 거쳐서는 아무것도 쓰지 않으므로 {path} 경로는 건드리지 않았습니다. 링크를 실제 파일이나 폴더로 바꾸거나 `--user`로 사용자 설정에 설치하세요.

agent.undo
    en  " (undo: `tg-git agent uninstall {agent}{flags}`)"
    ko  " (되돌리기: `tg-git agent uninstall {agent}{flags}`)"

agent.shared_note
    en  {path} is usually committed: its commands run `tg-git` from PATH and name no path of this machine.
    ko  {path} 파일은 보통 커밋됩니다. 그 명령은 PATH의 `tg-git`을 실행하며 이 컴퓨터의 경로를 담지 않습니다.

agent.not_on_path
    en  `{command}` is not on PATH here, so these hooks do nothing on this machine until it is (install tg-git with pipx or uv tool).
    ko  이 컴퓨터의 PATH에 없는 명령입니다: `{command}`. PATH에 추가되기 전까지 이 훅은 이 컴퓨터에서 아무 일도 하지 않습니다(pipx나 uv tool로 tg-git을 설치하세요).

agent.absolute_warning
    en  {path} names this machine's Python because `tg-git` is not on PATH: committed, it fails on other machines; put `tg-git` on PATH (pipx or uv tool install) and run `tg-git agent install {agent}` again, or use `--user`.
    ko  PATH에 `tg-git`이 없어 {path}에 이 컴퓨터의 파이썬 경로를 적었습니다. 커밋하면 다른 컴퓨터에서는 실패합니다. `tg-git`을 PATH에 두고(pipx나 uv tool로 설치) 다시 설치하거나(`tg-git agent install {agent}`) `--user`를 쓰세요.

agent.wired_shared
    en  {path} already runs tg-git's hooks (a shared file), so nothing was added to {local} (each event would run twice); `tg-git agent install {agent} --shared` updates them there.
    ko  공유 파일 {path}에서 이미 tg-git 훅을 실행하므로 {local}에는 아무것도 추가하지 않았습니다(추가하면 이벤트마다 두 번 실행됩니다). 그곳의 훅은 `tg-git agent install {agent} --shared`로 갱신합니다.

agent.opencode_not_ours
    en  {path} is not tg-git's plugin; it was left untouched: move it away, then run `tg-git agent install opencode` again.
    ko  {path}: tg-git의 플러그인이 아니어서 건드리지 않았습니다. 옮긴 뒤 `tg-git agent install opencode`를 다시 실행하세요.

agent.opencode_shared
    en  {path} is committed (a shared plugin), so it was left as it is; `tg-git agent install {agent} --shared` updates it and `tg-git agent uninstall {agent} --shared` removes it.
    ko  {path}: 커밋된 공유 플러그인이라 그대로 두었습니다. 갱신은 `tg-git agent install {agent} --shared`, 제거는 `tg-git agent uninstall {agent} --shared`로 합니다.

agent.line_kept_shared
    en  the status line in {path} stays the project's own (a shared file gets no wrapper: it names this machine's Python)
    ko  {path}의 상태 줄은 프로젝트의 것 그대로 둡니다(공유 파일에는 이 컴퓨터의 파이썬 경로가 담긴 래퍼를 넣지 않습니다)

agent.not_regular
    en  {path} is not a regular file; it was left untouched.
    ko  {path}: 일반 파일이 아니어서 건드리지 않았습니다.

agent.cannot_read
    en  cannot read {path} ({why}); it was left untouched.
    ko  {path}: 읽을 수 없어({why}) 건드리지 않았습니다.

agent.not_json
    en  {path} is not valid JSON{hint} ({why}); it was left untouched: fix it, then run `tg-git agent install` again.
    ko  {path}: 올바른 JSON이 아니어서{hint}({why}) 건드리지 않았습니다. 고친 뒤 `tg-git agent install`을 다시 실행하세요.

agent.comments_hint
    en  " (tg-git edits plain JSON only: take the comments out)"
    ko  " (tg-git은 주석 없는 JSON만 고칩니다. 주석을 지우세요)"

agent.not_object
    en  {path} does not hold a JSON object; it was left untouched.
    ko  {path}에 JSON 객체가 없어 건드리지 않았습니다.

agent.field_not
    en  {path}: {field} is not a JSON {kind}; it was left untouched.
    ko  {path}: {field} 값이 JSON {kind} 형식이 아니어서 건드리지 않았습니다.

agent.named_not_ours
    en  {path}: the entry named {name!r} is not tg-git's; it was left untouched.
    ko  {path}: {name!r} 항목은 tg-git의 것이 아니어서 건드리지 않았습니다.

agent.not_toml
    en  {path} is not valid TOML ({why}); it was left untouched.
    ko  {path}: 올바른 TOML이 아니어서({why}) 건드리지 않았습니다.

agent.hooks_added
    en  {path}: hooks {events}{note}
    ko  {path}: 훅 {events}{note}

agent.already
    en  {path}: already installed{note}
    ko  {path}: 이미 설치됨{note}

agent.restored
    en  {path}: restored as it was
    ko  {path}: 원래대로 복원됨

agent.not_there
    en  {path}: not there
    ko  {path}: 없음

agent.removed_created
    en  {path}: removed (tg-git had created it)
    ko  {path}: 삭제됨 (tg-git이 만든 파일)

agent.hooks_removed
    en  {path}: tg-git's hooks removed
    ko  {path}: tg-git 훅 제거됨

agent.no_ours
    en  {path}: no tg-git hooks
    ko  {path}: tg-git 훅 없음

agent.gemini_off
    en  hooksConfig.enabled is false: Gemini CLI runs no hooks until it is true
    ko  hooksConfig.enabled가 false입니다: true가 될 때까지 Gemini CLI는 훅을 실행하지 않습니다

agent.codex_toml_hooks
    en  config.toml beside it has [hooks] too: Codex loads both and warns
    ko  옆의 config.toml에도 [hooks]가 있습니다: Codex는 둘 다 읽고 경고합니다

agent.codex_restored
    en  {path}: {key} restored
    ko  {path}: {key} 복원됨

skill.written
    en  {path}: written
    ko  {path}: 작성됨

skill.up_to_date
    en  {path}: up to date
    ko  {path}: 최신

skill.updated
    en  {path}: updated
    ko  {path}: 갱신됨

skill.removed
    en  {path}: removed
    ko  {path}: 삭제됨

skill.block_removed
    en  {path}: tg-git's block removed
    ko  {path}: tg-git 블록 제거됨

skill.no_block
    en  {path}: no tg-git block
    ko  {path}: tg-git 블록 없음

agent.list_line
    en  {agent:<12} hooks: repo {repo}, user {user} · events {events}{extra}{how} · skill {skills} · last import {last} ({n} transcript(s))
    ko  {agent:<12} 훅: 저장소 {repo}, 사용자 {user} · 이벤트 {events}{extra}{how} · 스킬 {skills} · 마지막 가져오기 {last} (대화 기록 {n}개)

agent.list_how
    en  " · blocks via {channel} · measured by {measures}"
    ko  " · 차단 방식 `{channel}` · 측정 `{measures}`"

agent.list_status_line
    en  " · status line"
    ko  " · 상태 줄"

agent.list_aligned
    en  " · compaction at {value}"
    ko  " · 압축 기준 {value}"

agent.list_never
    en  never
    ko  없음

agent.list_unreadable
    en  {path} unreadable
    ko  {path} 읽을 수 없음

agent.measures.claude
    en  status line; transcript
    ko  상태 줄, 대화 기록

agent.measures.codex
    en  rollout token_count
    ko  rollout의 token_count

agent.measures.gemini
    en  AfterModel usageMetadata; chat log
    ko  AfterModel의 usageMetadata, 대화 기록

agent.measures.antigravity
    en  its status-line JSON; else estimates
    ko  상태 줄 JSON, 없으면 추정

agent.measures.cursor
    en  preCompact context_tokens
    ko  preCompact의 context_tokens

agent.measures.copilot
    en  session events (usage records), once a run ends
    ko  세션 이벤트(usage 기록), 실행이 끝난 뒤

agent.measures.opencode
    en  message.updated tokens; its database
    ko  message.updated의 토큰, 자체 데이터베이스

init_keeps_session
    en  tg-git: session {id} keeps its budget of {max:,} tokens; the new one applies from the next session (`tg-git session start`, or `tg-git init --new-session` now).
    ko  tg-git: {id} 세션은 기존 예산 {max:,} 토큰을 유지합니다. 새 값은 다음 세션부터 적용됩니다(`tg-git session start`, 지금 바로는 `tg-git init --new-session`).

recounted_late
    en  tg-git: commit {commit} had passed uncounted; its {n:,} tokens are counted in this one.
    ko  tg-git: 집계되지 않고 통과했던 커밋 {commit}의 {n:,} 토큰을 이번 커밋에 집계합니다.

recounted
    en  tg-git: counted {commit} ({n:,} tokens) in the ledger.
    ko  tg-git: {commit}({n:,} 토큰)을 원장에 집계했습니다.

accepted_committed
    en  tg-git: committed the ledger ({path}) alone; your staged changes stay staged.
    ko  tg-git: 원장({path})만 커밋했습니다. 스테이징한 변경 사항은 그대로 남아 있습니다.

accepted_staged
    en  tg-git: the ledger ({path}) could not be committed now (the halt?); it is staged for your next commit.
    ko  tg-git: 지금은 원장({path})을 커밋할 수 없어(중단 단계?) 다음 커밋에 들어가도록 스테이징해 두었습니다.

accepted_nothing
    en  tg-git: those commits are counted already; nothing to record.
    ko  tg-git: 그 커밋들은 이미 집계되어 있습니다. 기록할 것이 없습니다.

verify_accept_hint
    en  tg-git: to accept them as they are, counted in the ledger: `{command}`.
    ko  tg-git: 지금 상태 그대로 받아들여 원장에 집계하려면: `{command}`.

install_not_init
    en  tg-git: not set up in this repository yet, so commits are not counted: run `tg-git init` (then commit .tg-git/ and .gitattributes).
    ko  tg-git: 이 저장소는 아직 설정되지 않아 커밋이 집계되지 않습니다. `tg-git init`을 실행하세요(그다음 .tg-git/와 .gitattributes를 커밋).

hook_not_init
    en  tg-git: not set up in this repository, so this commit is not counted; run `tg-git init`.
    ko  tg-git: 이 저장소는 설정되지 않아 이 커밋은 집계되지 않습니다. `tg-git init`을 실행하세요.

install_framework_runs
    en  tg-git: the pre-commit framework runs tg-git at {hooks} here (.pre-commit-config.yaml), so no native copy is installed there: each commit counts once.
    ko  tg-git: 여기서는 pre-commit 프레임워크가 {hooks} 단계에서 tg-git을 실행하므로(.pre-commit-config.yaml) 그곳에는 네이티브 훅을 설치하지 않습니다. 커밋마다 한 번만 집계합니다.

hook_twice
    en  tg-git: installed twice here (native hooks and the pre-commit framework); only the framework's counts: run `tg-git install` once to remove the native copies.
    ko  tg-git: 여기에 두 번 설치되어 있습니다(네이티브 훅과 pre-commit 프레임워크). 프레임워크 쪽만 집계합니다. `tg-git install`을 한 번 실행해 네이티브 사본을 없애세요.

framework_wrote
    en  tg-git: added tg-git's `repo: local` hooks to {path} (your lines are unchanged).
    ko  tg-git: {path}에 tg-git의 `repo: local` 훅을 추가했습니다(기존 줄은 그대로입니다).

framework_listed
    en  tg-git: {path} lists tg-git's hooks already; it was not changed.
    ko  tg-git: {path}에 tg-git 훅이 이미 있어 바꾸지 않았습니다.

framework_not_a_file
    en  {path} is not a regular file (a link or a folder); add the block of `tg-git install --pre-commit` to the real file yourself.
    ko  {path}: 일반 파일이 아닙니다(링크나 폴더). `tg-git install --pre-commit`이 출력하는 블록을 실제 파일에 직접 추가하세요.

framework_not_appendable
    en  {path} has no block-style top-level `repos:` list that tg-git can append to safely, so it was not changed; paste the block printed above under `repos:` yourself.
    ko  {path}에 tg-git이 안전하게 덧붙일 수 있는 블록 형식의 최상위 `repos:` 목록이 없어 바꾸지 않았습니다. 위에 출력된 블록을 `repos:` 아래에 직접 붙여 넣으세요.

framework_removed_native
    en  tg-git: removed tg-git's native {hooks} hooks: the framework runs tg-git now.
    ko  tg-git: tg-git의 네이티브 훅({hooks})을 제거했습니다. 이제 프레임워크가 tg-git을 실행합니다.

framework_next
    en  tg-git: next, commit .pre-commit-config.yaml and run `{command}`.
    ko  tg-git: 이제 .pre-commit-config.yaml을 커밋하고 이 명령을 실행하세요: `{command}`.

brief.agent_files
    en  **tg-git's agent wiring, not committed** (not your work in progress; commit it to give everyone who clones the same hooks, or list it in .git/info/exclude to keep it yours): {files}
    ko  **커밋되지 않은 tg-git 에이전트 설정** (진행 중인 작업이 아닙니다. 클론하는 모두에게 같은 훅을 주려면 커밋하고, 혼자 쓰려면 .git/info/exclude에 적으세요): {files}

doctor.twice
    en  installed twice
    ko  이중 설치

doctor_twice
    en  tg-git runs twice at {hooks} (native hooks and the pre-commit framework); only one copy counts
    ko  {hooks} 단계에서 tg-git이 두 번 실행됩니다(네이티브 훅과 pre-commit 프레임워크). 한쪽만 집계됩니다

doctor_twice_fix
    en  run `tg-git install` (it removes the native copies the framework runs).
    ko  `tg-git install`을 실행하세요(프레임워크가 실행하는 네이티브 사본을 없앱니다).

accept_subject
    en  tg-git: count {commits} (passed uncounted)
    ko  tg-git: {commits} 집계 (집계되지 않고 통과했던 커밋)

earlier_row_one
    en  Output 1: earlier commit
    ko  출력 1: 이전 커밋

# ---- the agent hook's own lines (tg_git/agents/hook.py)

agent.gauge
    en  tg-git 🔋 ~{used:,}/{max:,} tokens ({pct:.0f}%) · {level} · {source}
    ko  tg-git 🔋 ~{used:,}/{max:,} 토큰 ({pct:.0f}%) · {level} · {source}

agent.started
    en  tg-git: a new session started with a budget of {max:,} tokens.
    ko  tg-git: 예산 {max:,} 토큰으로 새 세션을 시작했습니다.

agent.skill
    en  Follow the token-guard skill: read `tg-git status --json` before big steps.
    ko  token-guard 스킬을 따르세요: 큰 작업 전에는 `tg-git status --json`을 확인하세요.

agent.saved
    en  tg-git: saved {tag}
    ko  tg-git: 체크포인트를 저장했습니다: {tag}

agent.save_waits
    en  tg-git: the checkpoint is saved once the merge, pick, revert or rebase under way is finished.
    ko  tg-git: 진행 중인 병합·체리픽·되돌리기·리베이스가 끝나면 체크포인트를 저장합니다.

agent.not_saved
    en  tg-git: the checkpoint was not saved ({error}).
    ko  tg-git: 체크포인트를 저장하지 못했습니다 ({error}).

agent.not_blocked
    en  tg-git: {error} (the agent was not blocked)
    ko  tg-git: {error} (에이전트는 막지 않았습니다)

agent.out_of_time
    en  tg-git: the {agent} hook stopped after {seconds} s without an answer (the agent was not blocked); if it happens again, run `tg-git doctor`.
    ko  tg-git: {agent} 훅이 {seconds}초 동안 끝나지 않아 멈췄습니다(에이전트는 막지 않았습니다). 다시 일어나면 `tg-git doctor`를 실행하세요.

agent.internal_error
    en  tg-git: internal error in the {agent} hook ({error}); the agent was not blocked; please report it.
    ko  tg-git: {agent} 훅 내부 오류({error}). 에이전트는 막지 않았습니다. 이 오류를 알려 주세요.

agent.usage_not_imported
    en  tg-git: usage not imported: {error}
    ko  tg-git: 사용량을 가져오지 못했습니다: {error}

agent.hook_usage
    en  tg-git: usage: tg-git hook agent claude|codex|gemini|antigravity|cursor|copilot EVENT (the agent's event name, e.g. SessionStart).
    ko  tg-git: 사용법: tg-git hook agent claude|codex|gemini|antigravity|cursor|copilot 이벤트 (에이전트의 이벤트 이름, 예: SessionStart).
"""
