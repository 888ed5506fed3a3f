"""Adversarial review of this session's changes (e6d1ef1..main): the halt judged per side,
counted tips from the reflog, the record that is journaled when its ledger file cannot be
written, one spawn for every git process. Real git, real installed hooks."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import TG_GIT, commit, git, ledger_at, tg
from tests.test_hardening import make_read_only, restricted


def status(repo: Path) -> dict[str, object]:
    return json.loads(tg(repo, "status", "--json").stdout)


def spend(repo: Path, tokens: int, name: str) -> subprocess.CompletedProcess[str]:
    tg(repo, "record", "--tokens", str(tokens))
    (repo / name).write_text(f"print({name!r})\n")
    git(repo, "add", name)
    return commit(repo, "-m", name)


def halted_on_main(repo: Path) -> str:
    """Branch ``side`` made before any spend; main then crosses the halt (the crossing commit
    lands, the halt is saved): the session is halted. Returns the crossing commit."""
    git(repo, "branch", "side")
    spend(repo, 100_000, "a.py")
    spend(repo, 95_000, "b.py")
    crossing = git(repo, "rev-parse", "HEAD^").stdout.strip()
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: halt")
    (repo / "c.py").write_text("c\n")
    git(repo, "add", "c.py")
    assert commit(repo, "-m", "c", check=False).returncode != 0  # halted on main
    git(repo, "reset", "-q", "--hard")
    (repo / "c.py").unlink(missing_ok=True)
    return crossing


@pytest.mark.xfail(strict=True, reason=(
    "Halt bypass by switching branch (pre-existing, not new in this session): decide.py's "
    "`ours` side takes from `away` (other branches' journals) everything but input events, so "
    "on a branch that lacks the records the session that halted on main replays at a few "
    "tokens and every commit lands, forever (the report even says 'halt 97 %'). Fix: judge "
    "each other branch's journal as its own side, inputs included up to that branch's last "
    "landed commit event (journal lines are landed lines, except those `record` journals on a "
    "failed write), or journal a 'halted' fact when a commit lands at halt."))
def test_a_session_halted_on_main_is_halted_on_another_branch(repo: Path) -> None:
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    (repo / "d.py").write_text("d\n")
    git(repo, "add", "d.py")
    proc = commit(repo, "-m", "d", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


@pytest.mark.xfail(strict=True, reason=(
    "Halt bypass by `git cherry-pick -n` of the crossing commit on another branch: no "
    "CHERRY_PICK_HEAD, so no `theirs` side; the staged ledger lines are commit events in no "
    "sure source, so dropped as stale; ours lacks the inputs (see the branch-switch xfail). "
    "Same fix; judging the staged file's landed commit events as a side would also catch it."))
def test_cherry_pick_no_commit_of_the_halted_commit_is_refused(repo: Path) -> None:
    crossing = halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    git(repo, "cherry-pick", "-n", crossing)
    proc = commit(repo, "-m", "picked", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


def test_squashing_the_halted_line_of_work_over_is_refused(repo: Path) -> None:
    """Guard for the per-side judgement: the squashed side alone at halt still refuses."""
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    git(repo, "merge", "--squash", "main")
    proc = commit(repo, "-m", "squashed", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout == git(repo, "rev-parse", "side").stdout


@pytest.mark.xfail(strict=True, reason=(
    "Halt bypass by a clean `git merge --no-ff main` into a branch without the records "
    "(pre-existing): pre-merge-commit runs before MERGE_HEAD exists, so `theirs` is empty and "
    "only `ours` (no inputs, see the branch-switch xfail) is judged. Fix: in pre-merge-commit "
    "name the other side from GIT_REFLOG_ACTION / MERGE_MSG (or `git rev-parse` of the "
    "merged ref) and judge its ledger as `theirs`. (A clean `git cherry-pick` runs no "
    "pre-commit at all: a git limit, not tested.)"))
def test_merging_the_halted_line_of_work_in_is_refused(repo: Path) -> None:
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    proc = git(repo, "merge", "--no-ff", "--no-edit", "main", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


@pytest.mark.xfail(strict=True, reason=(
    "hooks_runner._git_dir_fast starts `git rev-parse` with subprocess.run, not git._spawn: "
    "with no git on PATH (an IDE that runs git by absolute path, the pre-commit framework "
    "without TG_GIT_HOOK_GIT_DIR) post-commit says 'No such file or directory (git); check "
    "the path and its permissions' instead of git.NO_GIT. Fix: use git._spawn there."))
def test_post_commit_without_git_on_path_names_git(repo: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TG_GIT_HOOK_GIT_DIR"}
    env["PATH"] = "/nonexistent"
    proc = subprocess.run([TG_GIT, "hook", "post-commit"], cwd=repo, capture_output=True,
                          text=True, env=env)  # fmt: skip
    assert proc.returncode == 0
    assert "git is not installed or not on PATH" in proc.stderr, proc.stderr


def test_a_session_started_while_the_ledger_folder_is_read_only_lands_at_the_next_commit(
    repo: Path,
) -> None:
    """`session start` journals the start event when it cannot write the new ledger file;
    the next commit (with .tg-git writable again) writes it: the session counts."""
    make_read_only(repo / ".tg-git")
    try:
        proc = restricted(repo, TG_GIT, "session", "start")
    finally:
        make_read_only(repo / ".tg-git", read_only=False)
    assert proc.returncode == 0 and "the next commit writes it" in proc.stderr, proc.stderr
    started = status(repo)["session"]["id"]  # type: ignore[index]
    (repo / "n.py").write_text("print('new session')\n")
    git(repo, "add", "n.py")
    out = commit(repo, "-m", "n")
    assert "not counted" not in out.stderr, out.stderr
    assert f'"id" = "{started}"' in ledger_at(repo)
    now = status(repo)
    assert now["session"]["id"] == started and now["output"] == 5  # type: ignore[index]


def test_a_ledger_folder_that_stays_read_only_says_the_commit_is_not_counted(repo: Path) -> None:
    make_read_only(repo / ".tg-git")
    try:
        rec = restricted(repo, TG_GIT, "record", "--tokens", "7")
        assert rec.returncode == 0 and "the next commit writes it" in rec.stderr
        (repo / "m.py").write_text("print('m')\n")
        git(repo, "add", "m.py")
        proc = restricted(repo, "git", "commit", "-q", "-m", "m")
    finally:
        make_read_only(repo / ".tg-git", read_only=False)
    assert proc.returncode == 0
    assert "not counted" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    # once writable, the next commit writes both the record and its own event
    (repo / "o.py").write_text("print('o')\n")
    git(repo, "add", "o.py")
    commit(repo, "-m", "o")
    assert '"tokens" = 7' in ledger_at(repo)
