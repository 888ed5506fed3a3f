"""This clone's own record of every event it wrote or saw land, and the lock around ledger writes.

Both live under the common git dir (``.git/tg-git/``), never tracked, shared by linked
worktrees. The journal is append-only, one file per line of work (branch) and ledger file,
holding ledger lines as they are: a revert, a reset, a dropped rebase pick or a hand edit may
take a line out of the tracked ledger, but not out of the journal, and the next commit on that
branch puts it back. That makes "an event once written is never lost" a property of every
write rather than of each code path. Keeping branches apart means a branch's events reach
another only the way its work does: by a merge, a pick or a squash.

The lock is an ``flock`` on one file: it is released when its holder exits, however it
exits, so a killed command never leaves a stale lock behind.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from tg_git.domain import gitobjects, layout
from tg_git.domain.errors import TgGitError, os_fix_said, os_reason
from tg_git.repo import git, regular

LOCK_TIMEOUT = 30.0  # seconds; a commit of 100 MB holds it ~5 s
SESSION_START = "session-start.lock"  # two agents' SessionStart hooks at once start one session


# Paths here are strings (``os.path``): the commit hooks import no ``pathlib`` (~5 ms).
def _folder(repo: git.Repo, branch: str | None = None) -> str:
    name = branch if branch is not None else git.branch(repo)
    key = gitobjects.sha1_hex(name.encode("utf-8", "surrogateescape"))[:16]
    return os.path.join(repo.commondir, "tg-git", "journal", key)


def _others(mine: str) -> list[str]:
    """The journal folders of this clone's other lines of work (OSError: none can be read)."""
    parent, own = os.path.split(mine)
    return [os.path.join(parent, n) for n in sorted(os.listdir(parent)) if n != own]


def _bytes(path: str) -> bytes:
    return regular.read_bytes(path)  # a FIFO left at the path is no journal: never waited on


def _name(ledger_file: str) -> str:
    """The journal's file name for a ledger file: its session's (a segment's lines are its
    session's), the file's own name otherwise (ledger file names are plain)."""
    return (layout.session_file_of(ledger_file) or ledger_file).rsplit("/", 1)[-1]


def path(repo: git.Repo, ledger_file: str) -> str:
    """The journal of one ledger file (a session's) on this line of work."""
    return os.path.join(_folder(repo), _name(ledger_file))


def read(repo: git.Repo, ledger_file: str) -> str:
    return read_bytes(repo, ledger_file).decode("utf-8", "replace")


def read_bytes(repo: git.Repo, ledger_file: str) -> bytes:
    try:
        return _bytes(path(repo, ledger_file))
    except OSError:
        return b""  # the journal is a safety net: an unreadable one must not stop a commit


CHECKED = 4096  # bytes before a remembered offset whose CRC says the journal was only appended to


def mark(repo: git.Repo, ledger_file: str) -> tuple[int, int]:
    """The journal's length now and the CRC-32 of its last ``CHECKED`` bytes: where a later
    ``read_after`` starts (the journal is append-only; a rewritten one fails the check)."""
    import zlib  # lazy: 0.5 ms

    data = read_bytes(repo, ledger_file)
    return len(data), zlib.crc32(data[-CHECKED:])


def read_after(repo: git.Repo, ledger_file: str, where: tuple[int, int]) -> str | None:
    """What the journal gained since ``mark`` gave ``where``; None when it is shorter or its
    bytes before that point changed (then it must be read whole)."""
    import zlib  # lazy: 0.5 ms

    size, crc = where
    start = max(0, size - CHECKED)
    try:
        data = regular.read_bytes(path(repo, ledger_file), start)
    except OSError:
        return None if size else ""
    if len(data) < size - start or zlib.crc32(data[: size - start]) != crc:
        return None
    return data[size - start :].decode("utf-8", "replace")


def elsewhere_sizes(repo: git.Repo, ledger_file: str) -> str:
    """The length of the same ledger file's journal on each other line of work (a change
    there is spend this line of work has not seen)."""
    name = _name(ledger_file)
    try:
        folders = _others(_folder(repo))
    except OSError:
        return ""
    sizes = []
    for folder in folders:
        try:
            sizes.append(
                f"{os.path.basename(folder)}:{os.stat(os.path.join(folder, name)).st_size}"
            )
        except OSError:
            continue
    return ",".join(sizes)


def missing(lines: list[str], text: str) -> list[str]:
    """The non-empty ``lines`` that are not a whole line of ``text`` (a few lines: searched
    for, rather than splitting 10,000 lines into a set on every agent turn)."""
    if len(lines) > 16:
        have = set(text.split("\n"))
        return [ln for ln in lines if ln and ln not in have]
    padded = f"\n{text}\n"
    return [ln for ln in lines if ln and f"\n{ln}\n" not in padded]


def record(repo: git.Repo, ledger_file: str, lines: Iterable[str], known: str = "") -> str:
    """Append the ``lines`` the journal (whose text is ``known``, if the caller read it) does
    not hold yet; returns the text appended ("" for none). (No fsync: the lines it keeps are
    in a commit or in the ledger file too, which is fsynced; the journal is the second copy.)"""
    known = known or read(repo, ledger_file)
    new = missing(list(dict.fromkeys(lines)), known)
    if not new:
        return ""
    target = path(repo, ledger_file)
    # After a torn last line (a crash mid-write): a line end first, or the first new line
    # would be glued to it and be no event.
    torn = "\n" if known and not known.endswith("\n") else ""
    added = torn + "".join(f"{ln}\n" for ln in new)
    folder = os.path.dirname(target)
    try:
        os.makedirs(folder, exist_ok=True)
        regular.append_text(target, added)
    except OSError as exc:
        raise TgGitError.from_key(
            "journal_unwritable", folder=folder, error=os_reason(exc), fix=os_fix_said(exc)
        ) from None
    return added


def _held(repo: git.Repo, ledger_file: str) -> str:
    return os.path.join(repo.git_file("tg-git/held"), _name(ledger_file))


def hold(repo: git.Repo, ledger_file: str, lines: Iterable[str]) -> None:
    """Keep lines whose ledger file could not be written for the next commit of this work
    tree, whichever branch it is on (the journal is per branch). Best effort: they are in
    the journal already."""
    target = _held(repo, ledger_file)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        regular.append_text(target, "".join(f"{ln.rstrip()}\n" for ln in lines))
    except OSError:
        pass


def held(repo: git.Repo, ledger_file: str) -> str:
    try:
        return _bytes(_held(repo, ledger_file)).decode("utf-8", "replace")
    except OSError:
        return ""


def release(repo: git.Repo, ledger_file: str) -> None:
    """The held lines are in a written, staged ledger file now."""
    try:  # noqa: SIM105 (contextlib: ~1 ms of every commit)
        os.unlink(_held(repo, ledger_file))
    except OSError:
        pass


def read_elsewhere(repo: git.Repo, ledger_file: str) -> str:
    """The same ledger file's journals on this clone's other lines of work: the session's
    spend there counts toward its budget (a halt is the session's, not a branch's), though
    the events reach this branch's ledger only with the work itself."""
    return read_elsewhere_bytes(repo, ledger_file).decode("utf-8", "replace")


def read_elsewhere_bytes(repo: git.Repo, ledger_file: str) -> bytes:
    name = _name(ledger_file)
    texts = []
    try:
        folders = _others(_folder(repo))
    except OSError:
        return b""
    for folder in folders:
        try:
            texts.append(_bytes(os.path.join(folder, name)))
        except OSError:
            continue
    return b"".join(texts)


def known_anywhere(repo: git.Repo, ledger_file: str) -> bool:
    """Whether any line of work of this clone has journaled ``ledger_file``."""
    name = _name(ledger_file)
    parent = os.path.dirname(_folder(repo))
    try:
        return any(os.path.isfile(os.path.join(parent, n, name)) for n in os.listdir(parent))
    except OSError:
        return False


def used_here(repo: git.Repo) -> bool:
    """Whether this clone has ever journaled an event (on any branch)."""
    return os.path.isdir(os.path.join(repo.commondir, "tg-git", "journal"))


def names(repo: git.Repo) -> list[str]:
    """The ledger file names this clone has a journal for."""
    try:
        return sorted(n for n in os.listdir(_folder(repo)) if n.endswith(".toml"))
    except OSError:
        return []


def locked(repo: git.Repo, timeout: float = LOCK_TIMEOUT, name: str = "ledger.lock") -> _Lock:
    """Hold tg-git's lock (one per clone) around a ledger read-modify-stage (``with``);
    ``name``: another lock of the clone (``SESSION_START``: the agents' session start, which
    takes the ledger's lock inside it)."""
    return _Lock(os.path.join(repo.commondir, "tg-git", name), timeout)


class _Lock:
    """``locked``'s lock (a plain class: ``contextlib`` costs every commit ~1 ms to import)."""

    def __init__(self, path: str, timeout: float) -> None:
        self.path, self.timeout, self.fd = path, timeout, -1

    def __enter__(self) -> None:
        try:
            import fcntl  # lazy: 0.3 ms
        except ImportError:  # no flock (Windows): run unlocked, as tg-git 0.1 did
            return
        lock_path = self.path
        try:
            os.makedirs(os.path.dirname(lock_path), exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise TgGitError.from_key(
                "journal_lock", path=lock_path, error=os_reason(exc), fix=os_fix_said(exc)
            ) from None
        try:
            deadline = time.monotonic() + self.timeout
            delay = 0.002
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise TgGitError(
                            f"another tg-git command has held {lock_path} for "
                            f"{self.timeout:.0f} s; wait for it to finish, then try again."
                        ) from None
                    time.sleep(delay)
                    delay = min(delay * 2, 0.05)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    def __exit__(self, *exc: object) -> None:
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)  # closing releases the flock
