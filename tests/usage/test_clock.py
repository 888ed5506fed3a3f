"""The writer's clock of a transcript, read from real files: its last stamped line against the
file's modification time (``tg_git.usage.clock``)."""

from __future__ import annotations

import json
import os
import time
from datetime import datetime
from datetime import timezone
from pathlib import Path

import hypothesis
from hypothesis import strategies as st

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


def test_a_last_time_that_names_no_moment_keeps_the_start(tmp_path: Path) -> None:
    """A last line whose time has the form but names no moment (hour 25, second 61, the 30th
    of February) tells nothing of the writer's clock: the start is kept, nothing raised."""
    now = float(int(time.time()))
    for n, at in enumerate(("2026-12-03T25:00:00Z", "2026-12-03T10:00:61Z",
                            "2026-02-30T10:00:00Z", "2025-02-29T10:00:00Z")):  # fmt: skip
        path = tmp_path / f"t{n}.jsonl"
        path.write_text(claude_line("m", "r", at=at))
        assert start(path, now) == now, at


def test_the_writers_clock_reads_a_time_as_the_calendar_does(tmp_path: Path) -> None:
    """Leap days, the turn of a year and of a century read as ``datetime`` reads them."""
    for at in ("2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "2026-12-31T23:59:59Z",
               "1999-12-31T12:00:00Z", "2100-03-01T00:00:00Z"):  # fmt: skip
        moment = datetime.strptime(at, FORMAT).replace(tzinfo=timezone.utc).timestamp()
        path = tmp_path / "t.jsonl"
        path.write_text(claude_line("m", "r", at=at))
        os.utime(path, (moment + 7200.25, moment + 7200.25))  # two hours and a quarter second
        started = moment + 86400
        assert start(path, started) == started - 7201.0, at  # (a second's part: cut, as written)


@hypothesis.settings(max_examples=500, deadline=None)
@hypothesis.given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.floats(min_value=-(10**9), max_value=10**9, allow_nan=False),
)
def test_times_read_and_written_as_datetime_does(moment: datetime, shift: float) -> None:
    """The clock's own reading of a time and its writing of one agree with ``datetime``'s."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S") + "Z"
    text = f"{moment.year:04d}{text[text.index('-') :]}"  # (a year under 1000, zero-padded)
    utc = moment.replace(tzinfo=timezone.utc)
    assert clock.epoch(text) == int(utc.replace(microsecond=0).timestamp())
    seconds = utc.timestamp() + shift
    if 0 < seconds < 253402300799:
        want = datetime.fromtimestamp(seconds, timezone.utc).strftime(FORMAT)
        assert clock.utc(seconds) == want
