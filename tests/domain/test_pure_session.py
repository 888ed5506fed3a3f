"""Replay in-process: which session is current, what its events add up to, its plan, and the
measured usage (fill, window, spend) a replay keeps."""

from __future__ import annotations

from typing import Any
from typing import cast

import pytest

from tg_git.domain import eventlog
from tg_git.domain import replay
from tg_git.domain.errors import CorruptFile

SID = "s1"


def start(at: str = "2026-12-01T10:00:00Z", sid: str = SID, **fields: Any) -> eventlog.Event:
    return cast(
        "eventlog.Event",
        {"kind": "session", "id": sid, "at": at, "max_tokens": 1000, "base": "", **fields},
    )


def ev(kind: str, second: int, **fields: Any) -> eventlog.Event:
    at = f"2026-12-01T10:00:{second:02d}Z"
    return cast("eventlog.Event", {"kind": kind, "session": SID, "at": at, **fields})


def replayed(*events: eventlog.Event) -> replay.Session:
    found = replay.replay({f"k{n}": e for n, e in enumerate(events)})
    assert found is not None
    return found


@pytest.mark.parametrize("bad", [True, -5, 10**31, "7"])
def test_a_count_that_is_not_a_count_is_a_clear_error(bad: object) -> None:
    with pytest.raises(CorruptFile):
        replayed(start(), ev("commit", 1, tokens=bad))


def test_a_resumed_task_with_blockers_is_blocked() -> None:
    s = replayed(
        start(
            in_progress=[
                {"task": "t", "stopping_point": "line 40", "blockers": ["ci"]},
                {"task": "u", "stopping_point": "", "blockers": []},
            ]
        )
    )
    assert (s.tasks["t"].status, s.tasks["t"].blockers) == ("blocked", ["ci"])
    assert s.tasks["u"].status == "in_progress"


def test_starting_a_task_without_a_note_keeps_where_it_stopped() -> None:
    s = replayed(
        start(in_progress=[{"task": "t", "stopping_point": "line 40", "blockers": []}]),
        ev("task", 1, op="start", title="t"),
    )
    assert s.tasks["t"].stopping_point == "line 40"


def test_blocking_without_a_reason_adds_no_blocker() -> None:
    s = replayed(start(pending=["t"]), ev("task", 1, op="block", title="t"))
    assert (s.tasks["t"].status, s.tasks["t"].blockers) == ("blocked", [])


def test_the_current_session_is_the_newest_start_wherever_its_line_is() -> None:
    newer, older = start("2026-12-01T11:00:00Z", "s-new"), start("2026-12-01T09:00:00Z", "s-old")
    assert replayed(newer, older).id == "s-new"


def test_another_sessions_events_do_not_count() -> None:
    s = replayed(start(), ev("commit", 1, tokens=5), ev("commit", 2, tokens=7, session="s2"))
    assert (s.output, s.commits) == (5, 1)


def test_estimates_before_a_measurement_are_not_counted_twice_in_any_file_order() -> None:
    commit, usage = ev("commit", 1, tokens=100), ev("usage", 2, model="m", fill=500)
    for order in ((commit, usage), (usage, commit)):
        s = replayed(start(), *order)
        assert (s.used, s.measured_base, s.source) == (500, 100, "measured")
    s = replayed(start(), commit, usage, ev("commit", 3, tokens=20))
    assert (s.used, s.source) == (520, "mixed")


def test_clearing_the_next_steps() -> None:
    s = replayed(
        start(next=["a"]),
        ev("next", 1, text="b"),
        ev("next", 2, op="clear"),
        ev("next", 3, text="c"),
    )
    assert s.next_steps == ["c"]


def test_the_agents_running_total_is_the_highest_not_the_sum() -> None:
    s = replayed(
        start(), ev("usage", 1, model="m", spent=100), ev("usage", 2, model="m", spent=150)
    )
    assert s.spend_counted == 150


def test_a_measurement_without_a_window_keeps_the_known_one() -> None:
    s = replayed(
        start(), ev("usage", 1, model="m", fill=10, window=2000), ev("usage", 2, model="m", fill=20)
    )
    assert (s.measured_fill, s.measured_window) == (20, 2000)


def test_used_never_drops_below_the_measured_fill() -> None:
    """A landed copy given a newer measurement (``budget.landed_level``) can hold fewer
    estimates than the measurement's base: the fill stands, nothing is subtracted."""
    s = replay.Session(
        SID,
        "2026-12-01T10:00:00Z",
        1000,
        "",
        output=100,
        measured_fill=500,
        measured_base=300,
        measured_at="2026-12-01T10:00:05Z",
    )
    assert (s.used, s.source) == (500, "measured")


def test_tokens_of_a_model_without_a_price_are_counted_as_unpriced() -> None:
    s = replayed(start(), ev("usage", 1, model="no-such-model", fresh_input=100, output=5))
    assert (s.spend_unpriced, s.spend_cost_pico, s.spend) == (105, 0, 105)


def _at(at: str) -> eventlog.Event:
    return cast("eventlog.Event", {"kind": "input", "at": at, "session": "s", "tokens": 1})


def test_only_an_older_line_or_the_base_s_own_may_be_settled() -> None:
    """A base whose newest events (keys ``a``, ``b``) are at ``T``: a line of that second with
    another key is new (the fast view goes on: same-second lines at a segment's boundary are
    common), one of its own keys, or anything older, may be in the base (read every file)."""
    newest, own = "2026-12-01T10:00:00Z", ["a", "b"]
    later, earlier = "2026-12-01T10:00:01Z", "2026-12-01T09:59:59Z"
    assert not replay.may_be_settled([("c", _at(newest)), ("d", _at(later))], newest, own)
    assert replay.may_be_settled([("d", _at(later)), ("b", _at(newest))], newest, own)
    assert replay.may_be_settled([("e", _at(earlier))], newest, own)
    assert not replay.may_be_settled([], newest, own)
    assert not replay.may_be_settled([("a", _at(newest))], "", [])  # no base yet


def test_a_base_keeps_the_newest_keys_of_a_burst_in_its_newest_second() -> None:
    """Generated ledgers put thousands of events in one second: the base keeps the keys of
    the last ones written (a line popped back is one of the latest settled), and stays small."""
    burst = [f"k{n}" for n in range(replay.AT_NEWEST_MAX + 10)]
    assert replay.keys_at_newest(burst[:5]) == burst[:5]
    kept = replay.keys_at_newest(burst)
    assert kept == burst[10:] and len(kept) == replay.AT_NEWEST_MAX
    newest = "2026-12-01T10:00:00Z"
    assert replay.may_be_settled([(burst[-1], _at(newest))], newest, kept)
    assert not replay.may_be_settled([("k0", _at(newest))], newest, kept)


# ---- the plan merges: a task's state is its newest event, wherever it was written --------
def test_a_tie_in_time_gives_the_same_state_in_any_file_order() -> None:
    """Two clones' lines of one second, in the order either merge left them: the task ends
    in the same state on both (at one time, the later state wins: done over block over
    start over add)."""
    first = [ev("task", 5, op="start", title="X"), ev("task", 5, op="done", title="X")]
    for events in (first, first[::-1]):
        session = replayed(start(), ev("task", 1, op="add", title="X"), *events)
        assert session.tasks["X"].status == "done"


def test_a_next_step_naming_a_task_clears_when_it_is_done() -> None:
    session = replayed(
        start(),
        ev("task", 1, op="add", title="Login page"),
        ev("next", 2, text="finish the login page: the form first"),
        ev("next", 3, text="write the docs"),
        ev("next", 4, text="a login pager is another thing"),
        ev("task", 5, op="done", title="Login page"),
        ev("next", 6, text="check the login page in production"),  # after: a new step
    )
    assert session.next_steps == [
        "write the docs",
        "a login pager is another thing",
        "check the login page in production",
    ]


def test_another_sessions_newer_event_sets_a_tasks_state() -> None:
    """A task carried into this session and finished in another clone's session (merged
    in) is done here; one restarted here after that stays in progress; a carried state is
    no event of its own, so another session's newest event for a task sets it; a task this
    session lacks is not added."""
    own = [
        start(
            in_progress=[{"task": "A", "stopping_point": "form"}, {"task": "B"}],
            pending=["C"],
            next=["finish A today", "then C"],
        ),
        ev("task", 9, op="start", title="B"),
    ]
    mine = replayed(*own)
    theirs = [
        {"kind": "task", "session": "s2", "at": "2026-12-01T10:00:05Z", "op": "done", "title": t}
        for t in ("A", "B", "Z")
    ] + [
        {"kind": "task", "session": "s0", "at": "2026-11-01T10:00:00Z", "op": "block", "title": "C"}
    ]
    settled = replay.settle_tasks(mine, [*own, *cast("list[eventlog.Event]", theirs)])
    assert {t: task.status for t, task in settled.tasks.items()} == {
        "A": "done",
        "B": "in_progress",
        "C": "blocked",
    }
    assert settled.next_steps == ["then C"] and "Z" not in settled.tasks
    assert mine.tasks["A"].status == "in_progress"  # the session itself is left as it was
    assert replay.finished(cast("list[eventlog.Event]", theirs)) == {"A", "B", "Z"}
