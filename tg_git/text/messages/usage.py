"""Measured usage: `tg-git usage`, its import notes, the gauge's source.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- what status and `tg-git usage` show of measured usage (tg_git/usage/view.py)

usage.line
    en  Source: {source}{measured} · spent {spend:,} tokens in {requests:,} requests (fresh input {fresh_input:,}, cache writes {cache_write:,}, cache reads {cache_read:,}, output {output:,})
    ko  출처: {source}{measured} · 사용 {spend:,} 토큰, 요청 {requests:,}회 (새 입력 {fresh_input:,}, 캐시 쓰기 {cache_write:,}, 캐시 읽기 {cache_read:,}, 출력 {output:,})

usage.measured
    en  " (newest measurement {at}, {model}{window})"
    ko  " (최근 측정 {at}, {model}{window})"

usage.window
    en  , window {window:,}
    ko  , 창 {window:,}

usage.head
    en  | Model | Requests | Fresh input | Cache writes | Cache reads | Output | Total |
    ko  | 모델 | 요청 | 새 입력 | 캐시 쓰기 | 캐시 읽기 | 출력 | 합계 |

usage.turns
    en  Turns (newest last):
    ko  턴 (최근이 마지막):

usage.none
    en  No measured usage in this session yet; run `tg-git usage import`.
    ko  이 세션에는 아직 측정된 사용량이 없습니다. `tg-git usage import`를 실행하세요.

usage.turn
    en  - {at} {agent}/{model}: {requests} req, {total:,} tokens{fill}
    ko  - {at} {agent}/{model}: 요청 {requests}회, {total:,} 토큰{fill}

usage.fill
    en  " · fill {fill:,}"
    ko  " · 컨텍스트 {fill:,}"

usage.imported
    en  tg-git: imported {requests:,} requests ({tokens:,} tokens) from {transcripts} transcript(s); session at {used:,}/{max:,} ({source}).
    ko  tg-git: 대화 기록 {transcripts}개에서 요청 {requests:,}회, {tokens:,} 토큰을 가져왔습니다. 세션: {used:,}/{max:,} ({source}).

usage.nothing
    en  tg-git: no new usage to import.
    ko  tg-git: 새로 가져올 사용량이 없습니다.

usage.estimated
    en  estimated
    ko  추정

usage.measured_source
    en  measured
    ko  측정

usage.mixed
    en  mixed
    ko  혼합

# ---- the importer's notes on transcripts (tg_git/usage/importer.py)

usage.no_session
    en  no tg-git session has started here; run `tg-git session start`.
    ko  여기서 시작된 tg-git 세션이 없습니다. `tg-git session start`를 실행하세요.

usage.unknown_agent
    en  unknown agent {agent!r}; use one of {agents}.
    ko  알 수 없는 에이전트 {agent!r}. 다음 중 하나를 쓰세요: {agents}.

usage.which_agent
    en  cannot tell which agent wrote {name}; name it with --agent.
    ko  {name}: 어느 에이전트의 기록인지 알 수 없습니다. --agent로 지정하세요.

usage.gone
    en  {name} is gone (deleted or rotated); skipped.
    ko  {name}: 없어졌습니다(삭제 또는 교체). 건너뜁니다.

usage.offset_unreadable
    en  the offset of {name} is unreadable; its lines so far are skipped.
    ko  {name}의 읽은 위치를 알 수 없어 지금까지의 줄은 건너뜁니다.

usage.truncated
    en  {name} was replaced or truncated since the last import; skipped up to its end.
    ko  {name}: 지난 가져오기 이후 교체되었거나 잘렸습니다. 끝까지 건너뜁니다.

usage.unreadable
    en  cannot read {name} ({error}); skipped.
    ko  {name}: 읽을 수 없습니다({error}). 건너뜁니다.

usage.bad_lines
    en  skipped {n} unreadable line(s) in {name}.
    ko  {name}에서 읽을 수 없는 줄 {n}개를 건너뛰었습니다.
"""
