"""The current session as last replayed, kept under the git dir so an agent turn does not parse
and replay every event again (10,000 events: ~400 ms) when only tg-git's own appends happened.

A memo is keyed by a fingerprint of everything the session is read from: the texts (journal
of this line of work, the journals of the others, the ledger file in the work tree, the 0.1
single file) by length and CRC-32 of the exact text that was read, and the refs the landed
texts come from (HEAD, its branch, ORIG_HEAD, packed refs, the branch's reflog). Any change
there, by git, by a user or by another tg-git, is a different key and so a full read; a memo
is never trusted beyond its key. It is local bookkeeping: a missing, stale or corrupt memo
only costs the full read.
"""

from __future__ import annotations

import os
import stat
import zlib
from collections.abc import Callable, Iterable, Mapping

from tg_git import __version__
from tg_git.domain.typed import NamedTuple
from tg_git.repo import regular
from tg_git.repo.packed import pack as pack
from tg_git.repo.packed import unpack as unpack

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any

    from tg_git.domain.eventlog import Event
    from tg_git.domain.replay import Record, Session
    from tg_git.repo import git

FORMAT = 2  # bump when replay's meaning changes (2: a CRC-32 after the data)
MEMO = "tg-git/session.memo"  # per worktree, like the session pointer
MAX_BYTES = 64 << 20


class State(NamedTuple):
    """A session as replayed, with what the agent hooks ask of its events."""

    session: Session | None
    usage_keys: frozenset[str]  # keys of its usage events (an import never writes one twice)
    newest: str  # the latest `at` among its events: later events fold on without a replay
    fingerprint: str  # "" when the sources changed while they were read


def _file(path: os.PathLike[str] | str) -> bytes:
    try:  # a FIFO at ORIG_HEAD is not waited on
        return regular.read_bytes(os.fspath(path), limit=4096)
    except OSError:
        return b""


def _stat(path: os.PathLike[str] | str) -> str:
    try:
        info = os.stat(path)
    except OSError:
        return "-"
    return f"{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"


def refs(repo: git.Repo) -> str:
    """Where HEAD, its branch and ORIG_HEAD point, read without a process. Git replaces a ref
    file by renaming a new one over it and appends to the reflog, so both show in a stat."""
    join = os.path.join
    common = repo.commondir  # replace refs and grafts change what a commit's tree reads
    parts = [
        _file(repo.git_file("ORIG_HEAD")).hex(),
        _stat(join(common, "packed-refs")),
        _stat(join(common, "refs", "replace")),
        _stat(join(common, "info", "grafts")),
        _stat(join(common, "reftable", "tables.list")),
    ]
    for name in ("HEAD", "rebase-merge/head-name", "rebase-apply/head-name"):  # as git.branch
        head = _file(repo.git_file(name))
        parts.append(head.hex())
        ref = head.removeprefix(b"ref: ").strip().decode("utf-8", "replace")
        if ref.startswith("refs/heads/") and ".." not in ref:
            parts += [_file(join(common, ref)).hex(), _stat(join(common, "logs", ref))]
    return "|".join(parts)


Part = tuple[int, int] | None  # length and CRC-32 of one text; None: no such file


def part(item: bytes | str | None) -> Part:
    if item is None:
        return None
    data = item.encode("utf-8", "surrogateescape") if isinstance(item, str) else item
    return len(data), zlib.crc32(data)


def extended(before: Part, more: bytes) -> Part:
    """The part of a text after ``more`` was appended to it (CRC-32 continues)."""
    length, crc = before if before is not None else (0, 0)
    return length + len(more), zlib.crc32(more, crc)


def joined(parts: Iterable[Part]) -> str:
    return ",".join("-" if p is None else f"{p[0]}:{p[1]:08x}" for p in parts)


def digest(*items: bytes | str | None) -> str:
    """Length and CRC-32 of each item, in order (None and empty differ)."""
    return joined(part(i) for i in items)


def state_of(events: Mapping[str, Event], fingerprint: str, use_measured: bool) -> State:
    """Replay ``events`` (one session's) into a memo-able state."""
    from tg_git.domain import replay  # lazy: 2.6 ms

    session = replay.replay(events, use_measured=use_measured)
    mine = [e for e in events.values() if session is not None and e.get("session") == session.id]
    usage = frozenset(k for k, e in events.items() if e.get("kind") == "usage")
    newest = max((str(e.get("at", "")) for e in mine), default="")
    return State(session, usage, newest, fingerprint)


def _plain(session: Session) -> dict[str, object]:
    data = {name: getattr(session, name) for name in session.FIELDS}
    data["tasks"] = [tuple(getattr(t, n) for n in t.FIELDS) for t in session.tasks.values()]
    return data


def _strings(value: object) -> bool:
    return type(value) is list and all(type(v) is str for v in value)


def _outputs(value: object) -> bool:
    return type(value) is list and all(
        type(o) is tuple and len(o) == 3 and type(o[0]) is str and type(o[1]) is type(o[2]) is int
        for o in value
    )


# What a memo's value must be, by the annotation of its field in the record (a field of
# another type makes every memo unreadable: a test keeps this table complete).
FITS: dict[str, Callable[[object], bool]] = {
    "str": lambda v: type(v) is str,
    "int": lambda v: type(v) is int,
    "bool": lambda v: type(v) is bool,
    "list[str]": _strings,
    "list[tuple[str, int, int]]": _outputs,
}


def _never(_value: object) -> bool:
    return False


def _fits(record: type[Record], values: Mapping[str, object], skip: str = "") -> bool:
    """``values`` are exactly ``record``'s fields (but ``skip``), each of its declared type."""
    annotations = record.__annotations__
    fields = [name for name in record.FIELDS if name != skip]
    return set(values) == set(fields) and all(
        FITS.get(annotations[name], _never)(values[name]) for name in fields
    )


def _session(data: dict[str, Any]) -> Session | None:
    """The session a memo holds, or None when any field is not of its type (a damaged or
    hand-made memo then costs a full read, never a wrong sum or a crash)."""
    from tg_git.domain.replay import Session, Task  # lazy: 2.6 ms

    tasks = data.pop("tasks", None)
    if type(tasks) is not list or not _fits(Session, data, skip="tasks"):
        return None
    width = len(Task.FIELDS)
    rows = [dict(zip(Task.FIELDS, t)) for t in tasks if type(t) is tuple and len(t) == width]
    if len(rows) != len(tasks) or not all(_fits(Task, row) for row in rows):
        return None
    return Session(**data, tasks={row["title"]: Task(**row) for row in rows})


def _read(path: os.PathLike[str] | str) -> bytes | None:
    """A regular file's bytes, never through a link and never blocking (a FIFO or a device
    at the memo's path is not a memo)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(MAX_BYTES + 1)
    finally:
        os.close(fd)


def load(repo: git.Repo, fingerprint: str) -> State | None:
    """The memo kept for ``fingerprint``, or None (none, another key, unreadable)."""
    try:
        data = read_data(repo, MEMO)
        if not (isinstance(data, dict) and data.get("format") == FORMAT):
            return None
        if data.get("fingerprint") != fingerprint:
            return None
        plain, keys, newest = data["session"], data["usage_keys"], data["newest"]
        session = _session(plain) if plain is not None else None
        if (plain is not None and session is None) or not _strings(keys) or type(newest) is not str:
            return None
        return State(session, frozenset(keys), newest, fingerprint)
    except Exception:  # anything a damaged file raises: read the session in full instead
        return None


def store(repo: git.Repo, state: State) -> None:
    if not state.fingerprint:
        return
    data = {
        "format": FORMAT,
        "fingerprint": state.fingerprint,
        "session": _plain(state.session) if state.session is not None else None,
        "usage_keys": sorted(state.usage_keys),
        "newest": state.newest,
    }
    write_data(repo, MEMO, data)


def read_data(repo: git.Repo, name: str) -> Any:
    """What the memo file ``name`` (under the git dir) holds, or None when it is not sound;
    a missing or unreadable one raises OSError (the callers read the session in full)."""
    return unpack(_read(repo.git_file(name)))


def write_data(repo: git.Repo, name: str, data: dict[str, object]) -> None:
    """A memo file written whole (a new file renamed over the old), or not at all: it is
    bookkeeping, and a missing one only costs the next read a full one."""
    path = repo.git_file(name)  # strings: the hooks import no ``pathlib`` (~5 ms)
    folder, base = os.path.split(path)
    tmp = os.path.join(folder, f".{base}.{os.getpid()}.tmp")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(pack(data))
        os.replace(tmp, path)
    except (OSError, ValueError):
        if os.path.lexists(tmp):
            os.unlink(tmp)


# ---- the settled files of a long session ---------------------------------------------------
BASE = "tg-git/base.memo"  # per worktree: the settled files' replay (``segments``)


class Base(NamedTuple):
    """A session's settled files (all but its last, as HEAD holds them) replayed once, so a
    commit of a 100,000-event session parses only its last file: valid while ``key`` (the
    settled files' blob ids) and the journals it was read with stay as they were."""

    key: str
    session: Session
    newest: str  # the latest `at` of the settled events: newer ones fold on top
    journal: tuple[int, int]  # journal.mark when it was made: only what came after is read
    journaled: list[str]  # lines the journal held then that are in the session's last file
    away: list[str]  # the session's lines on other lines of work that are not here
    elsewhere: str  # journal.elsewhere_sizes then
    usage_keys: list[str]  # the keys of the settled usage events (``State.usage_keys``)
    at_newest: list[str]  # replay.keys_at_newest of the settled events at ``newest``


def base_key(rel: str, settled: Iterable[tuple[str, str]], use_measured: bool) -> str:
    """The key of a session's settled files: their paths and blob ids, in order."""
    from tg_git.domain import gitobjects  # lazy: 0.4 ms

    text = "\n".join(f"{path} {blob}" for path, blob in settled)
    return gitobjects.sha1_hex(f"{FORMAT}|{__version__}|{rel}|{use_measured}\n{text}".encode())


def load_base(repo: git.Repo, key: str) -> Base | None:
    """The base kept for ``key``, or None (none, another key, unreadable, damaged)."""
    try:
        data = read_data(repo, BASE)
        if not (isinstance(data, dict) and data.get("format") == FORMAT and data.get("key") == key):
            return None
        session = _session(data["session"])
        journal, journaled, away = data["journal"], data["journaled"], data["away"]
        ok = (
            type(journal) is tuple
            and len(journal) == 2
            and all(type(v) is int for v in journal)
            and _strings(journaled)
            and _strings(away)
            and type(data["newest"]) is str
            and type(data["elsewhere"]) is str
            and _strings(data["usage_keys"])
            and _strings(data["at_newest"])
        )
        if session is None or not ok:
            return None
        return Base(
            key,
            session,
            data["newest"],
            journal,
            journaled,
            away,
            data["elsewhere"],
            data["usage_keys"],
            data["at_newest"],
        )
    except Exception:  # anything a damaged file raises: read the session in full instead
        return None


def store_base(repo: git.Repo, base: Base) -> None:
    data = {
        "format": FORMAT,
        "key": base.key,
        "session": _plain(base.session),
        "newest": base.newest,
        "journal": base.journal,
        "journaled": base.journaled,
        "away": base.away,
        "elsewhere": base.elsewhere,
        "usage_keys": base.usage_keys,
        "at_newest": base.at_newest,
    }
    write_data(repo, BASE, data)
