"""Through the real pre-commit framework: it builds tg-git from this checkout (PyPI for deps)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import commit, git, tg

PROJECT = Path(__file__).resolve().parents[1]
PRE_COMMIT = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or "pre-commit"


@pytest.mark.network
def test_commits_are_counted_through_pre_commit(plain_repo: Path, tmp_path: Path) -> None:
    # pre-commit wants a git repo at a rev: snapshot this checkout (with uncommitted edits) into one.
    source = tmp_path / "tg-git-src"
    shutil.copytree(
        PROJECT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", ".*_cache"),
    )
    git(source, "init", "-q")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "snapshot")
    rev = git(source, "rev-parse", "HEAD").stdout.strip()
    repo = plain_repo
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {source}\n  rev: {rev}\n  hooks:\n  - id: tg-git-guard\n  - id: tg-git-checkpoint\n"
    )
    (repo / "README.md").write_text("# demo\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    tg(repo, "init", "--max-tokens", "1000")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache")}
    subprocess.run(
        [PRE_COMMIT, "install", "--hook-type", "pre-commit", "--hook-type", "post-commit"],
        cwd=repo,
        check=True,
        capture_output=True,
        env=env,
    )
    commit(repo, "-m", "set up", env=env)
    (repo / "app.py").write_text("def main():\n    print('hello from the framework')\n")
    (repo / "notes.txt").write_text("unstaged work\n")
    git(repo, "add", "app.py")
    proc = commit(repo, "-m", "app", env=env)
    assert "tg-git token guard" in proc.stdout + proc.stderr
    status = json.loads(tg(repo, "status", "--json").stdout)
    assert status["output"] > 0
    assert '"tokens" = ' in git(repo, "show", "HEAD:.tg-git/ledger.toml").stdout
    assert git(repo, "status", "--porcelain").stdout == "?? notes.txt\n"
    # Crossing force-save through the framework's post-commit stage makes the checkpoint.
    tg(repo, "record", "--tokens", "900")
    (repo / "more.py").write_text("x = 1\n")
    git(repo, "add", "more.py")
    commit(repo, "-m", "more", env=env)
    tags = git(repo, "tag", "--list", "checkpoint/*").stdout.split()
    assert len(tags) == 1
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint:")
