"""What a new session carries over from the one before: pending and in-progress work, context and
next steps, bounded so that one start line stays readable however long the old session was."""

from __future__ import annotations

from tg_git.domain import replay
from tg_git.domain.typed import cast

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any, Literal

    from tg_git.domain.eventkinds import Plan

    Carried = Literal["context", "next", "pending", "in_progress"]  # the lists a start carries


CARRIED_LISTS: tuple[Carried, ...] = ("context", "next", "pending", "in_progress")
MAX_START_LINE = 16 * 1024  # a session's start line, with all it carries (readers take 64 KiB)
MAX_CARRIED = 32  # notes, next steps and tasks each: the newest are kept
MAX_CARRIED_TEXT = 1000  # characters of one carried note, step or task title


def _clip(value: Any) -> Any:
    if isinstance(value, str) and len(value) > MAX_CARRIED_TEXT:
        return value[: MAX_CARRIED_TEXT - 1] + "\u2026"
    if isinstance(value, dict):
        return {k: _clip(v) for k, v in value.items()}
    return [_clip(v) for v in value[-MAX_CARRIED:]] if isinstance(value, list) else value


def halved(plan: Plan, key: Carried) -> Plan:
    """``plan`` with the older half (and one) of its ``key`` list dropped."""
    items = plan.get(key) or []
    return cast("Plan", {**plan, key: items[len(items) // 2 + 1 :]})


def bounded_plan(carry: Plan) -> Plan:
    """What a new session's start line carries: the newest ``MAX_CARRIED`` items of each
    list, each text clipped. A resume after 70 notes once wrote a 70,000-character start
    line; the old session's events and its checkpoint keep everything."""
    return cast("Plan", {key: _clip(value) for key, value in carry.items()})


def plan_of(session: replay.Session) -> Plan:
    """What a new session carries over: pending and in-progress work, context, next steps."""
    return {
        "pending": session.titles("pending"),
        "in_progress": [
            {"task": t.title, "stopping_point": t.stopping_point, "blockers": list(t.blockers)}
            for t in session.tasks.values()
            if t.status in ("in_progress", "blocked")
        ],
        "context": list(session.context),
        "next": list(session.next_steps),
    }
