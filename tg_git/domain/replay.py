"""A session replayed from its events: the records (``Session``, ``Task``) and the replay.

Pure: events in, a session out. Totals, levels and the plan are never stored, only replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from tg_git.domain.eventlog import Event, count

# ---- replay ------------------------------------------------------------------------------
_R = TypeVar("_R", bound="Record")


class Record:
    """A plain mutable record: ``FIELDS`` with their defaults, compared and shown by value.
    (The hooks import no ``dataclasses``: that module alone costs a hook ~10 ms.)"""

    FIELDS: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(self) == vars(other)

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({values})"

    def copy(self: _R, **changes: Any) -> _R:
        """A shallow copy with ``changes`` (``dataclasses.replace``)."""
        unknown = set(changes) - set(self.FIELDS)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        clone = object.__new__(type(self))
        clone.__dict__.update(vars(self), **changes)
        return clone


class Task(Record):
    FIELDS = ("title", "status", "stopping_point", "blockers")

    def __init__(
        self,
        title: str,
        status: str = "pending",  # pending | in_progress | blocked | done
        stopping_point: str = "",
        blockers: list[str] | None = None,
    ) -> None:
        self.title = title
        self.status = status
        self.stopping_point = stopping_point
        self.blockers: list[str] = blockers if blockers is not None else []


class Session(Record):
    """A session as its events replay: totals, plan and measured usage."""

    FIELDS = (
        "id", "started", "max_tokens", "base", "input", "output", "commits", "tasks", "context",
        "next_steps", "outputs", "resumed_from", "activity", "measured_fill", "measured_base",
        "measured_at", "measured_agent", "measured_model", "measured_window",
        "spend_fresh_input", "spend_cache_write", "spend_cache_read", "spend_output",
        "spend_requests", "use_measured", "spend_cost_pico", "spend_unpriced", "spend_counted",
        "cost_counted_pico",
    )  # fmt: skip

    def __init__(self, id: str, started: str, max_tokens: int, base: str, **values: Any) -> None:
        self.id = id
        self.started = started
        self.max_tokens = max_tokens
        self.base = base
        self.input = 0
        self.output = 0
        self.commits = 0
        self.tasks: dict[str, Task] = {}
        self.context: list[str] = []
        self.next_steps: list[str] = []
        self.outputs: list[tuple[str, int]] = []
        self.resumed_from = ""
        self.activity = 0  # events of this session after its start
        # Measured usage (`usage` events, imported from the agent's own logs). The newest
        # measurement's context fill replaces the estimate of everything recorded before it;
        # estimates recorded after it add on top (`measured_base` is the estimate then).
        self.measured_fill = 0
        self.measured_base = 0
        self.measured_at = ""  # "" = no measurement in this session
        self.measured_agent = ""
        self.measured_model = ""
        self.measured_window = 0
        self.spend_fresh_input = 0
        self.spend_cache_write = 0
        self.spend_cache_read = 0
        self.spend_output = 0
        self.spend_requests = 0
        self.use_measured = True  # config `budget.source = "estimate"` turns measurements off
        self.spend_cost_pico = 0  # USD of the spend by tg_git.domain.prices, in picodollars (exact)
        self.spend_unpriced = 0  # tokens of models the price table does not know
        # What the agent itself counted (its status line), carried into the ledger: running
        # totals of the session, so the newest is the highest (max: order-free, merge-safe).
        self.spend_counted = 0
        self.cost_counted_pico = 0
        for name, value in values.items():
            if name not in self.FIELDS:
                raise TypeError(f"Session has no field {name!r}")
            setattr(self, name, value)

    @property
    def estimated(self) -> int:
        return self.input + self.output

    @property
    def measured(self) -> bool:
        return bool(self.measured_at) and self.use_measured

    @property
    def used(self) -> int:
        if self.measured:
            return self.measured_fill + max(0, self.estimated - self.measured_base)
        return self.estimated

    @property
    def source(self) -> str:
        """Where `used` comes from: measured, estimated, or mixed (a measurement plus
        estimates recorded after it)."""
        if not self.measured:
            return "estimated"
        return "mixed" if self.estimated > self.measured_base else "measured"

    @property
    def spend(self) -> int:
        return (
            self.spend_fresh_input + self.spend_cache_write + self.spend_cache_read
            + self.spend_output
        )  # fmt: skip

    @property
    def percent(self) -> float:
        return 100.0 * self.used / self.max_tokens if self.max_tokens else 0.0

    def titles(self, *statuses: str) -> list[str]:
        return [t.title for t in self.tasks.values() if t.status in statuses]


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _start(event: Event) -> Session:
    session = Session(
        id=str(event.get("id", "")),
        started=str(event.get("at", "")),
        max_tokens=count(event, "max_tokens") or 1,
        base=str(event.get("base", "")),
    )
    for title in _strings(event.get("pending")):
        session.tasks[title] = Task(title)
    for item in event.get("in_progress", []) if isinstance(event.get("in_progress"), list) else []:
        if isinstance(item, dict) and isinstance(item.get("task"), str):
            session.tasks[item["task"]] = Task(
                item["task"],
                "blocked" if _strings(item.get("blockers")) else "in_progress",
                str(item.get("stopping_point", "")),
                _strings(item.get("blockers")),
            )
    session.resumed_from = str(event.get("resumed_from", ""))
    session.context = _strings(event.get("context"))
    session.next_steps = _strings(event.get("next"))
    return session


def _apply_task(session: Session, event: Event) -> None:
    title = str(event.get("title", ""))
    op = event.get("op")
    task = session.tasks.setdefault(title, Task(title))
    note = str(event.get("note", ""))
    if op == "start":
        task.status = "in_progress"
        task.stopping_point = note or task.stopping_point
    elif op == "done":
        task.status = "done"
    elif op == "block":
        task.status = "blocked"
        if note:
            task.blockers.append(note)


def _at(event: Event) -> str:
    return str(event.get("at", ""))


def apply_usage(session: Session, event: Event) -> None:
    """Spend adds up; a measured context fill (main context only) becomes the base of `used`,
    so everything estimated before it is not counted twice, and a compaction lowers it."""
    session.spend_fresh_input += count(event, "fresh_input")
    session.spend_cache_write += count(event, "cache_write")
    session.spend_cache_read += count(event, "cache_read")
    session.spend_output += count(event, "output")
    session.spend_requests += count(event, "requests")
    session.spend_counted = max(session.spend_counted, count(event, "spent"))
    session.cost_counted_pico = max(session.cost_counted_pico, count(event, "cost_pico"))
    _price(session, event)
    if "fill" in event:
        session.measured_fill = count(event, "fill")
        session.measured_base = session.input + session.output
        session.measured_at = _at(event)
        session.measured_agent = str(event.get("agent", ""))
        session.measured_model = str(event.get("model", ""))
        session.measured_window = count(event, "window") or session.measured_window  # kept: known


def _price(session: Session, event: Event) -> None:
    """The event's USD by the price table; its tokens as unpriced when the model has none."""
    tokens = [count(event, n) for n in ("fresh_input", "cache_write", "cache_read", "output")]
    if not any(tokens):
        return
    from tg_git.domain import prices

    cost = prices.cost_pico(str(event.get("model", "")), *tokens)
    if cost is None:
        session.spend_unpriced += sum(tokens)
    else:
        session.spend_cost_pico += cost


def replay(events: Mapping[str, Event], use_measured: bool = True) -> Session | None:
    """The current session (the newest start) with its totals and plan; None before any.
    ``use_measured=False`` (``budget.source = "estimate"``) keeps `used` the estimate."""
    starts = [e for e in events.values() if e["kind"] == "session"]
    if not starts:
        return None
    starts.sort(key=_at)  # sorts are stable: file order breaks ties
    session = _start(starts[-1])
    session.use_measured = use_measured
    mine = [e for e in events.values() if e.get("session") == session.id]
    mine.sort(key=_at)
    for event in mine:
        session.activity += 1
        kind = event["kind"]
        if kind == "commit":
            tokens = count(event, "tokens")
            session.output += tokens
            session.commits += 1
            session.outputs.append((str(event.get("label", "")), tokens))
        elif kind == "input":
            session.input += count(event, "tokens")
        elif kind == "task":
            _apply_task(session, event)
        elif kind == "note":
            session.context.append(str(event.get("text", "")))
        elif kind == "next":
            if event.get("op") == "clear":
                session.next_steps.clear()
            else:
                session.next_steps.append(str(event.get("text", "")))
        elif kind == "usage":
            apply_usage(session, event)
    return session
