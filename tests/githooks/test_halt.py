"""The halt holds on every side of the history: another branch, a branch made before the halt,
a cherry-pick of the halted commit, a squash or a merge of the halted line of work. Real git,
real installed hooks."""

from __future__ import annotations

from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import commit_file
from tests.support.repos import git
from tests.support.repos import spend
from tests.support.repos import status
from tests.support.repos import tg


def halted_on_main(repo: Path) -> str:
    """Branch ``side`` made before any spend; main then crosses the halt by a commit's own
    change (the crossing commit lands, the halt is saved): the session is halted. Returns the
    crossing commit."""
    git(repo, "branch", "side")
    spend(repo, 100_000, "a.py")
    spend(repo, 86_000, "b.py")  # 93 %: force-save, not yet the halt
    assert status(repo)["level"] == "force-save"
    big = "\n".join(f"value_{i} = compute({i}, 'words')" for i in range(1000)) + "\n"
    commit_file(repo, "big.py", big)  # its own ~10k tokens cross 95 %
    crossing = git(repo, "rev-parse", "HEAD^").stdout.strip()
    assert git(repo, "log", "-1", "--format=%s", crossing).stdout.strip() == "add big.py"
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: halt")
    (repo / "c.py").write_text("c\n")
    git(repo, "add", "c.py")
    assert commit(repo, "-m", "c", check=False).returncode != 0  # halted on main
    git(repo, "reset", "-q", "--hard")
    (repo / "c.py").unlink(missing_ok=True)
    return crossing


def test_a_session_halted_on_main_is_halted_on_another_branch(repo: Path) -> None:
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    (repo / "d.py").write_text("d\n")
    git(repo, "add", "d.py")
    proc = commit(repo, "-m", "d", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


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


def test_merging_the_halted_line_of_work_in_is_refused(repo: Path) -> None:
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    proc = git(repo, "merge", "--no-ff", "--no-edit", "main", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


def test_a_branch_from_before_the_halt_does_not_lift_it(repo: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", "300")
    commit_file(repo, "a.txt", "small\n")
    commit_file(
        repo, "b.py", "\n".join(f"value_{i} = compute({i}, 'words')" for i in range(40)) + "\n"
    )
    assert status(repo)["level"] == "halt"
    git(repo, "switch", "-q", "-c", "side", "HEAD~3")
    (repo / "c.txt").write_text("c\n")
    git(repo, "add", "c.txt")
    refused = commit(repo, "-m", "c", check=False)
    assert refused.returncode != 0 and "Token limit" in refused.stderr
