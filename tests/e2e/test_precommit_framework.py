"""The README's pre-commit route, followed as written, through the real pre-commit framework.

The shell lines are read from README.md (between its pre-commit-route markers) and run
unchanged in a new repository: `tg-git install --pre-commit` writes a `repo: local` entry that
calls the installed `tg-git` (`language: system`), so nothing is fetched, no `rev` is needed
and the test tags nothing of its own. The entry docs/pre-commit.md shows is the one it writes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.repos import PROJECT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg

BIN = Path(sys.executable).parent


def readme_route() -> list[str]:
    """The shell lines of README's pre-commit section."""
    text = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = text.split("<!-- pre-commit-route -->", 1)[1].split("<!-- /pre-commit-route -->")[0]
    shell = re.search(r"```sh\n(.*?)```", section, re.S)
    assert shell, "README lost its pre-commit lines"
    return [ln for ln in shell.group(1).splitlines() if ln.strip()]


def documented_entry() -> str:
    text = (PROJECT / "docs" / "pre-commit.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(.*?)```", text, re.S)
    assert found, "docs/pre-commit.md lost its entry"
    return found.group(1)


def test_the_route_says_init_first_and_installs_every_stage() -> None:
    lines = readme_route()
    assert lines[0].startswith("tg-git init")
    manifest = (PROJECT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    stages = {s.strip() for g in re.findall(r"stages: \[(.*?)\]", manifest) for s in g.split(",")}
    install = next(ln for ln in lines if ln.startswith("pre-commit install"))
    assert set(re.findall(r"--hook-type (\S+)", install)) == stages


def test_the_documented_entry_is_what_install_writes_and_matches_the_manifest(
    plain_repo: Path,
) -> None:
    import yaml

    tg(plain_repo, "init")
    tg(plain_repo, "install", "--pre-commit")
    written = (plain_repo / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert written == documented_entry()
    local = {h["id"]: h for h in yaml.safe_load(written)["repos"][0]["hooks"]}
    offered = yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert set(local) == {h["id"] for h in offered}
    for hook in offered:  # the remote route and the local one run the same thing
        mine = local[hook["id"]]
        for key in ("entry", "stages", "pass_filenames", "always_run", "require_serial"):
            assert mine[key] == hook[key], (hook["id"], key)


def explain(repo: Path, tmp_path: Path, proc: subprocess.CompletedProcess[str]) -> str:
    """What a failed step leaves to explain itself: what the hooks printed (the framework shows
    them: `verbose: true`), tg-git's files in the git dir, the level, and the hook runs."""
    git_dir = repo / ".git" / "tg-git"
    files = {p.name: p.read_text(errors="replace")[:300] for p in git_dir.glob("*") if p.is_file()}
    trace = (tmp_path / "git-trace.log").read_text(errors="replace").splitlines()
    runs = [ln for ln in trace if "run_command" in ln or "hook" in ln][-40:]
    state = tg(repo, "status", "--json", check=False).stdout
    return "\n".join([proc.stdout, proc.stderr, json.dumps(files, indent=1), state, *runs])


def test_the_readme_route_counts_saves_and_pushes(plain_repo: Path, tmp_path: Path) -> None:
    repo = plain_repo
    (repo / "README.md").write_text("# demo\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"),
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "GIT_TRACE": str(tmp_path / "git-trace.log"),  # every git and hook process, for a failure
    }
    for line in readme_route():  # the README's own lines, unchanged
        done = subprocess.run(line, shell=True, cwd=repo, capture_output=True, text=True, env=env)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
    assert git(repo, "status", "--porcelain").stdout == ""  # all of it committed
    assert "tg-git-guard" in git(repo, "show", "HEAD:.pre-commit-config.yaml").stdout
    tg(repo, "init", "--max-tokens", "1000", "--new-session")  # a small budget, for the test
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
    # The record stays just under the level (a record at it would save by itself).
    tg(repo, "record", "--tokens", str(890 - status["used"]))
    assert git(repo, "tag", "--list", "checkpoint/*").stdout == ""
    (repo / "more.py").write_text("more_value = compute('a few more words', 'to cross')\n")
    git(repo, "add", "more.py")
    more = commit(repo, "-m", "more", env=env)
    tags = git(repo, "tag", "--list", "checkpoint/*").stdout.split()
    assert len(tags) == 1, "no single checkpoint after the force-save commit\n" + explain(
        repo, tmp_path, more
    )
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

    # A pull that brings the halt tags it at once through the post-merge stage. The other
    # clone has no hooks: the record that takes it to the halt lands its records in a commit
    # and saves the halt checkpoint there; the pull brings that commit without its tag.
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(repo), str(other))
    tg(other, "record", "--tokens", "60")
    assert git(other, "log", "-1", "--format=%s").stdout.startswith("checkpoint: halt")
    pull = subprocess.run(
        ["git", "pull", "--ff-only", str(other), "main"], cwd=repo, capture_output=True,
        text=True, env=env,
    )  # fmt: skip
    assert pull.returncode == 0, pull.stderr
    halt = [t for t in git(repo, "tag", "-l", "checkpoint/*").stdout.split() if t not in tags]
    sessions = sorted(p.name for p in (other / ".tg-git" / "ledger").iterdir())
    theirs = tg(other, "status", "--json", check=False).stdout
    assert halt, (
        f"no halt checkpoint after the pull; the clone's ledger files {sessions}, "
        f"its status {theirs}\n" + explain(repo, tmp_path, pull)
    )
    assert len(halt) == 1 and halt[0].endswith("-halt"), pull.stdout + pull.stderr
    (repo / "late.py").write_text("x = 2\n")
    git(repo, "add", "late.py")
    refused = commit(repo, "-m", "late", check=False, env=env)
    assert refused.returncode != 0 and "Token limit" in refused.stdout + refused.stderr
    assert "no halt checkpoint" not in refused.stdout + refused.stderr
