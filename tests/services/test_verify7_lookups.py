"""A cold verify asks git where each commit's config and ledger are: one path a commit, the
config's, and the ledger's two paths only where the config is not there or the commit's
ledger is read (the range's edge). A commit without its config is still found set up by its
ledger (what verify then counts is the same)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from bench.verify import build
from tests.support.repos import git
from tg_git.repo import gitquery
from tg_git.services import verify_index
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

COMMITS = 12


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ``rev:path`` specs verify asks ``cat-file --batch-check`` about (git answers)."""
    asked: list[str] = []
    real = gitquery.object_ids

    def object_ids(repo: object, specs: Sequence[str]) -> object:
        asked.extend(specs)
        return real(repo, specs)  # type: ignore[arg-type]

    monkeypatch.setattr(gitquery, "object_ids", object_ids)
    return asked


def test_each_commit_is_asked_one_path_when_its_config_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "h"
    build(repo, COMMITS * 5, 5, os.environ)
    monkeypatch.chdir(repo)
    asked = _asked(monkeypatch)
    report = verify_history(open_workspace())
    assert report.ok and report.checked == COMMITS + 1, report.lines()
    places = [spec for spec in asked if spec.endswith(verify_index._AT)]
    commits = len(git(repo, "rev-list", "HEAD").stdout.split())
    assert len(places) <= commits + 2 * 2, places  # the root's two without a config


def test_a_commit_without_its_config_is_set_up_by_its_ledger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "h"
    build(repo, 3 * 5, 5, os.environ)
    git(repo, "rm", "-q", "--cached", ".tg-git/config.toml")
    git(repo, "commit", "-q", "--no-verify", "-m", "the config untracked")
    monkeypatch.chdir(repo)
    ws = open_workspace()
    commits = gitquery.log(ws.repo, ["HEAD"], reverse=True)
    history = verify_index.History(ws, commits)
    tip = commits[-1].sha
    assert history.config_blob[tip] is None
    assert tip in history.set_up  # its ledger is there
