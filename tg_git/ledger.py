"""The token ledger: an append-only log of events, one TOML line each, replayed for totals.

Each line is ``KEY = { kind = "...", ... }`` with a unique key, so ``merge=union`` merges,
rebases and cherry-picks keep it valid TOML and keep every event once. Nothing is stored
that can be derived: totals, levels and the plan come from ``replay``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from tg_git.config import LEDGER_PATH, parse_toml
from tg_git.errors import CorruptFile, Said, TgGitError, os_fix_said, os_reason

HEADER = (
    "# tg-git ledger: one event a line, append-only. Totals are replayed from these lines,\n"
    "# never stored. `.gitattributes` merges this file with merge=union. Holds numbers,\n"
    "# paths and the agent's short notes, never file contents.\n"
)
SESSION_ID = re.compile(r"s[0-9]{14}-[0-9a-f]{12}")  # "s" + UTC start time + random
KINDS = ("session", "commit", "input", "task", "note", "next", "usage", "budget")
TASK_OPS = ("add", "start", "done", "block")
MAX_LINE = 64 * 1024  # a real event line is under 1 KiB
MAX_TOML = 8 << 20  # a file the fast reader cannot take is parsed as TOML only up to this size

Event = dict[str, Any]


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_key() -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d%H%M%S")
    return f"e{stamp}-{os.urandom(6).hex()}"


# ---- writing one line ---------------------------------------------------------------------
# Characters a TOML basic string must escape that json.dumps leaves raw (DEL), and those
# Python's str.splitlines() would break a line at.
_MORE_ESCAPES = str.maketrans(
    {"\x7f": "\\u007f", "\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


_SURROGATE = re.compile("[\ud800-\udfff]")  # in a str, only ever a lone one


def _toml_string(text: str) -> str:
    """A TOML basic string that is also a JSON string, on one line. Non-ASCII stays readable
    (TOML has no surrogate escapes, so no \\ud83d-style pairs); lone surrogates (undecodable
    bytes in a path) become U+FFFD."""
    clean = _SURROGATE.sub("\ufffd", text)
    return json.dumps(clean, ensure_ascii=False).translate(_MORE_ESCAPES)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):  # quoted keys: valid TOML, and JSON after one replace
        return "{ " + ", ".join(f'"{k}" = {_value(v)}' for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to the ledger")


def event_line(kind: str, key: str | None = None, **fields: Any) -> tuple[str, str]:
    """One ledger line for an event; returns ``(key, line)``."""
    assert kind in KINDS, kind
    assert set(fields) <= set(FIELDS), set(fields) - set(FIELDS)  # the fast reader knows them
    key = key or new_key()
    body = {"kind": kind, "at": fields.pop("at", None) or now(), **fields}
    return key, f"{key} = {_value(body)}\n"


# ---- reading -----------------------------------------------------------------------------
# Reading fast. The hook reads the ledger on every commit, and a TOML parser takes ~240 ms
# for 10,000 events. The lines tg-git writes are TOML inline tables whose keys are quoted
# and come from FIELDS, and whose strings are JSON strings; such a line turns into JSON by
# replacing each `"field" = ` with `"field": ` (inside a string a quote is always escaped,
# so `"field" = ` can only be a key) and the whole file is read by one json.loads (~25 ms).
# Other lines (hand-written TOML) are tokenised exactly, strings skipped, one by one; any
# line that is not a `key = { ... }` table sends the file through the TOML parser.
FIELDS = (
    "kind", "at", "session", "tokens", "files", "label", "override", "id", "max_tokens", "base",
    "pending", "in_progress", "context", "next", "resumed_from", "op", "title", "note", "text",
    "task", "stopping_point", "blockers", "estimator",
    "agent", "model", "requests", "fresh_input", "cache_write", "cache_read", "output", "fill",
    "window", "transcript", "spent", "cost_pico",
    "recount",  # the commit a late count is for (tg_git.recount)
)  # fmt: skip
_EVENT_LINE = re.compile(r"^([A-Za-z0-9_-]+)[ \t]*=[ \t]*(\{.*\})[ \t]*$")
_OUR_LINES = re.compile(r'(?:[A-Za-z0-9_-]+ = \{ "[^\n]*\}\n)*')
_BLANK_OR_COMMENT = re.compile(r"^[ \t]*(?:#[^\n]*)?(?:\n|\Z)", re.M)
_TOKEN = re.compile(
    r'("(?:[^"\\]|\\.)*")([ \t]*=(?!=)[ \t]*)?'  # a string, and if `=` follows, a quoted key
    r"|([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=(?!=)[ \t]*"  # a bare key
)


def _to_json(match: re.Match[str]) -> str:
    string, equals, bare = match.groups()
    if bare:
        return f'"{bare}": '
    return f"{string}: " if equals else string


def _whole_file_parse(text: str) -> dict[str, Any] | None:
    """Every line as tg-git writes it, each key once: a few C-speed passes over the file."""
    body = text
    while body.startswith("#"):  # the header
        body = body.partition("\n")[2]
    if "\n#" in body or "\n\n" in body or body.startswith(("\n", " ", "\t")):
        body = _BLANK_OR_COMMENT.sub("", body)
    if body and not body.endswith("\n"):
        body += "\n"
    if not body:
        return {}
    if not _OUR_LINES.fullmatch(body):
        return None
    lines = body[:-1].split("\n")
    as_json = ",".join(
        [f'"{key}":{rest}' for key, _, rest in (ln.partition(" = ") for ln in lines)]
    )
    if '\\" = ' in as_json:  # a string holding `" = `: turn only the field names' `=`
        for name in FIELDS:
            as_json = as_json.replace(f'"{name}" = ', f'"{name}": ')
    else:  # no string can hold `" = ` unescaped: every one ends a key (one pass, not 33)
        as_json = as_json.replace('" = ', '": ')
    try:
        data: dict[str, Any] = json.loads("{" + as_json + "}")
    except (ValueError, RecursionError):  # the careful path, or the TOML parser, will say
        return None
    return data if len(data) == len(lines) else None  # a key twice: the careful path decides


def _long_line(line: str) -> dict[str, Any] | None:
    """A line over ``MAX_LINE`` read the linear way (as tg-git writes lines), or None: such a
    line never reaches the slow parsers, but one tg-git wrote is still an event."""
    data = _whole_file_parse(line + "\n")
    return data if data is not None and len(data) == 1 else None


def _fast_parse(text: str) -> dict[str, Any] | None:
    """The ledger as tg-git writes it, or None when some line needs the real TOML parser."""
    whole = _whole_file_parse(text)
    if whole is not None:
        return whole
    parts = []
    seen: dict[str, str] = {}
    for line in text.split("\n"):  # TOML's only line break (splitlines knows more)
        stripped = line.strip()
        if not stripped or stripped[0] == "#":
            continue
        if len(stripped) > MAX_LINE:
            long = _long_line(stripped)  # a resume's start of tg-git < 0.3 could be one
            if long is None:
                raise CorruptFile.said("ledger_long_line", n=MAX_LINE)
            stripped = f"{next(iter(long))} = {json.dumps(next(iter(long.values())))}"
        match = _EVENT_LINE.match(stripped)
        if match is None:
            return None
        key, body = match.groups()
        if key in seen:
            if seen[key] != body:
                return None  # the TOML parser will name the duplicate key
            continue  # the same event twice (a union merge of a cherry-pick): once
        seen[key] = body
        parts.append(f'"{key}":{_TOKEN.sub(_to_json, body)}')
    try:
        data: dict[str, Any] = json.loads("{" + ",".join(parts) + "}")
    except (ValueError, RecursionError):  # the TOML parser will say what is wrong
        return None
    return data


def normalise(text: str) -> str:
    """What every reader sees: no byte-order mark, LF line ends (a CRLF checkout reads the same)."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n") if "\r" in text else text


def parse(text: str, where: str = LEDGER_PATH) -> dict[str, Event]:
    """Events by key, in file order. A broken file raises one clear ``CorruptFile``; time and
    memory stay bounded whatever the text (long lines never reach the slow parsers)."""
    text = normalise(text)
    data = _fast_parse(text)
    if data is None:
        if len(text) > MAX_TOML:
            raise CorruptFile.said("ledger_too_large", where=where)
        data = parse_toml(text, where, Said("ledger_repair"))
    events: dict[str, Event] = {}
    for key, value in data.items():
        if not isinstance(value, dict) or value.get("kind") not in KINDS:
            raise CorruptFile.said("ledger_not_event", where=where, key=key)
        events[key] = value
    return events


def read_text(path: Path, where: str = LEDGER_PATH) -> str | None:
    """A ledger file's text, normalised; None when there is none (a directory is none too).
    A pipe or a device is never opened (reading one could hang or never end)."""
    return decode(read_bytes(path, where), where)


def read_bytes(path: Path, where: str = LEDGER_PATH) -> bytes | None:
    """A ledger file's bytes, as ``read_text`` reads them."""
    import stat

    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            return None
        if not stat.S_ISREG(info.st_mode):
            raise CorruptFile.said("ledger_not_file", where=where)
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except OSError as exc:
        raise CorruptFile.said("ledger_unreadable", where=where, error=os_reason(exc)) from None


def decode(data: bytes | None, where: str = LEDGER_PATH) -> str | None:
    if data is None:
        return None
    try:
        return normalise(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise CorruptFile.said("ledger_not_utf8", where=where) from None


# ---- lines: the unit that merges, journals and repairs work on ---------------------------
def key_of(line: str) -> str:
    return line.split("=", 1)[0].strip()


def event_lines(text: str | None) -> list[str]:
    """The event lines of a ledger text, in order: no header, blanks or comments."""
    if not text:
        return []
    return [
        ln
        for ln in normalise(text).split("\n")
        if ln and (ln[0] not in "# \t" or (ln.strip() and not ln.lstrip().startswith("#")))
    ]


def union(*texts: str | None) -> list[str]:
    """Every event line of ``texts`` once, first seen first. A key seen twice with different
    bodies (a hand edit) keeps its first version: callers pass the most trusted text first."""
    distinct: dict[str, None] = {}
    for text in texts:
        distinct.update(dict.fromkeys(event_lines(text)))
    keys: set[str] = set()
    result = []
    for line in distinct:
        key = line.split("=", 1)[0].strip()
        if key not in keys:
            keys.add(key)
            result.append(line)
    return result


def salvage(text: str | None) -> tuple[list[str], int]:
    """The lines of ``text`` that read as tg-git events on their own, each key once, and how
    many did not (junk, conflict markers, half-written lines): what a repair keeps and drops."""
    kept, keys, dropped = [], set(), 0
    for raw in event_lines(text):
        line = raw.lstrip("\ufeff")
        try:
            if len(line) <= MAX_LINE or _long_line(line) is not None:
                parsed = parse(line)
                check_values(parsed)
                (key,) = parsed
                if key not in keys:
                    keys.add(key)
                    kept.append(line)
                continue
        except (CorruptFile, ValueError):
            pass
        dropped += 1
    return kept, dropped


def rewrite(text: str | None, lines: Iterable[str]) -> str:
    """``text`` holding exactly the event ``lines``: its comments and blank lines and the
    order of the lines it had stay, lines it lacks are appended, others are dropped."""
    if not text:
        return render(lines)
    wanted = dict.fromkeys(lines)
    out = []
    for raw in normalise(text).split("\n"):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            out.append(raw)
        elif raw in wanted:
            out.append(raw)
            del wanted[raw]
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out + list(wanted)) + "\n"


def clean_lines(text: str | None) -> tuple[list[str], int]:
    """A text's event lines and how many had to be dropped; line by line (``salvage``) only
    when the whole does not read."""
    lines, _events, dropped = clean_events(text)
    return lines, dropped


def clean_events(text: str | None) -> tuple[list[str], dict[str, Event], int]:
    """``clean_lines`` with the events they hold (parsed once)."""
    lines = event_lines(text)
    if not lines:
        return [], {}, 0
    try:
        events = parse("\n".join(lines))
        check_values(events)
        return lines, events, 0
    except Exception:  # CorruptFile, or anything a parser raises on hostile text
        kept, dropped = salvage(text)
        return kept, parse("\n".join(kept)), dropped


def render(lines: Iterable[str]) -> str:
    """A ledger file: the header, then one event a line."""
    return HEADER + "".join(f"{ln}\n" for ln in lines)


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
        self.spend_cost_pico = 0  # USD of the spend by tg_git.prices, in picodollars (exact)
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


COUNTS = ("tokens", "files", "max_tokens", "fresh_input", "cache_write", "cache_read", "output",
          "requests", "fill", "window", "spent", "cost_pico")  # fmt: skip
MAX_COUNT = 10**30  # more than any budget: beyond it, a hand edit


def _int(event: Event, name: str) -> int:
    value = event.get(name, 0)
    if type(value) is not int or not 0 <= value <= MAX_COUNT:  # bool is not a count either
        raise CorruptFile.said("ledger_bad_count", name=name, n=MAX_COUNT)
    return value


def check_values(events: Mapping[str, Event]) -> None:
    """Raise ``CorruptFile`` for an event whose counts replay would refuse."""
    for event in events.values():
        for name in COUNTS:
            if name in event:
                _int(event, name)


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _start(event: Event) -> Session:
    session = Session(
        id=str(event.get("id", "")),
        started=str(event.get("at", "")),
        max_tokens=_int(event, "max_tokens") or 1,
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
    session.spend_fresh_input += _int(event, "fresh_input")
    session.spend_cache_write += _int(event, "cache_write")
    session.spend_cache_read += _int(event, "cache_read")
    session.spend_output += _int(event, "output")
    session.spend_requests += _int(event, "requests")
    session.spend_counted = max(session.spend_counted, _int(event, "spent"))
    session.cost_counted_pico = max(session.cost_counted_pico, _int(event, "cost_pico"))
    _price(session, event)
    if "fill" in event:
        session.measured_fill = _int(event, "fill")
        session.measured_base = session.input + session.output
        session.measured_at = _at(event)
        session.measured_agent = str(event.get("agent", ""))
        session.measured_model = str(event.get("model", ""))
        session.measured_window = _int(event, "window") or session.measured_window  # kept: known


def _price(session: Session, event: Event) -> None:
    """The event's USD by the price table; its tokens as unpriced when the model has none."""
    tokens = [_int(event, n) for n in ("fresh_input", "cache_write", "cache_read", "output")]
    if not any(tokens):
        return
    from tg_git import prices

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
            tokens = _int(event, "tokens")
            session.output += tokens
            session.commits += 1
            session.outputs.append((str(event.get("label", "")), tokens))
        elif kind == "input":
            session.input += _int(event, "tokens")
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


# ---- writing the file ---------------------------------------------------------------------
def write_atomic(path: Path, text: str, durable: bool = True) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file; fsync first
    unless ``durable`` is off (the commit hook: git writes the same bytes into the commit
    right after, and git itself does not fsync by default)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "x", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise TgGitError.said(
            "file_unwritable", name=path.name, folder=path.parent, error=os_reason(exc),
            fix=os_fix_said(exc),
        ) from None  # fmt: skip
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def appended(text: str | None, lines: Iterable[str]) -> str:
    base = text if text else HEADER
    if not base.endswith("\n"):
        base += "\n"
    return base + "".join(lines)
