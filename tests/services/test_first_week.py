"""Issue 23 item 8, the smaller things a first week turns up: the plan a halted session kept
changing survives the resume; tg-git's own fresh agent files are not the user's work."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import commit
from tests.conftest import git
from tests.conftest import tg


def _halt(repo: Path) -> None:
    tg(repo, "record", "--tokens", "192000")
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")  # crosses the halt: lands and saves


def _plan(repo: Path) -> dict[str, str]:
    tasks = json.loads(tg(repo, "task", "list", "--json").stdout)["tasks"]
    return {t["title"]: t["status"] for t in tasks}


def test_task_done_after_the_halt_survives_the_resume(repo: Path) -> None:
    for title in ("alpha", "beta", "gamma"):
        tg(repo, "task", "add", title)
    tg(repo, "task", "start", "alpha")
    _halt(repo)
    assert git(repo, "tag", "-l", "checkpoint/*-halt").stdout.strip()
    tg(repo, "task", "done", "alpha")  # after the save: the plan moved on
    tg(repo, "task", "start", "beta", "--at", "half way")
    tg(repo, "task", "add", "delta")
    tg(repo, "next", "ship it")
    tg(repo, "resume")
    plan = _plan(repo)
    assert "alpha" not in plan or plan["alpha"] == "done", plan
    assert plan.get("beta") == "in_progress" and plan.get("delta") == "pending", plan
    assert plan.get("gamma") == "pending", plan
    listed = json.loads(tg(repo, "task", "list", "--json").stdout)
    assert "ship it" in listed["next_steps"]


def test_an_older_checkpoint_chosen_with_from_keeps_its_own_plan(repo: Path) -> None:
    tg(repo, "task", "add", "alpha")
    tg(repo, "checkpoint", "-m", "first save")
    tag = git(repo, "tag", "-l", "checkpoint/*").stdout.split()[0]
    tg(repo, "task", "done", "alpha")
    tg(repo, "task", "add", "later")
    tg(repo, "resume", "--from", tag)
    assert _plan(repo) == {"alpha": "pending"}


def test_tg_gits_fresh_agent_files_are_not_the_users_work(repo: Path) -> None:
    tg(repo, "agent", "install", "claude", "codex", "gemini")
    (repo / "work.py").write_text("mine = 1\n")
    tg(repo, "checkpoint", "-m", "save")
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    dirty = [i["task"] for i in data["status"]["in_progress"]]
    assert dirty == ["work.py"], dirty
    result = json.loads(tg(repo, "resume", "--json").stdout)
    assert ".claude/settings.json" in result["agent_files"]
    assert ".agents/skills/token-guard/SKILL.md" in result["agent_files"]
    assert "work.py" not in result["agent_files"]
    briefing = tg(repo, "resume").stdout
    line = next(ln for ln in briefing.splitlines() if ".codex/hooks.json" in ln)
    assert "not committed" in line and "commit it" in line
    assert "Resume at" not in line
