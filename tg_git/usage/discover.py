"""Where each agent keeps the transcripts of a work tree (read-only look-ups).

Claude Code: ``${CLAUDE_CONFIG_DIR:-~/.config/claude,~/.claude}/projects/<cwd with every
character outside [A-Za-z0-9] as ->/``; Codex: rollouts whose ``session_meta.cwd`` is inside
the work tree; Gemini CLI: ``${GEMINI_CLI_HOME:-~}/.gemini/tmp/<id>/chats/``, where the id is
the project's short name (``projects.json``, ``.project_root`` markers) or, in older
versions, the SHA-256 of its path; Copilot CLI: ``${COPILOT_HOME:-~/.copilot}/session-state/
<id>/events.jsonl``, whose first line (``session.start``) names the ``cwd``.

A folder's name is not proof: Claude Code's is lossy (``/w/my.proj`` and ``/w/my-proj`` are
both ``-w-my-proj``). Each transcript is judged by its own record (``owns``): the ``cwd`` its
lines carry, a rollout's ``session_meta.cwd``, a Gemini chat's ``projectHash``. A session
counts here when it ran in this work tree or a folder of it that is no other repository's or
worktree's (a linked worktree inside it, as ``.claude/worktrees/NAME``, keeps its own).
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

AGENTS = ("claude", "codex", "gemini", "copilot", "opencode")  # OpenCode: a database
# (usage/opencode.py)
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
HEAD = 256 * 1024  # where a transcript's cwd is: its first lines
MAX_REGISTRY = 1 << 20  # Gemini's projects.json: a few KiB in real life
MAX_MARKER = 4096  # a .project_root holds one path


class NotRegular(OSError):
    """A path discovery will not read: a FIFO, a device, a folder, or a file over its bound
    (``limit``, 0 for a file that is not a regular one)."""

    def __init__(self, path: Path, limit: int = 0) -> None:
        super().__init__(f"{path.name}: " + (f"over {limit:,} bytes" if limit else "not a file"))
        self.limit = limit


Skipped = list[tuple[str, int]]  # (path, NotRegular.limit) of each file discovery did not read

OPENCODE_NAMES = ("opencode.db",)


def opencode_data_dir() -> Path:
    """OpenCode's data folder (``$OPENCODE_DATA_DIR``, else under ``$XDG_DATA_HOME``)."""
    configured = os.environ.get("OPENCODE_DATA_DIR", "")
    if configured.strip():
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg.strip() else Path.home() / ".local" / "share"
    return base / "opencode"


def opencode_databases() -> list[Path]:
    """OpenCode's databases here (regular files only): found here, so that an import where
    there is none loads no OpenCode reader (usage/opencode.py)."""
    names = OPENCODE_NAMES
    return [
        p for p in (opencode_data_dir() / n for n in names) if p.is_file() and not p.is_symlink()
    ]


def read_head(path: Path, limit: int, whole: bool = False) -> bytes:
    """At most ``limit`` bytes of the regular file ``path`` (``whole``: all of it, or
    ``NotRegular`` when it is larger). Opened non-blocking and checked on the open file, so
    a FIFO or a link to ``/dev/zero`` neither hangs nor floods discovery."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(path)
        if whole and info.st_size > limit:
            raise NotRegular(path, limit)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit)
    finally:
        os.close(fd)


def _peek(path: Path, limit: int, skipped: Skipped, whole: bool = False) -> bytes | None:
    """``read_head``, with a file it will not read named in ``skipped``; None when unreadable."""
    try:
        return read_head(path, limit, whole)
    except NotRegular as exc:
        skipped.append((str(path), exc.limit))
    except OSError:
        pass
    return None


def _roots(root: Path) -> list[str]:
    names = [str(root), os.path.realpath(root)]
    return list(dict.fromkeys(names))


def claude_dirs() -> list[Path]:
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "")
    if configured.strip():
        return [Path(p.strip()).expanduser() for p in configured.split(",") if p.strip()]
    home = Path.home()
    return [home / ".config" / "claude", home / ".claude"]


def claude_transcripts(root: Path, skipped: Skipped) -> list[tuple[Path, bool]]:
    """(path, is a subagent's) for every transcript of this work tree: the project folder of
    its path, and those of its subfolders (an agent started in ``src/``) whose transcripts
    say their cwd is inside it (``/a/repo-two`` encodes like ``/a/repo/two``). Files it
    would not read are named in ``skipped``."""
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
                f
                for f in sorted(projects.glob(f"{encoded}-*"))
                if _claude_inside(f, roots, skipped)
            ]
        for folder in folders:
            if not folder.is_dir():
                continue
            exact = folder.name in {_NOT_ALNUM.sub("-", r) for r in roots}
            found += [
                (p, False)
                for p in sorted(folder.glob("*.jsonl"))
                if _claude_counts(p, folder.name, roots, skipped, exact)
            ]
            found += [
                (p, True)
                for p in sorted(folder.glob("*/subagents/*.jsonl"))
                if _claude_counts(p, folder.name, roots, skipped, exact)
            ]
    return list(dict.fromkeys(found))


def _cwds(path: Path, skipped: Skipped) -> Iterator[str]:
    """The ``cwd`` of each line in a transcript's first ``HEAD`` bytes, in order, read a
    block at a time: the first lines of a real transcript name it."""
    done = 0  # lines read in a smaller block before
    for size in (16 * 1024, HEAD):
        head = _peek(path, size, skipped) or b""
        lines = head.split(b"\n")
        whole = lines if len(head) < size else lines[:-1]  # the last one cut: read it next
        for line in whole[done:]:
            if b'"cwd"' not in line:
                continue
            try:
                cwd = json.loads(line).get("cwd")
            except (ValueError, RecursionError, AttributeError):
                continue
            if isinstance(cwd, str):
                yield cwd
        done = len(whole)
        if len(head) < size:
            return


def claude_verdict(path: Path, folder: str, roots: list[str], skipped: Skipped) -> bool | None:
    """What a Claude transcript in the project folder named ``folder`` says of itself: True
    when its first telling ``cwd`` is this work tree's (``owns``), False when it is a path
    that names this folder (itself or a folder above it: another project whose path encodes
    alike), None when its lines name no such place."""
    for cwd in _cwds(path, skipped):
        if owns(cwd, roots):
            return True
        if _names_folder(cwd, folder):
            return False
    return None


def _claude_counts(
    path: Path, folder: str, roots: list[str], skipped: Skipped, exact: bool
) -> bool:
    """Whether a transcript counts here: by its own record, and when that names no place,
    by its folder's name when it is this work tree's exactly."""
    before = len(skipped)
    verdict = claude_verdict(path, folder, roots, skipped)
    if len(skipped) > before:
        return False  # not a file discovery reads (a FIFO, a device): named in ``skipped``
    return exact if verdict is None else verdict


def _names_folder(cwd: str, folder: str) -> bool:
    path = cwd.rstrip("/")
    while path:
        if _NOT_ALNUM.sub("-", path) == folder:
            return True
        path = path.rpartition("/")[0]
    return False


def _claude_inside(folder: Path, roots: list[str], skipped: Skipped) -> bool:
    """Whether a project folder's transcripts were written with a cwd inside ``roots``."""
    for transcript in sorted(folder.glob("*.jsonl"))[:3]:
        for cwd in _cwds(transcript, skipped):
            return owns(cwd, roots)
    return False


def claude_subagents(transcript: Path) -> list[Path]:
    return sorted(transcript.with_suffix("").glob("subagents/*.jsonl"))


def codex_home() -> Path:
    configured = os.environ.get("CODEX_HOME", "")
    return Path(configured).expanduser() if configured.strip() else Path.home() / ".codex"


def owns(cwd: str, roots: list[str]) -> bool:
    """Whether a session that ran in ``cwd`` worked in this work tree (``roots``: its path
    and its real path): ``cwd`` is the tree, or a folder inside it with no ``.git`` on the
    way down (a nested repository, submodule or linked worktree is another's), as written
    or once its links are resolved."""
    if not cwd or not os.path.isabs(cwd) or "\0" in cwd:
        return False
    for resolve in (False, True):  # resolved only when the path as written is not inside
        path = os.path.realpath(cwd) if resolve else cwd
        for root in roots:
            if path == root:
                return True
            base = root.rstrip("/") + "/"
            if path.startswith(base):
                folder = root
                for part in path[len(base) :].split("/"):
                    folder = os.path.join(folder, part)
                    if part and os.path.lexists(os.path.join(folder, ".git")):
                        return False
                return True
    return False


def codex_cwd(path: Path, skipped: Skipped) -> str | None:
    """The cwd of a rollout's ``session_meta`` (its first lines), None if it has none."""
    head = _peek(path, HEAD, skipped)
    for line in head.split(b"\n")[:20] if head else []:
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


def codex_transcripts(
    root: Path, since: float, known: dict[str, str], skipped: Skipped
) -> list[Path]:
    """Rollouts of this work tree changed since ``since`` (epoch seconds). ``known`` maps
    paths already read to their cwd, so a rollout's first lines are read once."""
    return _of_this_tree(_recent_rollouts(since), root, since, known, codex_cwd, skipped)


def _of_this_tree(
    paths: Iterable[Path],
    root: Path,
    since: float,
    known: dict[str, str],
    cwd_of: Callable[[Path, Skipped], str | None],
    skipped: Skipped,
) -> list[Path]:
    """Of ``paths``, those changed since ``since`` whose cwd (``known``'s, else what
    ``cwd_of`` reads from the file) is the work tree at ``root`` or under it, sorted."""
    roots, found = _roots(root), []
    for path in paths:
        try:
            if os.stat(path).st_mtime < since:
                continue
        except OSError:
            continue
        cwd = known.get(str(path))
        if cwd is None:
            cwd = cwd_of(path, skipped) or ""
        if owns(cwd, roots):
            found.append(path)
    return sorted(found)


def _recent_rollouts(since: float) -> list[Path]:
    """Rollouts in the day folders (local dates, as Codex names them) from a day before
    ``since`` to tomorrow, plus archived ones: no walk over months of old sessions. The walk
    steps half a day: a local day has 23 hours where the clocks go forward, and a step of a
    whole day from late evening would leap over it."""

    found: list[Path] = []
    base = codex_home() / "sessions"
    end = time.time() + 86400
    day = max(since - 86400, end - 400 * 86400)  # a session older than that: its last 400 days
    days: list[str] = []
    while day <= end:
        days.append(time.strftime("%Y/%m/%d", time.localtime(day)))
        day += 43200
    days.append(time.strftime("%Y/%m/%d", time.localtime(end)))
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


def _gemini_registry(skipped: Skipped) -> dict[str, str]:
    """``projects.json``: project path -> its short name (the folder under ``tmp/``)."""
    raw = _peek(gemini_dir() / "projects.json", MAX_REGISTRY, skipped, whole=True)
    try:
        registry = json.loads(raw) if raw else None
    except (ValueError, RecursionError):
        return {}
    projects = registry.get("projects") if isinstance(registry, dict) else None
    if not isinstance(projects, dict):
        return {}
    return {k: v for k, v in projects.items() if isinstance(k, str) and isinstance(v, str)}


def _gemini_marker(folder: Path, skipped: Skipped) -> str | None:
    """The project path a ``tmp/<name>/.project_root`` names; None without one."""
    text = _peek(folder / ".project_root", MAX_MARKER, skipped, whole=True)
    return None if text is None else text.decode("utf-8", "replace").strip()


def gemini_ids(roots: list[str], skipped: Skipped) -> set[str]:
    """The names Gemini CLI gives this work tree's folder under ``tmp/``: the SHA-256 of its
    path (older versions), its short name in ``projects.json`` and in ``.project_root``."""
    import hashlib  # lazy: 4.1 ms

    ids = {hashlib.sha256(r.encode()).hexdigest() for r in roots}
    ids |= {name for path, name in _gemini_registry(skipped).items() if path in roots}
    for marker in (gemini_dir() / "tmp").glob("*/.project_root"):
        if _gemini_marker(marker.parent, skipped) in roots:
            ids.add(marker.parent.name)
    return ids


def _gemini_belongs(folder: Path, roots: list[str], skipped: Skipped) -> bool:
    """Whether Gemini's ``tmp/<name>`` folder is this work tree's: one of its ids, or its
    short name (the folder's base name) that neither the registry nor a marker gives to
    another project."""
    name = folder.name
    if name in gemini_ids(roots, skipped):
        return True
    if name not in {Path(r).name for r in roots}:
        return False
    marker = _gemini_marker(folder, skipped)
    return name not in _gemini_registry(skipped).values() and marker in (None, *roots)


def gemini_transcripts(root: Path, skipped: Skipped) -> list[Path]:
    tmp = gemini_dir() / "tmp"
    if not tmp.is_dir():
        return []
    ids = gemini_ids(_roots(root), skipped)
    found: list[Path] = []
    for name in sorted(ids):
        if "/" in name or name in ("", ".", ".."):
            continue
        chats = tmp / name / "chats"
        found += sorted(chats.glob("session-*.jsonl")) + sorted(chats.glob("session-*.json"))
    roots, before = _roots(root), len(skipped)
    found = [p for p in found if _gemini_hash_ok(p, roots, skipped)]
    named = {path for path, _ in skipped[before:]}  # not files discovery reads: named there
    return [p for p in found if str(p) not in named]


_PROJECT_HASH = re.compile(rb'"projectHash"\s*:\s*"([0-9a-f]{64})"')


def _gemini_hash_ok(path: Path, roots: list[str], skipped: Skipped) -> bool:
    """Whether a chat's own record agrees that it is this work tree's: the ``projectHash``
    Gemini CLI writes at its start (the SHA-256 of the project's path) is one of ``roots``'s;
    a chat that records none is judged by its folder."""
    import hashlib  # lazy: 4.1 ms

    found = _PROJECT_HASH.search(_peek(path, 16 * 1024, skipped) or b"")
    if found is None:
        return True
    return found.group(1).decode() in {hashlib.sha256(r.encode()).hexdigest() for r in roots}


def copilot_home() -> Path:
    configured = os.environ.get("COPILOT_HOME", "")
    return Path(configured).expanduser() if configured.strip() else Path.home() / ".copilot"


COPILOT_FIRST = 16 * 1024  # a session's first line, its ``session.start``: ~500 bytes


def copilot_cwd(path: Path, skipped: Skipped) -> str | None:
    """The cwd a Copilot session's first line (its ``session.start``) names; None when the
    line is not one (or not written whole yet)."""
    from tg_git.usage import copilot  # lazy: 0.3 ms

    head = _peek(path, COPILOT_FIRST, skipped) or b""
    line, newline, _ = head.partition(b"\n")
    if not newline or b'"session.start"' not in line:
        return None
    try:
        return copilot.start_cwd(json.loads(line))
    except (ValueError, RecursionError):
        return None


def copilot_transcripts(
    root: Path, since: float, known: dict[str, str], skipped: Skipped, session: str = ""
) -> list[Path]:
    """Copilot sessions of this work tree changed since ``since`` (epoch seconds): the
    folders under ``session-state`` (only ``session``'s when it is named), each judged by
    its first line once (``known`` maps the paths read before to their cwd)."""
    state = copilot_home() / "session-state"
    if session:
        names = [session] if _COPILOT_ID.fullmatch(session) else []
    else:
        try:
            names = [e.name for e in os.scandir(state) if not e.name.startswith(".")]
        except OSError:
            return []
    paths = [state / name / "events.jsonl" for name in names]
    return _of_this_tree(paths, root, since, known, copilot_cwd, skipped)


_COPILOT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def belongs(root: Path, path: Path, agent: str) -> bool:
    """Whether ``path`` is a transcript of the work tree at ``root``, where ``agent`` keeps
    them: a hook's input names its transcript, and a path to another project's (or to any
    file at all) must not be imported into this repository's ledger."""
    roots = _roots(root)
    folder = Path(os.path.realpath(path.parent))
    skipped: Skipped = []
    if agent == "claude":
        if folder.name == "subagents":  # <project>/<session>/subagents/<agent>.jsonl
            folder = folder.parent.parent
        bases = {os.path.realpath(base / "projects") for base in claude_dirs()}
        if str(folder.parent) not in bases:
            return False
        names = [_NOT_ALNUM.sub("-", r) for r in roots]
        exact = folder.name in names
        if not exact and not any(folder.name.startswith(n + "-") for n in names):
            return False
        return _claude_counts(path, folder.name, roots, skipped, exact)
    if agent == "codex":
        home = os.path.realpath(codex_home())
        inside_home = str(folder).startswith(home.rstrip("/") + "/")
        return inside_home and owns(codex_cwd(path, skipped) or "", roots)
    if agent == "copilot":
        state = os.path.realpath(copilot_home() / "session-state")
        if path.name != "events.jsonl" or str(folder.parent) != state:
            return False
        return owns(copilot_cwd(path, skipped) or "", roots)
    if agent == "gemini":
        tmp = os.path.realpath(gemini_dir() / "tmp")
        if folder.name != "chats" or str(folder.parent.parent) != tmp:
            return False
        return _gemini_belongs(folder.parent, roots, skipped) and _gemini_hash_ok(
            path, roots, skipped
        )
    return False


def guess_agent(path: Path) -> str | None:
    """The agent whose log ``path`` is, from where it lies and its name."""
    text = str(path)
    if path.name == "events.jsonl" and path.parent.parent.name == "session-state":
        return "copilot"
    if path.name.startswith("rollout-"):
        return "codex"
    if "/chats/" in text or path.name.startswith("session-"):
        return "gemini"
    if path.suffix == ".jsonl":
        return "claude"
    return None
