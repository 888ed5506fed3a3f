"""A cold verify reads each added event line in C, not in a Python loop of verify's own: the
lines gathered once (a union of each commit's sets) and the recount events looked for in one
search of their text. The Python steps ``verify_read`` and ``verify_index`` run (function
calls and lines, the interpreter's trace hook) grow with the commits; of each line only its
key is taken in Python (``Facts.keys``, which the memo keeps): one step a line, from five."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.verify import build
from tests.support.repos import traced_verify
from tg_git.services import verify_index
from tg_git.services import verify_read

OURS = {verify_read.__file__, verify_index.__file__}
COMMITS = 10


def _steps(root: Path, per_commit: int, monkeypatch: pytest.MonkeyPatch) -> int:
    repo = root / f"h{per_commit}"
    build(repo, COMMITS * per_commit, per_commit, os.environ)
    monkeypatch.chdir(repo)
    steps, report = traced_verify(repo, OURS.__contains__)
    assert report.ok and report.checked == COMMITS + 1, report.lines()
    return steps


def test_a_cold_verify_steps_through_each_event_line_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    few = _steps(tmp_path, 20, monkeypatch)
    many = _steps(tmp_path, 220, monkeypatch)  # the same commits, 2,000 more lines
    per_line = (many - few) / (COMMITS * 200)
    assert per_line < 1.5, (few, many, per_line)
