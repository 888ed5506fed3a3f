"""Processes under which file modes and file sizes bind, even for root."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_PR_CAPBSET_DROP = 24
_BYPASS_CAPS = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER


def modes_bind(fsize: int | None = None) -> Callable[[], None]:
    """A ``preexec_fn`` under which file modes bind even for root and, with ``fsize``, no file
    grows past ``fsize`` bytes. Root loses the capabilities that bypass modes from its bounding
    set, so they stay off in everything it starts (git, the hook shim, tg-git); anyone else is
    bound by modes already. A write past ``fsize`` fails with EFBIG as one on a full disk fails
    with ENOSPC (SIGXFSZ is ignored, and git inherits that; the git processes tg-git starts get
    the default back and die of it, as git may on a full disk)."""

    # Everything is looked up before the fork: the child of a threaded process (xdist's
    # workers are) must not import or take a lock before exec.
    import ctypes
    import resource
    import signal

    prctl = ctypes.CDLL(None, use_errno=True).prctl if os.geteuid() == 0 else None

    def preexec() -> None:
        if prctl is not None:
            for cap in _BYPASS_CAPS:
                if prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
                    raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return preexec


def restricted(cwd: Path, *cmd: str, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    """``cmd`` where file modes bind even for root and, with ``fsize``, no file grows past it."""
    env = dict(os.environ)
    if fsize is not None:  # a coverage run's own data file would hit the limit too
        env.pop("COVERAGE_PROCESS_START", None)
    return subprocess.run(
        list(cmd), cwd=cwd, capture_output=True, text=True, env=env, preexec_fn=modes_bind(fsize)
    )


@contextmanager
def read_only(path: Path, bind: bool = True) -> Iterator[None]:
    """Every file and folder under ``path`` read-only while the block runs (only with
    ``bind``), writable again after it whatever happened; links are left as they are."""
    if bind:
        _set_writable(path, False)
    try:
        yield
    finally:
        if bind:
            _set_writable(path, True)


def _set_writable(path: Path, writable: bool) -> None:
    for folder, dirs, files in os.walk(path):
        for name in [*dirs, *files, "."]:
            p = Path(folder) / name
            if not p.is_symlink():
                mode = p.stat().st_mode
                p.chmod(mode | 0o200 if writable else mode & ~0o222)
