"""The CI gate: docs/team.md's GitHub Actions and GitLab CI examples, their shell steps run as
written in a CI-like clone (shallow, HEAD detached), on a pull request over its limit and one
within it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.repos import PROJECT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import set_up
from tests.support.repos import tg

INSTALL = "pip install tg-git"  # the step a runner needs; here the tg-git under test is on PATH
OVER = 2_100_000  # input tokens the expensive branch records: over the examples' 2,000,000


def _blocks(kind: str) -> list[str]:
    text = (PROJECT / "docs" / "team.md").read_text(encoding="utf-8")
    return re.findall(rf"```{kind}\n(.*?)```", text, re.S)


def _github_steps() -> list[dict[str, Any]]:
    (workflow,) = [yaml.safe_load(b) for b in _blocks("yaml") if "runs-on" in b]
    steps: list[dict[str, Any]] = workflow["jobs"]["tokens"]["steps"]
    return steps


def _gitlab_script() -> list[str]:
    (job,) = [yaml.safe_load(b) for b in _blocks("yaml") if "CI_MERGE_REQUEST" in b]
    script: list[str] = job["tg-git"]["script"]
    return script


def _branch(repo: Path, name: str, tokens: int, files: int) -> None:
    """A branch from main with its own session: ``tokens`` recorded, ``files`` commits."""
    git(repo, "switch", "-q", "-c", name, "main")
    tg(repo, "session", "start", "--max-tokens", "10000000")
    tg(repo, "record", "--tokens", str(tokens))
    for n in range(files):
        (repo / f"{name}-{n}.py").write_text(f"print({n})\n" * (n + 1))
        git(repo, "add", ".")
        commit(repo, "-m", f"{name} {n}")
    git(repo, "push", "-q", "origin", name)


class Remote:
    """A remote with main and two pull requests (as GitHub keeps them: `refs/pull/N/merge`, a
    merge of the branch into main's tip made without hooks): `costly` over the limit and
    `cheap` within it."""

    def __init__(self, tmp_path: Path) -> None:
        self.url = tmp_path / "origin.git"
        git(tmp_path, "init", "-q", "--bare", str(self.url))
        work = tmp_path / "work"
        work.mkdir()
        git(work, "init", "-q")
        set_up(work)
        for n in range(3):
            (work / f"main-{n}.txt").write_text(f"line {n}\n")
            git(work, "add", ".")
            commit(work, "-m", f"main {n}")
        git(work, "remote", "add", "origin", str(self.url))
        git(work, "push", "-q", "origin", "main")
        self.base = git(work, "rev-parse", "main").stdout.strip()
        _branch(work, "costly", OVER, 4)
        _branch(work, "cheap", 1500, 3)
        for number, name in enumerate(("costly", "cheap"), 1):
            git(work, "switch", "-q", "--detach", "main")
            git(work, "-c", "core.hooksPath=/dev/null", "merge", "-q", "--no-ff", "--no-edit", name)
            git(work, "push", "-q", "origin", f"HEAD:refs/pull/{number}/merge")
        self.work = work


@pytest.fixture
def remote(tmp_path: Path) -> Remote:
    return Remote(tmp_path)


def _ci_clone(where: Path, url: Path, refspec: str, ref: str) -> Path:
    """What a runner's checkout leaves: a clone one commit deep, HEAD detached at ``ref``."""
    where.mkdir()
    git(where, "init", "-q")
    git(where, "remote", "add", "origin", f"file://{url}")
    git(where, "fetch", "-q", "--no-tags", "--depth=1", "origin", refspec)
    git(where, "checkout", "-q", "--detach", ref)
    assert (where / ".git" / "shallow").is_file()
    return where


def _path_env() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def _run(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True
    )


def _github(remote: Remote, tmp_path: Path, number: int) -> dict[str, Any]:
    ref = f"refs/pull/{number}/merge"
    clone = _ci_clone(tmp_path / f"gh-{number}", remote.url, f"+{ref}:{ref}", ref)
    summary = tmp_path / f"summary-{number}.md"
    env = {**_path_env(), "GITHUB_REF": ref, "GITHUB_STEP_SUMMARY": str(summary)}
    results = {"before": tg(clone, "report", "--range", f"{remote.base}..HEAD", check=False)}
    for step in _github_steps():
        if "run" not in step or step["run"].strip() == INSTALL:
            continue
        values = {
            k: str(v).replace("${{ github.event.pull_request.base.sha }}", remote.base)
            for k, v in (step.get("env") or {}).items()
        }
        assert "${{" not in step["run"]
        results[step["name"]] = _run(step["run"], clone, {**env, **values})
    return {"clone": clone, "summary": summary, "steps": results}


def _full(remote: Remote, tip: str) -> dict[str, Any]:
    out = tg(remote.work, "report", "--range", f"{remote.base}..{tip}", "--json").stdout
    data: dict[str, Any] = json.loads(out)
    return data


def test_github_example_gates_a_pull_request(remote: Remote, tmp_path: Path) -> None:
    """The GitHub Actions example, as written, deepens the shallow clone until the
    range is there, writes the receipt to the job summary and fails the costly pull request
    with its figures (exit 6), and passes the cheap one."""
    costly = _github(remote, tmp_path, 1)
    steps = costly["steps"]
    assert steps["deepen the clone until the range is here"].returncode == 0
    assert steps["receipt"].returncode == 0, steps["receipt"].stderr
    budget = steps["budget"]
    assert budget.returncode == 6, budget.stdout + budget.stderr
    expected = _full(remote, "costly")["totals"]
    assert expected["tokens"] > 2_000_000
    assert f"spent {expected['tokens']:,} tokens" in budget.stdout
    assert "over the limit (2,000,000 tokens, $20.00)" in budget.stdout
    assert "ledger matches history" in budget.stdout
    receipt = costly["summary"].read_text(encoding="utf-8")
    assert f"{expected['tokens']:,} tokens" in receipt.splitlines()[0]
    before = steps["before"]  # one commit deep, the range was not there yet
    assert before.returncode == 1 and "git fetch" in before.stderr

    cheap = _github(remote, tmp_path, 2)
    assert cheap["steps"]["budget"].returncode == 0, cheap["steps"]["budget"].stdout
    assert "within the limit" in cheap["steps"]["budget"].stdout
    assert f"{_full(remote, 'cheap')['totals']['tokens']:,} tokens" in cheap["summary"].read_text()


def test_gitlab_example_gates_a_merge_request(remote: Remote, tmp_path: Path) -> None:
    """The GitLab CI example's script, as written, in a runner-like clone of the
    source branch (depth 1, detached): the costly merge request fails with its figures."""
    for branch, code in (("costly", 6), ("cheap", 0)):
        ref = f"refs/remotes/origin/{branch}"
        clone = _ci_clone(tmp_path / f"gl-{branch}", remote.url, f"+refs/heads/{branch}:{ref}", ref)
        env = {
            **_path_env(),
            "CI_MERGE_REQUEST_DIFF_BASE_SHA": remote.base,
            "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": branch,
        }
        lines = [line for line in _gitlab_script() if line.strip() != INSTALL]
        proc = _run("\n".join(lines), clone, env)
        assert proc.returncode == code, proc.stdout + proc.stderr
        expected = _full(remote, branch)["totals"]
        said = "over the limit" if code else "within the limit"
        assert f"spent {expected['tokens']:,} tokens" in proc.stdout and said in proc.stdout
        receipt = (clone / "tg-git-receipt.md").read_text(encoding="utf-8")
        assert f"{expected['tokens']:,} tokens" in receipt.splitlines()[0]
