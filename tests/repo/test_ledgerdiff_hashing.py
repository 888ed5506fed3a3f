"""``ledgerdiff.read`` hashes only the older versions of a ledger file it cuts: the newest
version of each chain of appends is read from git by its own id (``cat-file --batch``), as
git's patch would read it, so hashing it again checks nothing; each older version is checked
by git's id of the newest one's first bytes."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from bench.verify import build
from tests.support.repos import git
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo


class _Counting:
    """``hashlib`` as ``ledgerdiff`` uses it, recording each id it computes."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def new(self, name: str, data: bytes = b"") -> Any:
        outer, inner = self, hashlib.new(name, data)

        class _Hash:
            def update(self, more: Any) -> None:
                inner.update(more)

            def hexdigest(self) -> str:
                found = inner.hexdigest()
                outer.ids.append(found)
                return found

        return _Hash()


def test_the_newest_version_of_a_ledger_file_is_not_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "r"
    build(repo, 600, 20, os.environ)  # five ledger files, each appended to by several commits
    log = git(repo, "log", "--reverse", "--format=%H %P").stdout.split("\n")
    pairs = [(sha, parents or None) for sha, _, parents in (ln.partition(" ") for ln in log if ln)]
    found = find_repo(repo)
    counting = _Counting()
    monkeypatch.setattr(ledgerdiff, "hashlib", counting)
    read, _ = ledgerdiff.read(found, pairs)
    monkeypatch.undo()
    patches, _ = ledgerdiff.patches(found, pairs)
    assert [changes for _, changes in read] == [ledgerdiff.split(p)[1] for p in patches]
    tip = git(repo, "ls-tree", "-r", "--format=%(objectname)", "HEAD", ".tg-git/ledger").stdout
    newest = set(tip.split())
    assert len(newest) == 5  # the session's file and four segments
    assert counting.ids, "the older versions are checked"
    assert newest.isdisjoint(counting.ids)
