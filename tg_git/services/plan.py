"""The current session's plan (tasks with status, stopping point and blockers; next steps), as
data for ``--json`` and as the text ``tg-git task list`` and ``tg-git status`` print; and what
a command that adds events does at the level it reaches (``act_on_level``)."""

from __future__ import annotations

from collections.abc import Callable

from tg_git.domain import layout, levels, replay
from tg_git.repo import gitquery
from tg_git.repo.workspace import Workspace
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs a command ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any


def plan(ws: Workspace) -> dict[str, Any]:
    """The current session's plan: tasks with status, stopping point and blockers; next steps.
    Each task in the state of its newest event in any session of any clone merged here (a
    task finished in another clone is done here too), and no next step that names a task
    done so."""
    from tg_git.services.checkpoint_document import every_event  # lazy: 19.1 ms

    session = ws.require_session()
    events = every_event(ws)
    if session.resumed_from:  # its plan was settled against every event when it resumed
        events = [e for e in events if str(e.get("at", "")) > session.started]
    session = replay.settle_tasks(session, events)
    return {
        "session": session.id,
        "tasks": [
            {
                "title": t.title,
                "status": t.status,
                "stopping_point": t.stopping_point,
                "blockers": list(t.blockers),
            }
            for t in session.tasks.values()
        ],
        "next_steps": list(session.next_steps),
        "context": list(session.context),
    }


ORDER = ("in_progress", "blocked", "pending", "done")


def plan_lines(data: dict[str, Any], lang: str) -> list[str]:
    """The plan as text: tasks (in progress, blocked, pending, done), then next steps."""

    def t(key: str, **values: Any) -> str:
        return messages.text(lang, key, **values)

    lines = [t("tasks_title")]
    tasks = sorted(
        data["tasks"], key=lambda x: ORDER.index(x["status"]) if x["status"] in ORDER else 9
    )
    for item in tasks:
        lines.append(t("task_line", status=t(f"task.{item['status']}"), title=item["title"]))
        if item["stopping_point"] and item["status"] != "done":
            lines.append(t("task_at", at=item["stopping_point"]))
        if item["blockers"] and item["status"] == "blocked":
            lines.append(t("task_blocker", why="; ".join(item["blockers"])))
    if not tasks:
        lines.append(t("no_tasks"))
    lines += ["", t("next_title")]
    lines += [f"{n}. {s}" for n, s in enumerate(data["next_steps"], 1)] or [f"- {t('none')}"]
    return lines


def level_now(ws: Workspace) -> str:
    """The current session's level (before a writer adds its event)."""
    from tg_git.domain import budget  # lazy: 1.5 ms

    session = ws.session()
    return budget.session_level(session, ws.config) if session else levels.OK


def act_on_level(
    ws: Workspace, before: str, delta: int, *, always: bool, emit: Callable[[str], None]
) -> None:
    """After a command added events (``delta`` tokens; ``before``: the level before them):
    say what a commit says at the level reached (``always``, or from the warning level on),
    and at force-save and at the halt do what a commit does, once per session and level:
    save a checkpoint; at the halt the records first land in a commit of their own (the
    hooks count it and save), so that the next commit is refused."""
    from tg_git.domain import budget, gauge  # lazy: 1.6 ms
    from tg_git.services import checkpoint  # lazy: 16.5 ms

    session = ws.require_session()
    level = budget.session_level(session, ws.config)
    found = checkpoint.due(ws, level)
    rising = _RANK[level] > _RANK.get(before, 0)
    if always or level != levels.OK:
        current = ", ".join(session.titles("in_progress"))
        crossed = level if found or (rising and level == levels.HALT) else None
        emit(
            gauge.commit_report(
                session, ws.config, delta=delta, current=current, crossed=crossed, override=False
            )
        )
    if found is None:
        return
    if level == levels.HALT:
        from tg_git.repo.checkpoints import saved_tags  # lazy: 4.8 ms

        had = saved_tags(ws)
        _land(ws)
        for tag in saved_tags(ws).keys() - had.keys():  # the hooks' save: its output was theirs
            emit(messages.text(ws.config.language, "saved", tag=tag, title=_subject(ws, tag)))
        found = checkpoint.due(ws, level)  # saved by the hooks: nothing left
    if found is not None:
        checkpoint.save(ws, *found)


_RANK = {levels.OK: 0, levels.WARNING: 1, levels.FORCE_SAVE: 2, levels.HALT: 3}


def _subject(ws: Workspace, rev: str) -> str:

    found = gitquery.log(ws.repo, [rev], limit=1)
    return found[0].subject if found else ""


def _land(ws: Workspace) -> bool:
    """The session's records in a commit of their own, through the hooks (the user's staged
    changes stay staged); whether git made it."""

    rel = ws.current_ledger_file()
    if rel is None:
        return False
    from tg_git.services import waiting  # lazy: 0.2 ms

    older = layout.pending_file(rel)  # an older tg-git's pending file, when there is one
    also = [older] if (ws.repo.root / older).is_file() else []
    subject = messages.text(ws.config.language, "records_subject")
    return waiting.commit(ws, rel, subject, also)
