"""The README's pre-commit route, followed as written, through the real pre-commit framework.

The `.pre-commit-config.yaml` snippet and the install lines are read from README.md; only the
placeholder URL is replaced by a local snapshot of this checkout, tagged with the README's `rev`.
The framework builds tg-git from that snapshot (its dependencies come from the package index).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import commit, git, tg

PROJECT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PLACEHOLDER = "https://example.invalid/tg-git.git"


def readme_route() -> tuple[str, list[str]]:
    """The YAML snippet and the shell lines that follow it in README's pre-commit section."""
    text = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## With the pre-commit framework") :]
    yaml = re.search(r"```yaml\n(.*?)```", section, re.S)
    shell = re.search(r"```sh\n(.*?)```", section, re.S)
    assert yaml and shell, "README lost its pre-commit snippet"
    return yaml.group(1), [ln for ln in shell.group(1).splitlines() if ln.strip()]


def test_readme_snippet_is_complete() -> None:
    snippet, lines = readme_route()
    manifest = (PROJECT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert snippet.startswith("repos:\n") and PLACEHOLDER in snippet
    assert re.search(r"^\s+rev: \S+", snippet, re.M)
    for hook_id in re.findall(r"^- id: (\S+)", manifest, re.M):
        assert f"id: {hook_id}" in snippet
    assert snippet.count("verbose: true") >= 2
    stages = set(re.findall(r"stages: \[(.*?)\]", manifest))
    wanted = {s.strip() for group in stages for s in group.split(",")}
    install = next(ln for ln in lines if ln.startswith("pre-commit install"))
    assert set(re.findall(r"--hook-type (\S+)", install)) == wanted


@pytest.mark.network
def test_the_readme_route_counts_saves_and_pushes(plain_repo: Path, tmp_path: Path) -> None:
    snippet, lines = readme_route()
    rev = re.search(r"^\s+rev: (\S+)", snippet, re.M).group(1)  # type: ignore[union-attr]
    # pre-commit wants a git repo at a rev: snapshot this checkout (with uncommitted edits).
    source = tmp_path / "tg-git-src"
    shutil.copytree(
        PROJECT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", ".*_cache"),
    )
    git(source, "init", "-q")
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "snapshot")
    git(source, "tag", "-a", "-m", rev, rev)
    repo = plain_repo
    (repo / ".pre-commit-config.yaml").write_text(snippet.replace(PLACEHOLDER, str(source)))
    (repo / "README.md").write_text("# demo\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    tg(repo, "init", "--max-tokens", "1000")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"),
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }
    for line in lines:  # the README's own lines: pre-commit install ..., git config ...
        subprocess.run(line, shell=True, cwd=repo, check=True, capture_output=True, env=env)
    commit(repo, "-m", "set up", env=env)

    (repo / "app.py").write_text("def main():\n    print('hello from the framework')\n")
    (repo / "notes.txt").write_text("unstaged work\n")
    git(repo, "add", "app.py")
    proc = commit(repo, "-m", "app", env=env)
    # verbose: the framework shows the guard's output although it passed.
    assert "- hook id: tg-git-guard" in proc.stdout + proc.stderr
    status = json.loads(tg(repo, "status", "--json").stdout)
    assert status["output"] > 0
    assert git(repo, "status", "--porcelain").stdout == "?? notes.txt\n"

    # Crossing force-save through the framework's post-commit stage makes the checkpoint.
    tg(repo, "record", "--tokens", "900")
    (repo / "more.py").write_text("x = 1\n")
    git(repo, "add", "more.py")
    commit(repo, "-m", "more", env=env)
    tags = git(repo, "tag", "--list", "checkpoint/*").stdout.split()
    assert len(tags) == 1
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint:")

    # A plain push runs tg-git-verify and, with push.followTags, sends the tag.
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    push = subprocess.run(
        ["git", "push", "-u", "origin", "HEAD:main"], cwd=repo, capture_output=True, text=True,
        env=env,
    )  # fmt: skip
    assert push.returncode == 0, push.stderr
    assert "tg-git verify" in push.stdout + push.stderr
    assert git(bare, "tag", "-l", "checkpoint/*").stdout.split() == tags
    assert tg(repo, "doctor", env=env).returncode == 0

    # A pull that takes the session to the halt saves at once through the post-merge stage.
    # The other clone has no hooks: its recorded input lands with a plain commit.
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(repo), str(other))
    tg(other, "record", "--tokens", "60")
    git(other, "commit", "-q", "-m", "more input", "--", ".tg-git")
    pull = subprocess.run(
        ["git", "pull", "--ff-only", str(other), "main"], cwd=repo, capture_output=True,
        text=True, env=env,
    )  # fmt: skip
    assert pull.returncode == 0, pull.stderr
    halt = [t for t in git(repo, "tag", "-l", "checkpoint/*").stdout.split() if t not in tags]
    assert len(halt) == 1 and halt[0].endswith("-halt"), pull.stdout + pull.stderr
    (repo / "late.py").write_text("x = 2\n")
    git(repo, "add", "late.py")
    refused = commit(repo, "-m", "late", check=False, env=env)
    assert refused.returncode != 0 and "Token limit" in refused.stdout + refused.stderr
    assert "no halt checkpoint" not in refused.stdout + refused.stderr
