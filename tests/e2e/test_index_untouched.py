"""The index stays the user's: no tg-git command but a commit it makes stages anything.

Every command that is not a commit of tg-git's own runs with a user's change staged (and one
left unstaged); the index reads the same afterwards, entry for entry and diff for diff, so
`git merge`, `pull --rebase`, `checkout` and `stash` meet it as they would without tg-git.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg

COMMANDS: list[tuple[str, ...]] = [
    ("session", "start"),
    ("record", "--tokens", "120", "--label", "read the spec"),
    ("task", "add", "write tests"),
    ("task", "start", "write parser"),
    ("task", "block", "write parser", "--why", "waiting for the grammar"),
    ("task", "done", "write parser"),
    ("note", "the grammar lives in docs/grammar.md"),
    ("next", "write the lexer"),
    ("next", "--clear"),
    ("config", "set", "max_tokens", "150000"),
    ("config", "set", "checkpoint.dir", ".tg-git/checkpoint"),
    ("task", "list"),
    ("status",),
    ("status", "--json"),
    ("resume",),
    ("session", "start", "--max-tokens", "90000"),
]


# Readers: whatever they answer (doctor may find something to say), the index stays.
READERS: list[tuple[str, ...]] = [
    ("log",),
    ("verify",),
    ("doctor",),
    ("estimate", "--staged"),
    ("config", "get", "checkpoint.dir"),
]


def index_state(repo: Path) -> tuple[str, str]:
    """What git's index holds: every entry, and its difference from HEAD."""
    entries = git(repo, "ls-files", "-s").stdout
    return entries, git(repo, "diff", "--cached", "--binary").stdout


@pytest.fixture
def busy_repo(repo: Path) -> Path:
    """A repository with a checkpoint to resume from, a user's staged change and an unstaged
    one."""
    tg(repo, "task", "add", "write parser")
    tg(repo, "checkpoint", "-m", "before the tour")
    (repo / "staged.txt").write_text("the user's staged work\n")
    git(repo, "add", "staged.txt")
    (repo / "README.md").write_text("# demo\nan unstaged edit\n")
    return repo


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_command_leaves_the_index_as_it_was(busy_repo: Path, args: tuple[str, ...]) -> None:
    before = index_state(busy_repo)
    tg(busy_repo, *args)
    assert index_state(busy_repo) == before, f"`tg-git {' '.join(args)}` changed the index"


def test_every_command_in_a_row_then_one_commit_carries_them(busy_repo: Path) -> None:
    """All of them one after the other leave the index alone; the user's next commit carries
    what they recorded."""
    before = index_state(busy_repo)
    for args in COMMANDS:
        tg(busy_repo, *args)
        assert index_state(busy_repo) == before, f"`tg-git {' '.join(args)}` changed the index"
    commit(busy_repo, "-m", "the user's commit")
    shown = git(busy_repo, "show", "--text", "--format=", "HEAD").stdout
    assert "staged.txt" in shown and "write the lexer" in shown
    assert git(busy_repo, "diff", "--cached", "--name-only").stdout == ""


@pytest.mark.parametrize("args", READERS, ids=lambda a: " ".join(a))
def test_a_reader_leaves_the_index_as_it_was(busy_repo: Path, args: tuple[str, ...]) -> None:
    before = index_state(busy_repo)
    proc = tg(busy_repo, *args, check=False)
    assert "Traceback" not in proc.stderr
    assert index_state(busy_repo) == before, f"`tg-git {' '.join(args)}` changed the index"
