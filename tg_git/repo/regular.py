"""tg-git's own files under the git dir, opened so that anything else at their path (a FIFO a
crashed process or a mistake left there, a device) is never waited on: a read takes it for
absent, a write fails with ``OSError`` like any other unwritable file."""

from __future__ import annotations

import errno
import os
import stat

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


def read_bytes(path: str, start: int = 0) -> bytes:
    """The bytes of the regular file at ``path`` (from ``start`` on); ``OSError`` for anything
    else."""
    fd = _checked(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as fh:
        fh.seek(start)
        return fh.read()


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
