"""The checkpoint document as text: ``harness_checkpoint.json``'s text, ``CHECKPOINT.md`` and
the checkpoint commit's subject line.

Pure: a document (``tg_git.services.checkpoint_document`` builds it from a session) and the
repository's language in, strings out; the save (``tg_git.services.checkpoint``) commits them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tg_git.domain import refs
from tg_git.domain.budget import RANK
from tg_git.text import messages, term

MD_LIST_LIMIT = 200  # CHECKPOINT.md lists at most this many files; the JSON has them all

# A file name that is not UTF-8 reaches Python as lone surrogates (surrogateescape). In the
# JSON they are written as \\udcXX escapes, which read back to the same name; in the
# Markdown, shown as U+FFFD.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match[0]):04x}"


def json_text(data: dict[str, Any]) -> str:
    """``harness_checkpoint.json`` as written: indented, UTF-8 kept, lone surrogates escaped."""
    return _SURROGATE.sub(_escape, json.dumps(data, ensure_ascii=False, indent=2)) + "\n"


def markdown_text(data: dict[str, Any], language: str) -> str:
    """``CHECKPOINT.md`` as written: ``markdown`` with lone surrogates shown as U+FFFD."""
    return _SURROGATE.sub("\ufffd", markdown(data, language))


def subject(data: dict[str, Any], level: str, language: str) -> str:
    """The checkpoint commit's subject (also its tag's message): prefix, the figures of the
    budget that set the level (the spend budget named as such), percent and the level's name
    in the repository's language."""
    kind, used, limit, pct = _title_figures(data)
    named = messages.has(f"level.{level}")  # a level without a name keeps its id
    key = {
        "context": "checkpoint_title",
        "spend": "checkpoint_title_spend",
        "spend_usd": "checkpoint_title_spend_usd",
    }[kind]
    return messages.text(
        language,
        key,
        prefix=refs.SUBJECT_PREFIX,
        pct=pct,
        used=used,
        max=limit,
        level=messages.text(language, f"level.{level}") if named else level,
    )


def _budget_tables(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """The document's context and spend budgets, and whether the spend set the level."""
    found: dict[str, Any] = data["budgets"] if isinstance(data.get("budgets"), dict) else {}
    context, spend = found.get("context") or {}, found.get("spend") or {}
    spend_first = found.get("halted_by") == "spend" or (
        RANK.get(spend.get("level", "ok"), 0) > RANK.get(context.get("level", "ok"), 0)
    )
    return context, spend, spend_first


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _title_figures(data: dict[str, Any]) -> tuple[str, Any, Any, int]:
    """Which budget the subject line shows, with its used/limit pair and percent: the budget
    that set the session's level (the spend where it halted or is the worse, in tokens or
    else in dollars; otherwise the context against the window in use), so a save at a context
    halt of a 1,000,000 window never reads "960,001/200,000"."""
    _context, spend, spend_first = _budget_tables(data)
    if spend_first and isinstance(spend.get("used"), int) and isinstance(spend.get("limit"), int):
        return "spend", spend["used"], spend["limit"], 100 * spend["used"] // spend["limit"]
    if spend_first and _number(spend.get("limit_usd")) and _number(spend.get("usd")):
        return "spend_usd", spend["usd"], spend["limit_usd"], int(spend.get("percent") or 0)
    used, limit = _context_figures(data)
    return "context", used, limit, (100 * used // limit if limit else 0)


def _context_figures(data: dict[str, Any]) -> tuple[int, int]:
    """The context budget's fill and window at the save (the estimate against ``max_tokens``
    in a document without budgets)."""
    s = data["session"]
    context = _budget_tables(data)[0]
    if isinstance(context.get("used"), int) and isinstance(context.get("limit"), int):
        return context["used"], context["limit"]
    return s["estimated_used"], s["max_tokens"]


def _figures_line(data: dict[str, Any], language: str) -> str:
    """CHECKPOINT.md's figures: the context budget (fill / window) and the spend, labelled."""
    used, limit = _context_figures(data)
    pct = 100 * used // limit if limit else 0
    line = f"{messages.text(language, 'md.context_budget')}: ~{used:,}/{limit:,} ({pct}%)"
    spend = _budget_tables(data)[1]
    if isinstance(spend.get("used"), int) and (
        spend["used"] or spend.get("limit") or spend.get("limit_usd")
    ):
        line += f" | {messages.text(language, 'md.spend_budget')}: ~{spend['used']:,}"
        if _number(spend.get("usd")):
            line += f" ${spend['usd']:,.2f}"
        limits = [f"{spend['limit']:,}" for _ in (1,) if isinstance(spend.get("limit"), int)]
        limits += [f"${spend['limit_usd']:,.2f}" for _ in (1,) if _number(spend.get("limit_usd"))]
        if limits:
            line += f"/{' · '.join(limits)} ({int(spend.get('percent') or 0)}%)"
    return line


def writer_text(writer: Any) -> str:
    """``written_by`` as one line, ``agent (model)``; "" when absent or not in its shape."""
    if not isinstance(writer, dict) or not isinstance(writer.get("agent"), str):
        return ""
    model = writer.get("model")
    by = term.one_line(writer["agent"], 64)
    return by + (f" ({term.one_line(model, 200)})" if isinstance(model, str) and model else "")


def same(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether two checkpoint documents say the same thing (their save times aside)."""

    def strip(doc: dict[str, Any]) -> dict[str, Any]:
        return {**doc, "session": {k: v for k, v in doc["session"].items() if k != "timestamp"}}

    try:
        return strip(new) == strip(old)
    except (KeyError, AttributeError, TypeError):
        return False


def markdown(data: dict[str, Any], language: str) -> str:
    """CHECKPOINT.md: the seed's template (title, saved line, completed, in progress, next
    steps, critical context), then blocked, pending and done this session. Data is folded
    to one line each, so a title cannot add headings of its own."""

    def t(key: str, **values: Any) -> str:
        return messages.text(language, key, **values)

    def items(values: list[str], numbered: bool = False) -> list[str]:
        shown = [
            f"{n}. {term.one_line(v)}" if numbered else f"- {term.one_line(v)}"
            for n, v in enumerate(values[:MD_LIST_LIMIT], 1)
        ]
        if len(values) > MD_LIST_LIMIT:
            shown.append(f"- {t('md.more', n=len(values) - MD_LIST_LIMIT)}")
        return shown or [f"- {t('md.none')}"]

    s = data["session"]
    status = data["status"]
    files = status.get("completed_files")
    paths = [f["path"] for f in files] if isinstance(files, list) else status["completed"]
    tasks = status.get("completed_tasks", [])
    lines = [
        f"# CHECKPOINT — {term.one_line(s['project_name'])}",
        f"> {t('md.saved')}: {s['timestamp']} | {_figures_line(data, language)}",
    ]
    if data.get("message"):
        lines.append(f"> {t('md.message')}: {term.one_line(data['message'], 2000)}")
    lines += ["", f"## {t('md.completed')}"]
    if tasks:
        lines += [f"**{t('md.files', n=len(paths))}**"]
    lines += items(paths)
    if tasks:
        lines += ["", f"**{t('md.tasks', n=len(tasks))}**", *items(tasks)]
    lines += ["", f"## {t('md.in_progress')}"]
    lines += [
        f"- **{term.one_line(i['task'])}** — {term.one_line(i['stopping_point'])}"
        for i in status["in_progress"]
    ] or [f"- {t('md.none')}"]
    lines += ["", f"## {t('md.next')}", *items(data["next_steps"], numbered=True)]
    lines += ["", f"## {t('md.context')}", *items(data["critical_context"])]
    blocked = status.get("blocked", [])
    if blocked:
        lines += ["", f"## {t('md.blocked')}"]
        lines += [
            f"- **{term.one_line(b['task'])}** — {t('md.blocked_by')}: "
            f"{term.one_line('; '.join(b['blockers']))}"
            for b in blocked
        ]
    lines += ["", f"## {t('md.pending')}", *items(status["pending"])]
    done = data.get("done_this_session")
    if isinstance(done, dict):
        lines += [
            "",
            f"## {t('md.done')}",
            f"- {t('md.commits', n=done['commits'], tokens=done['output_tokens'])}",
        ]
        lines += [f"  - {term.one_line(subject)}" for subject in done["subjects"]]
    return "\n".join(lines) + "\n"
