"""The plan merges: a task finished in another clone is finished here once its commits are
merged, and neither a checkpoint nor a briefing carries it (or a next step naming it) as
work still to do. Two real clones, a real bare remote, real merges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support import plans
from tests.support.repos import git
from tests.support.repos import tags
from tests.support.repos import tg


def saved(repo: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        git(repo, "show", f"{tags(repo)[-1]}:harness_checkpoint.json").stdout
    )
    return data


def test_a_task_finished_in_another_clone_is_finished_here(repo: Path, tmp_path: Path) -> None:
    origin = plans.plan_with_origin(repo, tmp_path)
    tg(repo, "checkpoint", "-m", "the plan")
    git(repo, "push", "-q", "origin", "main", "--tags")

    plans.finish_in_another_clone(repo, origin, tmp_path / "other", "resume")
    tg(repo, "checkpoint", "-m", "after the merge")
    data = saved(repo)
    status = data["status"]
    assert "login page" in status["completed_tasks"]
    assert "login page" not in [i["task"] for i in status["in_progress"] + status["blocked"]]
    assert "login page" not in status["pending"] and "docs" in status["pending"]
    assert data["next_steps"] == ["write the docs"]
    result = json.loads(tg(repo, "resume", "--json").stdout)
    assert "login page" not in [i["task"] for i in result["in_progress"] + result["blocked"]]
    assert "login page" not in result["pending"]
    assert result["next_steps"] == ["write the docs"]
    plan = json.loads(tg(repo, "task", "list", "--json").stdout)
    assert {t["title"]: t["status"] for t in plan["tasks"]}.get("login page") in (None, "done")
