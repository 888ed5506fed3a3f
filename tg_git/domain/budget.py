"""A session's two budgets, the context and the spend: pure figures and levels.

``budgets(session, config, live=None) -> Budgets``. The *context* budget is the fill of the
agent's window: the newest measurement (a ``usage`` event of the ledger, or the live reading,
whichever is newer) plus the estimates recorded after it, against ``budget.context`` (``auto``:
the window the agent reports, else the session's ``max_tokens``). A compaction lowers the fill,
so the level. The *spend* budget is every token the session paid for (all classes, across
compactions), against ``budget.spend_tokens`` and ``budget.spend_usd`` (off by default): it only
grows. The plan's *windows* (``budget.window_5h``, ``budget.window_7d``, off by default) are
the share of the plan's 5-hour and 7-day windows the session used (``tg_git.domain.windows``),
given as the agents' readings. The session's level is the worst of them. The live reading
itself is kept by ``tg_git.repo.readings``.
"""

from __future__ import annotations

from tg_git.domain import levels
from tg_git.domain.typed import NamedTuple, Protocol, cast

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from tg_git.domain.config import Config as FileConfig
    from tg_git.domain.eventkinds import UsageEvent
    from tg_git.domain.replay import Session
    from tg_git.domain.windows import Reading, Window

    # What the budgets read of the config: the config itself, or the status line's copy.
    Config: TypeAlias = "FileConfig | Limits"
CONTEXT, SPEND, WINDOW = "context", "spend", "window"
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
    window_from: str = ""  # context: "budget.context" | "agent" | "max_tokens"


class Budgets(NamedTuple):
    context: Budget
    spend: Budget
    level: str  # the worst of the budgets
    # "context" | "spend" | "window" | None (spend first: it is the hard halt; then a window)
    halted_by: str | None
    # Keys of a hand edit of the config that would lower the level: ignored until recorded
    # (`tg-git config set KEY VALUE` writes the `budget` event that makes it count).
    unrecorded: tuple[str, ...] = ()
    # The plan's windows with a reading in the session, by name ("5h", "7d"); None: not read.
    windows: dict[str, Window] | None = None
    set_by: str = CONTEXT  # the budget whose level is the session's (context on a tie)


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
    # The ledger's measurement the reading was taken after (``seen``), None: not known (an
    # older reading). Two readings of one second are ordered by it, never by the clock.
    seen: str | None = None


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
    def measured_fill(self) -> int: ...
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
    @property
    def recorded(self) -> list[str]: ...


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
    measured_fill: int
    recorded: list[str]


class Limits(NamedTuple):
    """A config's ``Config`` fields as plain values (JSON-able)."""

    warning: float
    force_save: float
    halt: float
    language: str
    budget_context: int | None
    spend_tokens: int | None
    spend_usd: float | None
    budget_source: str
    window_5h: float | None = None
    window_7d: float | None = None


def snapshot(session: Figures) -> Snapshot:
    return Snapshot(*(getattr(session, name) for name in Snapshot._fields))


def limits(config: Config) -> Limits:
    return Limits(*(getattr(config, name) for name in Limits._fields))


# ---- the budgets -------------------------------------------------------------------------
def budgets(session: Figures, config: Config, live: Live | None = None,
            readings: list[Reading] | None = None) -> Budgets:  # fmt: skip
    """The budgets of ``session`` (replayed from the ledger) with the live reading and the
    plan windows' ``readings``, judged by the config as recorded: a hand edit of the file that
    would lower the level is ignored until recorded (``unrecorded`` names its keys); one that
    raises it counts at once."""
    found = _judged(session, config, live, readings)
    record = on_record(session, config)
    if record == config:
        return found
    kept = _judged(session, record, live, readings)
    if RANK[kept.level] <= RANK[found.level]:
        return found
    keys = tuple(
        k for k, name in RECORDED.items() if getattr(config, name) != getattr(record, name)
    )
    return kept._replace(unrecorded=keys)


def _judged(session: Figures, config: Config, live: Live | None,
            readings: list[Reading] | None = None) -> Budgets:  # fmt: skip
    if config.budget_source == "auto" and not session.use_measured and _replayed(session):
        # The record keeps measurements on where the file says "estimate" (the measured
        # fields are replayed either way).
        session = cast("Any", session).copy(use_measured=True)
    context = context_budget(session, config, live)
    spend = spend_budget(session, config, live)
    worse = context.level if RANK[context.level] >= RANK[spend.level] else spend.level
    set_by = CONTEXT if RANK[context.level] >= RANK[spend.level] else SPEND
    halted = (
        SPEND if spend.level == levels.HALT else CONTEXT if context.level == levels.HALT else None
    )
    if readings is None:
        return Budgets(context, spend, worse, halted, set_by=set_by)
    from tg_git.domain import windows  # lazy: 2.3 ms

    found = windows.windows(readings, windows.epoch(session.started), config)
    top = windows.worst(found)
    if top is not None and RANK[top.level] > RANK[worse]:
        worse, set_by = top.level, WINDOW
    if top is not None and top.level == levels.HALT and halted != SPEND:
        halted = WINDOW
    return Budgets(context, spend, worse, halted, windows=found, set_by=set_by)


def _replayed(session: Figures) -> bool:
    """A replayed session (its ``used`` follows ``use_measured``), not a snapshot of one."""
    return callable(getattr(session, "copy", None))


# ---- budgets change only on the record ---------------------------------------------------
# The config keys a `budget` event records (``tg-git config set``), and the Config field each
# sets; ``max_tokens`` is on the record already (a session's start event holds it).
RECORDED = {"thresholds.warning": "warning", "thresholds.force_save": "force_save",
            "thresholds.halt": "halt", "budget.context": "budget_context",
            "budget.spend_tokens": "spend_tokens", "budget.spend_usd": "spend_usd",
            "budget.source": "budget_source", "budget.window_5h": "window_5h",
            "budget.window_7d": "window_7d"}  # fmt: skip
DEFAULTS: dict[str, Any] = {"warning": 80.0, "force_save": 90.0, "halt": 95.0,
                            "budget_context": None, "spend_tokens": None, "spend_usd": None,
                            "budget_source": "auto", "window_5h": None,
                            "window_7d": None}  # fmt: skip


def recorded_value(name: str, text: str) -> Any:
    """A ``budget`` event's text as the Config field ``name`` holds it (ValueError: not one)."""
    if name in ("warning", "force_save", "halt"):
        value = float(text)
        if not 0 < value <= 100:
            raise ValueError(text)
        return value
    if name == "budget_context":
        return None if text == "auto" else int(text) or None
    if name == "budget_source":
        if text not in ("auto", "estimate"):
            raise ValueError(text)
        return text
    if name in ("window_5h", "window_7d"):
        from tg_git.domain.windows import share_of  # lazy: 2.3 ms

        return share_of(text)
    number = int(text) if name == "spend_tokens" else float(text)
    if not 0 <= number < 10**30:
        raise ValueError(text)
    return number or None


def on_record(session: Figures, config: Config) -> Config:
    """``config`` with the budget values of the record: the newest ``budget`` event of each
    key in the ledger, else the default (what a config nobody edited holds)."""
    values = dict(DEFAULTS)
    for entry in getattr(session, "recorded", None) or ():
        key, _, text = entry.partition("=")
        if key in RECORDED:
            try:
                values[RECORDED[key]] = recorded_value(RECORDED[key], text)
            except ValueError:
                continue
    if all(getattr(config, name) == value for name, value in values.items()):
        return config
    return cast("Config", cast("Any", config)._replace(**values))


def shown_value(config: Config, key: str) -> str:
    """A budget key's value as ``tg-git config set`` takes it (``auto``, ``off``, 82.5)."""
    value = getattr(config, RECORDED[key])
    if key in ("budget.window_5h", "budget.window_7d"):
        from tg_git.domain.windows import shown_share  # lazy: 2.3 ms

        return shown_share(value)
    if isinstance(value, str):
        return value
    if value is None:
        return "auto" if key == "budget.context" else "off"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# ---- the context budget ------------------------------------------------------------------
def seen(session: Figures) -> str:
    """The ledger's newest measurement as a live reading remembers it (``Live.seen``)."""
    return f"{session.measured_at}|{session.measured_fill}" if session.measured else ""


def live_is_newer(session: Figures, live: Live) -> bool:
    """Whether ``live`` was read after the ledger's newest measurement: by what the reading
    saw when it was taken, else by time (a later second); a reading that does not say what
    it saw (an older one) wins a tie, as before."""
    if not session.measured:
        return True
    if live.seen is None:
        return live.at >= session.measured_at
    if live.seen == seen(session) or live.at > session.measured_at:
        return True
    # The ledger's measurement is this reading itself, carried into it (``live_event``).
    return live.at == session.measured_at and live.used == session.measured_fill


HOOK_READINGS = ("gemini",)  # agents whose live reading comes from a hook, not a status line


def context_budget(session: Figures, config: Config, live: Live | None = None) -> Budget:
    """The fill against the window: the newest measurement plus estimates after it."""
    used, source, at = session.used, session.source, session.measured_at if session.measured else ""
    usable = live is not None and session.use_measured and live.at >= session.started
    if live is not None and usable and live.filled and live_is_newer(session, live):
        base = live.estimated if live.estimated <= session.estimated else 0
        used = live.used + session.estimated - base
        # a status line's reading, or Gemini CLI's AfterModel hook's (it has no status line)
        source = "hook" if live.agent in HOOK_READINGS else "statusline"
        at = live.at
    limit, origin = window_of(session, config, live if usable else None)
    return Budget(used, limit, levels.percent(used, limit), levels.level(used, limit, config),
                  source, at, window_from=origin)  # fmt: skip


def context_window(session: Figures, config: Config, live: Live | None = None) -> int:
    """``budget.context``: N, or (auto) the window the agent reports, else ``max_tokens``."""
    return window_of(session, config, live)[0]


def window_of(session: Figures, config: Config, live: Live | None = None) -> tuple[int, str]:
    """The context window and where it came from: ``budget.context``, ``agent`` (the window
    the agent reports) or ``max_tokens`` (the session's configured budget)."""
    if config.budget_context:
        return config.budget_context, "budget.context"
    if live is not None and live.window:
        return live.window, "agent"
    if session.measured_window:
        return session.measured_window, "agent"
    return session.max_tokens, "max_tokens"


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
    if limit_usd or pico is not None:
        # The price table's module loads only where there are dollars (bench/hook.py: it
        # was ~1 ms of every commit's imports).
        from tg_git.domain import prices  # lazy: 9.9 ms
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
    landed = landed.copy(recorded=list(now.recorded))  # a change recorded since counts now
    if now.measured and landed.measured and now.measured_at >= landed.measured_at:
        # Only the agent's own fill going down is a compaction: a fill measured above the
        # one the halt was reached from (a commit's estimate took it there) lifts nothing.
        lowered = landed.copy(**{name: getattr(now, name) for name in MEASURED})
        compacted = now.measured_fill < landed.measured_fill
        if compacted and context_budget(lowered, config).used < context_budget(landed, config).used:
            landed = lowered
    return session_level(landed, config)


def session_cost_pico(session: Figures) -> int | None:
    """The USD the ledger's measured usage costs by the price table (None: nothing priced)."""
    pico = session.spend_cost_pico
    return pico if pico or (session.spend and not session.spend_unpriced) else None


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
    if live.filled and live_is_newer(session, live):
        fields.update(fill=live.used, window=live.window)
    from tg_git.domain.eventlog import now  # lazy: 1.2 ms
    from tg_git.domain.replay import apply_usage  # lazy: 1.9 ms

    after = session.copy()
    apply_usage(after, cast("UsageEvent", {"kind": "usage", "at": now(), **fields}))
    carried = budgets(after, config)
    return (
        fields
        if (carried.level, carried.context.limit) != (alone.level, alone.context.limit)
        else None
    )
