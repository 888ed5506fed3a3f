"""A session's two budgets, the context and the spend, and the live reading of an agent.

- ``budgets(session, config, live=None) -> Budgets``: pure. The *context* budget is the fill of
  the agent's window: the newest measurement (a ``usage`` event of the ledger, or the live
  reading, whichever is newer) plus the estimates recorded after it, against ``budget.context``
  (``auto``: the window the agent reports, else the session's ``max_tokens``). A compaction
  lowers the fill, so the level. The *spend* budget is every token the session paid for (all
  classes, across compactions), against ``budget.spend_tokens`` and ``budget.spend_usd`` (off
  by default): it only grows. The session's level is the worse of the two.
- ``read_live(git_dir, session_id) -> Live | None`` and ``record_live(git_dir, agent,
  agent_session, used=, window=, ...)``: the live reading (status line, Cursor's preCompact,
  Gemini's AfterModel) kept per agent session in ``.git/tg-git/live.json``: local state, never a
  commit per refresh; the ledger gets the measurement with the next event (``live_event``).

Why a live file and not ledger events: the status line runs after every assistant message;
an event each time would stage the ledger (a git process) and grow it without end. The file
is small (at most ``MAX_READINGS`` agent sessions), rewritten atomically, and read with the
same distrust as any file an agent or a user could have written.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import time
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from tg_git import levels, prices

if TYPE_CHECKING:
    from pathlib import Path

    from tg_git.ledger import Session

LIVE = "tg-git/live.json"  # under the git dir of the work tree
FORMAT = 1
MAX_READINGS = 32  # agent sessions kept; the oldest reading goes first
MAX_BYTES = 256 << 10
MAX_COUNT = 10**12  # more tokens than any window or session: beyond it, hostile input
MAX_PICO = 10**9 * prices.PICO  # a billion dollars: beyond it, hostile input
CONTEXT, SPEND = "context", "spend"
RANK = {levels.OK: 0, levels.WARNING: 1, levels.FORCE_SAVE: 2, levels.HALT: 3}


class Budget(NamedTuple):
    """One budget. ``limit`` None: the budget is off (its level is then always ``ok``).
    For the spend, ``used`` is tokens and ``usd``/``limit_usd`` the dollars (None: unknown /
    off); ``percent`` is the higher of the two where both are set."""

    used: int
    limit: int | None
    percent: float | None
    level: str
    source: str  # context: measured | mixed | estimated | statusline; spend: measured | none
    measured_at: str = ""
    usd: float | None = None
    limit_usd: float | None = None


class Budgets(NamedTuple):
    context: Budget
    spend: Budget
    level: str  # the worse of the two
    halted_by: str | None  # "context" | "spend" | None (spend first: it is the hard halt)


class Live(NamedTuple):
    """The live reading of the current tg-git session, across the agent sessions serving it:
    the newest fill and window, and the spend since each started serving it."""

    agent: str
    agent_session: str
    used: int  # context fill of the newest reading
    window: int  # 0: not reported
    at: str  # UTC, the ledger's format
    estimated: int  # the session's estimate when the newest fill was read
    spent: int  # tokens, summed over the agent sessions of the tg-git session
    cost_pico: int | None  # USD (picodollars) the agents reported, None: none did
    model: str = ""
    rate_limits: dict[str, float] | None = None  # e.g. {"five_hour": 41.0}: percent used
    filled: bool = True  # False: the newest reading had no fill (start, right after /compact)


# ---- what the budgets read ------------------------------------------------------------------
class Figures(Protocol):
    """What the budgets read of a session: a replayed ``ledger.Session``, or the ``Snapshot``
    the status line keeps of one (so its fast path needs neither the ledger nor a replay)."""

    @property
    def id(self) -> str: ...
    @property
    def started(self) -> str: ...
    @property
    def max_tokens(self) -> int: ...
    @property
    def estimated(self) -> int: ...
    @property
    def used(self) -> int: ...
    @property
    def source(self) -> str: ...
    @property
    def measured(self) -> bool: ...
    @property
    def measured_at(self) -> str: ...
    @property
    def measured_window(self) -> int: ...
    @property
    def use_measured(self) -> bool: ...
    @property
    def spend(self) -> int: ...
    @property
    def spend_cost_pico(self) -> int: ...
    @property
    def spend_unpriced(self) -> int: ...
    @property
    def spend_counted(self) -> int: ...
    @property
    def cost_counted_pico(self) -> int: ...


class Config(levels.Thresholds, Protocol):
    """What the budgets read of the config (``config.Config``, or the status line's copy)."""

    @property
    def language(self) -> str: ...
    @property
    def budget_context(self) -> int | None: ...
    @property
    def spend_tokens(self) -> int | None: ...
    @property
    def spend_usd(self) -> float | None: ...


class Snapshot(NamedTuple):
    """A session's ``Figures`` as plain values (JSON-able)."""

    id: str
    started: str
    max_tokens: int
    estimated: int
    used: int
    source: str
    measured: bool
    measured_at: str
    measured_window: int
    use_measured: bool
    spend: int
    spend_cost_pico: int
    spend_unpriced: int
    spend_counted: int
    cost_counted_pico: int


class Limits(NamedTuple):
    """A config's ``Config`` fields as plain values (JSON-able)."""

    warning: float
    force_save: float
    halt: float
    language: str
    budget_context: int | None
    spend_tokens: int | None
    spend_usd: float | None


def snapshot(session: Figures) -> Snapshot:
    return Snapshot(*(getattr(session, name) for name in Snapshot._fields))


def limits(config: Config) -> Limits:
    return Limits(*(getattr(config, name) for name in Limits._fields))


# ---- the budgets -------------------------------------------------------------------------
def budgets(session: Figures, config: Config, live: Live | None = None) -> Budgets:
    """Both budgets of ``session`` (replayed from the ledger) with the live reading."""
    context = context_budget(session, config, live)
    spend = spend_budget(session, config, live)
    worse = context.level if RANK[context.level] >= RANK[spend.level] else spend.level
    halted = (
        SPEND if spend.level == levels.HALT else CONTEXT if context.level == levels.HALT else None
    )
    return Budgets(context, spend, worse, halted)


def context_budget(session: Figures, config: Config, live: Live | None = None) -> Budget:
    """The fill against the window: the newest measurement plus estimates after it."""
    used, source, at = session.used, session.source, session.measured_at if session.measured else ""
    usable = live is not None and session.use_measured and live.at >= session.started
    newer = live is not None and (not session.measured or live.at >= session.measured_at)
    if live is not None and usable and newer and live.filled:
        base = live.estimated if live.estimated <= session.estimated else 0
        used = live.used + session.estimated - base
        source, at = "statusline", live.at
    limit = context_window(session, config, live if usable else None)
    return Budget(used, limit, levels.percent(used, limit), levels.level(used, limit, config),
                  source, at)  # fmt: skip


def context_window(session: Figures, config: Config, live: Live | None = None) -> int:
    """``budget.context``: N, or (auto) the window the agent reports, else ``max_tokens``."""
    if config.budget_context:
        return config.budget_context
    if live is not None and live.window:
        return live.window
    return session.measured_window or session.max_tokens


def spend_budget(session: Figures, config: Config, live: Live | None = None) -> Budget:
    """Every token paid for, against the spend budgets (off by default)."""
    # The ledger's measured turns, the agent's own running count carried into the ledger, and
    # the live reading count the same tokens: the highest wins, nothing is added twice.
    tokens = max(session.spend, session.spend_counted, live.spent if live else 0)
    costs = [session_cost_pico(session), session.cost_counted_pico or None,
             live.cost_pico if live else None]  # fmt: skip
    known = [c for c in costs if c is not None]
    pico = max(known) if known else None
    limit_tokens, limit_usd = config.spend_tokens or None, config.spend_usd or None
    found = [levels.OK]
    percents: list[float] = []
    if limit_tokens:
        found.append(levels.level(tokens, limit_tokens, config))
        percents.append(levels.percent(tokens, limit_tokens))
    if limit_usd:
        limit_pico = prices.to_pico(limit_usd)
        found.append(levels.level(pico or 0, limit_pico, config))
        percents.append(levels.percent(pico or 0, limit_pico))
    level = max(found, key=RANK.__getitem__)
    source = "measured" if tokens or pico else "none"
    usd = prices.usd(pico) if pico is not None else None
    return Budget(tokens, limit_tokens, max(percents) if percents else None, level, source,
                  usd=usd, limit_usd=limit_usd)  # fmt: skip


def session_level(session: Figures, config: Config, live: Live | None = None) -> str:
    """The session's level: the worse of its two budgets (what every hook and command uses)."""
    return budgets(session, config, live).level


MEASURED = ("measured_fill", "measured_base", "measured_at", "measured_agent", "measured_model",
            "measured_window")  # fmt: skip


def landed_level(landed: Session, now: Session, config: Config) -> str:
    """The level of what has landed (``landed``: the committed events), with the context fill
    as measured now (``now``: every event, recorded since too). A commit is refused once work
    landed at the halt; a compaction measured since lowers the fill for real, so it lifts a
    context halt at once, while a rise (like spend and estimates) counts once it landed, so
    the commit that first crosses the halt lands."""
    if now.measured and now.measured_at >= landed.measured_at:
        lowered = landed.copy(**{name: getattr(now, name) for name in MEASURED})
        if context_budget(lowered, config).used < context_budget(landed, config).used:
            landed = lowered
    return session_level(landed, config)


def session_cost_pico(session: Figures) -> int | None:
    """The USD the ledger's measured usage costs by the price table (None: nothing priced)."""
    pico = session.spend_cost_pico
    return pico if pico or (session.spend and not session.spend_unpriced) else None


# ---- the live reading ----------------------------------------------------------------------
def _count(value: Any, most: int = MAX_COUNT) -> int | None:
    if type(value) is int and 0 <= value <= most:
        return value
    return None


def _text(value: Any, size: int = 100) -> str:
    if isinstance(value, str) and len(value) <= size and value.isprintable():
        return value
    return ""


def _load(path: Path) -> dict[str, dict[str, Any]]:
    """The readings by ``agent/agent_session``; {} for a missing, foreign or damaged file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return {}
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = json.loads(fh.read(MAX_BYTES + 1))
    except (OSError, ValueError, RecursionError):
        return {}
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    readings = data.get("readings")
    if not isinstance(readings, dict):
        return {}
    return {k: v for k, v in readings.items() if isinstance(k, str) and _valid(v)}


def _valid(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    counts = ("used", "window", "estimated", "spent", "base", "carry")
    if any(_count(entry.get(name)) is None for name in counts):
        return False
    costs = ("cost", "cost_base", "cost_carry")
    if any(entry.get(n) is not None and _count(entry.get(n), MAX_PICO) is None for n in costs):
        return False
    texts = ("agent", "agent_session", "session", "at", "model")
    return all(isinstance(entry.get(n), str) for n in texts)


def _rates(value: Any) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    out = {}
    for name in ("five_hour", "seven_day"):
        pct = value.get(name)
        if isinstance(pct, (int, float)) and not isinstance(pct, bool) and 0 <= pct <= 100:
            out[name] = float(pct)
    return out


def _since(entry: dict[str, Any], name: str, base: str, carry: str) -> int:
    """What an agent session spent while serving the tg-git session of its entry."""
    value = entry.get(name)
    return (entry.get(carry) or 0) + (value or 0) - (entry.get(base) or 0)


def read_live(git_dir: Path, session_id: str | None = None) -> Live | None:
    """The live reading for ``session_id`` (every agent session's entry when None), or None.
    The fill is the newest entry's; spend and cost are summed over the entries."""
    readings = [
        e
        for e in _load(git_dir / LIVE).values()
        if session_id is None or e["session"] == session_id
    ]
    if not readings:
        return None
    newest = sorted(readings, key=lambda e: e["at"])[-1]  # stable: the last written of a second
    costs = [e for e in readings if e.get("cost") is not None]
    cost = sum(_since(e, "cost", "cost_base", "cost_carry") for e in costs) if costs else None
    return Live(
        agent=newest["agent"], agent_session=newest["agent_session"], used=newest["used"],
        window=newest["window"], at=newest["at"], estimated=newest["estimated"],
        spent=sum(_since(e, "spent", "base", "carry") for e in readings), cost_pico=cost,
        model=newest["model"], rate_limits=_rates(newest.get("rate_limits")) or None,
        filled=newest.get("filled") is not False,
    )  # fmt: skip


def _carried(old: dict[str, Any] | None, session: str, new: int | None, names: tuple[str, ...]
             ) -> dict[str, int | None]:  # fmt: skip
    """A cumulative counter's entry fields (``value, base, carry``) after a new reading: a new
    tg-git session starts from what was spent until then; a counter that went down (the agent
    restarted it) keeps what it had counted: tokens spent stay spent."""
    value, base, carry = names
    if new is None:
        return {value: old.get(value) if old else None, base: old.get(base) if old else 0,
                carry: old.get(carry) if old else 0}  # fmt: skip
    if old is None or old.get(value) is None:
        return {value: new, base: 0, carry: 0}
    before = old[value]
    if old["session"] != session:
        return {value: new, base: before if new >= before else 0, carry: 0}
    if new < before:
        return {value: new, base: 0, carry: (old.get(carry) or 0) + before - (old.get(base) or 0)}
    return {value: new, base: old.get(base) or 0, carry: old.get(carry) or 0}


def record_live(
    git_dir: Path,
    agent: str,
    agent_session: str,
    *,
    used: int | None,
    window: int = 0,
    cost_usd: float | None = None,
    spent: int | None = None,
    model: str = "",
    session: str = "",
    estimated: int = 0,
    rate_limits: dict[str, Any] | None = None,
    at: str = "",
) -> bool:
    """Keep one live reading of ``agent``'s session ``agent_session``: its context fill
    ``used`` (None: not known at this reading) of ``window`` (0: unknown), its cumulative ``spent`` tokens and ``cost_usd`` (None:
    not reported), for tg-git session ``session`` whose estimate was ``estimated`` then.
    Atomic (a temporary file renamed over), bounded (``MAX_READINGS``); a value that cannot be
    true is dropped, never raised. False when nothing was written (bad input, unwritable)."""
    filled = used is not None
    if (filled and _count(used) is None) or _count(window) is None or _count(estimated) is None:
        return False
    if spent is not None and _count(spent) is None:
        spent = None
    cost = None
    number = isinstance(cost_usd, (int, float)) and not isinstance(cost_usd, bool)
    if number and cost_usd is not None and 0 <= cost_usd < MAX_PICO // prices.PICO:
        cost = prices.to_pico(cost_usd)
    key = f"{_text(agent, 40)}/{_text(agent_session)}"
    path = git_dir / LIVE
    readings = _load(path)
    old = readings.get(key)
    entry: dict[str, Any] = {
        "agent": _text(agent, 40), "agent_session": _text(agent_session), "session": _text(session),
        "at": at or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),  # as ledger.now()
        "used": used or 0, "filled": filled, "window": window, "estimated": estimated,
        "model": _text(model), "rate_limits": _rates(rate_limits),
        **_carried(old, session, spent, ("spent", "base", "carry")),
        **_carried(old, session, cost, ("cost", "cost_base", "cost_carry")),
    }  # fmt: skip
    if entry["spent"] is None:
        entry["spent"] = 0
    readings.pop(key, None)
    readings[key] = entry
    kept = sorted(readings.items(), key=lambda kv: kv[1]["at"])[-MAX_READINGS:]
    return _write(path, {"format": FORMAT, "readings": dict(kept)})


def _write(path: Path, data: dict[str, Any]) -> bool:
    tmp = path.with_name(f".live.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "x", encoding="utf-8") as fh:
            fh.write(json.dumps(data, separators=(",", ":")))
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True


def live_event(session: Session, live: Live | None, config: Config) -> dict[str, Any] | None:
    """The ``usage`` event fields that carry the live reading into the ledger (so commits,
    which read only the ledger, judge as the gauge does), or None when the ledger alone
    already gives the same level and window: then nothing is written (no line a refresh)."""
    if live is None or not session.use_measured or live.at < session.started:
        return None
    with_live, alone = budgets(session, config, live), budgets(session, config)
    if (with_live.level, with_live.context.limit) == (alone.level, alone.context.limit):
        return None
    fields: dict[str, Any] = {"agent": live.agent or "unknown", "model": live.model or "unknown",
                              "requests": 0, "spent": live.spent}  # fmt: skip
    if live.cost_pico is not None:
        fields["cost_pico"] = live.cost_pico
    if live.filled and (not session.measured or live.at >= session.measured_at):
        fields.update(fill=live.used, window=live.window)
    from tg_git.ledger import apply_usage, now

    after = session.copy()
    apply_usage(after, {"at": now(), **fields})
    carried = budgets(after, config)
    return (
        fields
        if (carried.level, carried.context.limit) != (alone.level, alone.context.limit)
        else None
    )
