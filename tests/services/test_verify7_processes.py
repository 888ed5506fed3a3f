"""The git processes of a cold verify of an honest history: none started to be asked
nothing (a ``cat-file`` with no object to read still costs git's start)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bench.verify import build
from tg_git.repo import git
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

COMMITS = 6


def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], Any]]:
    """An honest history of ``COMMITS * 5`` events made the current folder, and the list each
    git process verify starts from now on is recorded in: its arguments and its input."""
    repo = tmp_path / "h"
    build(repo, COMMITS * 5, 5, os.environ)
    monkeypatch.chdir(repo)
    started: list[tuple[list[str], Any]] = []
    real = git.spawn

    def spawn(args: list[str], *rest: Any, **named: Any) -> Any:
        started.append((list(args), named.get("input")))
        return real(args, *rest, **named)

    monkeypatch.setattr(git, "spawn", spawn)
    return started


def test_no_git_process_is_started_with_nothing_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = history(tmp_path, monkeypatch)
    report = verify_history(open_workspace())
    assert report.ok and report.checked == COMMITS + 1, report.lines()
    batch = [args for args, given in started if any(a.startswith("--batch") for a in args)]
    assert batch  # the ones verify reads with
    batches = [args for args, given in started if args in batch and not given]
    assert batches == [], started


def test_the_tip_and_the_base_are_found_by_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = history(tmp_path, monkeypatch)
    ws = open_workspace()
    started.clear()
    report = verify_history(ws, base="HEAD~3")
    assert report.ok and report.checked == 3, report.lines()
    before_log = started[: next(n for n, (args, _) in enumerate(started) if args[0] == "log")]
    assert len(before_log) == 1, before_log


@pytest.mark.parametrize(
    ("base", "tip", "checked", "unseen"),
    [
        ("0" * 40, "HEAD", COMMITS + 1, True),  # a base this clone does not have
        ("HEAD\nHEAD", "HEAD", COMMITS + 1, True),  # a line break: no second answer read
        ("-h", "HEAD", COMMITS + 1, True),
        (None, "no-such-ref", 0, False),
        (None, "-h", 0, False),
        ("HEAD~2", "HEAD", 2, False),
    ],
)
def test_the_tip_and_the_base_read_as_before(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    base: str | None,
    tip: str,
    checked: int,
    unseen: bool,
) -> None:
    repo = tmp_path / "h"
    build(repo, COMMITS * 5, 5, os.environ)
    monkeypatch.chdir(repo)
    report = verify_history(open_workspace(), base=base, tip=tip)
    assert report.ok and report.checked == checked, report.lines()
    assert bool(report.unseen) == unseen, report.unseen


def test_the_configs_and_the_edges_ledger_are_asked_by_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = history(tmp_path, monkeypatch)
    report = verify_history(open_workspace(), base="HEAD~3")  # its edge: HEAD~3's ledger
    assert report.ok and report.checked == 3, report.lines()
    where = [
        args for args, _ in started if args[-1:] == ["--batch-check=%(objectname) %(objecttype)"]
    ]
    assert len(where) == 2, where  # the tip and the base; each commit's config, the edge's ledger
