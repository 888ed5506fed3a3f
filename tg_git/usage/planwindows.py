"""The plan windows' readings of this work tree: what the budgets of ``tg_git.domain.windows``
are judged from.

Claude Code's status line hands its ``rate_limits`` here (``note``): kept in
``.git/tg-git/windows.json`` (local state, never a commit; percents, reset times and the
agent's name only). Codex's rollouts carry theirs in ``token_count`` events: the rollout's
parser keeps them in the transcript's import state (``tg_git.usage.codex``), read back here
from the usage store. ``readings`` gives both; ``for_budgets`` only when a window budget is
set (the hooks then pay for the read).
"""

from __future__ import annotations

import json
import os
import stat
import time
from typing import TYPE_CHECKING, Any

from tg_git.domain import windows
from tg_git.domain.errors import TgGitError

if TYPE_CHECKING:
    from pathlib import Path

FILE = "tg-git/windows.json"  # under the git dir of the work tree
FORMAT = 1
MAX_BYTES = 256 << 10


def _load(path: Path) -> list[Any]:
    """The stored rows; [] for a missing, foreign or damaged file (it is data)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return []
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return []
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = json.loads(fh.read(MAX_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return []
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return []
    rows = data.get("readings")
    return rows if isinstance(rows, list) else []


def note(git_dir: Path, agent: str, table: Any, at: int | None = None) -> bool:
    """Keep the readings of a status line's ``rate_limits`` (``agent``'s, read now or at
    ``at``); False when there were none or nothing could be written (never raised)."""
    new = windows.from_claude(table, int(time.time()) if at is None else at, agent)
    if not new:
        return False
    path = git_dir / FILE
    old = _load(path)
    rows = windows.kept(old, new)
    if rows == old:
        return True
    from tg_git.repo.ledger import write_atomic  # lazy: 0.9 ms

    try:  # a cache of this clone's: no fsync
        text = json.dumps({"format": FORMAT, "readings": rows}, separators=(",", ":"))
        write_atomic(path, text, durable=False)
    except TgGitError:
        return False
    return True


def readings(git_dir: Path) -> list[windows.Reading]:
    """Every reading kept here: the status lines' and the Codex rollouts' imported so far."""
    from tg_git.usage import store  # lazy: 4.4 ms

    rows = list(_load(git_dir / FILE))
    for mark in store.marks(git_dir / store.FOLDER):
        if mark.agent == "codex":
            found = mark.state.get(STATE)
            rows += found if isinstance(found, list) else []
    return [r for r in (windows.from_row(row) for row in rows) if r is not None]


def wanted(config: Any) -> bool:
    return bool(getattr(config, "window_5h", None) or getattr(config, "window_7d", None))


def for_budgets(git_dir: Path, config: Any) -> list[windows.Reading] | None:
    """The readings the budgets take: None (nothing read) while no window budget is set."""
    return readings(git_dir) if wanted(config) else None


# ---- the rollouts' readings, in a transcript's import state -------------------------------
STATE = "windows"


def keep_codex(state: dict[str, Any], table: Any, at: str) -> None:
    """Keep a Codex ``token_count`` event's ``rate_limits`` (its time ``at``, as the ledger
    writes times) in the transcript's import ``state``."""
    if not isinstance(table, dict):
        return
    new = windows.from_codex(table, windows.epoch(at) if at else 0)
    new = [r for r in new if r.at]
    if new:
        state[STATE] = windows.kept(state.get(STATE), new)
