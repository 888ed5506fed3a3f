"""A session replayed from its events: the records (``Session``, ``Task``) and the replay.

Pure: events in, a session out. Totals, levels and the plan are never stored, only replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from tg_git.domain.counts import count
from tg_git.domain.typed import cast

# ---- records -----------------------------------------------------------------------------
TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar

    _R = TypeVar("_R", bound="Record")
    _T = TypeVar("_T")
    from typing_extensions import dataclass_transform

    from tg_git.domain.eventkinds import Event, SessionEvent, TaskEvent, UsageEvent
else:  # mypy reads the records' fields as a dataclass's; at run time there is nothing to do

    def dataclass_transform(**_: object) -> Callable[[_T], _T]:
        return lambda target: target


class _Factory:
    """A field's default made anew for each record (``field(default_factory=list)``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], _T]) -> _T:
    """A field whose default is a new ``default_factory()`` for each record (a list, a dict)."""
    return cast("_T", _Factory(default_factory))


@dataclass_transform(field_specifiers=(field,))
class _RecordType(type):
    """Makes a class's annotated names its fields, in order: ``FIELDS``, ``__slots__`` (a
    misspelt field is an error, not a new attribute) and the defaults, from the one list."""

    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, object]
    ) -> _RecordType:
        fields = tuple(cast("dict[str, str]", namespace.get("__annotations__", {})))
        namespace["_DEFAULTS"] = {n: namespace.pop(n) for n in fields if n in namespace}
        namespace["__slots__"] = fields
        namespace["FIELDS"] = fields
        namespace["_NAMES"] = frozenset(fields)
        return super().__new__(mcs, name, bases, namespace)


_MISSING = object()


class Record(metaclass=_RecordType):
    """A plain mutable record, compared and shown by value, whose fields are its annotated
    names. (The hooks import no ``dataclasses``: that module alone costs a hook ~10 ms.)"""

    if TYPE_CHECKING:
        FIELDS: ClassVar[tuple[str, ...]]
        _DEFAULTS: ClassVar[dict[str, object]]
        _NAMES: ClassVar[frozenset[str]]

    def __init__(self, *args: Any, **values: Any) -> None:
        # Replay makes a record per task: one pass, no sets built (~1 us for a Task).
        fields = self.FIELDS
        if args:
            if len(args) > len(fields) or not values.keys().isdisjoint(fields[: len(args)]):
                raise TypeError(f"{type(self).__name__}: a field given twice or too many")
            values.update(zip(fields, args))
        if not values.keys() <= self._NAMES:
            self._check(values)
        defaults = self._DEFAULTS
        for name in fields:
            value = values[name] if name in values else defaults.get(name, _MISSING)
            if value is _MISSING:
                raise TypeError(f"{type(self).__name__} needs {name!r}")
            setattr(self, name, value.make() if type(value) is _Factory else value)

    @classmethod
    def _check(cls, values: Mapping[str, object]) -> None:
        unknown = set(values) - set(cls.FIELDS)
        if unknown:
            raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Record)
            and type(other) is type(self)
            and self._values() == other._values()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({values})"

    def copy(self: _R, **changes: Any) -> _R:
        """A shallow copy with ``changes`` (``dataclasses.replace``)."""
        self._check(changes)
        clone = object.__new__(type(self))
        for name in self.FIELDS:
            setattr(clone, name, changes[name] if name in changes else getattr(self, name))
        return clone


class Task(Record):
    title: str
    status: str = "pending"  # pending | in_progress | blocked | done
    stopping_point: str = ""
    blockers: list[str] = field(default_factory=list)


class Session(Record):
    """A session as its events replay: totals, plan and measured usage."""

    id: str
    started: str
    max_tokens: int
    base: str
    input: int = 0
    output: int = 0
    commits: int = 0
    tasks: dict[str, Task] = field(default_factory=dict)
    context: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    outputs: list[tuple[str, int, int]] = field(default_factory=list)  # path, files, tokens
    resumed_from: str = ""
    activity: int = 0  # events of this session after its start
    # Measured usage (`usage` events, imported from the agent's own logs). The newest
    # measurement's context fill replaces the estimate of everything recorded before it;
    # estimates recorded after it add on top (`measured_base` is the estimate then).
    measured_fill: int = 0
    measured_base: int = 0
    measured_at: str = ""  # "" = no measurement in this session
    measured_agent: str = ""
    measured_model: str = ""
    measured_window: int = 0
    spend_fresh_input: int = 0
    spend_cache_write: int = 0
    spend_cache_read: int = 0
    spend_output: int = 0
    spend_requests: int = 0
    use_measured: bool = True  # config `budget.source = "estimate"` turns measurements off
    spend_cost_pico: int = 0  # USD of the spend by tg_git.domain.prices, in picodollars (exact)
    spend_unpriced: int = 0  # tokens of models the price table does not know
    # What the agent itself counted (its status line), carried into the ledger: running
    # totals of the session, so the newest is the highest (max: order-free, merge-safe).
    spend_counted: int = 0
    cost_counted_pico: int = 0
    # The budget settings on the record (`budget` events, ``key=value``, oldest first, those
    # of earlier sessions too): a hand edit of the config lowers no level until recorded.
    recorded: list[str] = field(default_factory=list)

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
            self.spend_fresh_input
            + self.spend_cache_write
            + self.spend_cache_read
            + self.spend_output
        )

    @property
    def percent(self) -> float:
        return 100.0 * self.used / self.max_tokens if self.max_tokens else 0.0

    def titles(self, *statuses: str) -> list[str]:
        return [t.title for t in self.tasks.values() if t.status in statuses]


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _start(event: SessionEvent) -> Session:
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


# ---- replay ------------------------------------------------------------------------------
def _apply_task(session: Session, event: TaskEvent) -> None:
    title = str(event.get("title", ""))
    op = event.get("op")
    task = session.tasks.get(title) or session.tasks.setdefault(title, Task(title))
    note = str(event.get("note", ""))
    if op == "start":
        task.status = "in_progress"
        task.stopping_point = note or task.stopping_point
    elif op == "done":
        task.status = "done"
        if session.next_steps:  # a step that names it is done with it
            session.next_steps[:] = [s for s in session.next_steps if not names_task(s, title)]
    elif op == "block":
        task.status = "blocked"
        if note:
            task.blockers.append(note)


def _at(event: Event) -> str:
    return str(event.get("at", ""))


# At one time (a second), the later state of a task: the same on every clone, whatever order
# a merge left two clones' lines of that second in.
_TIE = {"add": "0", "start": "1", "block": "2", "done": "3"}
_STATUS = {"start": "in_progress", "block": "blocked", "done": "done"}


def _order(event: Event) -> str:
    """Replay's order: by time; at one time, a task's events by ``_TIE``, the rest as they
    stand (sorts are stable: file order)."""
    at = str(event.get("at", ""))
    return at + _TIE.get(str(event.get("op")), "") if event["kind"] == "task" else at


def _words(text: str) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in text.casefold()).split()


def names_task(step: str, title: str) -> bool:
    """Whether a next step is tied to the task ``title``: it names it, the title's words in
    a row and whole, in any case ("finish the login page: the form" names "Login page")."""
    words, said = _words(title), _words(step)
    n = len(words)
    return n > 0 and any(said[i : i + n] == words for i in range(len(said) - n + 1))


def finished(events: Iterable[Event]) -> set[str]:
    """The tasks whose newest event (any session's, any clone's) marks them done."""
    return {title for title, op in _newest_ops(events, None).items() if op == "done"}


def _newest_ops(events: Iterable[Event], titles: Collection[str] | None) -> dict[str, str]:
    """Each task's newest op in ``events`` (by ``_order``), of ``titles`` only when given."""
    newest: dict[str, tuple[str, str]] = {}
    for event in events:
        if event.get("kind") != "task":
            continue
        title = event.get("title")
        if not isinstance(title, str) or (titles is not None and title not in titles):
            continue
        order = _order(event)
        if title not in newest or order >= newest[title][0]:
            newest[title] = (order, str(event.get("op", "")))
    return {title: op for title, (_, op) in newest.items()}


def settle_tasks(session: Session, events: Iterable[Event]) -> Session:
    """``session`` (not changed) with each of its tasks in the state of its newest event in
    ``events``, every session's and every clone's (a task finished in another clone's
    session, merged in, is finished here; a carried state is no event of its own), and the
    next steps that name a task done so dropped. For a save and a briefing: a replay reads
    its own session's events only."""
    tasks = dict(session.tasks)
    for title, op in _newest_ops(events, tasks).items():
        status = _STATUS.get(op)
        if status is not None and tasks[title].status != status:
            tasks[title] = tasks[title].copy(status=status)
    done = [t for t, task in tasks.items() if task.status == "done" != session.tasks[t].status]
    steps = [s for s in session.next_steps if not any(names_task(s, t) for t in done)]
    return session.copy(tasks=tasks, next_steps=steps)


def apply_usage(session: Session, event: UsageEvent) -> None:
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


def _price(session: Session, event: UsageEvent) -> None:
    """The event's USD by the price table; its tokens as unpriced when the model has none."""
    tokens = [count(event, n) for n in ("fresh_input", "cache_write", "cache_read", "output")]
    if not any(tokens):
        return
    from tg_git.domain import prices  # lazy: 9.3 ms

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
    before = [
        e for e in events.values() if e["kind"] == "budget" and e.get("session") != session.id
    ]
    for earlier in sorted(before, key=_at):
        _apply_budget(session, earlier)
    mine = [e for e in events.values() if e.get("session") == session.id]
    mine.sort(key=_order)
    for event in mine:
        _apply(session, event)
    return session


AT_NEWEST_MAX = 256  # keys a base keeps of its events at its newest time: two segments' worth


def keys_at_newest(keys: Sequence[str]) -> list[str]:
    """What a base keeps of the keys of its events at its newest time, in file order
    (``may_be_settled``): the last ``AT_NEWEST_MAX`` of them. A real session has a few events
    a second; a generated ledger can have thousands, and the base stays small however it was
    made (a line of that second from before the kept ones is then taken as new)."""
    return list(keys[-AT_NEWEST_MAX:])


def may_be_settled(
    events: Iterable[tuple[str, Event]], newest: str, at_newest: Collection[str]
) -> bool:
    """Whether any of ``events`` (key, event) may be one a base already replayed (its newest
    event at ``newest``, ``keys_at_newest`` of its events at that time ``at_newest``): one
    older than that (replay sorts by time), or one of the base's own (a stashed line popped
    back, a line the journal restored). Then every file is read again: no event counts twice."""
    own = frozenset(at_newest)
    for key, event in events:
        at = str(event.get("at", ""))
        if at < newest or (at == newest and (key in own or event.get("kind") == "task")):
            return True  # (a task's line of that second may go before the base's: ``_TIE``)
    return False


def resumed(base: Session, events: Mapping[str, Event]) -> Session:
    """``base`` (a session replayed from its earlier events) with ``events`` applied on top,
    as ``replay`` would apply them: right only when none is older than the newest event of
    ``base`` (the caller checks: replay sorts by time)."""
    session = base.copy(
        tasks={t: task.copy(blockers=list(task.blockers)) for t, task in base.tasks.items()},
        context=list(base.context),
        next_steps=list(base.next_steps),
        outputs=list(base.outputs),
        recorded=list(base.recorded),
    )
    mine = [e for e in events.values() if e.get("session") == session.id]
    mine.sort(key=_order)
    for event in mine:
        _apply(session, event)
    return session


def _apply_budget(session: Session, event: Event) -> None:
    label, text = event.get("label"), event.get("text")
    if not (isinstance(label, str) and isinstance(text, str)) or "=" in label:
        return
    kept = [entry for entry in session.recorded if entry.partition("=")[0] != label]
    if len(kept) < 64:  # the newest value of each setting (a handful of keys)
        session.recorded[:] = [*kept, f"{label}={text}"]


def first_path(event: Event) -> str:
    """A commit event's first file: its ``path``; in a line older than that field, its label
    less the ``" (+N)"`` its ``files`` count put there (a file named ``x (+3)`` stays itself)."""
    path = event.get("path")
    if isinstance(path, str):
        return path
    label, files = str(event.get("label", "")), count(event, "files")
    more = f" (+{files - 1})"
    return label[: -len(more)] if files > 1 and label.endswith(more) else label


def _apply(session: Session, event: Event) -> None:
    session.activity += 1
    if event["kind"] == "commit":
        tokens = count(event, "tokens")
        session.output += tokens
        session.commits += 1
        session.outputs.append((first_path(event), count(event, "files"), tokens))
    elif event["kind"] == "input":
        session.input += count(event, "tokens")
    elif event["kind"] == "task":
        _apply_task(session, event)
    elif event["kind"] == "note":
        session.context.append(str(event.get("text", "")))
    elif event["kind"] == "next":
        if event.get("op") == "clear":
            session.next_steps.clear()
        else:
            session.next_steps.append(str(event.get("text", "")))
    elif event["kind"] == "usage":
        apply_usage(session, event)
    elif event["kind"] == "budget":
        _apply_budget(session, event)
