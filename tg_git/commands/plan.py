"""Commands that add events: record, task, note, next, session start."""

from __future__ import annotations

from pathlib import Path

from tg_git.errors import TgGitError
from tg_git.estimate import estimate_tokens
from tg_git.workspace import Workspace


def record(*, text: str | None, file: str | None, tokens: int | None, label: str) -> int:
    ws = Workspace.open()
    if tokens is not None:
        if tokens < 0:
            raise TgGitError("--tokens must be a whole number >= 0.")
        count = tokens
    elif file is not None:
        path = Path(file)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise TgGitError(f"cannot read {file} ({exc.strerror}); check the path.") from None
        count = estimate_tokens(data.decode("utf-8", "replace"), file, ws.config.profile)
        label = label or file
    else:
        count = estimate_tokens(text or "", None, ws.config.profile)
    ws.add_event("input", tokens=count, label=label[:200])
    session = ws.require_session()
    print(
        f"tg-git: recorded {count:,} input tokens; session at {session.used:,}/{session.max_tokens:,}."
    )
    return 0


def task(*, op: str, title: str, note: str = "") -> int:
    if not title.strip():
        raise TgGitError("a task needs a title.")
    ws = Workspace.open()
    ws.add_event("task", op=op, title=title[:500], **({"note": note[:1000]} if note else {}))
    print(f"tg-git: task {op}: {title}")
    return 0


def note(*, text: str) -> int:
    ws = Workspace.open()
    ws.add_event("note", text=text[:1000])
    print("tg-git: noted.")
    return 0


def next_step(*, text: str | None, clear: bool) -> int:
    ws = Workspace.open()
    if clear:
        ws.add_event("next", op="clear")
    if text:
        ws.add_event("next", text=text[:1000])
    if not clear and not text:
        raise TgGitError("give the next step as text, or --clear.")
    return 0


def session_start(*, max_tokens: int | None) -> int:
    if max_tokens is not None and max_tokens <= 0:
        raise TgGitError("--max-tokens must be a positive number of tokens.")
    ws = Workspace.open()
    session_id = ws.start_session(max_tokens)
    session = ws.require_session()
    print(f"tg-git: session {session_id} started with a budget of {session.max_tokens:,} tokens.")
    return 0
