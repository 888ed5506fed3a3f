"""The project's own lint and type checks, through its .pre-commit-config.yaml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
PRE_COMMIT = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or "pre-commit"


@pytest.mark.network
def test_ruff_and_mypy_pass_through_pre_commit(tmp_path: Path) -> None:
    if not (PROJECT / ".git").exists():
        pytest.skip("not a git checkout: pre-commit lints tracked files")
    proc = subprocess.run(
        [PRE_COMMIT, "run", "--all-files", "--show-diff-on-failure"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
