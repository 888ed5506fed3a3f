"""``tg-git verify`` end to end: an honest history, a ``--no-verify`` commit, a hand-edited ledger
seen from another clone, the pre-push refusal, and at scale at most three ``git diff-tree``
processes for the whole history, whatever its length."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import tg


def _git_runs(trace: Path, command: str) -> int:
    """How many ``git COMMAND`` processes a GIT_TRACE file saw start."""
    return sum(
        1 for ln in trace.read_text().splitlines() if f"git {command}" in ln and "built-in" in ln
    )


def test_verify_diffs_every_commit_in_three_processes(repo: Path, tmp_path: Path) -> None:
    for n in range(4):
        (repo / f"m{n}.py").write_text(f"def f{n}():\n    return {n}\n")
        git(repo, "add", ".")
        commit(repo, "-m", f"m{n}")
    (repo / "m0.py").write_text("def f0():\n    return 'zero'\n")  # rewritten: git's patch
    git(repo, "add", ".")
    commit(repo, "-m", "m0 again")
    git(repo, "checkout", "-q", "-b", "topic", "HEAD~3")
    (repo / "t.py").write_text("topic = True\n")
    git(repo, "add", ".")
    commit(repo, "-m", "topic")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-edit", "topic")
    (repo / "z.py").write_text("def sneaky():\n    return 'uncounted'\n")
    git(repo, "add", ".")
    commit(repo, "--no-verify", "-m", "sneaky")
    trace = tmp_path / "trace"
    proc = tg(repo, "verify", check=False, env={"GIT_TRACE": str(trace)})
    assert proc.returncode == 6 and "not counted" in proc.stdout, proc.stdout + proc.stderr
    assert proc.stdout.count("drift in") == 1
    # the changed paths (--raw), the code's patches where a change is not an append (m0.py
    # rewritten; each new file is read from its blob), the ledger's where a merge is not one
    assert _git_runs(trace, "diff-tree") == 3


def test_verify_honest_then_no_verify(repo: Path) -> None:
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")
    proc = tg(repo, "verify")
    assert "matches history" in proc.stdout
    (repo / "b.py").write_text("def sneaky():\n    return 'uncounted'\n")
    git(repo, "add", "b.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    sneaky = git(repo, "rev-parse", "HEAD").stdout.strip()
    proc = tg(repo, "verify", check=False)
    assert proc.returncode == 6
    assert sneaky[:12] in proc.stdout and "not counted" in proc.stdout
    data = json.loads(tg(repo, "verify", "--json", check=False).stdout)
    assert [d["commit"] for d in data["drift"]] == [sneaky]


def test_verify_catches_a_hand_edited_ledger(repo: Path) -> None:
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")
    ledger = ledger_file(repo)
    lines = ledger.read_text().splitlines(keepends=True)
    ledger.write_text("".join(ln for ln in lines if '"kind" = "commit"' not in ln))
    git(repo, "add", str(ledger))
    commit(repo, "-m", "shrink the ledger")  # the hook puts the event back
    assert tg(repo, "verify", check=False).returncode == 0
    ledger.write_text("".join(ln for ln in lines if '"kind" = "commit"' not in ln))
    git(repo, "add", str(ledger))
    commit(repo, "--no-verify", "-m", "shrink it again, bypassing the hook")
    clone = repo.parent / "elsewhere"  # another clone: no journal, no reflog of this one
    git(repo.parent, "clone", "-q", str(repo), str(clone))
    proc = tg(clone, "verify", check=False)
    assert proc.returncode == 6 and "removed 1 event line" in proc.stdout


def test_pre_push_hook_refuses_drift(repo: Path, tmp_path: Path) -> None:
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-push").write_text(f"#!/bin/sh\nexec {sys.executable} -m tg_git hook pre-push\n")
    (hooks / "pre-push").chmod(0o755)
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "push", "-q", str(bare), "main")
    (repo / "b.py").write_text("def sneaky():\n    return 1\n")
    git(repo, "add", "b.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    proc = git(repo, "push", "-q", str(bare), "main", check=False)
    assert proc.returncode != 0 and "not counted" in proc.stderr


def test_verify_flags_work_committed_while_tg_git_was_removed(repo: Path) -> None:
    git(repo, "rm", "-rq", ".tg-git")
    commit(repo, "-q", "-m", "no more tg-git")
    (repo / "work.py").write_text("uncounted = compute_the_uncounted_work('a', 'b', 'c')\n")
    git(repo, "add", "work.py")
    commit(repo, "-q", "-m", "uncounted work")
    git(repo, "checkout", "-q", "HEAD~2", "--", ".tg-git")
    commit(repo, "-q", "-m", "tg-git back")
    proc = tg(repo, "verify", "--json", check=False)
    report = json.loads(proc.stdout)
    assert proc.returncode == 6, report
    assert any(".tg-git/ was removed" in d["reason"] for d in report["drift"]), report
