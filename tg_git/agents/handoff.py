"""Hand-off from one agent to another (``tg-git resume --agent NAME``): a Claude Code session
that hit its limit continues in Codex, Gemini CLI, … in the same clone, from the same
checkpoint, with the integrity check as usual.

The checkpoint records which agent and model wrote it (``written_by``, schema 1.2). The
resume binds the new tg-git session to the next agent with a placeholder conversation id,
so that agent's own session-start hook (``SessionStart``; Antigravity's first
``PreInvocation``) sees a session that serves another conversation, takes it over and hands
the model the same briefing, integrity and the new session's budget included.

A plain ``tg-git resume`` names no agent: it leaves the briefing owed to this clone's next
session start, of whichever agent starts first (``owe``, ``take``): once, and only while the
resume's session is the current one and the resume is less than ``FRESH_FOR`` old. The last
resume decides: a plain one drops a hand-off's placeholders, a hand-off drops what is owed."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from tg_git.domain.checkpoint_text import writer_text
from tg_git.domain.errors import TgGitError
from tg_git.repo import bindings
from tg_git.text import messages

if TYPE_CHECKING:
    from tg_git.repo.workspace import Workspace

PLACEHOLDER = "tg-git-handoff"  # no agent's conversation id: the next start hook takes over
NAMES = {
    "claude": "Claude Code",
    "codex": "Codex CLI",
    "gemini": "Gemini CLI",
    "antigravity": "Antigravity",
    "cursor": "Cursor",
    "copilot": "GitHub Copilot CLI",
}
START = {
    "claude": "claude",
    "codex": "codex",
    "gemini": "gemini",
    "antigravity": "agy",
    "cursor": "cursor-agent",
    "copilot": "copilot",
}
FIRST_EVENT = {"antigravity": "PreInvocation"}  # the others brief at their session start
OWED = "owed_briefing"  # in the bindings: {session, from (the resume's --from), at (epoch s)}
FRESH_FOR = 12 * 3600  # a resume older than this briefed its reader only: a day on, it is stale


def prepare(ws: Workspace, agent: str, session_id: str) -> None:
    """Bind the new session to ``agent`` with a placeholder conversation, so the agent's
    next session start takes it over (and briefs the model) instead of keeping another's."""
    data = _without_handoffs(bindings.read(ws.repo))
    data[agent] = {"agent_session": PLACEHOLDER, "session": session_id, "brief": False}
    bindings.write(ws.repo, data)


def owe(ws: Workspace, session_id: str, from_tag: str | None) -> None:
    """After a plain resume: the next session start here, of any agent, briefs its model."""
    data = _without_handoffs(bindings.read(ws.repo))
    data[OWED] = {"session": session_id, "from": from_tag, "at": int(time.time())}
    bindings.write(ws.repo, data)


def take(ws: Workspace, session_id: str, brief: bool = True) -> str | None:
    """The briefing owed to this session start, taken (the first start takes it, due or not):
    None when nothing is owed, when ``session_id`` (the current session) is not the resume's,
    when the resume is ``FRESH_FOR`` old, or when ``brief`` is off (the start briefs anyway)."""
    data = bindings.read(ws.repo)
    owed = data.pop(OWED, None)
    if owed is None:
        return None
    bindings.write(ws.repo, data)
    if not brief or not isinstance(owed, dict) or owed.get("session") != session_id:
        return None
    at = owed.get("at")
    if isinstance(at, bool) or not isinstance(at, int) or abs(time.time() - at) >= FRESH_FOR:
        return None
    from_tag = owed.get("from")
    from tg_git.services import resume  # lazy: 39.1 ms

    try:
        return resume.briefing_again(ws, from_tag if isinstance(from_tag, str) else None)
    except TgGitError:  # the checkpoint is gone or broken now: the gauge alone
        return None


def _without_handoffs(data: dict[str, Any]) -> dict[str, Any]:
    """The bindings without a hand-off's placeholders and what a resume owed: the last
    resume decides who is briefed."""
    return {
        name: entry
        for name, entry in data.items()
        if name != OWED
        and not (isinstance(entry, dict) and entry.get("agent_session") == PLACEHOLDER)
    }


def details(ws: Workspace, agent: str) -> dict[str, Any]:
    """What `resume --agent` says and prints: the agent, its start command, its skill file
    (and whether it is there) and whether its hooks are wired here."""
    from tg_git.agents import formats, skills, wiring  # lazy: 24.7 ms

    skill = skills.path(agent, ws.repo.root)
    return {
        "agent": agent,
        "name": NAMES[agent],
        "start": START[agent],
        "event": FIRST_EVENT.get(agent, formats.EVENTS[agent][0]),
        "skill": str(skill.relative_to(ws.repo.root)),
        "skill_installed": skill.is_file(),
        "hooks_installed": bool(wiring.installed(agent, ws.repo.root, False))
        or bool(agent != "copilot" and wiring.installed(agent, ws.repo.root, True)),
    }


def lines(info: dict[str, Any], writer: Any, language: str) -> list[str]:
    """The hand-off lines after the briefing, in the next agent's terms."""

    def t(key: str, **values: Any) -> str:
        return messages.text(language, key, **values)

    out = []
    by = writer_text(writer)
    if by:
        out.append(t("handoff.from", by=by, to=info["name"]))
    else:
        out.append(t("handoff.to", to=info["name"]))
    out.append(t("handoff.skill", path=info["skill"], wording=t("skill.description")))
    if not info["skill_installed"] or not info["hooks_installed"]:
        out.append(t("handoff.install", agent=info["agent"]))
    out.append(t("handoff.start", start=info["start"], event=info["event"]))
    return out
