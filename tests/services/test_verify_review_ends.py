"""The session's base is the ledger's: data. A base git's batch lookup dies on (a reflog
entry past the log's end, a path outside the repository) reads as a base this clone does not
have, as a lookup of that base alone reads it: every commit checked, no error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.verify import build
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history


@pytest.mark.parametrize("base", ["HEAD@{99}", "HEAD:../outside", "HEAD\x00x"])
def test_a_base_the_batch_lookup_dies_on_is_not_in_this_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base: str
) -> None:
    repo = tmp_path / "h"
    build(repo, 4 * 5, 5, os.environ)
    monkeypatch.chdir(repo)
    ws = open_workspace()
    everything = verify_history(ws, base="")
    report = verify_history(ws, base=base)
    assert report.ok and report.checked == everything.checked, report.lines()
    assert report.base == "" and len(report.unseen) == 1, report.unseen
    assert "not in this clone" in report.unseen[0]


def test_a_tip_the_batch_lookup_dies_on_names_no_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "h"
    build(repo, 2 * 5, 5, os.environ)
    monkeypatch.chdir(repo)
    report = verify_history(open_workspace(), base="HEAD~1", tip="HEAD@{99}")
    assert report.ok and report.checked == 0, report.lines()
