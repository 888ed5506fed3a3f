"""``tg-git hook agent AGENT EVENT``: what an agent's hook runs, with the agent's JSON on stdin.

- session start: roll tg-git's session over when the agent starts a new conversation (or the
  old one hit the halt) and hand the resume briefing to the model; else a one-line gauge.
- prompt: import usage; >= warning adds the seed's warning to the model's context; at the
  halt the prompt is blocked (exit 2, the halt block on stderr) after a save.
- turn end: import usage; >= force-save saves a checkpoint (once per session and level).
- before compaction: save a ``pre-compact`` checkpoint (once per session).
Every agent reads the same channels (exit 2 + stderr blocks; ``hookSpecificOutput.
additionalContext`` adds context; ``systemMessage`` tells the user). A tool error prints one
line on stderr and exits 1, which no agent treats as a block; without tg-git set up in the
repository a hook does nothing.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tg_git.errors import TgGitError

if TYPE_CHECKING:
    from tg_git.ledger import Session
    from tg_git.workspace import Workspace

EVENTS = {
    "claude": {"SessionStart": "start", "UserPromptSubmit": "prompt", "Stop": "stop",
               "PreCompact": "compact"},
    "codex": {"SessionStart": "start", "UserPromptSubmit": "prompt", "Stop": "stop",
              "PreCompact": "compact"},
    "gemini": {"SessionStart": "start", "BeforeAgent": "prompt", "AfterAgent": "stop",
               "PreCompress": "compact"},
    "antigravity": {"SessionStart": "start", "UserPromptSubmit": "prompt", "Stop": "stop",
                    "PreCompact": "compact"},
}  # fmt: skip
MAX_STDIN = 4 << 20
BINDINGS = "tg-git/agents.json"  # agent -> the agent session the current tg-git session serves
TEXT = {
    "en": {
        "gauge": "tg-git 🔋 ~{used:,}/{max:,} tokens ({pct:.0f}%) · {level} · {source}",
        "started": "tg-git: a new session started with a budget of {max:,} tokens.",
        "skill": "Follow the token-guard skill: read `tg-git status --json` before big steps.",
        "blocked": "tg-git: this prompt was not sent: the session's token budget is spent. "
        "Start a new agent session (e.g. /clear), which starts a new tg-git session and "
        "briefs the model from the checkpoint; or run `tg-git session start`.",
        "saved": "tg-git: saved {tag}",
        "waits": "tg-git: the checkpoint is saved once the merge, pick, revert or rebase under "
        "way is finished.\n",
    },
    "ko": {
        "gauge": "tg-git 🔋 ~{used:,}/{max:,} 토큰 ({pct:.0f}%) · {level} · {source}",
        "started": "tg-git: 새 세션을 시작했습니다. 예산 {max:,} 토큰.",
        "skill": "token-guard 스킬을 따르세요: 큰 작업 전에 `tg-git status --json`을 확인합니다.",
        "blocked": "tg-git: 이 프롬프트는 전송되지 않았습니다: 세션의 토큰 예산이 소진되었습니다. "
        "새 에이전트 세션을 시작하면(예: /clear) 새 tg-git 세션이 시작되고 체크포인트에서 "
        "브리핑합니다. 또는 `tg-git session start`를 실행하세요.",
        "saved": "tg-git: 저장됨 {tag}",
        "waits": "tg-git: 진행 중인 병합·체리픽·되돌리기·리베이스가 끝나면 체크포인트를 저장합니다.\n",
    },
}


class Reply:
    """What the hook hands back: stdout JSON fields, stderr text and the exit code."""

    def __init__(self) -> None:
        self.fields: dict[str, Any] = {}
        self.stderr = ""
        self.code = 0

    def context(self, event: str, text: str) -> None:
        self.fields["hookSpecificOutput"] = {"hookEventName": event, "additionalContext": text}

    def message(self, text: str) -> None:
        previous = self.fields.get("systemMessage")
        self.fields["systemMessage"] = f"{previous}\n{text}" if previous else text

    def emit(self) -> int:
        if self.fields and self.code != 2:
            sys.stdout.write(json.dumps(self.fields, ensure_ascii=False) + "\n")
        if self.stderr:
            sys.stderr.write(self.stderr.rstrip("\n") + "\n")
        return self.code


def _payload() -> dict[str, Any]:
    if sys.stdin is None or sys.stdin.isatty():
        return {}
    raw = sys.stdin.buffer.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        return {}
    try:
        data = json.loads(raw.decode("utf-8", "replace")) if raw.strip() else {}
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _text(value: Any) -> str:
    return value if isinstance(value, str) and "\0" not in value and len(value) < 4096 else ""


def run_agent_hook(args: list[str]) -> int:
    agent = args[0] if args else ""
    if agent not in EVENTS or len(args) != 2:
        print(
            "tg-git: usage: tg-git hook agent claude|codex|gemini|antigravity EVENT "
            "(the agent's event name, e.g. SessionStart).",
            file=sys.stderr,
        )
        return 1
    try:
        payload = _payload()
        event = args[1]
        kind = EVENTS[agent].get(event)
        if kind is None:
            return 0  # an event tg-git does not handle: nothing to do
        return _handle(agent, event, kind, payload).emit()
    except TgGitError as exc:
        print(f"tg-git: {exc} (the agent was not blocked)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never break the agent on a bug
        print(
            f"tg-git: internal error in the {agent} hook ({type(exc).__name__}: {exc}); "
            "the agent was not blocked; please report it.",
            file=sys.stderr,
        )
        return 1


def _workspace(payload: dict[str, Any]) -> Workspace | None:
    from tg_git.errors import NotReady
    from tg_git.workspace import Workspace

    cwd = (
        _text(payload.get("cwd"))
        or os.environ.get("CLAUDE_PROJECT_DIR")
        or os.environ.get("GEMINI_PROJECT_DIR")
        or None
    )
    if cwd is not None and not Path(cwd).is_dir():
        cwd = None
    try:
        ws = Workspace.open(cwd, require_init=False)
    except NotReady:
        return None
    return ws if ws.initialised else None


def _handle(agent: str, event: str, kind: str, payload: dict[str, Any]) -> Reply:
    reply = Reply()
    ws = _workspace(payload)
    if ws is None:
        return reply  # no tg-git here: do nothing
    if kind == "start":
        from tg_git import journal

        with journal.locked(ws.repo, name=journal.SESSION_START):  # one start at a time
            _start(ws, agent, event, payload, reply)
        return reply
    session = _import(ws, agent, payload, reply)
    if session is None:
        return reply
    from tg_git.agents import bridge

    level = bridge.level(session, ws)
    texts = TEXT[ws.config.language]
    if kind == "prompt":
        if level == bridge.HALT:
            try:  # a failed save must not lift the halt: say so, and block all the same
                tag = bridge.save_at_level(ws, bridge.HALT)  # the save prints its own line
                failed = "" if tag or bridge.saved(ws, session, bridge.HALT) else texts["waits"]
            except TgGitError as exc:
                failed = f"tg-git: the checkpoint was not saved ({exc}).\n"
            reply.code = 2
            block = bridge.halt(ws, saved=not failed)
            reply.stderr += f"{block}\n{failed}{texts['blocked']}"
        elif level != bridge.OK:
            reply.context(event, bridge.warning(session, ws))
    elif kind == "stop":
        if level in (bridge.FORCE_SAVE, bridge.HALT):
            tag = bridge.save_at_level(ws, level)
            if tag:
                reply.message(texts["saved"].format(tag=tag))
    elif kind == "compact":
        tag = bridge.save_before_compaction(ws, session)
        if tag:
            reply.message(texts["saved"].format(tag=tag))
    return reply


def _import(ws: Workspace, agent: str, payload: dict[str, Any], reply: Reply) -> Session | None:
    """Import what the agent's transcript gained; the session after it."""
    state = ws.session_state()
    if agent == "antigravity":  # its transcripts carry no counts: estimates stay
        return state.session
    from tg_git.usage.importer import import_usage

    transcript = _text(payload.get("transcript_path"))
    agent_session = _text(payload.get("session_id"))
    try:
        if transcript and Path(transcript).suffix in (".jsonl", ".json"):
            if not os.path.lexists(transcript):
                return state.session  # not written yet
            outcome = import_usage(ws, agent=agent, transcript=transcript, state=state)
        else:
            outcome = import_usage(ws, agent=agent, agent_session=agent_session or None,
                                   state=state)  # fmt: skip
    except TgGitError as exc:
        reply.stderr += f"tg-git: usage not imported: {exc}\n"
        return state.session
    return outcome.session


def _bindings(ws: Workspace) -> dict[str, Any]:
    try:
        data = json.loads(ws.repo.git_path(BINDINGS).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _bind(ws: Workspace, agent: str, agent_session: str, tg_session: str) -> None:
    data = _bindings(ws)
    data[agent] = {"agent_session": agent_session, "session": tg_session}
    path = ws.repo.git_path(BINDINGS)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".agents.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def _start(ws: Workspace, agent: str, event: str, payload: dict[str, Any], reply: Reply) -> None:
    from tg_git.agents import bridge

    agent_session = _text(payload.get("session_id")) or _text(payload.get("conversationId"))
    source = _text(payload.get("source"))
    session = ws.session()
    bound = _bindings(ws).get(agent)
    bound = bound if isinstance(bound, dict) else {}
    serves_other = (
        session is not None
        and bound.get("session") == session.id
        and bound.get("agent_session") != agent_session
    )
    roll = (
        session is None
        or bridge.level(session, ws) == bridge.HALT
        or source == "clear"
        or (serves_other and source != "compact")
    )
    texts = TEXT[ws.config.language]
    parts = []
    if roll:
        _, briefing = bridge.new_session(ws)
        session = ws.session()
        if briefing:
            parts.append(briefing)
    assert session is not None
    _bind(ws, agent, agent_session, session.id)
    if roll:
        parts.append(texts["started"].format(max=session.max_tokens))
    parts.append(
        texts["gauge"].format(
            used=session.used, max=session.max_tokens, pct=session.percent,
            level=bridge.level(session, ws), source=session.source,
        )
    )  # fmt: skip
    if roll:
        parts.append(texts["skill"])
    reply.context(event, "\n".join(parts))
