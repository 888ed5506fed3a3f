"""verify at scale: one ``git diff-tree`` process for the whole history, whatever its length."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import commit
from tests.conftest import git
from tests.conftest import tg


def _git_runs(trace: Path, command: str) -> int:
    """How many ``git COMMAND`` processes a GIT_TRACE file saw start."""
    return sum(
        1 for ln in trace.read_text().splitlines() if f"git {command}" in ln and "built-in" in ln
    )


def test_verify_diffs_every_commit_in_one_process(repo: Path, tmp_path: Path) -> None:
    for n in range(4):
        (repo / f"m{n}.py").write_text(f"def f{n}():\n    return {n}\n")
        git(repo, "add", ".")
        commit(repo, "-m", f"m{n}")
    git(repo, "checkout", "-q", "-b", "topic", "HEAD~2")
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
    assert _git_runs(trace, "diff-tree") == 1
