"""What the commit that lands at a level says, when recorded input (``tg-git record``) took
the session there before the commit: the same as a commit whose own change crossed it. Real
git, real installed hooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import commit
from tests.conftest import commit_file
from tests.conftest import git
from tests.conftest import tg

NEXT_REFUSED = {
    "en": "The NEXT commit of this session will be refused",
    "ko": "다음 커밋은 거부됩니다",
}
FORCE_SAVE = {"en": "force-save level reached", "ko": "강제 저장 단계 도달"}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_recorded_input_past_the_halt_says_the_next_commit_is_refused(
    repo: Path, lang: str
) -> None:
    tg(repo, "config", "set", "language", lang)
    tg(repo, "record", "--tokens", "192000")  # 96 % of 200k: the halt, by input alone
    landing = commit_file(repo, "small.txt", "small\n")
    assert NEXT_REFUSED[lang] in landing.stderr
    assert git(repo, "tag", "--points-at", "HEAD").stdout.strip().endswith("-halt")
    (repo / "more.txt").write_text("more\n")
    git(repo, "add", "more.txt")
    refused = commit(repo, "-m", "more", check=False)
    assert refused.returncode != 0  # what the landing commit said


def test_recorded_input_alone_landing_at_the_halt_says_so(repo: Path) -> None:
    """No staged change at all: the commit carries only the recorded input."""
    tg(repo, "record", "--tokens", "192000")
    landing = commit(repo, "--allow-empty", "-m", "nothing but the input")
    assert NEXT_REFUSED["en"] in landing.stderr


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
