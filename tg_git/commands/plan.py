"""Commands that add events (record, task, note, next, session start) and `task list`."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from tg_git.domain import levels
from tg_git.domain.errors import ExitCode, TgGitError, os_reason
from tg_git.estimate.estimator import estimate_tokens
from tg_git.repo.workspace import Workspace
from tg_git.services.plan import act_on_level, level_now, plan, plan_lines
from tg_git.services.startup import open_workspace
from tg_git.text import messages

MAX_TITLE = 500
MAX_TEXT = 1000


def _text_ok(ws: Workspace, text: str, limit: int, empty_key: str) -> str:
    """One line of the agent's own text: not empty, no control characters, not too long."""
    lang = ws.config.language
    value = text.strip()
    if not value:
        raise TgGitError(messages.text(lang, empty_key), ExitCode.USAGE)
    if any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in value):
        raise TgGitError(messages.text(lang, "text_controls"), ExitCode.USAGE)
    if len(value) > limit:
        raise TgGitError(messages.text(lang, "text_too_long", limit=limit), ExitCode.USAGE)
    return value


def record(*, text: str | None, file: str | None, tokens: int | None, label: str) -> int:
    ws = open_workspace()
    lang = ws.config.language
    if tokens is not None:
        if tokens < 0:
            raise TgGitError(messages.text(lang, "tokens_negative"), ExitCode.USAGE)
        count = tokens
    elif file is not None:
        from tg_git.repo import inputfile  # lazy: 0.2 ms

        path = Path(file)
        try:
            data = inputfile.read_regular(path)  # as `tg-git estimate` reads: regular, bounded
        except inputfile.Refused as exc:
            raise TgGitError(messages.text(lang, exc.key, path=file, limit=exc.limit)) from None
        except OSError as exc:
            raise TgGitError(
                messages.text(lang, "cannot_read", path=file, why=os_reason(exc).text(lang))
            ) from None
        count = estimate_tokens(data.decode("utf-8", "replace"), file, ws.config.profile)
        label = label or file
    else:
        count = estimate_tokens(text or "", None, ws.config.profile)
    before = level_now(ws)
    ws.add_event("input", tokens=count, label=label[:200])
    session = ws.require_session()
    print(messages.text(lang, "recorded", count=count, used=session.used, max=session.max_tokens))
    act_on_level(ws, before, count, always=True, emit=print)
    return 0


def task(*, op: str, title: str, note: str = "") -> int:
    ws = open_workspace()
    lang = ws.config.language
    title = _text_ok(ws, title, MAX_TITLE, "task_empty")
    note = _text_ok(ws, note, MAX_TEXT, "note_empty") if note.strip() else ""
    tasks = ws.require_session().tasks
    quoted = shlex.quote(title)
    if op == "add" and title in tasks:
        status = messages.text(lang, f"task.{tasks[title].status}")
        raise TgGitError(
            messages.text(lang, "task_exists", title=title, status=status, quoted=quoted)
        )
    if op != "add" and title not in tasks:
        raise TgGitError(messages.text(lang, "task_unknown", title=title, quoted=quoted))
    before = level_now(ws)
    ws.add_event("task", op=op, title=title, **({"note": note} if note else {}))
    op_text = messages.text(lang, f"task_op.{op}")
    print(messages.text(lang, "task_done_msg", op=op_text, title=title))
    act_on_level(ws, before, 0, always=False, emit=print)
    return 0


def task_list(*, as_json: bool) -> int:
    ws = open_workspace()
    data = plan(ws)
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    print("\n".join(plan_lines(data, ws.config.language)))
    return 0


def note(*, text: str) -> int:
    ws = open_workspace()
    value = _text_ok(ws, text, MAX_TEXT, "note_empty")
    before = level_now(ws)
    ws.add_event("note", text=value)
    print(messages.text(ws.config.language, "noted"))
    act_on_level(ws, before, 0, always=False, emit=print)
    return 0


def next_step(*, text: str | None, clear: bool) -> int:
    ws = open_workspace()
    lang = ws.config.language
    if not clear and not (text and text.strip()):
        raise TgGitError(messages.text(lang, "next_needs"), ExitCode.USAGE)
    value = _text_ok(ws, text, MAX_TEXT, "next_needs") if text and text.strip() else ""
    before = level_now(ws)
    if clear:
        ws.add_event("next", op="clear")
        print(messages.text(lang, "next_cleared"))
    if value:
        ws.add_event("next", text=value)
        print(messages.text(lang, "next_added", text=value))
    act_on_level(ws, before, 0, always=False, emit=print)
    return 0


def session_start(*, max_tokens: int | None) -> int:
    ws = open_workspace()
    if max_tokens is not None:
        problem = levels.check_budget(max_tokens, ws.config)
        if problem:
            raise TgGitError(problem, ExitCode.USAGE)
    session_id = ws.start_session(max_tokens)
    session = ws.require_session()
    print(
        messages.text(ws.config.language, "session_started", id=session_id, max=session.max_tokens)
    )
    return 0
