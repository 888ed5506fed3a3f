"""A FIFO where the pre-commit hook leaves post-commit the lines to journal
(``.git/tg-git/journal-due``: a crashed process or a user's mistake can leave one; a clone
cannot):
the commit ends, is counted, and its event reaches the journal. Opening a FIFO for writing
waits for a reader: the pre-commit hook hung, and the commit with it, for ever."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.support.repos import TG_GIT
from tests.support.repos import commit_events
from tests.support.repos import ended
from tests.support.repos import git
from tests.support.repos import ledger_at


@pytest.mark.parametrize("name", ["journal-due"])
def test_a_fifo_where_post_commit_s_work_is_left_hangs_no_commit(repo: Path, name: str) -> None:
    folder = repo / ".git" / "tg-git"
    folder.mkdir(exist_ok=True)
    os.mkfifo(folder / name)
    before = commit_events(repo)
    (repo / "b.py").write_text("print(2)\n")
    git(repo, "add", "b.py")
    made = ended(["git", "commit", "-q", "-m", "b"], repo)
    assert made.returncode == 0 and "Traceback" not in made.stderr, made.stderr
    assert commit_events(repo) == before + 1
    journal = "".join(p.read_text() for p in folder.glob("journal/*/*.toml"))
    event = ledger_at(repo).rstrip("\n").rsplit("\n", 1)[-1]
    assert event and event in journal, (event, journal)


def test_a_fifo_where_a_save_leaves_its_marker_hangs_no_command(repo: Path) -> None:
    """``saving.json`` exists only while a save runs: every command looks for it."""
    os.mkfifo(repo / ".git" / "tg-git" / "saving.json")
    assert ended([TG_GIT, "status"], repo).returncode == 0
    (repo / "c.py").write_text("print(3)\n")
    git(repo, "add", "c.py")
    made = ended(["git", "commit", "-q", "-m", "c"], repo)
    assert made.returncode == 0 and "Traceback" not in made.stderr, made.stderr


def test_a_fifo_where_uncounted_commits_are_noted_hangs_nothing(repo: Path) -> None:
    """Post-commit notes a commit whose pre-commit hook failed (``recount.remember``)."""
    os.mkfifo(repo / ".git" / "tg-git" / "uncounted")
    code = "import sys; from pathlib import Path; from tg_git.services import recount\n"
    code += "try:\n    recount.remember(Path(sys.argv[1]), 'a' * 40)\nexcept OSError:\n    pass"
    assert ended([sys.executable, "-c", code, str(repo / ".git")], repo).returncode == 0
