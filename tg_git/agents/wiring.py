"""What of tg-git the agents' settings hold, read only: the events, interpreters, status line
and compaction threshold wired (``wired``), whether an agent is installed or in use here, and
`tg-git doctor`'s agent lines. ``tg_git.agents.settings`` installs and uninstalls.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

from tg_git.agents import formats
from tg_git.agents.formats import AGENTS, NAMED_KEY, settings_file, user_file
from tg_git.agents.protocol import EVENTS as HOOK_EVENTS
from tg_git.agents.settings import ALIGN_KEYS, STATUS_LINE, is_our_line, read_json
from tg_git.domain.errors import TgGitError
from tg_git.text import messages
from tg_git.usage import discover


def wired(agent: str, root: Path, user: bool) -> dict[str, Any] | None:
    """What of tg-git the agent's settings hold: ``events``, ``commands`` (the first word
    of each: the interpreter), ``status_line`` and ``aligned``; None when unreadable."""
    if agent == "opencode":  # a plugin file of its own, not a settings entry
        from tg_git.agents import opencode  # lazy: 3.3 ms

        return opencode.wired(root, user)
    try:
        path = settings_file(agent, root, user)
        _, data = read_json(path)
        local = None if user else formats.local_file(agent, root)
        _, mine = read_json(local) if local is not None else (None, {})
    except TgGitError:
        return None
    if formats.ours_in(mine):  # the agent's local file (Claude Code reads both)
        data = {**data, **mine}
    commands, older = [], set()
    for table in (data.get("hooks"), data.get(NAMED_KEY)):
        for event, groups in table.items() if isinstance(table, dict) else []:
            for group in groups if isinstance(groups, list) else []:
                inner = group.get("hooks") if isinstance(group, dict) else None
                for handler in inner if isinstance(inner, list) else [group]:
                    if formats.is_ours(handler):
                        commands.append(formats.command_of(handler))
                        if formats.is_older(agent, event, commands[-1]):
                            older.add(event)
    line = data.get(STATUS_LINE)
    if isinstance(line, dict) and is_our_line(line) and formats.line_is_older(line["command"]):
        older.add(STATUS_LINE)
    keys = ALIGN_KEYS.get(agent, ())
    value: Any = data
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return {
        "events": formats.ours_in(data),
        "interpreters": sorted({_first_word(c) for c in commands}),
        "status_line": is_our_line(line),
        "aligned": value if keys else None,
        "older": sorted(older),
    }


def _first_word(command_text: str) -> str:
    """The interpreter a command runs (``formats.interpreter``)."""
    return formats.interpreter(command_text)


def installed_in(path: Path) -> bool:
    """Whether the settings file at ``path`` holds tg-git's hooks (False: unreadable)."""
    try:
        _, data = read_json(path)
    except TgGitError:
        return False
    return bool(formats.ours_in(data))


def installed(agent: str, root: Path, user: bool) -> bool | None:
    """Whether the agent's settings hold tg-git's hooks (None: unreadable)."""
    try:
        found = wired(agent, root, user)
    except TgGitError:  # Copilot CLI has no user file
        return None
    return None if found is None else bool(found["events"])


def detected(agent: str, root: Path) -> bool:
    """Whether the agent is in use here: its folder or settings in the repository or the
    user's home (`agent install all` installs for these)."""
    home = Path.home()
    if agent == "opencode":
        from tg_git.agents import opencode  # lazy: 3.3 ms

        return opencode.detected(root)
    marks = {
        "claude": [root / ".claude", user_file("claude").parent],
        "codex": [root / ".codex", discover.codex_home()],
        "gemini": [root / ".gemini", discover.gemini_dir() / "settings.json",
                   discover.gemini_dir() / "tmp"],
        "antigravity": [root / ".agents" / "hooks.json", root / ".agent",
                        discover.gemini_dir() / "antigravity", discover.gemini_dir() / "antigravity-cli",
                        home / ".config" / "antigravity"],
        "cursor": [root / ".cursor", home / ".cursor"],
        "copilot": [root / ".github" / "hooks", home / ".copilot"],
    }  # fmt: skip
    return any(os.path.lexists(p) for p in marks[agent])


def shown(path: Path, root: Path) -> str:
    """A path as a user reads it: relative to the work tree, ``~/…``, or absolute."""
    for base, prefix in ((root, ""), (Path.home(), "~/")):
        if path.is_relative_to(base):
            return prefix + str(path.relative_to(base))
    return str(path)


def diagnose(root: Path, lang: str) -> list[tuple[str, bool, str, str]]:
    """`tg-git doctor`'s agent lines, as (name, ok, detail, fix): each agent wired in the
    repository or the user's settings, an unreadable settings file, and hooks whose Python
    is gone. An agent that is not wired is not a problem; none wired at all is said once."""
    checks = []
    from tg_git.agents import opencode  # lazy: 3.3 ms

    for agent in (*AGENTS, opencode.AGENT):
        for user in (False, True) if agent != "copilot" else (False,):
            plugin = agent == opencode.AGENT  # its plugin file
            path = opencode.path(root, user) if plugin else settings_file(agent, root, user)
            local = None if user or plugin else formats.local_file(agent, root)
            if local is not None and installed_in(local):
                path = local
            where = shown(path, root)
            problem = "" if plugin else malformed(agent, path, lang, where)  # a module, not JSON
            if problem:
                checks.append((f"agent {agent}", False, problem,
                               messages.text(lang, "agent.check_malformed_fix", where=where)))  # fmt: skip
                continue
            found = wired(agent, root, user)
            if found is None:
                checks.append((f"agent {agent}", False,
                               messages.text(lang, "agent.check_unreadable", agent=agent,
                                             where=where),
                               messages.text(lang, "agent.check_fix", agent=agent,
                                             user=" --user" if user else "")))  # fmt: skip
                continue
            if not found["events"]:
                continue
            gone = [
                p for p in found["interpreters"] if os.path.isabs(p) and not os.access(p, os.X_OK)
            ]
            fix = messages.text(
                lang, "agent.check_fix", agent=agent, user=" --user" if user else ""
            )
            if gone:
                detail = messages.text(lang, "agent.check_python", agent=agent, where=where,
                                       python=gone[0])  # fmt: skip
                checks.append((f"agent {agent}", False, detail, fix))
                continue
            if formats.PORTABLE in found["interpreters"] and not shutil.which(formats.PORTABLE):
                detail = messages.text(lang, "agent.check_not_on_path", agent=agent, where=where,
                                       command=formats.PORTABLE)  # fmt: skip
                checks.append((f"agent {agent}", False, detail, fix))
                continue
            if found.get("older"):
                kinds = HOOK_EVENTS[agent]  # opencode's too
                tools = [e for e in found["older"] if kinds.get(e) == "tool"]
                waits = [e for e in found["older"] if kinds.get(e) != "tool"]
                detail = "; ".join(
                    messages.text(lang, key, agent=agent, where=where, events=", ".join(events))
                    for key, events in (
                        ("agent.check_older", tools),
                        ("agent.check_older_wait", waits),
                    )
                    if events
                )
                checks.append((f"agent {agent}", False, detail, fix))
                continue
            events = ", ".join(found["events"]) + (", statusLine" if found["status_line"] else "")
            detail = messages.text(lang, "agent.check_ok", agent=agent, where=where, events=events)
            checks.append((f"agent {agent}", True, detail, ""))
    checks += codex_config(root, lang)
    if not checks:
        checks.append(("agents", True, messages.text(lang, "agent.check_none"), ""))
    return checks + versions(root, lang)


# ---- the settings as the agent parses them --------------------------------------------------
MAX_SETTINGS = 4 << 20  # bytes: a settings file larger than this is not read
SILENT_DROP = ("antigravity",)  # agents that skip a file that does not parse, and say nothing


def _strict_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # JavaScript's JSON.parse refuses it too


def malformed(agent: str, path: Path, lang: str, where: str) -> str:
    """Why the agent would not load the settings file at ``path``, as it parses it (strict
    JSON, as JavaScript's ``JSON.parse``: no comments, no trailing comma, no NaN); "" when it
    loads or is absent."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_SETTINGS:
            return ""
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""  # unreadable: said as such by the check that reads it

    why = ""
    if text.strip():
        try:
            data = json.loads(text, parse_constant=_strict_constant)
            why = "" if isinstance(data, dict) else messages.text(lang, "agent.not_an_object")
        except json.JSONDecodeError as exc:
            why = messages.text(lang, "agent.parse_error", why=exc.msg, line=exc.lineno,
                                column=exc.colno)  # fmt: skip
        except (ValueError, RecursionError) as exc:
            why = str(exc)[:200]
    if not why:
        return ""
    key = "agent.check_malformed_silent" if agent in SILENT_DROP else "agent.check_malformed"
    return messages.text(lang, key, agent=agent, where=where, why=why)


def codex_config(root: Path, lang: str) -> list[tuple[str, bool, str, str]]:
    """Codex reads its ``config.toml`` (the user's, and a trusted project's) as TOML and
    does not start when it does not parse: one problem line each."""
    from tg_git.domain.tomltext import parse  # lazy: 0.2 ms

    checks = []
    for path in (discover.codex_home() / "config.toml", root / ".codex" / "config.toml"):
        try:
            if not path.is_file() or path.stat().st_size > MAX_SETTINGS:
                continue
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        try:
            parse(text)
        except Exception as exc:  # tomllib and tomlkit raise different types
            where = shown(path, root)
            why = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            detail = messages.text(lang, "agent.check_malformed", agent="codex", where=where,
                                   why=why)  # fmt: skip
            checks.append(("agent codex", False, detail,
                           messages.text(lang, "agent.check_malformed_fix", where=where)))  # fmt: skip
    return checks


# ---- the versions the suite drives -----------------------------------------------------------
# The real CLI and version tg-git's own tests drive through whole sessions (its
# tests/realagents pin the same): what `doctor` shows beside the version installed here.
VERIFIED = {"claude": ("claude", "2.1.332"), "codex": ("codex", "0.171.0"),
            "gemini": ("gemini", "0.61.0"), "copilot": ("copilot", "1.0.102"),
            "opencode": ("opencode", "1.18.33")}  # fmt: skip
VERSION_TIMEOUT = 5.0  # seconds a CLI's `--version` may take


def installed_version(command: str, root: Path) -> str | None:
    """``COMMAND --version``'s first version-like word, when the command is on PATH and not
    inside the work tree (a clone's files are never run); None when absent or silent."""

    from tg_git.repo import git  # lazy: 1.6 ms

    found = shutil.which(command)
    if found is None:
        return None
    real = Path(found).resolve()
    if real.is_relative_to(root.resolve()) or not Path(found).is_absolute():
        return None
    shell = f"cd / && exec {shlex.quote(str(real))} --version </dev/null 2>/dev/null"
    out = git.run_command(shell, b"", VERSION_TIMEOUT).decode("utf-8", "replace")
    match = re.search(r"\b(\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?)\b", out[:2000])
    return match.group(1) if match else None


def versions(root: Path, lang: str) -> list[tuple[str, bool, str, str]]:
    """Each agent CLI on PATH: the version here beside the one tg-git's tests drive."""
    checks = []
    for agent, (command, verified) in VERIFIED.items():
        here = installed_version(command, root)
        if here is None:
            continue
        key = "agent.check_version_same" if here == verified else "agent.check_version"
        detail = messages.text(lang, key, agent=agent, here=here, verified=verified)
        checks.append((f"agent {agent}", True, detail, ""))
    return checks
