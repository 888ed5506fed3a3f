"""The offline price table in-process: which key a model id takes, exact costs in picodollars,
and dollars as the user wrote them."""

from __future__ import annotations

import pytest

from tg_git.domain import prices


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("claude-opus-4-6", "claude-opus-4-6"),
        ("Claude-Opus-4-6", "claude-opus-4-6"),
        ("us.anthropic.claude-opus-4-6-v1:0", "claude-opus-4-6"),
        ("anthropic/claude-opus-4-6", "claude-opus-4-6"),
        ("gpt-5-mini-2025-08-07", "gpt-5-mini"),
        ("gpt-5-2025-08-07", "gpt-5"),
        ("o3-2025", "o3"),
    ],
)
def test_a_model_takes_the_longest_key_it_starts_with(model: str, key: str) -> None:
    price = prices.lookup(model)
    assert price is not None and price.key == key


@pytest.mark.parametrize(
    ("model", "key"),
    [("o30", None), ("gpt-5x", None), ("claude-opus-45", "claude-opus"), ("", None)],
)
def test_a_key_matches_only_up_to_a_separator(model: str, key: str | None) -> None:
    """`o30` is not `o3`: a model the table does not know gets no guessed price."""
    price = prices.lookup(model)
    assert (price.key if price else None) == key


def test_each_class_of_tokens_costs_its_own_price() -> None:
    row = prices.table()["models"]["claude-opus-4-6"]
    per = {
        name: round(row[name] * 10**6) for name in ("input", "cache_write", "cache_read", "output")
    }
    assert len(set(per.values())) == 4  # the check below tells the classes apart
    assert prices.cost_pico("claude-opus-4-6", 1, 0, 0, 0) == per["input"]
    assert prices.cost_pico("claude-opus-4-6", 0, 1, 0, 0) == per["cache_write"]
    assert prices.cost_pico("claude-opus-4-6", 0, 0, 1, 0) == per["cache_read"]
    assert prices.cost_pico("claude-opus-4-6", 0, 0, 0, 1) == per["output"]
    assert prices.cost_pico("no-such-model", 1, 1, 1, 1) is None


def test_dollars_are_read_as_written_and_shown_to_the_millionth() -> None:
    assert prices.to_pico(1.001) == 1_001_000_000_000
    assert prices.to_pico(0.1) == 10**11
    assert prices.usd(1_500_000_000_000) == 1.5
    assert prices.usd(1_234_567) == 0.000001
