"""Lines a Korean clone sees in Korean even where the branch holds no config of its own."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import commit
from tests.conftest import git
from tests.conftest import tg


def test_an_orphan_branch_uncounted_commit_is_said_in_the_clone_language(repo: Path) -> None:
    tg(repo, "config", "set", "language", "ko")
    git(repo, "add", ".tg-git")
    commit(repo, "-m", "Korean")
    git(repo, "checkout", "-q", "--orphan", "bare")
    git(repo, "rm", "-rqf", ".")
    (repo / "index.html").write_text("<p>nothing of tg-git here</p>\n")
    git(repo, "add", "index.html")
    proc = commit(repo, "-m", "bare orphan")
    assert "이 커밋은 집계되지 않습니다" in proc.stderr, proc.stderr
    assert "NOT COUNTED" not in proc.stderr
