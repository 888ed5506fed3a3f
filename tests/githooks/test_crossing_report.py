"""What is said at a level when recorded input (``tg-git record``) took the session there:
the record says what a commit whose own change crossed it says, and acts on it. Real git,
real installed hooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import commit_file
from tests.support.repos import git
from tests.support.repos import tg

NEXT_REFUSED = {
    "en": "The NEXT commit of this session will be refused",
    "ko": "다음 커밋은 거부됩니다",
}
FORCE_SAVE = {"en": "force-save level reached", "ko": "강제 저장 단계 도달"}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_recorded_input_past_the_halt_says_the_next_commit_is_refused(
    repo: Path, lang: str
) -> None:
    """The record that reaches the halt acts on it as a commit does: it says so, its records
    land in a commit of their own, the halt is saved, and the next commit is refused."""
    tg(repo, "config", "set", "language", lang)
    recorded = tg(repo, "record", "--tokens", "192000")  # 96 % of 200k: the halt, by input alone
    assert NEXT_REFUSED[lang] in recorded.stdout
    assert git(repo, "tag", "--points-at", "HEAD").stdout.strip().endswith("-halt")
    landed = git(repo, "show", "--format=", "--name-only", "HEAD^").stdout.split()
    assert landed and all(name.startswith(".tg-git/") for name in landed)  # the records alone
    (repo / "more.txt").write_text("more\n")
    git(repo, "add", "more.txt")
    refused = commit(repo, "-m", "more", check=False)
    assert refused.returncode != 0  # what the record said


def test_a_commit_whose_own_change_crosses_the_halt_after_recorded_input_says_so(
    repo: Path,
) -> None:
    """Recorded input takes the session to just under the halt; the commit that carries it
    crosses with its own change and says the next commit is refused."""
    recorded = tg(repo, "record", "--tokens", "186000")  # 93 %: force-save, not the halt
    assert NEXT_REFUSED["en"] not in recorded.stdout
    big = "\n".join(f"value_{i} = compute({i}, 'words')" for i in range(1000)) + "\n"
    landing = commit_file(repo, "big.py", big)
    assert NEXT_REFUSED["en"] in landing.stderr
    assert git(repo, "tag", "--points-at", "HEAD").stdout.strip().endswith("-halt")


def test_recorded_input_alone_landing_at_the_halt_says_so(repo: Path) -> None:
    """No commit of the user's: the records alone land at the halt in a commit of their own,
    which carries the ledger files only; the user's staged change stays staged."""
    (repo / "staged.txt").write_text("staged\n")
    git(repo, "add", "staged.txt")
    recorded = tg(repo, "record", "--tokens", "192000")
    assert NEXT_REFUSED["en"] in recorded.stdout
    landed = git(repo, "show", "--format=", "--name-only", "HEAD^").stdout.split()
    assert landed and all(name.startswith(".tg-git/") for name in landed)
    staged = git(repo, "diff", "--cached", "--name-only").stdout.split()
    assert staged == ["staged.txt"]
    refused = commit(repo, "--allow-empty", "-m", "nothing but the input", check=False)
    assert refused.returncode != 0 and NEXT_REFUSED["en"] not in refused.stderr


def test_recorded_input_past_force_save_says_a_checkpoint_follows(repo: Path) -> None:
    tg(repo, "record", "--tokens", "184000")  # 92 %
    landing = commit_file(repo, "small.txt", "small\n")
    assert FORCE_SAVE["en"] in landing.stderr
    assert NEXT_REFUSED["en"] not in landing.stderr


def test_a_commit_after_the_crossing_one_says_nothing_of_crossing(repo: Path) -> None:
    """Only the first commit to land at a level says it crossed it."""
    tg(repo, "record", "--tokens", "184000")
    commit_file(repo, "small.txt", "small\n")
    again = commit_file(repo, "again.txt", "again\n")
    assert FORCE_SAVE["en"] not in again.stderr
