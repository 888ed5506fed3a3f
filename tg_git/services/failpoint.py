"""Fault injection for the tests: a crash or a pause at a named point of a service, where
only a real process killed at the right moment shows what a user's crash would leave."""

from __future__ import annotations

import os


def hit(name: str) -> None:
    """``TG_GIT_FAILPOINT=NAME`` kills the process right here; ``NAME:stop`` stops it
    (SIGSTOP) once, until a SIGCONT, to open a race's window at will; ``NAME:hang`` blocks it
    in a read that never ends (a hung tg-git, as only a timeout ends it), its process id
    appended first to the file ``TG_GIT_FAILPOINT_LOG`` names, if any."""
    wanted, _, how = os.environ.get("TG_GIT_FAILPOINT", "").partition(":")
    if wanted == name and how == "hang":
        log = os.environ.get("TG_GIT_FAILPOINT_LOG")
        if log:  # a test's record of each process that hung here
            with open(log, "a") as fh:
                fh.write(f"{os.getpid()}\n")
        reading, _writing = os.pipe()  # this process holds the writing end: no end of file
        os.read(reading, 1)
    if wanted == name:
        import signal  # lazy: 0.8 ms

        if how == "stop":
            del os.environ["TG_GIT_FAILPOINT"]  # a retry runs on
        os.kill(os.getpid(), signal.SIGSTOP if how == "stop" else signal.SIGKILL)
