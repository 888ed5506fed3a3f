"""An event's counts as replay reads them: ``count(event, name)`` is the value when it is a
whole number within bounds, else the ``CorruptFile`` that names it. Apart from
``tg_git.domain.eventlog`` so that replaying a session loads neither the ledger's parsers
(``re``, ``json``) nor the errors' ``enum`` until a count is bad: the status line folds a
turn's events into its kept figures with ``replay`` alone."""

from __future__ import annotations

TYPE_CHECKING = False  # `import typing` costs every refresh a few ms
if TYPE_CHECKING:
    from collections.abc import Mapping

COUNTS = ("tokens", "files", "max_tokens", "fresh_input", "cache_write", "cache_read", "output",
          "requests", "fill", "window", "spent", "cost_pico")  # fmt: skip
MAX_COUNT = 10**30  # more than any budget: beyond it, a hand edit


def count(event: Mapping[str, object], name: str) -> int:
    value = event.get(name, 0)
    if type(value) is not int or not 0 <= value <= MAX_COUNT:  # bool is not a count either
        from tg_git.domain.errors import CorruptFile  # lazy: 3.5 ms

        raise CorruptFile.from_key("ledger_bad_count", name=name, n=MAX_COUNT)
    return value
