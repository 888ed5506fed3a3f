"""tg-git's own files under the git dir, and the few others it reads whose kind it cannot trust
(git's ref files, an agent's settings a clone may track as a link), opened so that anything
else at their path (a FIFO a crashed process or a mistake left there, a device such as
``/dev/zero``) is never waited on: a read takes it for absent, a write fails with ``OSError``
like any other unwritable file."""

from __future__ import annotations

import errno
import os
import stat

# Git's own state refs tg-git asks git for: git opens the file, and waits for ever on a FIFO.
STATE_REFS = ("ORIG_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD")
_FLAGS = os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)  # no effect on a regular file


def _checked(path: str, flags: int) -> int:
    fd = os.open(path, flags | _FLAGS, 0o644)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    raise OSError(errno.EINVAL, "not a regular file", path)


def read_bytes(path: str, start: int = 0, limit: int = -1) -> bytes:
    """The bytes of the regular file at ``path`` (from ``start`` on, at most ``limit`` of them
    when it is not -1); ``OSError`` for anything else."""
    fd = _checked(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        fh.seek(start)
        return fh.read(limit)


def append_text(path: str, text: str) -> None:
    """``text`` appended (UTF-8) to the regular file at ``path``, created when absent; a FIFO
    there without a reader is ``OSError`` at once, never a wait for one."""
    fd = _checked(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    with os.fdopen(fd, "wb") as fh:
        fh.write(text.encode("utf-8"))


def write_text(path: str, text: str) -> None:
    """The regular file at ``path`` holds ``text`` (UTF-8) now, created when absent."""
    fd = _checked(path, os.O_WRONLY | os.O_CREAT)
    with os.fdopen(fd, "wb") as fh:
        fh.truncate(0)
        fh.write(text.encode("utf-8"))


def state_ref(spec: str) -> str | None:
    """The state ref ``spec`` starts with (``ORIG_HEAD``, ``ORIG_HEAD:path``, ``MERGE_HEAD^2``)."""
    for name in STATE_REFS:
        if spec.startswith(name) and spec[len(name) : len(name) + 1] in ("", ":", "^", "~", "@"):
            return name
    return None


def waits(path: str) -> bool:
    """Whether something other than a regular file is at ``path`` (nothing there: no)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False
