"""Where each agent keeps the transcripts of a work tree (read-only look-ups).

Claude Code: ``${CLAUDE_CONFIG_DIR:-~/.config/claude,~/.claude}/projects/<cwd with every
character outside [A-Za-z0-9] as ->/``; Codex: rollouts whose ``session_meta.cwd`` is inside
the work tree; Gemini CLI: ``${GEMINI_CLI_HOME:-~}/.gemini/tmp/<id>/chats/``, where the id is
the project's short name (``projects.json``, ``.project_root`` markers) or, in older
versions, the SHA-256 of its path.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

AGENTS = ("claude", "codex", "gemini")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def _roots(root: Path) -> list[str]:
    names = [str(root), os.path.realpath(root)]
    return list(dict.fromkeys(names))


def claude_dirs() -> list[Path]:
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "")
    if configured.strip():
        return [Path(p.strip()).expanduser() for p in configured.split(",") if p.strip()]
    home = Path.home()
    return [home / ".config" / "claude", home / ".claude"]


def claude_transcripts(root: Path) -> list[tuple[Path, bool]]:
    """(path, is a subagent's) for every transcript of this work tree: the project folder of
    its path, and those of its subfolders (an agent started in ``src/``) whose transcripts
    say their cwd is inside it (``/a/repo-two`` encodes like ``/a/repo/two``)."""
    roots = _roots(root)
    found: list[tuple[Path, bool]] = []
    for base in claude_dirs():
        projects = base / "projects"
        if not projects.is_dir():
            continue
        folders = []
        for name in roots:
            encoded = _NOT_ALNUM.sub("-", name)
            folders.append(projects / encoded)
            folders += [
                f for f in sorted(projects.glob(f"{encoded}-*")) if _claude_inside(f, roots)
            ]
        for folder in folders:
            if not folder.is_dir():
                continue
            found += [(p, False) for p in sorted(folder.glob("*.jsonl"))]
            found += [(p, True) for p in sorted(folder.glob("*/subagents/*.jsonl"))]
    return list(dict.fromkeys(found))


def _claude_inside(folder: Path, roots: list[str]) -> bool:
    """Whether a project folder's transcripts were written with a cwd inside ``roots``."""
    for transcript in sorted(folder.glob("*.jsonl"))[:3]:
        try:
            with open(transcript, "rb") as fh:
                head = fh.read(256 * 1024)
        except OSError:
            continue
        for line in head.split(b"\n"):
            if b'"cwd"' not in line:
                continue
            try:
                cwd = json.loads(line).get("cwd")
            except (ValueError, RecursionError, AttributeError):
                continue
            if isinstance(cwd, str):
                return _inside(cwd, roots)
    return False


def claude_subagents(transcript: Path) -> list[Path]:
    return sorted(transcript.with_suffix("").glob("subagents/*.jsonl"))


def codex_home() -> Path:
    configured = os.environ.get("CODEX_HOME", "")
    return Path(configured).expanduser() if configured.strip() else Path.home() / ".codex"


def _inside(path: str, roots: list[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def codex_cwd(path: Path) -> str | None:
    """The cwd of a rollout's ``session_meta`` (its first lines), None if it has none."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(256 * 1024)
    except OSError:
        return None
    for line in head.split(b"\n")[:20]:
        if b'"session_meta"' not in line:
            continue
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            return None
        payload = obj.get("payload") if isinstance(obj, dict) else None
        cwd = payload.get("cwd") if isinstance(payload, dict) else None
        return cwd if isinstance(cwd, str) else None
    return None


def codex_transcripts(root: Path, since: float, known: dict[str, str]) -> list[Path]:
    """Rollouts of this work tree changed since ``since`` (epoch seconds). ``known`` maps
    paths already read to their cwd, so a rollout's first lines are read once."""
    roots = _roots(root)
    found = []
    for path in _recent_rollouts(since):
        try:
            if path.stat().st_mtime < since:
                continue
        except OSError:
            continue
        cwd = known.get(str(path))
        if cwd is None:
            cwd = codex_cwd(path) or ""
        if _inside(cwd, roots):
            found.append(path)
    return sorted(found)


def _recent_rollouts(since: float) -> list[Path]:
    """Rollouts in the day folders (local dates, as Codex names them) from a day before
    ``since`` to tomorrow, plus archived ones: no walk over months of old sessions."""
    import time

    found: list[Path] = []
    base = codex_home() / "sessions"
    end = time.time() + 86400
    day = max(since - 86400, end - 400 * 86400)  # a session older than that: its last 400 days
    days: list[str] = []
    while day <= end:
        days.append(time.strftime("%Y/%m/%d", time.localtime(day)))
        day += 86400
    for name in dict.fromkeys(days):
        folder = base / name
        if folder.is_dir():
            found += folder.glob("rollout-*.jsonl")
    archived = codex_home() / "archived_sessions"
    if archived.is_dir():
        found += archived.rglob("rollout-*.jsonl")
    return found


def gemini_dir() -> Path:
    configured = os.environ.get("GEMINI_CLI_HOME", "")
    home = Path(configured).expanduser() if configured.strip() else Path.home()
    return home / ".gemini"


def gemini_transcripts(root: Path) -> list[Path]:
    tmp = gemini_dir() / "tmp"
    if not tmp.is_dir():
        return []
    import hashlib

    roots = _roots(root)
    ids = {hashlib.sha256(r.encode()).hexdigest() for r in roots}
    try:
        registry = json.loads((gemini_dir() / "projects.json").read_text(encoding="utf-8"))
        projects = registry.get("projects") if isinstance(registry, dict) else None
        if isinstance(projects, dict):
            ids |= {v for k, v in projects.items() if k in roots and isinstance(v, str)}
    except (OSError, ValueError, RecursionError, UnicodeDecodeError):
        pass
    for marker in tmp.glob("*/.project_root"):
        try:
            if marker.read_text(encoding="utf-8").strip() in roots:
                ids.add(marker.parent.name)
        except (OSError, UnicodeDecodeError):
            continue
    found: list[Path] = []
    for name in sorted(ids):
        if "/" in name or name in ("", ".", ".."):
            continue
        chats = tmp / name / "chats"
        found += sorted(chats.glob("session-*.jsonl")) + sorted(chats.glob("session-*.json"))
    return found


def guess_agent(path: Path) -> str | None:
    """The agent whose log ``path`` is, from where it lies and its name."""
    text = str(path)
    if path.name.startswith("rollout-"):
        return "codex"
    if "/chats/" in text or path.name.startswith("session-"):
        return "gemini"
    if path.suffix == ".jsonl":
        return "claude"
    return None
