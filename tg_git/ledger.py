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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tg_git.config import LEDGER_PATH, parse_toml
from tg_git.errors import CorruptFile, TgGitError

HEADER = (
    "# tg-git ledger: one event a line, append-only. Totals are replayed from these lines,\n"
    "# never stored. `.gitattributes` merges this file with merge=union. Holds numbers,\n"
    "# paths and the agent's short notes, never file contents.\n"
)
KINDS = ("session", "commit", "input", "task", "note", "next")
TASK_OPS = ("add", "start", "done", "block")
REPAIR = (
    "repair the broken line by hand, or take the last good version with "
    "`git checkout HEAD -- .tg-git/ledger.toml`."
)

Event = dict[str, Any]


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_key() -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d%H%M%S")
    return f"e{stamp}-{os.urandom(4).hex()}"


# ---- writing one line ---------------------------------------------------------------------
def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # A JSON string with ASCII escapes is a valid TOML basic string (and keeps one line).
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):  # quoted keys: valid TOML, and JSON after one replace
        return "{ " + ", ".join(f'"{k}" = {_value(v)}' for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to the ledger")


def event_line(kind: str, key: str | None = None, **fields: Any) -> tuple[str, str]:
    """One ledger line for an event; returns ``(key, line)``."""
    assert kind in KINDS, kind
    key = key or new_key()
    body = {"kind": kind, "at": fields.pop("at", None) or now(), **fields}
    return key, f"{key} = {_value(body)}\n"


# ---- reading -----------------------------------------------------------------------------
# The lines tg-git writes are TOML inline tables with quoted keys whose strings are JSON
# strings, so a line is JSON once each `" = ` between a key and its value becomes `": `,
# and the whole file is read by one C-speed json.loads: many times faster than a TOML
# parser on a ledger of thousands of events, which the hook reads on every commit.
# Lines with bare keys (hand-written TOML) get their keys quoted one by one; any other
# line sends the whole file through the TOML parser instead.
_EVENT_LINE = re.compile(r"^([A-Za-z0-9_-]+)[ \t]*=[ \t]*(\{.*\})[ \t]*$")
_KEY_EQUALS = re.compile(r'(?<!\\)"[ \t]*=[ \t]*')  # a closing quote, then =: a key ends
_STRING_OR_BARE_KEY = re.compile(r'"(?:[^"\\]|\\.)*"|([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=(?!=)')


def _quote_key(match: re.Match[str]) -> str:
    key = match.group(1)
    return f'"{key}":' if key else match.group(0)


_BLANK_OR_COMMENT = re.compile(r"^[ \t]*(?:#[^\n]*)?(?:\n|\Z)", re.M)
_OUR_LINES = re.compile(r'(?:[A-Za-z0-9_-]+ = \{ "[^\n]*\}\n)*')


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
    if '\\" = ' in body or not _OUR_LINES.fullmatch(body):
        return None  # an escaped quote before " = " needs the careful path
    lines = body.count("\n")
    # `KEY = { "` starts each line: quote the key; then every `" = ` ends a quoted key.
    as_json = '{"' + body[:-1].replace("\n", ',"').replace(' = { "', '": { "') + "}"
    try:
        data: dict[str, Any] = json.loads(as_json.replace('" = ', '": '))
    except (ValueError, RecursionError):  # the TOML parser will say what is wrong
        return None
    return data if len(data) == lines else None  # a key twice: the careful path decides


def _fast_parse(text: str) -> dict[str, Any] | None:
    """The ledger as tg-git writes it, or None when some line needs the real TOML parser."""
    whole = _whole_file_parse(text)
    if whole is not None:
        return whole
    parts = []
    seen: dict[str, str] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped[0] == "#":
            continue
        match = _EVENT_LINE.match(stripped)
        if match is None:
            return None
        key, body = match.groups()
        if key in seen:
            if seen[key] != body:
                return None  # the TOML parser will name the duplicate key
            continue  # the same event twice (a union merge of a cherry-pick): once
        seen[key] = body
        if body.startswith('{ "'):
            parts.append(f'"{key}":{body}')
        else:
            parts.append(f'"{key}":{_STRING_OR_BARE_KEY.sub(_quote_key, body)}')
    try:
        data: dict[str, Any] = json.loads(_KEY_EQUALS.sub('": ', "{" + ",".join(parts) + "}"))
    except (ValueError, RecursionError):  # the TOML parser will say what is wrong
        return None
    return data


def parse(text: str, where: str = LEDGER_PATH) -> dict[str, Event]:
    """Events by key, in file order. A broken file raises one clear ``CorruptFile``."""
    data = _fast_parse(text)
    if data is None:
        data = parse_toml(text, where, REPAIR)
    events: dict[str, Event] = {}
    for key, value in data.items():
        if not isinstance(value, dict) or value.get("kind") not in KINDS:
            raise CorruptFile(f"{where}: entry `{key}` is not a tg-git event; {REPAIR}")
        events[key] = value
    return events


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise CorruptFile(f"{LEDGER_PATH} is not UTF-8 text; {REPAIR}") from None
    except OSError as exc:
        raise CorruptFile(
            f"cannot read {LEDGER_PATH} ({exc.strerror}); check its permissions."
        ) from None


# ---- replay ------------------------------------------------------------------------------
@dataclass
class Task:
    title: str
    status: str = "pending"  # pending | in_progress | blocked | done
    stopping_point: str = ""
    blockers: list[str] = field(default_factory=list)


@dataclass
class Session:
    id: str
    started: str
    max_tokens: int
    base: str
    input: int = 0
    output: int = 0
    commits: int = 0
    overrides: int = 0
    tasks: dict[str, Task] = field(default_factory=dict)
    context: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    inputs: list[tuple[str, int]] = field(default_factory=list)
    outputs: list[tuple[str, int]] = field(default_factory=list)
    resumed_from: str = ""
    activity: int = 0  # events of this session after its start

    @property
    def used(self) -> int:
        return self.input + self.output

    @property
    def percent(self) -> float:
        return 100.0 * self.used / self.max_tokens if self.max_tokens else 0.0

    def titles(self, *statuses: str) -> list[str]:
        return [t.title for t in self.tasks.values() if t.status in statuses]


def _int(event: Event, name: str) -> int:
    value = event.get(name, 0)
    if type(value) is not int or value < 0:  # bool is not a count either
        raise CorruptFile(
            f"{LEDGER_PATH}: `{name}` must be a whole number >= 0 in every event; {REPAIR}"
        )
    return value


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


def replay(events: Mapping[str, Event]) -> Session | None:
    """The current session (the newest start) with its totals and plan; None before any."""
    starts = [e for e in events.values() if e["kind"] == "session"]
    if not starts:
        return None
    starts.sort(key=_at)  # sorts are stable: file order breaks ties
    session = _start(starts[-1])
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
            session.overrides += bool(event.get("override"))
        elif kind == "input":
            tokens = _int(event, "tokens")
            session.input += tokens
            session.inputs.append((str(event.get("label", "")), tokens))
        elif kind == "task":
            _apply_task(session, event)
        elif kind == "note":
            session.context.append(str(event.get("text", "")))
        elif kind == "next":
            if event.get("op") == "clear":
                session.next_steps.clear()
            else:
                session.next_steps.append(str(event.get("text", "")))
    return session


# ---- writing the file ---------------------------------------------------------------------
def write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a ledger."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def appended(text: str | None, lines: Iterable[str]) -> str:
    base = text if text else HEADER
    if not base.endswith("\n"):
        base += "\n"
    return base + "".join(lines)


def require_kind(kind: str) -> None:
    if kind not in KINDS:
        raise TgGitError(f"unknown event kind {kind!r}")
