"""The plan's windows, a third budget: readings from Claude Code's status line and Codex's
rollouts, the use a session made of them, its levels, resets and the record."""

from __future__ import annotations

from typing import Any

import pytest

from tg_git.domain import budget
from tg_git.domain import levels
from tg_git.domain import replay
from tg_git.domain import windows
from tg_git.domain.config import Config
from tg_git.domain.config import from_mapping
from tg_git.domain.errors import CorruptFile

STARTED = "2026-12-01T10:00:00Z"
T0 = windows.epoch(STARTED)
RESET = T0 + 3 * 3600  # the 5-hour window open at the start resets three hours in


def session(recorded: list[str] | None = None) -> replay.Session:
    return replay.Session("s1", STARTED, 200_000, "", recorded=list(recorded or []))


def claude(at: int, five: float, resets: int = RESET, seven: float | None = None) -> list[Any]:
    table: dict[str, Any] = {"five_hour": {"used_percentage": five, "resets_at": resets}}
    if seven is not None:
        table["seven_day"] = {"used_percentage": seven, "resets_at": T0 + 5 * 86400}
    return windows.from_claude(table, at)


def judged(rows: list[Any], config: Config, s: replay.Session | None = None) -> budget.Budgets:
    return budget.budgets(s or session(), config, None, rows)


def test_epoch_reads_the_ledger_time_and_iso_forms() -> None:
    assert windows.stamp(windows.epoch(STARTED)) == STARTED
    assert windows.epoch("2026-12-01T10:00:00.25+00:00") == T0
    assert windows.epoch("yesterday") == 0


def test_claude_status_line_rate_limits_are_read_as_percents_and_times() -> None:
    rows = windows.from_claude(
        {
            "five_hour": {"used_percentage": 41, "resets_at": RESET},
            "seven_day": {"used_percentage": 12.5, "resets_at": f"{windows.stamp(RESET)}"},
            "opus": {"used_percentage": 3},
        },
        T0,
    )
    assert rows == [
        windows.Reading("claude", "5h", T0, 41.0, RESET),
        windows.Reading("claude", "7d", T0, 12.5, RESET),
    ]
    bad = {"five_hour": {"used_percentage": 140}, "seven_day": {"used_percentage": True}}
    assert windows.from_claude(bad, T0) == [] and windows.from_claude([1], T0) == []


def test_codex_rollout_rate_limits_are_read_by_their_window_minutes() -> None:
    table = {
        "primary": {"used_percent": 7.0, "window_minutes": 10080, "resets_at": RESET},
        "secondary": {"used_percent": 33.0, "window_minutes": 300, "resets_in_seconds": 600},
    }
    assert windows.from_codex(table, T0) == [
        windows.Reading("codex", "7d", T0, 7.0, RESET),
        windows.Reading("codex", "5h", T0, 33.0, T0 + 600),
    ]
    other = {"primary": {"used_percent": 7.0, "window_minutes": 60}, "secondary": None}
    assert windows.from_codex(other, T0) == []
    assert windows.from_codex({"primary": {"used_percent": 2}}, T0)[0].name == "5h"


def test_off_by_default_no_reading_changes_any_level() -> None:
    rows = claude(T0, 10) + claude(T0 + 60, 99)
    found = judged(rows, Config())
    assert (found.level, found.halted_by) == (levels.OK, None)
    assert found.windows is not None and found.windows["5h"].used == 89.0
    assert found.windows["5h"].share is None and found.windows["5h"].level == levels.OK


@pytest.mark.parametrize(
    ("rise", "level"),
    [
        (23.9, levels.OK),
        (24.0, levels.WARNING),
        (26.9, levels.WARNING),
        (27.0, levels.FORCE_SAVE),
        (28.4, levels.FORCE_SAVE),
        (28.5, levels.HALT),
    ],
)
def test_levels_are_80_90_95_percent_of_the_share(rise: float, level: str) -> None:
    config = Config(window_5h=0.3)  # 30 points of the window: 24 warn, 27 save, 28.5 halt
    found = judged(claude(T0, 10) + claude(T0 + 600, 10 + rise), config)
    assert found.level == level
    assert found.windows is not None and found.windows["5h"].level == level
    assert found.halted_by == ("window" if level == levels.HALT else None)
    assert found.set_by == ("window" if level != levels.OK else "context")


def test_a_codex_rollout_reaches_the_halt_of_the_7_day_share() -> None:
    config = Config(window_7d=0.1)
    rows = []
    for i, pct in enumerate((40.0, 44.0, 48.0, 49.5)):
        table = {"secondary": {"used_percent": pct, "window_minutes": 10080, "resets_at": RESET}}
        rows += windows.from_codex(table, T0 + 60 * i)
    found = judged(rows, config)
    assert (found.level, found.halted_by) == (levels.HALT, "window")
    assert found.windows is not None and found.windows["7d"].agent == "codex"


def test_only_the_rise_during_the_session_counts() -> None:
    config = Config(window_5h=0.3)
    before = claude(T0 - 3600, 60)  # the last reading before the session: the baseline
    found = judged(before + claude(T0 + 60, 70), config)
    assert found.windows is not None and found.windows["5h"].used == 10.0
    assert found.level == levels.OK
    nothing = judged(claude(T0 - 60, 90), config)  # no reading in the session
    assert nothing.windows == {} and nothing.level == levels.OK


def test_a_lower_percent_without_a_reset_lowers_nothing() -> None:
    config = Config(window_5h=0.3)
    rows = claude(T0, 10) + claude(T0 + 60, 38) + claude(T0 + 120, 20) + claude(T0 + 180, 30)
    found = judged(rows, config)
    assert found.windows is not None and found.windows["5h"].used == 28.0
    assert found.level == levels.FORCE_SAVE  # 28 of 30 points stays; 20 -> 30 adds nothing
    jitter = claude(T0, 10) + claude(T0 + 60, 38) + claude(T0 + 120, 5, resets=RESET + 60)
    assert judged(jitter, config).windows["5h"].used == 28.0  # type: ignore[index]
    early = claude(T0, 10) + claude(T0 + 60, 38) + claude(T0 + 120, 5, resets=RESET + 5 * 3600)
    assert judged(early, config).windows["5h"].used == 28.0  # type: ignore[index]


def test_a_real_reset_opens_a_new_window_and_keeps_what_was_spent() -> None:
    config = Config(window_5h=0.3)
    after = RESET + 5 * 3600
    rows = claude(T0, 10) + claude(RESET - 60, 38) + claude(RESET + 60, 4, resets=after)
    found = judged(rows, config)
    win = found.windows["5h"]  # type: ignore[index]
    assert (win.used, win.spent, win.resets_at) == (4.0, 28.0, after)
    assert found.level == levels.OK  # the share is of the window now open
    more = rows + claude(RESET + 600, 33, resets=after)
    assert judged(more, config).level == levels.HALT


def test_the_burn_forecast_is_the_pace_of_the_open_window() -> None:
    config = Config(window_5h=0.3)  # halt at 28.5 points
    found = judged(claude(T0, 10) + claude(T0 + 600, 20), config)
    win = found.windows["5h"]  # type: ignore[index]
    assert win.halt_in == 1110  # 18.5 points to go at 1 point a minute: 18.5 minutes
    assert windows.as_json(found.windows)["5h"]["halt_in_minutes"] == 19  # type: ignore[arg-type]
    halted = judged(claude(T0, 0) + claude(T0 + 60, 29), config).windows
    assert halted["5h"].halt_in is None  # type: ignore[index]


def test_windows_of_two_agents_are_judged_apart_and_the_worse_counts() -> None:
    config = Config(window_5h=0.3)
    rows = claude(T0, 10) + claude(T0 + 60, 20)
    rows += windows.from_codex({"primary": {"used_percent": 50, "window_minutes": 300}}, T0)
    rows += windows.from_codex({"primary": {"used_percent": 79, "window_minutes": 300}}, T0 + 60)
    found = judged(rows, config)
    assert found.windows["5h"].agent == "codex" and found.level == levels.HALT  # type: ignore[index]


@pytest.mark.parametrize(
    ("written", "share"),
    [(0.3, 0.3), ("30%", 0.3), ("12.5%", 0.125), (1, 1.0), (0, None), ("off", None)],
)
def test_shares_are_a_fraction_or_a_percent(written: Any, share: float | None) -> None:
    cfg = from_mapping({"budget": {"window_5h": written}})
    assert cfg.window_5h == share and cfg.window_7d is None


@pytest.mark.parametrize("written", [1.5, "130%", "-1", "lots", True, [0.3]])
def test_a_bad_share_is_a_clear_error(written: Any) -> None:
    with pytest.raises(CorruptFile, match=r"budget\.window_5h"):
        from_mapping({"budget": {"window_5h": written}})


def test_a_hand_edit_of_the_share_is_ignored_until_recorded() -> None:
    rows = claude(T0, 10) + claude(T0 + 60, 39)
    recorded = session(["budget.window_5h=0.3"])
    assert judged(rows, Config(window_5h=0.3), recorded).level == levels.HALT
    edited = judged(rows, Config(window_5h=0.9), recorded)  # by hand: would lower it
    assert (edited.level, edited.unrecorded) == (levels.HALT, ("budget.window_5h",))
    off = judged(rows, Config(), recorded)
    assert (off.level, off.unrecorded) == (levels.HALT, ("budget.window_5h",))
    raised = session(["budget.window_5h=0.3", "budget.window_5h=35%"])  # 29 of 35 points
    assert judged(rows, Config(window_5h=0.35), raised).level == levels.WARNING


def test_a_stored_reading_is_checked_as_data() -> None:
    good = windows.Reading("claude", "5h", T0, 41.0, RESET)
    assert windows.from_row(windows.as_row(good)) == good
    for row in (
        ["claude", "1h", T0, 4, 0],
        ["x\n", "5h", T0, 4, 0],
        ["c", "5h", -1, 4, 0],
        ["c", "5h", T0, 101, 0],
        ["c", "5h", T0, 4],
        "row",
    ):
        assert windows.from_row(row) is None
