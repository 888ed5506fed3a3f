"""A file read to be estimated (``tg-git estimate PATH``, ``tg-git record --input-file F``):
a regular file only, of at most ``MAX_BYTES``. It is opened without blocking and checked on
the open file, so a FIFO, a device (``/dev/zero``, ``/dev/urandom``) or a file swapped for
one between a check and the read is refused at once, never read for ever."""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_BYTES = 64 << 20  # ~16 million tokens: far more than any agent's context holds


class Refused(OSError):
    """A path that is no file to estimate: ``key`` names its message (``path`` and ``limit``
    are its values)."""

    def __init__(self, key: str, limit: int = 0) -> None:
        super().__init__(key)
        self.key = key
        self.limit = limit


def read_regular(path: Path | str, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path`` (``follow``: through a symbolic link), or
    ``Refused`` (``estimate_not_a_file``, ``estimate_too_large``); other ``OSError``s as the
    system gives them."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused("estimate_not_a_file")
        if info.st_size > MAX_BYTES:
            raise Refused("estimate_too_large", MAX_BYTES)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_BYTES + 1)  # a file that grew since: still bounded
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise Refused("estimate_too_large", MAX_BYTES)
    return data
