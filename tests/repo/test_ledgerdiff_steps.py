"""``ledgerdiff.read`` of a range of plain appends (a ledger segment and a code file a commit)
runs a fixed, small number of its own Python functions a commit: each path's kind and patch
names are told once, each version's newest settled in one pass, each version's start looked
up once. Counted with the interpreter's profile hook (calls of functions defined in
``ledgerdiff``), not timed; the read is compared with git's own patches."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from bench.verify import build
from tests.support.repos import git
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import parse_patch

OURS = ledgerdiff.__file__


def test_a_range_of_appends_runs_a_few_steps_a_commit(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    build(repo, 2000, 10, os.environ)  # 201 commits of 10 events, each a code file's append
    log = git(repo, "log", "--reverse", "--format=%H %P").stdout.split("\n")
    pairs = [(sha, parents or None) for sha, _, parents in (ln.partition(" ") for ln in log if ln)]
    found = find_repo(repo)
    calls = 0

    def count(frame: FrameType, event: str, _arg: Any) -> None:
        nonlocal calls
        code = frame.f_code
        if event == "call" and code.co_filename == OURS and code.co_name != "<genexpr>":
            calls += 1

    sys.setprofile(count)
    try:
        read, _ = ledgerdiff.read(found, pairs)
    finally:
        sys.setprofile(None)
    patches, _ = ledgerdiff.patches(found, pairs)
    whole = [ledgerdiff.split(p) for p in patches]
    assert [(ledgerdiff.added(r), c) for r, c in read] == [(parse_patch(r), c) for r, c in whole]
    per_commit = calls / len(pairs)
    assert per_commit < 14, (calls, len(pairs))  # 27 when each was walked from each of its uses
