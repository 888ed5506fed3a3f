"""Force-save and halt end to end: real commits crossing the thresholds."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema

from tests.conftest import commit, git, tg

SCHEMA = json.loads(
    resources.files("tg_git").joinpath("schemas/checkpoint-1.0.schema.json").read_text()
)


def small_budget(repo: Path, budget: int = 1000) -> None:
    tg(repo, "session", "start", "--max-tokens", str(budget))
    tg(repo, "task", "add", "write docs")
    tg(repo, "task", "start", "parser", "--at", "half done")
    tg(repo, "note", "never call the network")
    tg(repo, "next", "finish the parser")
    commit(repo, "-m", "plan")


def status(repo: Path) -> dict[str, object]:
    return json.loads(tg(repo, "status", "--json").stdout)


def tags(repo: Path) -> list[str]:
    return git(repo, "tag", "--list", "checkpoint/*").stdout.split()


def test_crossing_90_makes_one_tagged_checkpoint_commit(repo: Path) -> None:
    small_budget(repo)
    tg(repo, "record", "--tokens", "898")
    (repo / "a.txt").write_text("a few more words here\n")
    git(repo, "add", "a.txt")
    proc = commit(repo, "-m", "cross 90")
    assert "saved checkpoint/" in proc.stderr
    assert len(tags(repo)) == 1
    listed = git(repo, "log", "--grep", "checkpoint", "--format=%s").stdout.splitlines()
    assert len(listed) == 1 and listed[0].startswith("checkpoint: force-save")
    assert git(repo, "cat-file", "-t", tags(repo)[0]).stdout.strip() == "tag"  # annotated
    assert (
        git(repo, "rev-parse", "HEAD^{tree}").stdout
        != git(repo, "rev-parse", "HEAD~1^{tree}").stdout
    )
    data = json.loads(git(repo, "show", "HEAD:harness_checkpoint.json").stdout)
    jsonschema.validate(data, SCHEMA)
    st = status(repo)
    assert data["session"]["estimated_used"] == st["used"]
    assert data["session"]["max_tokens"] == 1000
    assert data["token_thresholds"] == {"warning": 800, "force_save": 900, "halt": 950}
    assert "a.txt" in data["status"]["completed"]
    assert data["status"]["pending"] == ["write docs"]
    assert data["status"]["in_progress"][0] == {
        "task": "parser",
        "stopping_point": "half done",
        "blockers": [],
    }
    assert "never call the network" in data["critical_context"]
    assert data["next_steps"] == ["finish the parser"]
    md = git(repo, "show", "HEAD:CHECKPOINT.md").stdout
    assert md.startswith("# CHECKPOINT") and "## ✅ Completed" in md
    assert git(repo, "status", "--porcelain").stdout == ""
    # A later commit at the same level makes no second save.
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    commit(repo, "-m", "still force-save")
    assert len(tags(repo)) == 1


def test_checkpoint_leaves_user_states_byte_for_byte(repo: Path) -> None:
    small_budget(repo)
    for name in ("committed.txt", "staged.txt", "unstaged.txt"):
        (repo / name).write_text(f"{name} v1\n")
    git(repo, "add", ".")
    commit(repo, "-m", "files")
    tg(repo, "record", "--tokens", "898")
    (repo / "committed.txt").write_text("committed v2 with words\n")
    (repo / "staged.txt").write_text("staged v2\n")
    git(repo, "add", "staged.txt")
    (repo / "unstaged.txt").write_bytes(b"unstaged v2 \xff raw\n")
    staged_blob = git(repo, "rev-parse", ":staged.txt").stdout
    commit(repo, "-m", "partial", "--", "committed.txt")
    assert len(tags(repo)) == 1
    assert git(repo, "rev-parse", ":staged.txt").stdout == staged_blob
    assert (repo / "staged.txt").read_text() == "staged v2\n"
    assert (repo / "unstaged.txt").read_bytes() == b"unstaged v2 \xff raw\n"
    porcelain = set(git(repo, "status", "--porcelain").stdout.splitlines())
    assert porcelain == {"M  staged.txt", " M unstaged.txt"}
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    in_progress = {i["task"] for i in data["status"]["in_progress"]}
    assert {"staged.txt", "unstaged.txt"} <= in_progress


def test_jump_past_95_saves_once_then_halts(repo: Path) -> None:
    small_budget(repo)
    tg(repo, "record", "--tokens", "960")
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    commit(repo, "-m", "jump")
    assert len(tags(repo)) == 1 and tags(repo)[0].endswith("-halt")
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    refused = commit(repo, "-m", "refused", check=False)
    assert refused.returncode != 0
    assert "Token limit reached" in refused.stderr and "still staged" in refused.stderr
    assert git(repo, "diff", "--cached", "--name-only").stdout == "b.txt\n"
    forced = commit(repo, "-m", "forced", env={"TG_GIT_ALLOW_HALT": "1"})
    assert forced.returncode == 0
    assert "override = true" in git(repo, "show", "HEAD:.tg-git/ledger.toml").stdout
    (repo / "c.txt").write_text("c\n")
    git(repo, "add", "c.txt")
    tg(repo, "session", "start")  # lifts the halt
    commit(repo, "-m", "new session")
    assert status(repo)["level"] == "ok"
