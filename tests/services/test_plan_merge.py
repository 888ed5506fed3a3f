"""The plan merges: a task finished in another clone is finished here once its commits are
merged, and neither a checkpoint nor a briefing carries it (or a next step naming it) as
work still to do. Two real clones, a real bare remote, real merges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tags
from tests.support.repos import tg


def saved(repo: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        git(repo, "show", f"{tags(repo)[-1]}:harness_checkpoint.json").stdout
    )
    return data


def work(repo: Path, name: str) -> None:
    (repo / name).write_text(f"# {name}\n")
    git(repo, "add", name)
    commit(repo, "-m", f"add {name}")


def test_a_task_finished_in_another_clone_is_finished_here(repo: Path, tmp_path: Path) -> None:
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    tg(repo, "task", "add", "login page")
    tg(repo, "task", "start", "login page", "--at", "the form")
    tg(repo, "task", "add", "docs")
    tg(repo, "next", "finish the login page form")
    tg(repo, "next", "write the docs")
    tg(repo, "checkpoint", "-m", "the plan")
    git(repo, "push", "-q", "origin", "main", "--tags")

    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(origin), str(other))
    tg(other, "install")
    tg(other, "resume")
    tg(other, "task", "done", "login page")
    work(other, "login.py")
    git(other, "push", "-q", "origin", "main")

    work(repo, "notes.md")  # this clone moved on too: the pull is a real merge
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert (repo / "login.py").is_file()
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
