"""The writer's clock of a transcript, read from real files: its last stamped line against the
file's modification time (``tg_git.usage.clock``)."""

from __future__ import annotations

import json
import os
import time
from datetime import datetime
from datetime import timezone
from pathlib import Path

from tests.support.agents import claude_line
from tests.support.agents import ts
from tg_git.usage import clock

FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def start(path: Path, started: float, document: bool = False) -> float:
    """The session start ``started`` (epoch seconds) on ``path``'s writer's clock."""
    stamp = datetime.fromtimestamp(started, timezone.utc).strftime(FORMAT)
    moved = clock.session_start(path, os.stat(path), stamp, document)
    return datetime.strptime(moved, FORMAT).replace(tzinfo=timezone.utc).timestamp()


def test_a_clock_two_hours_behind_moves_the_start_two_hours_back(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(claude_line("m", "r", at=ts(-7200)))
    now = time.time()
    assert abs(start(path, now) - (now - 7200)) < 5


def test_a_half_written_last_line_or_one_without_a_time_is_passed_over(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    summary = json.dumps({"type": "summary", "summary": "s"}) + "\n"
    path.write_text(claude_line("m", "r", at=ts(3600)) + summary + '{"type":"assistant","timest')
    now = time.time()
    assert abs(start(path, now) - (now + 3600)) < 5


def test_an_agents_own_delay_is_no_wrong_clock(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(claude_line("m", "r", at=ts(-300)))  # a reply that took five minutes
    now = float(int(time.time()))
    assert start(path, now) == now


def test_a_file_with_no_time_in_its_tail_keeps_the_start(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with path.open("w") as fh:
        fh.write(claude_line("m", "r", at=ts(-7200)))  # beyond the tail that is read
        fh.write(json.dumps({"type": "user", "pad": "x" * (clock.TAIL + 10)}) + "\n")
    now = float(int(time.time()))
    assert start(path, now) == now


def test_a_document_is_judged_by_the_last_time_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    messages = [{"id": "a", "timestamp": ts(-7300)}, {"id": "b", "timestamp": ts(-7200)}]
    path.write_text(json.dumps({"sessionId": "g", "messages": messages}, indent=2))
    now = time.time()
    assert abs(start(path, now, document=True) - (now - 7200)) < 5
