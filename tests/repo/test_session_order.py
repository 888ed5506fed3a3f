"""A clone without a session pointer of its own takes the newest session, also when two
sessions started in the same second (the README's `init`, then a script's `init
--new-session`): the clone records into the session the repository works in."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.repo.workspace import Workspace


def _two_sessions_in_one_second(repo: Path) -> tuple[str, str]:
    """Two sessions started one after the other, as `tg-git session start` starts them, in
    one second (retried at a second's start until they fit)."""
    for _ in range(20):
        while time.time() % 1 > 0.2:
            time.sleep(0.02)
        first = Workspace.open(repo).start_session()
        second = Workspace.open(repo).start_session()
        if first[:15] == second[:15]:
            return first, second
    raise AssertionError("no two sessions started in one second in 20 tries")


def test_a_fresh_clone_takes_the_session_started_last_in_the_same_second(
    repo: Path, tmp_path: Path
) -> None:
    _first, second = _two_sessions_in_one_second(repo)
    git(repo, "add", "-A")
    commit(repo, "--allow-empty", "-m", "two sessions")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    theirs = json.loads(tg(clone, "status", "--json").stdout)["session"]["id"]
    assert theirs == second
