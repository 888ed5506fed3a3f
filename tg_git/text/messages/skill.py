"""The token-guard skill that `tg-git agent install` writes (SKILL.md: its description and
the block tg-git owns), in each language.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- the skill (tg_git/agents/skills.py)

skill.description
    en  Token Guard: keep this session inside its token budget with tg-git. Use at the start of a session, before large or multi-step tasks, when a tg-git warning or halt appears, and when the user says "continue", "resume" or "checkpoint". Declares tasks and stopping points, reads the gauge, saves checkpoints and resumes from them.
    ko  토큰 가드: tg-git으로 이 세션을 토큰 예산 안에 유지합니다. 세션 시작, 큰 작업이나 여러 단계 작업 전, tg-git 경고나 중단이 나타날 때, 사용자가 "이어서 해줘", "resume", "체크포인트"라고 말할 때 사용합니다. 작업과 중단 지점을 선언하고, 게이지를 읽고, 체크포인트를 저장하고 그로부터 재개합니다.

skill.body
    en  # Token Guard (tg-git)

        tg-git keeps this session's token budget in the repository: git hooks count every commit,
        this agent's own hooks import the real usage from its logs, and the levels below act on it.

        ## At the start of a session
        1. If the context holds a "Session resumed" briefing, continue from it: the first next step,
           then the in-progress items from their stopping points. Do not redo completed files.
        2. Otherwise, if the user asks to continue, run `tg-git resume --json` and do the same.
        3. Declare the plan: `tg-git task add "TITLE"` for each piece of work.

        ## While working
        - Before a large step, read `tg-git status --json`: `used`, `max_tokens`, `percent`, `level`,
          `source` (measured from the agent's logs, estimated, or mixed).
        - When you start a task: `tg-git task start "TITLE" --at "where it stands"`; when blocked:
          `tg-git task block "TITLE" --why "..."`; when done: `tg-git task done "TITLE"`.
        - Record what the next session must know: `tg-git note "..."`, and the next action:
          `tg-git next "..."`.
        - Commit finished work in small commits; the hook prints the gauge after each one.
        - Without agent logs, record large inputs yourself: `tg-git record --input-file FILE`.
        - `tg-git usage import` pulls the newest measured usage; `tg-git usage --json` shows spend.

        ## Levels
        | level | at | what to do |
        |---|---|---|
        | ok | < 80 % | work normally |
        | warning | >= 80 % | finish only what the remaining budget can complete; keep the stopping points current |
        | force-save | >= 90 % | a checkpoint is saved at the end of the turn (or run `tg-git checkpoint -m "..."`); wrap up |
        | halt | >= 95 % | stop: the prompt or commit is refused; tell the user to start a new session |

        ## Resuming
        A new agent session starts a new tg-git session and hands you the briefing. By hand:
        `tg-git resume --json` (or `tg-git session start` for a fresh budget without a checkpoint).
    ko  # 토큰 가드 (tg-git)

        tg-git은 이 세션의 토큰 예산을 저장소 안에서 관리합니다. git 훅이 커밋마다 토큰을 집계하고,
        이 에이전트의 훅이 로그에서 실제 사용량을 가져오며, 아래 단계에 따라 동작합니다.

        ## 세션 시작 시
        1. 컨텍스트에 "세션 재개" 브리핑이 있으면 그대로 이어서 합니다: 다음 단계의 첫 항목, 그다음
           진행 중 항목을 중단 지점부터. 완료된 파일은 건드리지 않습니다.
        2. 없으면, 사용자가 "이어서 해줘"라고 할 때 `tg-git resume --json`을 실행하고 같은 방식으로 합니다.
        3. 계획을 선언합니다: 작업마다 `tg-git task add "제목"`.

        ## 작업 중
        - 큰 단계 전에 `tg-git status --json`을 읽습니다: `used`, `max_tokens`, `percent`, `level`,
          `source` (에이전트 로그에서 측정 / 추정 / 혼합).
        - 작업 시작: `tg-git task start "제목" --at "현재 상태"`; 막힘: `tg-git task block "제목" --why "..."`;
          완료: `tg-git task done "제목"`.
        - 다음 세션이 알아야 할 것: `tg-git note "..."`, 다음 행동: `tg-git next "..."`.
        - 끝난 작업은 작게 커밋합니다. 훅이 커밋마다 게이지를 보여 줍니다.
        - 에이전트 로그가 없으면 큰 입력은 직접 기록합니다: `tg-git record --input-file 파일`.
        - `tg-git usage import`는 최신 측정 사용량을 가져오고, `tg-git usage --json`은 사용량을 보여 줍니다.

        ## 단계
        | 단계 | 기준 | 할 일 |
        |---|---|---|
        | 정상 (`ok`) | < 80 % | 평소대로 작업 |
        | 경고 (`warning`) | >= 80 % | 남은 토큰으로 완료 가능한 작업만 처리; 중단 지점을 최신으로 유지 |
        | 강제 저장 (`force-save`) | >= 90 % | 턴이 끝날 때 체크포인트가 저장됩니다 (또는 `tg-git checkpoint -m "..."`); 마무리 |
        | 중단 (`halt`) | >= 95 % | 즉시 중단: 프롬프트나 커밋이 거부됩니다; 사용자에게 새 세션을 시작하라고 알립니다 |

        ## 재개
        새 에이전트 세션은 새 tg-git 세션을 시작하고 브리핑을 전달합니다. 직접 하려면:
        `tg-git resume --json` (체크포인트 없이 새 예산만 원하면 `tg-git session start`).
"""
