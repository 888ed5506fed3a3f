"""Whether the `git commit` a pre-commit hook runs under asked for a commit whatever the index
holds (``--allow-empty``, ``--amend``), read from the process table.

Linux has one at ``/proc``. Where there is none (macOS, the BSDs, a container without
``/proc``), the answer is no: the hook then stages nothing when the index equals HEAD, so a
plain `git commit` with nothing staged (git refuses it: "nothing to commit") leaves the
user's index exactly as it was, and the session's waiting events stay under the git dir for
the next commit. The cost, there only: an ``--allow-empty`` or ``--amend`` commit that adds
nothing to the index carries no events of its own (they ride in the next commit).
``TG_GIT_PROC`` names another process-table folder (tests use an empty one).
"""

from __future__ import annotations

import os

DEPTH = 8  # git, the shim, the pre-commit framework's processes


def _root() -> str:
    return os.environ.get("TG_GIT_PROC") or "/proc"


def _read(pid: int, root: str) -> tuple[list[bytes], int] | None:
    """A process's arguments and its parent, or None when the table has no such entry."""
    try:
        with open(f"{root}/{pid}/cmdline", "rb") as fh:
            args = fh.read().split(b"\0")
        with open(f"{root}/{pid}/stat", "rb") as fh:
            parent = int(fh.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return args, parent


def commit_asked_for_one(pid: int | None = None) -> bool:
    """Whether the `git commit` above this process was given ``--allow-empty`` or
    ``--amend``. With a process table: read there (a commit not found: yes, as before, the
    events ride in it). Without one: no (see the module's docstring)."""
    root = _root()
    if not os.path.isdir(f"{root}/self") and not os.path.isdir(f"{root}/{os.getpid()}"):
        return False  # no process table: the index stays as the user left it
    pid = os.getppid() if pid is None else pid
    for _ in range(DEPTH):
        found = _read(pid, root)
        if found is None:
            return True
        args, parent = found
        if b"commit" in args:
            return any(a in (b"--allow-empty", b"--amend") for a in args)
        if parent <= 1:
            return True
        pid = parent
    return True
