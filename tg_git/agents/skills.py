"""The token-guard skill: the seed's procedure in tg-git commands, as a SKILL.md where each
agent looks (``.claude/skills/token-guard/`` for Claude Code, ``.agents/skills/token-guard/``
for Codex, Gemini CLI and Antigravity, ``.cursor/skills/`` for Cursor, ``.github/skills/`` for
Copilot CLI). tg-git owns only the text between its markers: a
re-install updates that block and keeps everything a user wrote around it."""

from __future__ import annotations

import re
from pathlib import Path

from tg_git.agents.settings import prune, read_text, user_file
from tg_git.text import messages

NAME = "token-guard"
BEGIN = "<!-- tg-git:begin (tg-git agent install rewrites this block; edit outside it) -->"
END = "<!-- tg-git:end -->"
FOLDERS = {"claude": ".claude/skills", "codex": ".agents/skills", "gemini": ".agents/skills",
           "antigravity": ".agents/skills", "cursor": ".cursor/skills",
           "copilot": ".github/skills"}  # fmt: skip
USER_FOLDERS = {"copilot": ".copilot/skills"}  # where the user's own folder differs
DESCRIPTION = {
    "en": "Token Guard: keep this session inside its token budget with tg-git. Use at the start "
    "of a session, before large or multi-step tasks, when a tg-git warning or halt appears, and "
    'when the user says "continue", "resume" or "checkpoint". Declares tasks and stopping '
    "points, reads the gauge, saves checkpoints and resumes from them.",
    "ko": "토큰 가드: tg-git으로 이 세션을 토큰 예산 안에 유지합니다. 세션 시작, 큰 작업이나 "
    '여러 단계 작업 전, tg-git 경고나 중단이 나타날 때, 사용자가 "이어서 해줘", "resume", '
    '"체크포인트"라고 말할 때 사용합니다. 작업과 중단 지점을 선언하고, 게이지를 읽고, '
    "체크포인트를 저장하고 그로부터 재개합니다.",
}
BODY = {
    "en": """# Token Guard (tg-git)

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
""",
    "ko": """# 토큰 가드 (tg-git)

tg-git은 이 세션의 토큰 예산을 저장소 안에서 관리합니다. git 훅이 커밋마다 토큰을 세고,
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
- 끝난 작업은 작게 커밋합니다. 훅이 커밋마다 게이지를 보여줍니다.
- 에이전트 로그가 없으면 큰 입력은 직접 기록합니다: `tg-git record --input-file 파일`.
- `tg-git usage import`는 최신 측정 사용량을 가져오고, `tg-git usage --json`은 사용량을 보여줍니다.

## 단계
| 단계 | 기준 | 할 일 |
|---|---|---|
| ok | < 80 % | 평소대로 작업 |
| warning | >= 80 % | 남은 토큰으로 완료 가능한 작업만 처리; 중단 지점을 최신으로 유지 |
| force-save | >= 90 % | 턴이 끝날 때 체크포인트가 저장됩니다 (또는 `tg-git checkpoint -m "..."`); 마무리 |
| halt | >= 95 % | 즉시 중단: 프롬프트나 커밋이 거부됩니다; 사용자에게 새 세션을 시작하라고 알립니다 |

## 재개
새 에이전트 세션은 새 tg-git 세션을 시작하고 브리핑을 전달합니다. 직접 하려면:
`tg-git resume --json` (체크포인트 없이 새 예산만 원하면 `tg-git session start`).
""",
}


def path(agent: str, root: Path) -> Path:
    return root / FOLDERS[agent] / NAME / "SKILL.md"


def user_path(agent: str, home: Path) -> Path:
    """The user's own skill folder: Claude Code's config dir (``$CLAUDE_CONFIG_DIR`` or
    ``~/.claude``), ``~/.copilot/skills`` for Copilot CLI, the repository's folder name under
    ``~`` for the others."""
    if agent == "claude":
        return user_file("claude").parent / "skills" / NAME / "SKILL.md"
    return home / USER_FOLDERS.get(agent, FOLDERS[agent]) / NAME / "SKILL.md"


def front_matter(language: str) -> str:
    description = DESCRIPTION[language].replace('"', '\\"')
    return f'---\nname: {NAME}\ndescription: "{description}"\n---\n'


def block(language: str) -> str:
    return f"{BEGIN}\n{BODY[language]}{END}\n"


# A block holds no other begin marker: a begin whose end a user deleted stays their text,
# and the next block is never stretched back over what they wrote after it.
_BLOCK = re.compile(
    re.escape(BEGIN) + r"(?:(?!" + re.escape(BEGIN) + r").)*?" + re.escape(END) + r"\n?", re.S
)


def write(target: Path, language: str) -> str:
    """Create the skill, or update tg-git's block in it; returns what happened."""
    current = read_text(target, language)
    if current is None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(front_matter(language) + "\n" + block(language), encoding="utf-8")
        return messages.text(language, "skill.written", path=target)
    on_disk = current
    for other in DESCRIPTION:  # tg-git's own front matter in another language follows the config
        if other != language and current.startswith(front_matter(other)):
            current = front_matter(language) + current[len(front_matter(other)) :]
    if _BLOCK.search(current):
        new = _BLOCK.sub(lambda _m: block(language), current, count=1)
    else:
        sep = "" if current.endswith("\n") else "\n"
        new = f"{current}{sep}\n{block(language)}"
    if new == on_disk:
        return messages.text(language, "skill.up_to_date", path=target)
    target.write_text(new, encoding="utf-8")
    return messages.text(language, "skill.updated", path=target)


def remove(target: Path, stop: Path | None = None, language: str = "en") -> str:
    """Take tg-git's block out; a file left with nothing else goes, with the folders it
    leaves empty up to ``stop`` (default: the skills folder's parent)."""
    current = read_text(target, language)
    if current is None:
        return messages.text(language, "agent.not_there", path=target)
    rest = _BLOCK.sub("", current)
    if rest == current:
        return messages.text(language, "skill.no_block", path=target)
    if rest.strip() in (front_matter("en").strip(), front_matter("ko").strip(), ""):
        target.unlink()
        prune(target.parent, stop or target.parents[2])
        return messages.text(language, "skill.removed", path=target)
    target.write_text(rest.rstrip("\n") + "\n", encoding="utf-8")
    return messages.text(language, "skill.block_removed", path=target)
