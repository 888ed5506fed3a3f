"""The current session's plan (tasks with status, stopping point and blockers; next steps), as
data for ``--json`` and as the text ``tg-git task list`` and ``tg-git status`` print."""

from __future__ import annotations

from typing import Any

from tg_git.repo.workspace import Workspace
from tg_git.text import messages


def plan(ws: Workspace) -> dict[str, Any]:
    """The current session's plan: tasks with status, stopping point and blockers; next steps."""
    session = ws.require_session()
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
