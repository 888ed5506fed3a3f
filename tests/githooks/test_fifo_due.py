"""A FIFO where the pre-commit hook leaves post-commit the lines to journal
(``.git/tg-git/journal-due``: a crashed process or a user's mistake can leave one; a clone
cannot):
the commit ends, is counted, and its event reaches the journal. Opening a FIFO for writing
waits for a reader: the pre-commit hook hung, and the commit with it, for ever."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.support.repos import commit_events
from tests.support.repos import git
from tests.support.repos import ledger_at

WAIT_S = 20  # a commit that has not ended by then hangs


@pytest.mark.parametrize("name", ["journal-due"])
def test_a_fifo_where_post_commit_s_work_is_left_hangs_no_commit(repo: Path, name: str) -> None:
    folder = repo / ".git" / "tg-git"
    folder.mkdir(exist_ok=True)
    os.mkfifo(folder / name)
    before = commit_events(repo)
    (repo / "b.py").write_text("print(2)\n")
    git(repo, "add", "b.py")
    proc = subprocess.Popen(["git", "commit", "-q", "-m", "b"], cwd=repo, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    try:
        _, err = proc.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"git commit still runs after {WAIT_S} s") from None
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert commit_events(repo) == before + 1
    journal = "".join(p.read_text() for p in folder.glob("journal/*/*.toml"))
    event = ledger_at(repo).rstrip("\n").rsplit("\n", 1)[-1]
    assert event and event in journal, (event, journal)
