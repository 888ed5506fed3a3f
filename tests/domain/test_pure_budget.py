"""The two budgets' pure figures in-process: the context fill and its window, the spend in
tokens and dollars, which halt is named, and the level of what has landed."""

from __future__ import annotations

from typing import TYPE_CHECKING
from typing import Any
from typing import cast

from tg_git.domain import budget
from tg_git.domain import levels
from tg_git.domain import replay
from tg_git.domain.config import Config

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import UsageEvent

STARTED = "2026-12-01T10:00:00Z"
MODEL = "claude-opus-4-6"


def session(**values: Any) -> replay.Session:
    return replay.Session("s1", STARTED, 1000, "", **values)


def measured(s: replay.Session, at: str, fill: int, **fields: int) -> replay.Session:
    event = {"kind": "usage", "at": at, "model": MODEL, "fill": fill, **fields}
    replay.apply_usage(s, cast("UsageEvent", event))
    return s


def live(at: str = "2026-12-01T10:05:00Z", **values: object) -> budget.Live:
    fields: dict[str, object] = {
        "agent": "claude",
        "agent_session": "a1",
        "used": 500,
        "window": 0,
        "at": at,
        "estimated": 0,
        "spent": 0,
        "cost_pico": None,
        **values,
    }
    return budget.Live(**fields)  # type: ignore[arg-type]


def test_a_spent_budget_halts_the_session_however_small_the_context() -> None:
    found = budget.budgets(session(spend_fresh_input=960), Config(spend_tokens=1000))
    assert (found.context.level, found.spend.level) == (levels.OK, levels.HALT)
    assert (found.level, found.halted_by) == (levels.HALT, budget.SPEND)


def test_with_both_at_the_halt_the_spend_is_named() -> None:
    found = budget.budgets(session(output=960, spend_fresh_input=960), Config(spend_tokens=1000))
    assert (found.context.level, found.halted_by) == (levels.HALT, budget.SPEND)


def test_a_live_reading_older_than_the_session_is_ignored() -> None:
    context = budget.context_budget(session(output=100), Config(), live("2026-12-01T09:00:00Z"))
    assert (context.used, context.source) == (100, "estimated")


def test_a_live_reading_adds_the_estimates_recorded_since() -> None:
    s = session(output=100)
    assert budget.context_budget(s, Config(), live(estimated=40)).used == 560
    # Read at a higher estimate than the ledger holds (another clone's): nothing to subtract.
    assert budget.context_budget(s, Config(), live(estimated=300)).used == 600


def test_budget_context_wins_over_every_reported_window() -> None:
    s = measured(session(), "2026-12-01T10:01:00Z", 100, window=2000)
    assert budget.context_window(s, Config(budget_context=5000), live(window=200_000)) == 5000
    assert budget.context_window(s, Config(), live(window=200_000)) == 200_000
    assert budget.context_window(s, Config()) == 2000
    assert budget.context_window(session(), Config()) == 1000


def test_the_spend_counted_twice_counts_once() -> None:
    s = session(spend_fresh_input=500, spend_counted=600)
    assert budget.spend_budget(s, Config()).used == 600
    assert budget.spend_budget(s, Config(), live(spent=700)).used == 700


def test_the_higher_of_two_costs_of_the_same_spend_is_the_cost() -> None:
    s = measured(session(), "2026-12-01T10:01:00Z", 10, fresh_input=1_000_000)
    priced = budget.session_cost_pico(s)
    assert priced is not None and priced > 0
    s.cost_counted_pico = priced * 2
    assert budget.spend_budget(s, Config()).usd == round(priced * 2 / 10**12, 6)


def test_the_spend_percentage_is_the_higher_of_tokens_and_dollars() -> None:
    s = session(spend_fresh_input=1000, cost_counted_pico=5 * 10**11)  # 1,000 tokens, $0.50
    found = budget.spend_budget(s, Config(spend_tokens=10_000, spend_usd=1.0))
    assert (found.percent, found.level) == (50.0, levels.OK)


def test_spend_without_a_price_is_unknown_not_free() -> None:
    s = session()
    replay.apply_usage(
        s, {"kind": "usage", "at": STARTED, "model": "no-such-model", "fresh_input": 100}
    )
    assert budget.session_cost_pico(s) is None and budget.spend_budget(s, Config()).usd is None


def test_a_compaction_measured_since_lifts_a_landed_context_halt() -> None:
    landed = measured(session(), "2026-12-01T10:01:00Z", 960)
    now = measured(measured(session(), "2026-12-01T10:01:00Z", 960), "2026-12-01T10:02:00Z", 200)
    assert budget.session_level(landed, Config()) == levels.HALT
    assert budget.landed_level(landed, now, Config()) == levels.OK


def test_a_rise_measured_since_counts_only_once_it_landed() -> None:
    landed = measured(session(), "2026-12-01T10:01:00Z", 850)
    now = measured(measured(session(), "2026-12-01T10:01:00Z", 850), "2026-12-01T10:02:00Z", 990)
    assert budget.landed_level(landed, now, Config()) == levels.WARNING
