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
