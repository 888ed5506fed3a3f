"""Reading and writing ledger files on disk, and staging them (the line format is
``tg_git.domain.events``)."""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Iterable, Mapping

from tg_git.domain import layout
from tg_git.domain.errors import CorruptFile, GitError, TgGitError, os_fix_said, os_reason
from tg_git.domain.eventlog import decode
from tg_git.domain.layout import (
    LEDGER_DIR,
    LEDGER_PATH,
    held_file,
    pending_file,
    segment_number,
    segments_in,
)
from tg_git.repo import git

TYPE_CHECKING = False
if TYPE_CHECKING:
    # Paths are ``str`` or ``os.PathLike``: the hooks import no ``pathlib`` (~5 ms a commit).
    Where = str | os.PathLike[str]


STAGE_TRIES = 80  # ~4 s of waiting for another git command's index.lock


def stage(repo: git.Repo, paths: Iterable[str], env: dict[str, str] | None = None) -> None:
    """``git add`` (removals too), retried briefly while another git command holds the index."""
    on_index(repo, ["add", "-A", "--", *paths], env)


def on_index(
    repo: git.Repo, args: list[str], env: dict[str, str] | None = None, input: bytes | None = None
) -> None:
    """A git command that writes the index, retried briefly while another one holds it. git
    names its lock, ``index.lock``, on the first line of what it says (in any language); the
    last line, the one a failure is otherwise told by, does not (it says to remove the file),
    so the first is what is looked for, and what a failure because of the lock tells."""
    for attempt in range(STAGE_TRIES):
        proc = git.spawn(args, cwd=repo.top, input=input, env=env)
        if proc.returncode == 0:
            return
        said = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        locked = [line for line in said if "index.lock" in line]
        if not locked or attempt == STAGE_TRIES - 1:
            if proc.returncode < 0:  # killed: its last words are not why
                why = f"signal {-proc.returncode}"
            else:
                why = locked[0] if locked else (said[-1] if said else f"exit {proc.returncode}")
            raise GitError.from_key("git_failed", command=args[0], reason=why)
        time.sleep(0.05)


def read_text(path: Where, where: str = LEDGER_PATH) -> str | None:
    """A ledger file's text, normalised; None when there is none (a directory is none too).
    A pipe or a device is never opened (reading one could hang or never end)."""
    return decode(read_bytes(path, where), where)


def read_bytes(path: Where, where: str = LEDGER_PATH) -> bytes | None:
    """A ledger file's bytes, as ``read_text`` reads them."""

    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            return None
        if not stat.S_ISREG(info.st_mode):
            raise CorruptFile.from_key("ledger_not_file", where=where)
        with open(path, "rb") as fh:
            return fh.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except OSError as exc:
        raise CorruptFile.from_key("ledger_unreadable", where=where, error=os_reason(exc)) from None


def join(parts: list[bytes | None]) -> bytes | None:
    """A session's files as one text (None when it has none), each ending in a line end:
    every reader joins a session's segments the same way, so equal files give equal texts."""
    found = [p if p.endswith(b"\n") else p + b"\n" for p in parts if p]
    return b"".join(found) if found or any(p is not None for p in parts) else None


def segment_paths(root: Where, rel: str) -> list[str]:
    """The files a session's events are in, in the work tree: ``rel`` (segment 0), then its
    later segments in order (``layout.segment_file``); names of any other shape are left out."""
    prefix = rel.removesuffix(".toml")
    folder = os.path.join(root, prefix)
    found: list[tuple[int, str]] = []
    try:
        highs = sorted(e.name for e in os.scandir(folder) if e.is_dir(follow_symlinks=False))
    except OSError:
        return [rel]
    for high in highs:
        try:
            names = [
                e.name
                for e in os.scandir(os.path.join(folder, high))
                if e.is_file(follow_symlinks=False)
            ]
        except OSError:
            continue
        found += ((n, f"{prefix}/{high}/{name}") for n, name in segments_in(high, names))
    return [rel, *(path for _, path in sorted(found))]


def segment_paths_of(rel: str, held: Mapping[str, object]) -> list[str]:
    """``rel`` and, in order, the segments of its session among the paths ``held``."""
    numbered = sorted(
        (found[1], path)
        for path in held
        if (found := segment_number(path)) is not None and found[0] == rel
    )
    return [rel, *(path for _, path in numbered)]


def first_link(top: str, rel: str) -> str | None:
    """The first of ``rel``'s folders, or ``rel`` itself, that is a symbolic link under ``top``
    (as ``rel`` names it), or None."""
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    for n in range(1, len(parts) + 1):
        if os.path.islink(os.path.join(top, *parts[:n])):
            return "/".join(parts[:n])
    return None


# ---- writing the file ---------------------------------------------------------------------
def write_atomic(path: Where, text: str, durable: bool = True) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file; fsync first
    unless ``durable`` is off (the commit hook: git writes the same bytes into the commit
    right after, and git itself does not fsync by default)."""
    folder, name = os.path.split(os.fspath(path))
    folder = folder or os.curdir  # ``Path(path).parent``
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "x", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        _discard(tmp)
        raise TgGitError.from_key(
            "file_unwritable", name=name, folder=folder, error=os_reason(exc), fix=os_fix_said(exc)
        ) from None
    except BaseException:
        _discard(tmp)
        raise


def _discard(path: str) -> None:
    """``Path.unlink(missing_ok=True)``."""
    try:  # noqa: SIM105 (contextlib: ~1 ms of every commit)
        os.unlink(path)
    except FileNotFoundError:
        pass


def has_attribute(lines: list[str], line: str) -> bool:
    """Whether ``.gitattributes``' ``lines`` give ``line``'s pattern ``merge=union`` already
    (a line of an older tg-git, without the quiet attributes, counts)."""
    pattern = line.split(" ", 1)[0]
    return any(ln.split(" ", 1)[0] == pattern and "merge=union" in ln.split()[1:] for ln in lines)


def unstaged_message(path: str, language: str = "en") -> str:
    """The refusal to write over a user's unstaged edit of the ledger file ``path``."""
    from tg_git.text import messages  # lazy: 0.4 ms

    return messages.text(language, "unstaged_ledger", path=path)


def union_attributes(repo: git.Repo, language: str = "en") -> list[str]:
    """Add the ``merge=union`` lines a ``.gitattributes`` lacks (one of tg-git 0.1, or of a
    version before segments); returns it to stage, unless it is not a plain file or holds a
    user's unstaged edit (then says which line to add)."""

    from tg_git.text import messages  # lazy: 0.5 ms

    path = repo.root / ".gitattributes"
    try:
        text = path.read_bytes().decode("utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError):
        text = None
    have = [ln.strip() for ln in text.splitlines()] if text is not None else []
    missing = [
        a for a in layout.LEDGER_ATTRIBUTES if text is not None and not has_attribute(have, a)
    ]
    if not missing:
        return []
    clean = repo.status("diff", "--quiet", "--", ".gitattributes") == 0  # as staged
    if text is None or path.is_symlink() or not clean:
        print(messages.text(language, "ws_attributes", line=missing[-1]), file=sys.stderr)
        return []
    sep = "" if not text or text.endswith("\n") else "\n"
    path.write_text(text + sep + "".join(f"{a}\n" for a in missing), encoding="utf-8")
    return [".gitattributes"]


# ---- the events waiting for the next commit, under the git dir -----------------------------
def held_path(repo: git.Repo, rel: str) -> str:
    """The file under the git dir where the session of ``rel`` keeps what was recorded since
    the last commit (``layout.held_file``)."""

    return repo.git_file(held_file(rel))


def held_bytes(repo: git.Repo, rel: str) -> bytes | None:
    """The events waiting for the next commit (None: none)."""
    path = held_path(repo, rel)
    return read_bytes(path, os.path.basename(path))


def waiting_bytes(repo: git.Repo, rel: str) -> bytes | None:
    """The session's events waiting for the next commit: under the git dir, and an older
    tg-git's pending file in the work tree (kept until a commit folds it)."""

    pending = pending_file(rel)
    older = read_bytes(os.path.join(repo.top, pending), pending)
    held = held_bytes(repo, rel)
    return join([held, older]) if older is not None else held


def held_sessions(repo: git.Repo) -> list[str]:
    """The ledger files of every session with events waiting in this work tree."""

    try:
        names = sorted(os.listdir(repo.git_file("tg-git/pending")))
    except OSError:
        return []
    return [f"{LEDGER_DIR}/{n}" for n in names if n.endswith(".toml") and not n.startswith(".")]


def hold_lines(repo: git.Repo, rel: str, current: bytes | None, lines: list[str]) -> bytes:
    """Append ``lines`` to the session's waiting events (``current``: the file's bytes, read
    under the lock), durably; a torn last line (a crash mid-write) is ended first. Returns
    what the file holds now."""
    target = held_path(repo, rel)
    if current and (current.startswith(b"\xef\xbb\xbf") or b"\r" in current):
        text = (
            decode(current, os.path.basename(target)) or ""
        )  # not plain LF (a hand edit): rewritten
        text += "\n" if text and not text.endswith("\n") else ""
        text += "".join(f"{ln}\n" for ln in lines)
        write_atomic(target, text)
        return text.encode("utf-8")
    torn = b"\n" if current and not current.endswith(b"\n") else b""
    tail = torn + "".join(f"{ln}\n" for ln in lines).encode("utf-8")
    if not lines:
        return current or b""
    os.makedirs(os.path.dirname(target), exist_ok=True)
    fd = os.open(
        target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644
    )
    try:
        data = memoryview(tail)
        while data:
            data = data[os.write(fd, data) :]
        os.fsync(fd)
    except OSError:
        os.ftruncate(fd, len(current or b""))  # a full disk: never half a line left behind
        raise
    finally:
        os.close(fd)
    return (current or b"") + tail


def drop_held(repo: git.Repo, rel: str, landed: bytes | None) -> None:
    """The waiting events are in a ledger file being committed: forget them, when the file
    still holds exactly ``landed`` (what was folded; called under the lock)."""
    target = held_path(repo, rel)
    try:
        with open(target, "rb") as fh:
            held = fh.read()
        if held == (landed or b""):
            os.unlink(target)
    except OSError:
        pass
