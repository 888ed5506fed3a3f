"""What the status line keeps between refreshes, under the work tree's git dir
(``tg-git/gauge.memo``): the current session's figures as replayed (``replay.Session``, less
its plan), the config's limits, and exactly what they were computed from.

A refresh reads the session's figures from here, not from the ledger, when:

- every file and folder the session is read from, but two, stats as it did (``key``): HEAD
  (by content), the refs and reflog the landed events come from, the session pointer, the
  config, the ledger's folder and the session's files in the work tree, the held lines, the
  other lines of work's journals;
- the two a turn writes, this line of work's journal of the session and its events waiting
  for the next commit (``tg-git/pending``), were only appended to since (the CRC-32 of the
  ``CHECKED`` bytes before the remembered end, as ``journal.read_after`` checks the journal);
- and what they gained is plain lines of this session tg-git wrote, each newer than every
  event the figures hold, none a commit or a session start (``fold``: ``replay.resumed``
  applies them as a replay would).

Anything else, however small (a line it cannot read, a line as old as the newest, a torn
line, a file rewritten, a link, a damaged memo), is "read the session in full" (the caller's
slow path, which writes the memo again). A long session's settled files are read from HEAD
(``repo.settled``), so their copies in the work tree count by their folders alone; a session
read from every file in the work tree keys every file. The memo is written atomically, never
through a link, and only inside the git dir; a failure only costs the next refresh the full
read.
"""

from __future__ import annotations

import os
import stat
import zlib

from tg_git import __version__
from tg_git.domain import jsonfast, layout, replay
from tg_git.domain.counts import COUNTS, MAX_COUNT
from tg_git.repo.hotstate import stat_key as _stat
from tg_git.repo.packed import pack, unpack

TYPE_CHECKING = False  # `import typing` costs every refresh a few ms
if TYPE_CHECKING:
    from typing import Any

MEMO = "tg-git/gauge.memo"  # under the work tree's git dir
FORMAT = 1
MAX_BYTES = 1 << 20  # a memo holds a few hundred values: a larger file is not one
MAX_NEW = 1 << 20  # more new bytes than a turn writes: read the session in full instead
CHECKED = 4096  # bytes before a remembered end whose CRC-32 says a file was only appended to
DISCOVERY = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
             "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_INDEX_FILE")  # fmt: skip
PLAN = ("tasks", "context", "next_steps", "outputs")  # not kept: no budget reads them
FOLDED = frozenset({"input", "usage", "task", "note", "next", "budget"})
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_TYPES = {"str": str, "int": int, "bool": bool, "list[str]": list}


# ---- where -----------------------------------------------------------------------------------
def locate(cwd: str) -> tuple[str, str] | None:
    """The work tree and git dir above ``cwd`` when plainly found (a ``.git`` folder, or a
    ``gitdir:`` file); None for anything else (the full path then asks git)."""
    if any(name in os.environ for name in DISCOVERY):
        return None
    folder = os.path.realpath(cwd or os.getcwd())
    while True:
        dot_git = os.path.join(folder, ".git")
        if os.path.isdir(dot_git):
            return folder, os.path.realpath(dot_git)
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, encoding="utf-8") as fh:
                    text = fh.read(4096).strip()
            except (OSError, UnicodeDecodeError):
                return None
            if not text.startswith("gitdir: "):
                return None
            return folder, os.path.realpath(os.path.join(folder, text[len("gitdir: ") :]))
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


# ---- what the figures are read from ------------------------------------------------------------
def _listing(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _entries(folder: str, skip: str = "") -> list[tuple[str, tuple[int, int, int] | None]]:
    """Name and stat of each entry of ``folder`` but ``skip`` (a tail: ``added`` reads it,
    whether it is there or not)."""
    return [(n, _stat(os.path.join(folder, n))) for n in _listing(folder) if n != skip]


def _segments(root: str, rel: str, settled: bool) -> list[Any]:
    """The session's later files (``<session>/<high>/<n>.toml``): each folder; each segment
    when the session is read from the work tree's files, its last two when its settled files
    are read from HEAD (a file added, removed or renamed shows in its folder)."""
    folder = os.path.join(root, rel.removesuffix(".toml"))
    found: list[Any] = [_stat(folder)]
    highs = _listing(folder)
    found += [(high, _stat(os.path.join(folder, high))) for high in highs]
    files: list[str] = []
    for high in reversed(highs) if settled else highs:  # settled: from the end, two files
        listed = layout.segments_in(high, _listing(os.path.join(folder, high)))
        names = [os.path.join(folder, high, n) for _, n in sorted(listed)]
        files = names + files if settled else files + names
        if settled and len(files) >= 2:
            break
    found += [_stat(p) for p in (files[-2:] if settled else files)]
    return found


def _branch(git_dir: str) -> tuple[bytes, list[str]]:
    try:
        with open(os.path.join(git_dir, "HEAD"), "rb") as fh:
            head = fh.read(300)
    except OSError:
        head = b""
    ref = head.removeprefix(b"ref: ").strip().decode("utf-8", "replace")
    return head, ([ref, f"logs/{ref}"] if ref.startswith("refs/heads/") and ".." not in ref else [])


def key(bases: tuple[str, str, str], rel: str, tails: list[str], settled: bool) -> list[Any]:
    """What the session of ``rel`` is read from, by stat (HEAD by content), but the ``tails``
    (the two files ``fold`` reads from a remembered end: named, not stated)."""
    root, git_dir, common = bases
    head, refs = _branch(git_dir)
    mine = ["ORIG_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "tg-git/session",
            "rebase-merge/head-name", "rebase-apply/head-name"]  # fmt: skip
    shared = ["packed-refs", "refs/replace", "info/grafts", "reftable/tables.list", *refs]
    tree = [".tg-git/config.toml", ".tg-git/ledger.toml", ".tg-git/ledger", rel]
    journals = os.path.join(common, "tg-git", "journal")
    skip = {os.path.dirname(t): os.path.basename(t) for t in tails}
    return [
        __version__, head.hex(), rel,
        [_stat(os.path.join(git_dir, p)) for p in mine],
        [_stat(os.path.join(common, p)) for p in shared],
        [_stat(os.path.join(root, p)) for p in tree],
        _entries(os.path.join(root, ".tg-git", "ledger")),
        _segments(root, rel, settled),
        _entries(os.path.join(git_dir, "tg-git", "held")),
        _entries(os.path.join(git_dir, "tg-git", "pending"), skip.get(
            os.path.join(git_dir, "tg-git", "pending"), "")),
        [(b, _entries(os.path.join(journals, b), skip.get(os.path.join(journals, b), "")))
         for b in _listing(journals)],
    ]  # fmt: skip


# ---- the two files a turn appends to -------------------------------------------------------
def mark(path: str) -> tuple[str, int, int]:
    """Where ``path`` ends now, and the CRC-32 of its last ``CHECKED`` bytes (a missing file
    ends at 0; one that ends mid-line gets a CRC no file has: a write under way)."""
    found = _tail_bytes(path, -CHECKED)
    if found is None or not found[1]:
        return path, 0, 0
    size, data = found
    return path, size, zlib.crc32(data) if data.endswith(b"\n") else -1


def _open_regular(path: str) -> tuple[int, os.stat_result] | None:
    """A regular file opened for reading, never through a link, and its status; None else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info


def _tail_bytes(path: str, start: int) -> tuple[int, bytes] | None:
    """A regular file's length, and its bytes from ``start`` (negative: that many before its
    end) to its end then, at most ``MAX_NEW`` past ``CHECKED``; never through a link; None
    for none."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    try:
        start = max(0, info.st_size + start if start < 0 else start)
        os.lseek(fd, start, os.SEEK_SET)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(min(max(0, info.st_size - start), MAX_NEW + CHECKED + 1))
        return start + len(data), data
    except OSError:
        return None
    finally:
        os.close(fd)


def added(where: tuple[str, int, int]) -> tuple[str, tuple[str, int, int]] | None:
    """What the file ``mark`` gave ``where`` for gained since (whole lines), and its mark
    after them; None when it is shorter, its bytes before that end changed, it gained too
    much or ends mid-line."""
    path, size, crc = where
    start = max(0, size - CHECKED)
    found = _tail_bytes(path, start)
    data = found[1] if found is not None else b""
    if not data:
        return ("", where) if size == 0 else None
    if len(data) < size - start or zlib.crc32(data[: size - start]) != crc:
        return None
    new = data[size - start :]
    if len(new) > MAX_NEW or (new and not new.endswith(b"\n")):
        return None
    try:
        text = new.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text, (path, start + len(data), zlib.crc32(data[-CHECKED:]))


def _event(line: str) -> tuple[str, dict[str, Any]] | None:
    """A line exactly as tg-git writes it (``eventlog.event_line``: ``KEY = { "field" = ... }``)
    as its key and event; None for any other (the full read then decides what it is)."""
    name, sep, body = line.partition(" = ")
    if not (sep and name and _KEY_CHARS.issuperset(name)):
        return None
    if not (body.startswith('{ "') and body.endswith("}")) or '\\" = ' in body:
        return None
    try:
        event = jsonfast.loads(body.replace('" = ', '": '))
    except (ValueError, RecursionError):
        return None
    if not isinstance(event, dict) or not all(_count_ok(event, n) for n in COUNTS):
        return None
    return name, event


def _count_ok(event: dict[str, Any], name: str) -> bool:
    value = event.get(name, 0)
    return type(value) is int and 0 <= value <= MAX_COUNT


def new_events(texts: list[str]) -> dict[str, dict[str, Any]] | None:
    """The events of ``texts`` (the two files' new lines), each key once; None when a line is
    not one tg-git writes, or one key has two bodies."""
    found: dict[str, dict[str, Any]] = {}
    lines: dict[str, str] = {}
    for text in texts:
        if "\r" in text or "\ufeff" in text:
            return None
        for line in text.split("\n"):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            parsed = _event(line)
            if parsed is None or lines.get(parsed[0], line) != line:
                return None
            lines[parsed[0]] = line
            found[parsed[0]] = parsed[1]
    return found


def fold(session: replay.Session, newest: str, events: dict[str, dict[str, Any]]
         ) -> tuple[replay.Session, str] | None:  # fmt: skip
    """``session`` with ``events`` applied as a replay of every event would apply them, and
    the newest time after; None when that is not sure: an event of another session, a commit
    (it lands only with its commit) or a start, one not newer than ``newest``."""
    if not events:
        return session, newest
    times = []
    for event in events.values():
        at = event.get("at")
        if event.get("kind") not in FOLDED or event.get("session") != session.id:
            return None
        if not isinstance(at, str) or at <= newest:
            return None
        times.append(at)
    try:
        return replay.resumed(session, events), max(times)  # type: ignore[arg-type]
    except (ValueError, TypeError, KeyError, AttributeError):  # a value replay refuses
        return None


# ---- the memo file ------------------------------------------------------------------------------
def plain(session: replay.Session) -> dict[str, Any]:
    return {n: getattr(session, n) for n in replay.Session.FIELDS if n not in PLAN}


def session_of(data: Any) -> replay.Session | None:
    """The session a memo keeps, or None when any field is missing or not of its type."""
    names = [n for n in replay.Session.FIELDS if n not in PLAN]
    types = replay.Session.__annotations__
    if type(data) is not dict or sorted(data) != sorted(names):
        return None
    for name in names:
        want = _TYPES.get(types[name])
        if want is None or type(data[name]) is not want:
            return None
    if not all(type(v) is str for v in data["recorded"]):
        return None
    return replay.Session(**data)


def load(git_dir: str) -> dict[str, Any] | None:
    """The memo's values (``format`` checked), or None: missing, a link, not a regular file,
    too large, damaged (its CRC-32), another format."""
    opened = _open_regular(os.path.join(git_dir, MEMO))
    if opened is None:
        return None
    fd, info = opened
    try:
        if info.st_size > MAX_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_BYTES + 1)
        data = unpack(raw)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    finally:
        os.close(fd)
    return data if type(data) is dict and data.get("format") == FORMAT else None


def store(git_dir: str, data: dict[str, Any]) -> None:
    """Write the memo whole (a new file renamed over), only into a plain ``tg-git`` folder of
    the git dir, never through a link; bookkeeping: a failure only costs the next full read."""
    folder = os.path.join(git_dir, "tg-git")
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return
        packed = pack({**data, "format": FORMAT})
    except (OSError, ValueError):
        return
    tmp = os.path.join(folder, f".gauge.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(tmp, flags, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(packed)
        os.replace(tmp, os.path.join(git_dir, MEMO))
    except OSError:
        try:  # noqa: SIM105 (contextlib: ~1.5 ms of every refresh)
            os.unlink(tmp)
        except OSError:
            pass
