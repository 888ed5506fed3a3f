"""Opening the workspace a command or a hook works in, after finishing a save that was killed."""

from __future__ import annotations

import os

from tg_git.repo.workspace import SAVING, Workspace


def open_workspace(
    start: str | os.PathLike[str] | None = None, require_init: bool = True
) -> Workspace:
    """``Workspace.open``, then: a checkpoint save under way, or killed, leaves its marker;
    the next command tags what it made (``checkpoint.recover``) before doing its own work."""
    ws = Workspace.open(start, require_init=require_init)
    if os.path.isfile(ws.repo.git_file(SAVING)):  # a FIFO there is never opened
        from tg_git.services import (
            checkpoint,  # lazy: 23.3 ms; only a killed save pays for this import
        )

        checkpoint.recover(ws)
    return ws
