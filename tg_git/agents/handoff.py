"""Hand-off from one agent to another (``tg-git resume --agent NAME``): a Claude Code session
that hit its limit continues in Codex, Gemini CLI, … in the same clone, from the same
checkpoint, with the integrity check as usual.

The checkpoint records which agent and model wrote it (``written_by``, schema 1.2). The
resume binds the new tg-git session to the next agent with a placeholder conversation id,
so that agent's own session-start hook (``SessionStart``; Antigravity's first
``PreInvocation``) sees a session that serves another conversation, takes it over and hands
the model the same briefing, integrity and the new session's budget included."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tg_git.domain.checkpoint_text import writer_text
from tg_git.text import messages

if TYPE_CHECKING:
    from tg_git.repo.workspace import Workspace

PLACEHOLDER = "tg-git-handoff"  # no agent's conversation id: the next start hook takes over
NAMES = {"claude": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI",
         "antigravity": "Antigravity", "cursor": "Cursor", "copilot": "GitHub Copilot CLI"}  # fmt: skip
START = {"claude": "claude", "codex": "codex", "gemini": "gemini", "antigravity": "agy",
         "cursor": "cursor-agent", "copilot": "copilot"}  # fmt: skip
FIRST_EVENT = {"antigravity": "PreInvocation"}  # the others brief at their session start


def prepare(ws: Workspace, agent: str, session_id: str) -> None:
    """Bind the new session to ``agent`` with a placeholder conversation, so the agent's
    next session start takes it over (and briefs the model) instead of keeping another's."""
    from tg_git.repo import bindings  # lazy: 7.6 ms

    data = bindings.read(ws.repo)
    data[agent] = {"agent_session": PLACEHOLDER, "session": session_id, "brief": False}
    bindings.write(ws.repo, data)


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
