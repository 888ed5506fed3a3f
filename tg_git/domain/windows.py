"""The plan's windows, a third budget: how much of the plan's 5-hour and 7-day windows this
repository's session used, against ``budget.window_5h`` and ``budget.window_7d``.

The agents report the account's windows, not a repository's: Claude Code's status line
(``rate_limits.five_hour|seven_day.{used_percentage, resets_at}``) and Codex's rollouts
(``rate_limits.primary|secondary.{used_percent, window_minutes, resets_at|resets_in_seconds}``
in ``token_count`` events). A reading is kept as percents and times only (``Reading``).

**Attribution.** The use counted is the rise of a window's used percent between readings taken
while this session ran (the newest reading before the session started is the baseline; the
first one in it otherwise). A concurrent session elsewhere on the same plan rises the same
percent: the agent reports only the account's total, so it counts too.

**A reset.** A window resets when a reading names a later reset time *and* the previous
window's reset time has passed. Then the new window's whole percent happened after the reset,
while the session ran, and it is the window's use from there; what the previous window used is
kept in ``spent`` (tokens spent stay spent) and the level is judged on the window now open. A
lower percent without such a reset (a stale or reordered reading, a reset time that jitters)
lowers nothing: the use stays, and only a rise above the highest percent seen counts again.

The level is the used share of the configured share (``used / share``), on the levels of
``tg_git.domain.levels``; the burn forecast is the pace of the open window so far.
"""

from __future__ import annotations

import re
import time

from tg_git.domain import levels
from tg_git.domain.config import share_of as share_of
from tg_git.domain.typed import NamedTuple
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

NAMES = ("5h", "7d")
KEYS = {"5h": "budget.window_5h", "7d": "budget.window_7d"}
FIELDS = {"5h": "window_5h", "7d": "window_7d"}  # the Config field of each
_CLAUDE = {"five_hour": "5h", "seven_day": "7d"}
_CODEX_MINUTES = {300: "5h", 10080: "7d"}
_CODEX_SLOTS = {"primary": "5h", "secondary": "7d"}  # when a window does not say its minutes
RESET_SLACK = 120  # seconds a reset time may move without being a new window (Codex rounds)
MAX_TIME = 10**11  # seconds since 1970: beyond it, not a time


class Reading(NamedTuple):
    """One window's reading: ``at`` and ``resets_at`` are seconds since 1970 (0: unknown)."""

    agent: str
    name: str  # "5h" | "7d"
    at: int
    percent: float
    resets_at: int = 0


class Window(NamedTuple):
    """One window's budget. ``used``: percent points of the plan's window this session used
    in the window now open; ``share``: the configured share (0.3 for 30 %), None when off."""

    name: str
    agent: str
    used: float
    share: float | None
    percent: float | None  # of the share
    level: str
    resets_at: int  # 0: unknown
    at: int  # the newest reading
    plan_percent: float  # the window's used percent, as the agent reported it
    spent: float  # percent points used before the open window started (earlier windows)
    halt_in: int | None  # seconds until the halt at this pace, None: no pace or past it


def epoch(text: str) -> int:
    """Seconds since 1970 of a UTC time as the ledger writes it (or ISO with a fraction or an
    offset of zero); 0 for anything else."""
    import calendar  # lazy: 3.2 ms

    found = (
        re.fullmatch(
            r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:Z|\+00:?00)?", text.strip()
        )
        if len(text) < 40
        else None
    )
    if found is None:
        return 0
    try:
        return calendar.timegm((*(int(g) for g in found.groups()), 0, 0, 0))
    except (ValueError, OverflowError):
        return 0


def stamp(seconds: int) -> str:
    """``seconds`` since 1970 as the ledger writes a time."""

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


# ---- readings from the agents' payloads ------------------------------------------------------
def _number(value: Any, most: float) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= most:
        return float(value)
    return None


def _time(value: Any) -> int:
    """A reset time: seconds (or milliseconds) since 1970, or an ISO UTC text; 0 otherwise."""
    if isinstance(value, str):
        return epoch(value)
    number = _number(value, MAX_TIME * 1000)
    if number is None:
        return 0
    return int(number / 1000 if number > MAX_TIME else number)


def _entries(table: Any, names: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """The tables a ``rate_limits`` table holds under the keys of ``names``, each with its
    name there (none when ``table`` is not a table)."""
    if not isinstance(table, dict):
        return []
    found = [(name, table.get(key)) for key, name in names.items()]
    return [(name, entry) for name, entry in found if isinstance(entry, dict)]


def from_claude(table: Any, at: int, agent: str = "claude") -> list[Reading]:
    """The readings of a status line's ``rate_limits`` (read at ``at``)."""
    found = []
    for name, entry in _entries(table, _CLAUDE):
        pct = _number(entry.get("used_percentage"), 100)
        if pct is not None:
            found.append(Reading(agent, name, at, pct, _time(entry.get("resets_at"))))
    return found


def from_codex(table: Any, at: int) -> list[Reading]:
    """The readings of a Codex rollout's ``rate_limits`` (its event's time ``at``)."""
    found = []
    for fallback, entry in _entries(table, _CODEX_SLOTS):
        pct = _number(entry.get("used_percent"), 100)
        minutes = entry.get("window_minutes")
        name = _CODEX_MINUTES.get(minutes, fallback) if type(minutes) is int else fallback
        if pct is None or (type(minutes) is int and minutes not in _CODEX_MINUTES):
            continue  # a window that is neither the 5-hour nor the 7-day one
        resets = _time(entry.get("resets_at"))
        seconds = _number(entry.get("resets_in_seconds"), MAX_TIME)
        if not resets and seconds is not None and at:
            resets = at + int(seconds)
        found.append(Reading("codex", name, at, pct, resets))
    return found


def as_row(reading: Reading) -> list[Any]:
    """A reading as stored (numbers and the agent's name only)."""
    return [reading.agent, reading.name, reading.at, reading.percent, reading.resets_at]


def from_row(row: Any) -> Reading | None:
    """A stored reading, None for anything that is not one (the file is data)."""
    if not isinstance(row, list) or len(row) != 5:
        return None
    agent, name, at, pct, resets = row
    if not (isinstance(agent, str) and 0 < len(agent) <= 40 and agent.isprintable()):
        return None
    ok = name in NAMES and type(at) is int and 0 <= at <= MAX_TIME
    ok = ok and type(resets) is int and 0 <= resets <= MAX_TIME
    percent = _number(pct, 100)
    return Reading(agent, name, at, percent, resets) if ok and percent is not None else None


# ---- the use of a session -----------------------------------------------------------------
def _reset(last: Reading, new: Reading) -> bool:
    """Whether ``new`` is of a later window than ``last``: a later reset time, read once the
    earlier window's had passed."""
    if not (last.resets_at and new.resets_at):
        return False
    return new.resets_at > last.resets_at + RESET_SLACK and new.at >= last.resets_at


class _Use(NamedTuple):
    used: float
    spent: float
    opened: int  # the first reading of the open window in the session
    last: Reading


def use(series: Iterable[Reading], started: int) -> _Use | None:
    """One agent's window use in a session started at ``started`` (seconds), from its
    readings in any order; None without a reading in the session."""
    ordered = sorted(series, key=lambda r: r.at)
    before = [r for r in ordered if r.at < started]
    during = [r for r in ordered if r.at >= started]
    if not during:
        return None
    last = before[-1] if before else during[0]
    high = last.percent
    used = spent = 0.0
    opened = during[0].at
    for reading in during:
        if _reset(last, reading):
            spent, used, opened = spent + used, reading.percent, reading.at
            high = reading.percent
        elif reading.percent > high:
            used += reading.percent - high
            high = reading.percent
        last = reading._replace(percent=high) if reading.percent < high else reading
    return _Use(round(used, 4), round(spent, 4), opened, last)


def window(
    name: str,
    readings: Iterable[Reading],
    started: int,
    share: float | None,
    thresholds: levels.Thresholds,
) -> Window | None:
    """The budget of window ``name``: the worst of the agents' (each agent's plan has its
    own windows); None when no reading of it falls in the session."""
    mine = [r for r in readings if r.name == name]
    found = []
    for agent in sorted({r.agent for r in mine}):
        got = use([r for r in mine if r.agent == agent], started)
        if got is not None:
            found.append(_judged(name, agent, got, share, thresholds))
    if not found:
        return None
    return max(found, key=lambda w: (w.percent or 0, w.used))


def _hundredths(value: float) -> int:
    return round(value * 100)


def _judged(
    name: str, agent: str, got: _Use, share: float | None, thresholds: levels.Thresholds
) -> Window:
    last = got.last
    if not share:
        return Window(
            name,
            agent,
            got.used,
            None,
            None,
            levels.OK,
            last.resets_at,
            last.at,
            last.percent,
            got.spent,
            None,
        )
    limit = _hundredths(share * 100)  # the share in hundredths of a percent point
    used = _hundredths(got.used)
    level = levels.level(used, limit, thresholds)
    halt_in = None
    elapsed = last.at - got.opened
    halt_at = levels.thresholds(limit, thresholds)["halt"]
    if used > 0 and elapsed > 0 and used < halt_at:
        halt_in = (halt_at - used) * elapsed // used
    return Window(
        name,
        agent,
        got.used,
        share,
        levels.percent(used, limit),
        level,
        last.resets_at,
        last.at,
        last.percent,
        got.spent,
        halt_in,
    )


def windows(readings: Iterable[Reading], started: int, config: Any) -> dict[str, Window]:
    """Both windows' budgets (those with a reading in the session), by name."""
    rows = list(readings)
    found = {}
    for name in NAMES:
        got = window(name, rows, started, getattr(config, FIELDS[name], None), config)
        if got is not None:
            found[name] = got
    return found


def worst(found: dict[str, Window]) -> Window | None:
    """The window whose level is the highest (None: none is set or above ``ok``)."""
    rank = {levels.OK: 0, levels.WARNING: 1, levels.FORCE_SAVE: 2, levels.HALT: 3}
    judged = [w for w in found.values() if w.share]
    if not judged:
        return None
    return max(judged, key=lambda w: (rank[w.level], w.percent or 0))


# ---- the share a user writes --------------------------------------------------------------
def shown_share(share: float | None) -> str:
    """A share as ``tg-git config set`` takes it back (``30%``, ``off``)."""
    if not share:
        return "off"
    pct = round(share * 100, 4)
    return f"{int(pct) if float(pct).is_integer() else pct}%"


def minutes(seconds: int | None) -> int | None:
    return None if seconds is None else max(1, -(-seconds // 60))


def as_json(found: dict[str, Window]) -> dict[str, Any]:
    """The ``windows`` object of ``status --json`` and the report."""
    return {
        name: {
            "agent": w.agent,
            "used": w.used,
            "share": w.share,
            "percent": w.percent,
            "level": w.level,
            "plan_percent": w.plan_percent,
            "spent_before": w.spent,
            "resets_at": stamp(w.resets_at) if w.resets_at else None,
            "measured_at": stamp(w.at) if w.at else None,
            "halt_in_minutes": minutes(w.halt_in),
        }
        for name, w in found.items()
    }


# ---- what a transcript's state keeps --------------------------------------------------------
KEEP = 256  # readings kept per store: a few days of turns that moved a window
SAME_FOR = 600  # seconds an unchanged reading is not kept again (a new session still gets one)


def kept(rows: Any, new: list[Reading], most: int = KEEP) -> list[list[Any]]:
    """``rows`` (stored readings) with ``new`` added: a reading that says what the newest one
    of its agent and window already says is not kept again (the first time a percent was
    seen is what the pace is read from); the oldest go past ``most``."""
    found = [r for r in (from_row(row) for row in (rows if isinstance(rows, list) else [])) if r]
    for reading in new:
        same = [r for r in found if (r.agent, r.name) == (reading.agent, reading.name)]
        newest = max(same, key=lambda r: r.at) if same else None
        if (
            newest is not None
            and (newest.percent, newest.resets_at)
            == (
                reading.percent,
                reading.resets_at,
            )
            and 0 <= reading.at - newest.at < SAME_FOR
        ):
            continue
        found.append(reading)
    found.sort(key=lambda r: r.at)
    return [as_row(r) for r in found[-most:]]


# ---- the texts ---------------------------------------------------------------------------------
def _points(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _clock(seconds: int) -> str:

    return time.strftime("%m-%d %H:%M UTC", time.gmtime(seconds))


def lines(found: dict[str, Window], lang: str) -> list[str]:
    """``status``'s lines: each window's use this session, its share, level, the plan's own
    figure, its reset and the burn forecast."""

    out = []
    for name, w in found.items():
        share = ""
        if w.share:
            share = messages.text(
                lang, "window_share", share=shown_share(w.share), pct=_points(w.percent or 0)
            )
        if w.spent:
            share += messages.text(lang, "window_spent", spent=_points(w.spent))
        resets = messages.text(lang, "window_resets", at=_clock(w.resets_at)) if w.resets_at else ""
        halt_in = minutes(w.halt_in) if w.share else None
        forecast = messages.text(lang, "window_forecast", minutes=halt_in) if halt_in else ""
        out.append(
            messages.text(
                lang,
                "window_line",
                name=name,
                agent=w.agent,
                used=_points(w.used),
                share=share,
                level=levels.level_name(w.level, lang),
                plan=_points(w.plan_percent),
                resets=resets,
                forecast=forecast,
            )
        )
    return out


def gauge(found: dict[str, Window] | None, lang: str) -> str:
    """The status line's part: each window with a share, compact (``5h +12%/30% (40%)``)."""

    parts = []
    for name, w in (found or {}).items():
        if not w.share:
            continue
        resets = ""
        if w.resets_at:
            at = _clock(w.resets_at)[6:11] if name == "5h" else _clock(w.resets_at)[:11]
            resets = messages.text(lang, "statusline_window_resets", at=at)
        halt_in = minutes(w.halt_in)
        forecast = (
            messages.text(lang, "statusline_window_forecast", minutes=halt_in) if halt_in else ""
        )
        parts.append(
            messages.text(
                lang,
                "statusline_window",
                name=name,
                used=_points(w.used),
                share=shown_share(w.share),
                pct=f" ({int(w.percent or 0)}%)",
                resets=resets,
                forecast=forecast,
            )
        )
    return " · ".join(parts)
