"""A cold verify lists the range's commits and what each changed in one ``git log --raw``
(``ledgerdiff.log_listed``), not a ``git log`` and then a ``git diff-tree --raw``: the same
commits as ``gitquery.log`` reads, and for each pair the same paths as ``diff-tree`` lists
(a merge's asked of ``diff-tree``, pair by pair), whatever the repository's settings; and the
same verdicts as a cold verify that lists with ``diff-tree``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bench.verify import build
from tests.support.repos import git
from tests.support.repos import tg
from tests.support.traces import traced_reads
from tg_git.repo import gitquery
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo

# Settings that change what a porcelain ``git log --raw`` prints, none of them ``diff-tree``'s.
SETTINGS = {
    "core.abbrev": "7",
    "diff.renames": "copies",
    "diff.ignoreSubmodules": "none",
    "log.showRoot": "false",
    "log.showSignature": "false",  # no key here to sign with: its override is named all the same
    "log.diffMerges": "first-parent",
    "color.ui": "always",
    "diff.orderFile": "order.txt",
    "diff.relative": "true",
}


def _commit(repo: Path, message: bytes, *args: str) -> None:
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(
        [
            "git",
            "commit",
            "-q",
            "--allow-empty",
            "--allow-empty-message",
            "--no-verify",
            *args,
            "-F-",
        ],
        cwd=repo,
        check=True,
        input=message,
    )


def _history(repo: Path) -> None:
    git(repo.parent, "init", "-q", "-b", "main", str(repo))
    (repo / "order.txt").write_text("z*\nsub/*\n")
    (repo / "a.py").write_text("a = 1\n")
    _commit(repo, b"root")
    (repo / "sub").mkdir()
    (repo / "sub" / "b.py").write_text("b = 1\n")
    (repo / "z.py").write_text("z = 1\n")
    _commit(repo, b"two\n\n:100644 100644 not a path\n")  # a message that looks like a listing
    _commit(repo, b"")  # nothing changed, and no message
    _commit(repo, b"\xff\xfe not UTF-8 \xc3\xa9\n")
    git(repo, "checkout", "-q", "-b", "topic", "HEAD~2")
    (repo / 't é\t"q".py').write_text("t = 1\n")
    (repo / "a.py").write_text("a = 2\n")
    _commit(repo, b"topic")
    git(repo, "checkout", "-q", "main")
    (repo / "sub" / "b.py").unlink()
    (repo / "a.py").rename(repo / "c.py")  # a rename: listed as a deletion and an addition
    _commit(repo, b"moved")
    git(repo, "merge", "-q", "--no-edit", "-X", "theirs", "topic")
    (repo / "c.py").write_text("c = 2\n")
    _commit(repo, b"after the merge")


@pytest.mark.parametrize("settings", [{}, SETTINGS], ids=["plain", "settings"])
def test_the_log_lists_what_gitquery_and_diff_tree_list(
    tmp_path: Path, settings: dict[str, str]
) -> None:
    repo = tmp_path / "r"
    _history(repo)
    for key, value in settings.items():
        git(repo, "config", key, value)
    found = find_repo(repo)
    base = git(repo, "rev-parse", "HEAD~3").stdout.strip()
    for revs in (["HEAD"], [f"^{base}", "HEAD"]):
        commits, listing = ledgerdiff.log_listed(found, revs)
        assert commits == gitquery.log(found, revs, reverse=True)
        pairs = [(c.sha, p) for c in commits for p in c.parents or (None,)]
        heads, asked = ledgerdiff._heads_and_lines(found, pairs, ())
        listed = ledgerdiff.raw(found, heads, asked)
        merges = {c.sha for c in commits if len(c.parents) > 1}
        assert merges and len(listing) == len(listed)
        for (sha, _), got, want in zip(pairs, listing, listed, strict=True):
            assert got == (None if sha in merges else want), sha
    assert any(len(entries) > 1 for entries in listing if entries)


def test_a_cold_verify_lists_the_range_with_its_log(tmp_path: Path) -> None:
    repo = tmp_path / "h"
    build(repo, 300, 10, os.environ)
    trace = tmp_path / "trace"
    proc = tg(repo, "verify", env={"GIT_TRACE": str(trace)})
    assert "matches history (31 commits checked)" in proc.stdout, proc.stdout + proc.stderr
    reads = traced_reads(trace)
    assert len(reads) == 1 and reads[0][0] == "log" and "--raw" in reads[0], reads
