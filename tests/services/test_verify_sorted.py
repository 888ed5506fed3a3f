"""A cold ``tg-git verify`` sorts each commit's added lines once (for its facts), not again to
find its claims: those are the commit events among them, looked up, then sorted."""

from __future__ import annotations

import builtins
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bench.verify import build
from tg_git.services import verify_read
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

COMMITS, PER_COMMIT = 30, 50


def test_a_commit_s_lines_are_sorted_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "r"
    build(repo, COMMITS * PER_COMMIT, PER_COMMIT, os.environ)
    monkeypatch.chdir(repo)
    ws = open_workspace()
    sorted_items = 0

    def counting(items: Iterable[Any], **how: Any) -> list[Any]:
        nonlocal sorted_items
        found = builtins.sorted(items, **how)
        sorted_items += len(found)
        return found

    monkeypatch.setattr(verify_read, "sorted", counting, raising=False)
    report = verify_history(ws)
    assert report.ok, report.lines()
    lines = COMMITS * PER_COMMIT
    assert lines <= sorted_items <= lines + 3 * (COMMITS + 1), sorted_items
