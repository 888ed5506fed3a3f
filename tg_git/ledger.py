"""The token ledger: an append-only log of events, one TOML line each, replayed for totals.

Each line is ``KEY = { kind = "...", ... }`` with a unique key, so ``merge=union`` merges,
rebases and cherry-picks keep it valid TOML and keep every event once. Nothing is stored
that can be derived: totals, levels and the plan come from ``replay``.
"""

from __future__ import annotations

import json
import os
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
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to the ledger")


def event_line(kind: str, key: str | None = None, **fields: Any) -> tuple[str, str]:
    """One ledger line for an event; returns ``(key, line)``."""
    assert kind in KINDS, kind
    key = key or new_key()
    body = {"kind": kind, "at": fields.pop("at", None) or now(), **fields}
    return key, f"{key} = {_value(body)}\n"


# ---- reading -----------------------------------------------------------------------------
def parse(text: str, where: str = LEDGER_PATH) -> dict[str, Event]:
    """Events by key, in file order. A broken file raises one clear ``CorruptFile``."""
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
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
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


def replay(events: Mapping[str, Event]) -> Session | None:
    """The current session (the newest start) with its totals and plan; None before any."""
    ordered = sorted(
        enumerate(events.values()), key=lambda pair: (str(pair[1].get("at", "")), pair[0])
    )
    starts = [e for _, e in ordered if e["kind"] == "session"]
    if not starts:
        return None
    session = _start(starts[-1])
    for _, event in ordered:
        if event.get("session") != session.id:
            continue
        session.activity += 1
        kind = event["kind"]
        if kind == "commit":
            session.output += _int(event, "tokens")
            session.commits += 1
            session.outputs.append((str(event.get("label", "")), _int(event, "tokens")))
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
