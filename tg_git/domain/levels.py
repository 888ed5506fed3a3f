"""Thresholds -> ok / warning / force-save / halt: the one rounding rule and the level names.

Thresholds are percentages in the config (``80``, ``82.5``); every comparison is done in
integers (``used * 100 * den >= max_tokens * num``), so a budget of ``10**20`` tokens gets
exact thresholds, and a level is reached at ``ceil(max_tokens * percent / 100)`` tokens:
``thresholds`` and ``level`` always agree. A session's level (the worse of its two budgets)
is ``tg_git.domain.budget.session_level``; the texts the hooks print are ``tg_git.domain.gauge``.
"""

from __future__ import annotations

from tg_git.domain.typed import Protocol
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from tg_git.domain.config import Config

OK, WARNING, FORCE_SAVE, HALT = "ok", "warning", "force-save", "halt"


class Thresholds(Protocol):
    """The three percentages a level is judged by (``Config`` has them)."""

    @property
    def warning(self) -> float: ...
    @property
    def force_save(self) -> float: ...
    @property
    def halt(self) -> float: ...


def fraction(percent: float) -> tuple[int, int]:
    """``percent`` (or any number a user wrote) as an exact fraction, read from its shortest
    decimal form (82.5 -> 825/10, 33.3 -> 333/10), so thresholds are what the user wrote, not
    a binary float's neighbour."""
    if isinstance(percent, int) or float(percent).is_integer():
        return int(percent), 1
    text = repr(float(percent))
    if "e" in text or "n" in text:
        return float(percent).as_integer_ratio()
    whole, _, frac = text.partition(".")
    den = 10 ** len(frac)
    return int(whole) * den + (int(frac) if not whole.startswith("-") else -int(frac)), den


def _tokens_at(max_tokens: int, percent: float) -> int:
    """The fewest tokens that reach ``percent`` of ``max_tokens``: ceil(max * pct / 100)."""
    num, den = fraction(percent)
    return -((-max_tokens * num) // (100 * den))


def thresholds(max_tokens: int, config: Thresholds) -> dict[str, int]:
    """The seed's ``token_thresholds``: the levels in tokens (exact integers)."""
    return {
        "warning": _tokens_at(max_tokens, config.warning),
        "force_save": _tokens_at(max_tokens, config.force_save),
        "halt": _tokens_at(max_tokens, config.halt),
    }


def level(used: int, max_tokens: int, config: Thresholds) -> str:
    if max_tokens <= 0:
        return HALT
    limits = thresholds(max_tokens, config)
    if used >= limits["halt"]:
        return HALT
    if used >= limits["force_save"]:
        return FORCE_SAVE
    if used >= limits["warning"]:
        return WARNING
    return OK


def percent(used: int, limit: int) -> float:
    """The one rounding rule of every percentage tg-git shows: floored to 2 decimals, so a
    percentage never reads as a level it has not reached (949 of 1,000 is 94.9, never 95)."""
    if limit <= 0:
        return 100.0
    return max(0, used) * 10000 // limit / 100


def shown(used: int, limit: int) -> int:
    """A percentage as a gauge prints it: floored to a whole number (94 % at 949/1,000,
    like the halt at 950 of 95 %)."""
    return 100 * max(0, used) // limit if limit > 0 else 100


def collapsed(max_tokens: int, config: Config) -> list[tuple[str, str, int]]:
    """Pairs of levels that a budget this small puts at the same token count (or a first
    level at 0 tokens): ``(level, level, tokens)``. Empty for any sensible budget."""
    limits = thresholds(max_tokens, config)
    names = list(limits)
    found = [
        (names[i].replace("_", "-"), names[i + 1].replace("_", "-"), limits[names[i]])
        for i in range(len(names) - 1)
        if limits[names[i]] == limits[names[i + 1]]
    ]
    if limits["warning"] <= 0:
        found.insert(0, ("ok", "warning", 0))
    return found


def smallest_budget(config: Config) -> int:
    """The smallest budget whose levels are all apart (for the error that refuses one)."""
    n = 1
    while collapsed(n, config) and n < 1_000_000:
        n += 1
    return n


def check_budget(max_tokens: int, config: Config, language: str | None = None) -> str | None:
    """Why ``max_tokens`` cannot be a budget (one sentence with the fix), or None."""
    lang = language or config.language
    if max_tokens <= 0:
        return messages.text(lang, "budget_positive", n=max_tokens)
    from tg_git.domain.eventlog import MAX_COUNT  # lazy: 1.5 ms

    if max_tokens > MAX_COUNT:  # the ledger could not read it back
        return messages.text(lang, "budget_too_large", most=f"{MAX_COUNT:.0e}")
    clash = collapsed(max_tokens, config)
    if not clash:
        return None
    a, b, at = clash[0]
    return messages.text(
        lang,
        "budget_collapses",
        n=max_tokens,
        a=level_name(a, lang),
        b=level_name(b, lang),
        at=at,
        least=smallest_budget(config),
    )


def level_name(name: str, language: str) -> str:
    """A level as the user reads it (``halt`` is ``중단`` in Korean)."""
    return messages.text(language, f"level.{name}")


def text(config: Config, key: str) -> str:
    """A message of ``messages`` in the config's language (unformatted)."""
    return messages.text(config.language, key)


def crossed(used_before: int, used_after: int, max_tokens: int, config: Config) -> str | None:
    """The save level (force-save or halt) a commit first reaches, for ``commit_report``:
    the highest level of ``used_after`` when ``used_before`` was below it, else None."""
    after = level(used_after, max_tokens, config)
    if after in (FORCE_SAVE, HALT) and level(used_before, max_tokens, config) != after:
        return after
    return None
