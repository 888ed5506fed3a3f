"""``tg-git agent install | uninstall | list``: wire tg-git into the agents' own settings."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tg_git.domain.errors import TgGitError
from tg_git.text import messages

if TYPE_CHECKING:
    from tg_git.repo.workspace import Workspace

# Claude Code compacts about this many tokens below its window (a summary reserve plus a
# buffer: ~967K of 1M, ~167K of 200K); autoCompactWindow must be 100K..1M.
CLAUDE_RESERVE = 33_000
CLAUDE_WINDOW_RANGE = (100_000, 1_000_000)


def _agents(names: list[str], action: str, root: Path, user: bool, lang: str) -> list[str]:
    """The agents named; `all` (or none): those found here (install) or wired (uninstall)."""
    from tg_git.agents import formats, skills, wiring

    listed = ", ".join(formats.AGENTS)
    unknown = [n for n in names if n not in formats.AGENTS and n != "all"]
    if unknown:
        raise TgGitError(messages.text(lang, "agent.unknown", name=unknown[0], agents=listed))
    if names and "all" not in names:
        return list(dict.fromkeys(names))
    if action == "install":
        found = [a for a in formats.AGENTS if wiring.detected(a, root)]
        if user:
            found = [a for a in found if a != "copilot"]  # it has no user hooks file
        if not found:
            raise TgGitError(messages.text(lang, "agent.none_found", agents=listed))
        return found
    home = Path.home()
    return [
        a
        for a in formats.AGENTS
        if (a != "copilot" or not user)
        and (
            os.path.lexists(formats.settings_file(a, root, user))
            or (skills.user_path(a, home) if user else skills.path(a, root)).is_file()
        )
    ]


def compaction_targets(ws: Workspace) -> dict[str, Any]:
    """Each agent's own threshold, so that it compacts between tg-git's force-save and its
    halt (the midpoint): after the save has landed, before prompts are blocked. The budget
    is tg-git's context budget (``budget.context``, or the window the agent reported, else
    ``max_tokens``); Gemini's threshold is a share of its window (the reported one, else
    taken to be that budget)."""
    from tg_git.domain import budget as budgets
    from tg_git.repo import readings

    config, session = ws.config, ws.session()
    live = readings.read_live(ws.repo.git_dir, session.id) if session else None
    if session is not None:
        limit = budgets.context_window(session, config, live)
        window = (live.window if live else 0) or session.measured_window or limit
    else:
        limit = window = config.budget_context or config.max_tokens
    target = math.floor(limit * (config.force_save + config.halt) / 200)
    low, high = CLAUDE_WINDOW_RANGE
    return {
        "claude": min(high, max(low, target + CLAUDE_RESERVE)),
        "codex": target,
        "gemini": round(min(1.0, target / window), 3),
    }


def agent_setup(*, action: str, agents: list[str], user: bool, align: bool = False) -> int:
    from tg_git.agents import settings, skills
    from tg_git.services.startup import open_workspace

    ws = open_workspace()
    lang = ws.config.language
    root, git_dir = ws.repo.root, ws.repo.git_path("tg-git").parent
    if user and "copilot" in agents:
        raise TgGitError(messages.text(lang, "agent.no_user_hooks", agent="copilot"))
    chosen = _agents(agents, action, root, user, lang)
    targets = compaction_targets(ws) if align else None
    home = Path.home()
    failed = []
    for agent in chosen:
        try:
            if action == "install":
                said = settings.install(agent, root, git_dir, user, lang, targets)
                if targets is not None:
                    said += _align_other(agent, root, git_dir, user, targets, lang)
            else:
                said = settings.uninstall(agent, root, git_dir, user, lang)
                said += (
                    settings.unalign_codex(root, git_dir, user, lang) if agent == "codex" else ""
                )
        except TgGitError as exc:  # the others go on; the error is said once, on stderr
            failed.append(f"{agent}: {exc}")
            continue
        print(f"tg-git: {agent}: {said}")
        if agent == "codex" and action == "install":  # Codex runs untrusted hooks silently never
            print(f"tg-git: codex: {messages.text(lang, 'agent.codex_trust')}")
    # The skill: one file per folder; .agents/skills is shared by several agents.
    for agent in chosen:
        target = skills.user_path(agent, home) if user else skills.path(agent, root)
        if action == "install":
            print(f"tg-git: {agent}: {skills.write(target, lang)}")
        elif not _still_wired(agent, chosen, root, user):
            print(f"tg-git: {agent}: {skills.remove(target, None if user else root, lang)}")
    if failed:
        for line in failed[1:]:
            print(f"tg-git: {line}", file=sys.stderr)
        raise TgGitError(failed[0])
    return 0


def _align_other(
    agent: str, root: Path, git_dir: Path, user: bool, targets: dict[str, Any], lang: str
) -> str:
    """The thresholds that are not in the hooks file: Codex's config.toml; the agents
    without such a setting are said so."""
    from tg_git.agents import settings

    if agent == "codex":
        return "; " + settings.align_codex(root, git_dir, user, targets["codex"], lang)
    if agent not in settings.ALIGN_KEYS:
        print(messages.text(lang, "agent.no_align", agent=agent))
    return ""


def _still_wired(agent: str, removing: list[str], root: Path, user: bool) -> bool:
    """Whether another agent sharing this skill folder keeps tg-git's hooks."""
    from tg_git.agents import skills, wiring

    folder = skills.FOLDERS[agent]
    sharing = [a for a in skills.FOLDERS if skills.FOLDERS[a] == folder and a not in removing]
    return any(wiring.installed(a, root, user) for a in sharing)


def _row(agent: str, root: Path, home: Path, marks: list[Any], lang: str) -> dict[str, Any]:
    from tg_git.agents import formats, skills, wiring

    fmt = formats.FORMATS[agent]
    repo_file = formats.settings_file(agent, root, False)
    user_file = formats.settings_file(agent, root, True) if agent != "copilot" else None
    repo_wired = wiring.wired(agent, root, False)
    user_wired = wiring.wired(agent, root, True) if user_file else None
    skill, user_skill = skills.path(agent, root), skills.user_path(agent, home)
    last = max((m.imported_at for m in marks if m.agent == agent), default="")
    events = sorted({*(repo_wired or {}).get("events", []), *(user_wired or {}).get("events", [])})
    return {
        "agent": agent,
        "detected": wiring.detected(agent, root),
        "repo_hooks": None if repo_wired is None else bool(repo_wired["events"]),
        "user_hooks": None if user_wired is None else bool(user_wired["events"]),
        "settings": str(repo_file),
        "user_settings": str(user_file or ""),
        "events": events,
        "status_line": any(w and w["status_line"] for w in (repo_wired, user_wired)),
        "aligned": next(
            (w["aligned"] for w in (repo_wired, user_wired) if w and w["aligned"]), None
        ),
        "channel": formats.CHANNELS[agent],
        "measures": messages.text(lang, fmt.measures),
        "skill": skill.is_file(),
        "skill_path": str(skill),
        "user_skill": user_skill.is_file(),
        "last_import": last or None,
        "transcripts": sum(1 for m in marks if m.agent == agent),
    }


def agent_status(*, as_json: bool) -> int:
    """`agent list` (and its older name `agent status`): each agent, where tg-git is wired,
    which events, the block channel, what measures usage, the skill, the last import."""
    from tg_git.agents import formats, skills, wiring
    from tg_git.services.startup import open_workspace
    from tg_git.usage import store

    ws = open_workspace()
    root = ws.repo.root
    home = Path.home()
    marks = store.marks(ws.repo.git_path(store.FOLDER))
    rows = [_row(agent, root, home, marks, ws.config.language) for agent in formats.AGENTS]
    if as_json:
        print(json.dumps({"agents": rows}, ensure_ascii=False))
        return 0

    lang = ws.config.language

    def shown(path: str) -> str:
        return wiring.shown(Path(path), root)

    def hooks(value: bool | None, path: str) -> str:
        if not path:
            return "-"
        if value is None:
            unreadable = messages.text(lang, "agent.list_unreadable", path=shown(path))
            return unreadable if os.path.lexists(path) else "-"
        return f"{shown(path)}" if value else "-"

    for row in rows:
        skills_at = [shown(row["skill_path"])] if row["skill"] else []
        if row["user_skill"]:
            skills_at.append(shown(str(skills.user_path(row["agent"], home))))
        extra = messages.text(lang, "agent.list_status_line") if row["status_line"] else ""
        if row["aligned"]:
            extra += messages.text(lang, "agent.list_aligned", value=row["aligned"])
        how = messages.text(lang, "agent.list_how", channel=row["channel"],
                            measures=row["measures"])  # fmt: skip
        print(messages.text(
            lang, "agent.list_line", agent=row["agent"],
            repo=hooks(row["repo_hooks"], row["settings"]),
            user=hooks(row["user_hooks"], row["user_settings"]),
            events=", ".join(row["events"]) or "-", extra=extra, how=how,
            skills=", ".join(skills_at) or "-",
            last=row["last_import"] or messages.text(lang, "agent.list_never"),
            n=row["transcripts"],
        ))  # fmt: skip
    return 0
