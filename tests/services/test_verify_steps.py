"""A cold verify reads each added event line in C, not in a Python loop of verify's own: the
lines gathered once (a union of each commit's sets) and the recount events looked for in one
search of their text. The Python steps ``verify_read`` and ``verify_index`` run (function
calls and lines, the interpreter's trace hook) grow with the commits; of each line only its
key is taken in Python (``Facts.keys``, which the memo keeps): one step a line, from five."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from bench.verify import build
from tg_git.services import verify_index
from tg_git.services import verify_read
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

OURS = {verify_read.__file__, verify_index.__file__}
COMMITS = 10


def _steps(root: Path, per_commit: int, monkeypatch: pytest.MonkeyPatch) -> int:
    repo = root / f"h{per_commit}"
    build(repo, COMMITS * per_commit, per_commit, os.environ)
    monkeypatch.chdir(repo)
    ws = open_workspace()
    steps = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        steps += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local(frame, event, arg) if frame.f_code.co_filename in OURS else None

    sys.settrace(calls)
    try:
        report = verify_history(ws)
    finally:
        sys.settrace(None)
    assert report.ok and report.checked == COMMITS + 1, report.lines()
    return steps


def test_a_cold_verify_steps_through_each_event_line_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    few = _steps(tmp_path, 20, monkeypatch)
    many = _steps(tmp_path, 220, monkeypatch)  # the same commits, 2,000 more lines
    per_line = (many - few) / (COMMITS * 200)
    assert per_line < 1.5, (few, many, per_line)
