"""The HTML report (`tg-git report`).

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- report

report_no_session
    en  no session {id!r} in the ledger; `tg-git report --json` lists them.
    ko  원장에 없는 세션입니다: {id!r}. `tg-git report --json`이 세션 목록을 보여 줍니다.

report_unwritable
    en  cannot write {path} ({error}); {fix}, or choose another file with -o.
    ko  {path}: 쓸 수 없습니다 ({error}). {fix}. 또는 -o로 다른 파일을 고르세요.

# ---- a range's receipt, the CI gate and the metrics (tg_git/report/range.py, receipt.py, metrics.py)

range_malformed
    en  {spec!r} is not a range; give two revisions as A..B (or one revision for everything it reaches).
    ko  {spec!r}: 범위가 아닙니다. 리비전 두 개를 A..B로 (또는 리비전 하나로 그것이 닿는 전부를) 주세요.

range_unknown
    en  {rev!r} of the range {spec!r} names no commit in this clone; fetch it (`git fetch origin {rev}`, or `git fetch --deepen=50` in a shallow clone) and run again.
    ko  범위 {spec!r}의 {rev!r}: 이 클론에 없는 커밋입니다. 가져온 뒤(`git fetch origin {rev}`, 얕은 클론이면 `git fetch --deepen=50`) 다시 실행하세요.

range_shallow
    en  the range {spec} reaches this shallow clone's boundary at {commit} ({n} commit(s) whose parents are not here); `git fetch --deepen=50` (or `git fetch --unshallow`) and run again.
    ko  범위 {spec}: 이 얕은 클론의 경계 {commit}에 닿습니다(부모 커밋이 여기 없는 커밋 {n}개). `git fetch --deepen=50`(또는 `git fetch --unshallow`) 후 다시 실행하세요.

range_limit_alone
    en  --max-tokens and --max-usd limit a range: give it with --range A..B.
    ko  --max-tokens와 --max-usd는 범위의 한도입니다. --range A..B와 함께 주세요.

receipt.title
    en  ### tg-git · {project} · {range} · {tokens:,} tokens · {usd}
    ko  ### tg-git · {project} · {range} · {tokens:,} 토큰 · {usd}

receipt.summary
    en  {commits} commit(s) · {sessions} session(s) · estimated {estimated:,} (input {input:,}, output {output:,}) · measured {measured:,} ({requests:,} requests)
    ko  커밋 {commits}개 · 세션 {sessions}개 · 추정 {estimated:,} (입력 {input:,}, 출력 {output:,}) · 측정 {measured:,} (요청 {requests:,}회)

receipt.sessions
    en  | session | counted by | tokens | estimated input | estimated output | fresh input | cache write | cache read | output | USD |
    ko  | 세션 | 기준 | 토큰 | 추정 입력 | 추정 출력 | 새 입력 | 캐시 쓰기 | 캐시 읽기 | 출력 | USD |

receipt.agents
    en  | agent | model | requests | tokens | USD |
    ko  | 에이전트 | 모델 | 요청 | 토큰 | USD |

receipt.authors
    en  | author | commits | tokens | USD |
    ko  | 작성자 | 커밋 | 토큰 | USD |

receipt.commits
    en  | commit | author | tokens | USD |
    ko  | 커밋 | 작성자 | 토큰 | USD |

receipt.no_price
    en  no price
    ko  가격 없음

receipt.saves
    en  Saves ({n}): {saves}
    ko  저장 {n}개: {saves}

receipt.halt_override
    en  Halt: {commit} was committed past the halt (session {session}).
    ko  중단: {commit} 커밋은 중단 단계를 넘겨 만들어졌습니다 (세션 {session}).

receipt.halt_save
    en  Halt: the save at {commit} was made at the halt (session {session}).
    ko  중단: {commit}의 저장은 중단 단계에서 이루어졌습니다 (세션 {session}).

receipt.gate_over
    en  tg-git: {range} spent {tokens:,} tokens ({usd}) in {commits} commit(s), over the limit ({limits}); `tg-git report --range {range} --format markdown` shows by whom and on what.
    ko  tg-git: 범위 {range}: 커밋 {commits}개에서 토큰 {tokens:,}개({usd})를 써서 한도({limits})를 넘었습니다. 누가 무엇에 썼는지는 다음 명령으로 볼 수 있습니다: `tg-git report --range {range} --format markdown`

receipt.gate_within
    en  tg-git: {range} spent {tokens:,} tokens ({usd}) in {commits} commit(s), within the limit ({limits}).
    ko  tg-git: 범위 {range}: 커밋 {commits}개에서 토큰 {tokens:,}개({usd})를 썼고 한도({limits}) 안입니다.

receipt.limit_tokens
    en  {n:,} tokens
    ko  토큰 {n:,}개

receipt.no_limit
    en  none set
    ko  설정 없음

metrics_bad_url
    en  {url!r} is not an http(s) address; give one like http://127.0.0.1:9091.
    ko  {url!r}: http(s) 주소가 아닙니다. http://127.0.0.1:9091 같은 주소를 주세요.

metrics_unsent
    en  could not send the metrics to {url} ({error}); check the address and that the server is running.
    ko  지표를 {url}에 보내지 못했습니다 ({error}). 주소와 서버가 실행 중인지 확인하세요.

metrics_not_blocked
    en  the commit is made; the metrics go with the next one
    ko  커밋은 되었습니다. 지표는 다음 커밋 때 보냅니다

metrics_sent
    en  tg-git: sent {n} series to {url}.
    ko  tg-git: 시계열 {n}개를 {url}에 보냈습니다.

metrics_hook_on
    en  tg-git: this clone now sends the metrics after every commit, where the config's [export] says; `tg-git metrics --hook off` stops it.
    ko  tg-git: 이제 이 클론은 커밋할 때마다 설정의 [export]가 가리키는 곳으로 지표를 보냅니다. 멈추려면 `tg-git metrics --hook off`를 실행하세요.

metrics_hook_off
    en  tg-git: this clone no longer sends the metrics after commits.
    ko  tg-git: 이제 이 클론은 커밋 뒤에 지표를 보내지 않습니다.

# ---- the HTML report's page (tg_git/report/)

report.title
    en  tg-git report
    ko  tg-git 보고서

report.generated
    en  generated {at} · ledger events: {events:,} · sessions: {sessions} · tg-git {version}
    ko  생성 {at} · 원장 이벤트 {events:,}개 · 세션 {sessions}개 · tg-git {version}

report.session
    en  Session
    ko  세션

report.current
    en  current
    ko  현재

report.used
    en  used
    ko  사용

report.max_tokens
    en  budget
    ko  예산

report.percent
    en  percent
    ko  비율

report.level
    en  level
    ko  단계

report.input
    en  input
    ko  입력

report.output
    en  output
    ko  출력

report.commits
    en  commits
    ko  커밋

report.inputs
    en  inputs recorded
    ko  기록된 입력

report.overrides
    en  overrides
    ko  강제 커밋

report.checkpoints
    en  checkpoints
    ko  체크포인트

report.started
    en  started
    ko  시작

report.burn_title
    en  Burn-down: tokens used
    ko  소진 추이: 사용한 토큰

report.burn_label
    en  cumulative tokens used in session {id}, against the 80/90/95 % levels
    ko  세션 {id}의 누적 사용 토큰과 80/90/95 % 단계

report.estimated
    en  estimated
    ko  추정

report.measured
    en  measured (agent logs)
    ko  측정 (에이전트 로그)

report.budget_line
    en  budget
    ko  예산

report.override
    en  override: committed past the halt
    ko  강제 커밋: 중단 단계를 넘어 커밋함

report.checkpoint
    en  checkpoint
    ko  체크포인트

report.axis
    en  commits and inputs →
    ko  커밋과 입력 →

report.io_title
    en  Input vs output
    ko  입력 대 출력

report.tasks_title
    en  Tokens per task
    ko  작업별 토큰

report.task
    en  task
    ko  작업

report.status
    en  status
    ko  상태

report.stopping_point
    en  stopping point
    ko  중단 지점

report.tokens
    en  tokens
    ko  토큰

report.no_task
    en  (no task in progress)
    ko  (진행 중인 작업 없음)

report.commits_title
    en  Costliest commits
    ko  비용이 큰 커밋

report.subject
    en  subject
    ko  제목

report.paths
    en  first file
    ko  첫 파일

report.files
    en  files
    ko  파일 수

report.when
    en  when
    ko  시각

report.commit
    en  commit
    ko  커밋

report.not_found
    en  not found in history
    ko  히스토리에서 찾지 못함

report.files_title
    en  Costliest files
    ko  비용이 큰 파일

report.path
    en  path
    ko  경로

report.files_note
    en  Single-file commits from the ledger; {n} multi-file commits re-estimated from history; {u:,} tokens of other commits are not split by file.
    ko  단일 파일 커밋은 원장에서 가져왔고, 여러 파일 커밋 {n}개는 히스토리에서 다시 추정했습니다. 나머지 커밋의 {u:,} 토큰은 파일별로 나누지 않았습니다.

report.sessions_title
    en  Sessions by branch
    ko  브랜치별 세션

report.sessions_note
    en  Each branch's committed ledger at its head (the current branch: with the events recorded since, as `tg-git status` counts them); bars are input + output against each session's budget.
    ko  각 브랜치 끝 커밋의 원장 (현재 브랜치는 `tg-git status`처럼 그 뒤에 기록된 이벤트 포함). 막대는 세션 예산 대비 입력 + 출력입니다.

report.branch
    en  branch
    ko  브랜치

report.totals
    en  totals
    ko  합계

report.ledger_error
    en  ledger unreadable
    ko  원장을 읽을 수 없음

report.no_ledger
    en  no ledger on this branch
    ko  이 브랜치에는 원장이 없음

report.no_checkpoints
    en  no checkpoints in this session
    ko  이 세션에는 체크포인트가 없음

report.footer
    en  Token figures are offline estimates (profile {profile}) unless marked measured. Numbers: `tg-git report --json`.
    ko  토큰 수치는 측정으로 표시된 것 외에는 오프라인 추정치입니다 (프로필 {profile}). 수치: `tg-git report --json`.
"""
