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
    from tg_git.agents import formats, skills, wiring  # lazy: 20.0 ms

    known = (*formats.AGENTS, "opencode")  # OpenCode: a plugin file (agents/opencode.py)
    listed = ", ".join(known)
    unknown = [n for n in names if n not in known and n != "all"]
    if unknown:
        raise TgGitError(messages.text(lang, "agent.unknown", name=unknown[0], agents=listed))
    if names and "all" not in names:
        return list(dict.fromkeys(names))
    if action == "install":
        found = [a for a in known if wiring.detected(a, root)]
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
            or (not user and os.path.lexists(formats.local_file(a, root) or root / "-"))
            or (skills.user_path(a, home) if user else skills.path(a, root)).is_file()
        )
    ] + (["opencode"] if wiring.installed("opencode", root, user) else [])


def compaction_targets(ws: Workspace) -> dict[str, Any]:
    """Each agent's own threshold, so that it compacts between tg-git's force-save and its
    halt (the midpoint): after the save has landed, before prompts are blocked. The budget
    is tg-git's context budget (``budget.context``, or the window the agent reported, else
    ``max_tokens``); Gemini's threshold is a share of its window (the reported one, else
    taken to be that budget)."""
    from tg_git.domain import budget as budgets  # lazy: 1.6 ms
    from tg_git.repo import readings  # lazy: 3.7 ms

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


def agent_setup(
    *, action: str, agents: list[str], user: bool, align: bool = False, shared: bool = False
) -> int:
    from tg_git.agents import settings, skills  # lazy: 22.0 ms
    from tg_git.services.startup import open_workspace  # lazy: 6.6 ms

    ws = open_workspace()
    lang = ws.config.language
    root, git_dir = ws.repo.root, ws.repo.git_path("tg-git").parent
    if user and "copilot" in agents:
        raise TgGitError(messages.text(lang, "agent.no_user_hooks", agent="copilot"))
    chosen = _agents(agents, action, root, user, lang)
    targets = compaction_targets(ws) if align else None
    home = Path.home()
    failed = []
    flags = " --user" if user else " --shared" if shared else ""
    for agent in chosen:
        try:
            if agent == "opencode":  # a plugin file, not a settings entry
                said, notes = _opencode(ws, action, user, shared, lang)
            elif action == "install" and not user and _twice(ws, agent, shared, lang):
                continue
            elif action == "install":
                portable, notes = _placement(ws, agent, user, shared, lang)
                said = settings.install(
                    agent, root, git_dir, user, lang, targets, shared=shared, portable=portable
                )
                if targets is not None:
                    said += _align_other(agent, root, git_dir, user, targets, lang)
                said += messages.text(lang, "agent.undo", agent=agent, flags=flags)
            else:
                notes = []
                said = settings.uninstall(agent, root, git_dir, user, lang, shared=shared)
                said += (
                    settings.unalign_codex(root, git_dir, user, lang) if agent == "codex" else ""
                )
        except TgGitError as exc:  # the others go on; the error is said once, on stderr
            failed.append(f"{agent}: {exc}")
            continue
        print(f"tg-git: {agent}: {said}")
        for note in notes:
            print(f"tg-git: {agent}: {note}")
        if agent == "codex" and action == "install":  # Codex runs untrusted hooks silently never
            print(f"tg-git: codex: {messages.text(lang, 'agent.codex_trust')}")
    # The skill: one file per folder; .agents/skills is shared by several agents.
    for agent in chosen:
        target = skills.user_path(agent, home) if user else skills.path(agent, root)
        try:
            if action == "install":
                print(f"tg-git: {agent}: {skills.write(target, lang, None if user else root)}")
            elif not _still_wired(agent, chosen, root, user):
                print(f"tg-git: {agent}: {skills.remove(target, None if user else root, lang)}")
        except TgGitError as exc:
            failed.append(f"{agent}: {exc}")
    if failed:
        for line in failed[1:]:
            print(f"tg-git: {line}", file=sys.stderr)
        raise TgGitError(failed[0])
    return 0


def _placement(
    ws: Workspace, agent: str, user: bool, shared: bool, lang: str
) -> tuple[bool, list[str]]:
    """Whether the agent's entries are portable (`tg-git` from PATH) and what to say about
    it. The user's own file and the agent's local one (kept out of git here) name this
    Python by absolute path: they stay on this machine. A file a team commits gets the
    portable command; without `tg-git` on PATH an agent with no local file gets this
    Python's path after all (a hook that runs), with a warning not to commit it."""
    import shutil  # lazy: 3.4 ms

    from tg_git.agents import formats  # lazy: 16.4 ms
    from tg_git.repo import gitquery  # lazy: 2.3 ms

    root = ws.repo.root
    local = None if user or shared else formats.local_file(agent, root)
    if user:
        return False, []
    if local is not None:
        rel = local.relative_to(root).as_posix()
        if not gitquery.index_entries(ws.repo, [rel]):
            _exclude(ws, rel)
            return False, []
    on_path = shutil.which(formats.PORTABLE) is not None
    path = formats.target_file(agent, root, user, shared).relative_to(root)
    if shared or on_path or local is not None:
        notes = [messages.text(lang, "agent.shared_note", path=path)]
        if not on_path:
            notes.append(messages.text(lang, "agent.not_on_path", command=formats.PORTABLE))
        return True, notes
    return False, [messages.text(lang, "agent.absolute_warning", path=path, agent=agent)]


def _opencode(
    ws: Workspace, action: str, user: bool, shared: bool, lang: str
) -> tuple[str, list[str]]:
    """OpenCode's plugin: local by default (this Python, kept out of git in this clone),
    portable with ``--shared``; a plugin a team committed is left to ``--shared``."""
    import shutil  # lazy: 3.4 ms

    from tg_git.agents import formats, opencode  # lazy: 28.3 ms
    from tg_git.repo import gitquery  # lazy: 2.3 ms

    root, rel = ws.repo.root, opencode.FILE
    flags = " --user" if user else " --shared" if shared else ""
    tracked = not user and bool(gitquery.index_entries(ws.repo, [rel]))
    if tracked and not shared:
        return messages.text(lang, "agent.opencode_shared", path=rel, agent="opencode"), []
    if action != "install":
        said = opencode.uninstall(root, user, lang)
        if not user:
            _exclude(ws, rel, keep=False)
        return said, []
    notes = []
    if shared:
        notes.append(messages.text(lang, "agent.shared_note", path=rel))
        if shutil.which(formats.PORTABLE) is None:
            notes.append(messages.text(lang, "agent.not_on_path", command=formats.PORTABLE))
    said = opencode.install(root, user, lang, portable=shared)
    if not user:
        _exclude(ws, rel, keep=not shared)
    return said + messages.text(lang, "agent.undo", agent="opencode", flags=flags), notes


def _twice(ws: Workspace, agent: str, shared: bool, lang: str) -> bool:
    """An agent that reads both a local and a shared file would run tg-git's hooks twice if
    both held them. A local install leaves a shared file that has them as it is (True: say
    so and write nothing); a shared install takes them out of this clone's local file."""
    from tg_git.agents import formats, settings  # lazy: 22.0 ms

    root = ws.repo.root
    local = formats.local_file(agent, root)
    if local is None:
        return False
    other = local if shared else formats.settings_file(agent, root, False)
    try:
        _, data = settings.read_json(other, lang)
    except TgGitError:
        return False
    if not formats.ours_in(data):
        return False
    if shared:
        git_dir = ws.repo.git_path("tg-git").parent
        print(f"tg-git: {agent}: {settings.uninstall(agent, root, git_dir, False, lang)}")
        return False
    rel = other.relative_to(root)
    print(
        f"tg-git: {agent}: "
        + messages.text(
            lang, "agent.wired_shared", path=rel, local=local.relative_to(root), agent=agent
        )
    )
    return True


def _exclude(ws: Workspace, rel: str, keep: bool = True) -> None:
    """Keep the agent's local settings file out of git in this clone (``info/exclude``, which
    is never committed), as the agent itself does when it creates the file (``keep`` False:
    take that line out again)."""
    exclude = ws.repo.common_dir / "info" / "exclude"
    line = "/" + rel
    try:
        text = exclude.read_text(encoding="utf-8") if exclude.is_file() else ""
        if not keep and line in text.splitlines():
            kept = [x for x in text.splitlines(keepends=True) if x.rstrip("\n") != line]
            exclude.write_text("".join(kept), encoding="utf-8")
        if not keep or line in text.splitlines():
            return
        exclude.parent.mkdir(parents=True, exist_ok=True)
        with open(exclude, "a", encoding="utf-8") as fh:
            fh.write(("" if not text or text.endswith("\n") else "\n") + line + "\n")
    except (OSError, UnicodeDecodeError):
        return


def _align_other(
    agent: str, root: Path, git_dir: Path, user: bool, targets: dict[str, Any], lang: str
) -> str:
    """The thresholds that are not in the hooks file: Codex's config.toml; the agents
    without such a setting are said so."""
    from tg_git.agents import settings  # lazy: 22.6 ms

    if agent == "codex":
        return "; " + settings.align_codex(root, git_dir, user, targets["codex"], lang)
    if agent not in settings.ALIGN_KEYS:
        print(messages.text(lang, "agent.no_align", agent=agent))
    return ""


def _still_wired(agent: str, removing: list[str], root: Path, user: bool) -> bool:
    """Whether another agent sharing this skill folder keeps tg-git's hooks."""
    from tg_git.agents import skills, wiring  # lazy: 27.1 ms

    folder = skills.FOLDERS[agent]
    sharing = [a for a in skills.FOLDERS if skills.FOLDERS[a] == folder and a not in removing]
    return any(wiring.installed(a, root, user) for a in sharing)


def _row(agent: str, root: Path, home: Path, marks: list[Any], lang: str) -> dict[str, Any]:
    from tg_git.agents import formats, skills, wiring  # lazy: 20.0 ms

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


def _opencode_row(root: Path, home: Path, marks: list[Any], lang: str) -> dict[str, Any]:
    """`agent list`'s row for OpenCode: its plugin file in the repository and the user's."""
    from tg_git.agents import formats, opencode, skills, wiring  # lazy: 22.9 ms

    repo_wired, user_wired = opencode.wired(root, False), opencode.wired(root, True)
    skill, user_skill = skills.path("opencode", root), skills.user_path("opencode", home)
    last = max((m.imported_at for m in marks if m.agent == "opencode"), default="")
    events = [*(repo_wired or {}).get("events", [])] or [*(user_wired or {}).get("events", [])]
    return {
        "agent": "opencode",
        "detected": wiring.detected("opencode", root),
        "repo_hooks": None if repo_wired is None else bool(repo_wired["events"]),
        "user_hooks": None if user_wired is None else bool(user_wired["events"]),
        "settings": str(opencode.path(root, False)),
        "user_settings": str(opencode.user_path()),
        "events": events,
        "status_line": False,
        "aligned": None,
        "channel": formats.CHANNELS["opencode"],
        "measures": messages.text(lang, "agent.measures.opencode"),
        "skill": skill.is_file(),
        "skill_path": str(skill),
        "user_skill": user_skill.is_file(),
        "last_import": last or None,
        "transcripts": sum(1 for m in marks if m.agent == "opencode"),
    }


def agent_status(*, as_json: bool) -> int:
    """`agent list` (and its older name `agent status`): each agent, where tg-git is wired,
    which events, the block channel, what measures usage, the skill, the last import."""
    from tg_git.agents import formats, skills, wiring  # lazy: 20.0 ms
    from tg_git.services.startup import open_workspace  # lazy: 6.6 ms
    from tg_git.usage import store  # lazy: 0.7 ms

    ws = open_workspace()
    root = ws.repo.root
    home = Path.home()
    marks = store.marks(ws.repo.git_path(store.FOLDER))
    rows = [_row(agent, root, home, marks, ws.config.language) for agent in formats.AGENTS]
    rows.append(_opencode_row(root, home, marks, ws.config.language))
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
        how = messages.text(
            lang, "agent.list_how", channel=row["channel"], measures=row["measures"]
        )
        print(
            messages.text(
                lang,
                "agent.list_line",
                agent=row["agent"],
                repo=hooks(row["repo_hooks"], row["settings"]),
                user=hooks(row["user_hooks"], row["user_settings"]),
                events=", ".join(row["events"]) or "-",
                extra=extra,
                how=how,
                skills=", ".join(skills_at) or "-",
                last=row["last_import"] or messages.text(lang, "agent.list_never"),
                n=row["transcripts"],
            )
        )
    return 0
