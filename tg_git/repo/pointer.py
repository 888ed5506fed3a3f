"""Which session a work tree is in: its session pointer, ``.git/tg-git/session`` (per worktree).

Local state, never tracked: merging a branch whose session started later does not switch
this work tree's session. A clone without any pointer takes the newest session.
"""

from __future__ import annotations

import os

from tg_git.repo import git, regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

POINTER = "tg-git/session"  # per worktree: the id of this work tree's current session


def _pointers(common: str) -> list[Path]:
    """Every work tree's session pointer in a clone, the most recently written first."""
    from pathlib import Path  # lazy: 5.1 ms (a linked worktree without a pointer only)

    common_dir = Path(common)
    paths = [common_dir / POINTER, *common_dir.glob(f"worktrees/*/{POINTER}")]
    dated = []
    for path in paths:
        try:
            dated.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue
    return [path for _, path in sorted(dated, reverse=True)]


def read(repo: git.Repo) -> str | None:
    """This work tree's session pointer; in a linked worktree that never started or
    resumed one, the clone's newest pointer (its main worktree's or another linked
    one's): the session the clone works in, not the newest ledger file by name (a
    teammate's, or one started in the same second whose random part sorts later)."""
    own = repo.git_file(POINTER)
    found = [own] if os.path.isfile(own) else _pointers(repo.commondir)
    for path in found:
        try:
            value = regular.read_bytes(str(path)).decode("utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        if value:
            return value
    return None


def write(repo: git.Repo, session_id: str) -> None:
    target = repo.git_file(POINTER)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        regular.write_text(target, session_id + "\n")
    except OSError:
        pass  # without it, the newest session is current: the 0.1 behaviour
