"""The offline price table (``prices.json``, shipped in the package): USD per million tokens by
model family, for fresh input, output, cache writes and cache reads; its date and source are
in the file (``DATE``, ``SOURCE``) and in docs/budgets.md.

Costs are whole picodollars (10**-12 USD): every list price has at most six decimals per
million tokens, so a price per token is an integer and sums are exact, whatever the number of
turns. A model the table does not know costs tokens only (``cost_pico`` is None): tg-git never
guesses a price. Loaded once per process, and only when a measured ``usage`` event is replayed.
"""

from __future__ import annotations

import os

from tg_git.domain.typed import NamedTuple

TYPE_CHECKING = False  # `import typing` costs every status-line refresh a few ms
if TYPE_CHECKING:
    from typing import Any

PICO = 10**12  # picodollars in a dollar
PER_MTOK = 10**6  # picodollars per token for a price of 1 USD per million tokens
_SEPARATORS = ("-", ".", "@", ":", "[")
_TABLE: list[dict[str, Any]] = []  # the table, once read
_LOOKED_UP: dict[str, Price | None] = {}
_MOST_LOOKED_UP = 256


class Price(NamedTuple):
    """One family's prices in picodollars per token, and the table key that matched."""

    key: str
    input: int
    output: int
    cache_write: int
    cache_read: int


def table() -> dict[str, Any]:
    """The whole table as shipped (``about``, ``date``, ``source``, ``unit``, ``models``)."""
    if not _TABLE:
        # The package's own loader reads it (what ``importlib.resources`` does, without
        # ``pathlib`` and ``re``), and ``jsonfast`` parses it (without ``json``'s package): a
        # status-line refresh that folds a turn's usage in prices it.
        from tg_git.domain import jsonfast  # lazy: 0.5 ms

        name = os.path.join(os.path.dirname(__file__), "prices.json")
        get_data = getattr(getattr(__spec__, "loader", None), "get_data", None)
        if get_data is not None:
            text = get_data(name).decode("utf-8")
        else:  # a loader without files of its own
            from pathlib import Path  # lazy: 5.6 ms

            text = Path(__file__).with_name("prices.json").read_text(encoding="utf-8")
        _TABLE.append(jsonfast.loads(text))
    return _TABLE[0]


def _pico(usd_per_mtok: float) -> int:
    return round(usd_per_mtok * PER_MTOK)


def normalise(model: str) -> str:
    """A model id as the table keys it: lower case, without a provider prefix
    (``anthropic/``, ``models/``, Bedrock's ``us.anthropic.``)."""
    name = model.strip().lower().rsplit("/", 1)[-1]
    return name.rpartition("anthropic.")[2]


def lookup(model: str) -> Price | None:
    """The prices of ``model``: the longest key it equals or starts with (then a separator);
    kept for the process (the most recent ``_MOST_LOOKED_UP`` models)."""
    if model not in _LOOKED_UP:
        if len(_LOOKED_UP) >= _MOST_LOOKED_UP:
            _LOOKED_UP.clear()
        _LOOKED_UP[model] = _lookup(model)
    return _LOOKED_UP[model]


def _lookup(model: str) -> Price | None:
    name = normalise(model)
    models: dict[str, dict[str, float]] = table()["models"]
    found = [
        key
        for key in models
        if name == key or any(name.startswith(key + sep) for sep in _SEPARATORS)
    ]
    if not found:
        return None
    key = max(found, key=len)
    row = models[key]
    return Price(
        key,
        _pico(row["input"]),
        _pico(row["output"]),
        _pico(row["cache_write"]),
        _pico(row["cache_read"]),
    )


def cost_pico(
    model: str, fresh_input: int, cache_write: int, cache_read: int, output: int
) -> int | None:
    """What the tokens of one model cost, in picodollars; None when the model has no price."""
    price = lookup(model)
    if price is None:
        return None
    return (
        fresh_input * price.input
        + cache_write * price.cache_write
        + cache_read * price.cache_read
        + output * price.output
    )


def usd(pico: int) -> float:
    """Picodollars as dollars, to the millionth (for JSON and display; sums stay exact)."""
    return round(pico / PICO, 6)


def to_pico(dollars: float) -> int:
    """Dollars (a budget the user wrote, a cost an agent reported) as picodollars, from their
    shortest decimal form (0.1 is 10**11, not a binary float's neighbour)."""
    from tg_git.domain.levels import fraction  # lazy: 1.0 ms

    num, den = fraction(dollars)
    return num * PICO // den


def about() -> tuple[str, str]:
    """The table's (date, source), as the docs and ``tg-git usage`` name them."""
    data = table()
    return str(data["date"]), str(data["source"])
