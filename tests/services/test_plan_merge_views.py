"""The plan merges in every view: `tg-git task list`, `status` and `status --json` show each
task in the state of its newest event across sessions and clones, and a next step tied to a
finished task is gone from them, from the next checkpoint and from the briefing. Two real
clones, a real bare remote, a real merge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support import plans
from tests.support.repos import git
from tests.support.repos import tags
from tests.support.repos import tg


def two_clones(repo: Path, tmp_path: Path) -> Path:
    """``repo`` with a plan (a task under way, one pending, two next steps), pushed; another
    clone that resumes, finishes the task under way and pushes; ``repo`` pulls it (a real
    merge: it moved on too)."""
    origin = plans.plan_with_origin(repo, tmp_path)
    plans.work(repo, "plan.md")  # the plan rides in this commit
    git(repo, "push", "-q", "origin", "main")
    other = tmp_path / "other"
    # a session of its own: the plan comes along
    plans.finish_in_another_clone(repo, origin, other, "session", "start")
    return other


def states(data: dict[str, Any]) -> dict[str, str]:
    return {t["title"]: t["status"] for t in data["tasks"]}


def test_a_task_done_in_another_clone_shows_done_in_every_view(repo: Path, tmp_path: Path) -> None:
    two_clones(repo, tmp_path)
    listed = json.loads(tg(repo, "task", "list", "--json").stdout)
    assert states(listed) == {"login page": "done", "docs": "pending"}
    assert listed["next_steps"] == ["write the docs"]
    text = tg(repo, "task", "list").stdout
    assert "finish the login page form" not in text
    status = json.loads(tg(repo, "status", "--json").stdout)
    assert status["tasks"] == {"login page": "done", "docs": "pending"}
    assert states({"tasks": status["plan"]}) == {"login page": "done", "docs": "pending"}
    assert status["next_steps"] == ["write the docs"]
    shown = tg(repo, "status").stdout
    assert "finish the login page form" not in shown
    tg(repo, "checkpoint", "-m", "after the merge")
    saved = json.loads(git(repo, "show", f"{tags(repo)[-1]}:harness_checkpoint.json").stdout)
    assert "login page" in saved["status"]["completed_tasks"]
    assert "login page" not in [i["task"] for i in saved["status"]["in_progress"]]
    assert saved["next_steps"] == ["write the docs"]
    briefing = tg(repo, "resume").stdout
    assert "finish the login page form" not in briefing and "write the docs" in briefing
