"""One commit that passed uncounted never jams pushes: once the cause is fixed the next commit
or `tg-git repair` counts it, `tg-git verify --accept COMMIT` accepts it, each recorded in the
ledger, and the pre-push refusal names the exact command that clears it."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_at
from tests.support.repos import tg

CHANGE = "def main():\n    print('work done while the config was broken')\n" * 20


def _push(repo: Path, remote: Path) -> subprocess.CompletedProcess[str]:
    return git(repo, "push", "-q", str(remote), "HEAD:refs/heads/main", check=False)


def _remote(tmp_path: Path) -> Path:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    return remote


def _uncounted_with_a_broken_config(repo: Path) -> str:
    config = repo / ".tg-git" / "config.toml"
    good = config.read_text()
    config.write_text(good + "max_tokens = [\n")  # broken TOML: the hook cannot count
    (repo / "app.py").write_text(CHANGE)
    git(repo, "add", "app.py")
    proc = commit(repo, "-m", "work while broken")
    assert "not counted" in proc.stderr
    config.write_text(good)  # the cause is fixed
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def _estimate(repo: Path, sha: str) -> int:
    text = git(repo, "show", f"{sha}:app.py").stdout
    proc = tg(repo, "estimate", "-", "--json", input=text)
    return int(json.loads(proc.stdout)["total"])


def test_the_next_commit_counts_a_commit_that_passed_uncounted(repo: Path, tmp_path: Path) -> None:
    used = json.loads(tg(repo, "status", "--json").stdout)["used"]
    sha = _uncounted_with_a_broken_config(repo)
    (repo / "next.txt").write_text("the next piece of work\n")
    git(repo, "add", "next.txt")
    proc = commit(repo, "-m", "next")
    assert sha[:12] in proc.stderr  # it says what it counted late
    tokens = _estimate(repo, sha)
    status = json.loads(tg(repo, "status", "--json").stdout)
    assert status["used"] >= used + tokens
    assert tg(repo, "verify").returncode == 0
    assert _push(repo, _remote(tmp_path)).returncode == 0


def test_the_push_refusal_names_the_command_that_clears_it(repo: Path, tmp_path: Path) -> None:
    (repo / "app.py").write_text(CHANGE)
    git(repo, "add", "app.py")
    commit(repo, "-m", "no hooks", "--no-verify")
    sha = git(repo, "rev-parse", "HEAD").stdout.strip()
    (repo / "staged.txt").write_text("the user's staged work\n")
    git(repo, "add", "staged.txt")
    remote = _remote(tmp_path)
    refused = _push(repo, remote)
    assert refused.returncode != 0
    found = re.search(r"`(tg-git verify --accept [^`]+)`", refused.stderr)
    assert found and sha[:12] in found.group(1), refused.stderr
    assert found.group(1) in tg(repo, "verify", check=False).stdout  # verify names it too
    tg(repo, *shlex.split(found.group(1))[1:])  # the exact command, as printed
    assert _push(repo, remote).returncode == 0
    assert git(repo, "diff", "--cached", "--name-only").stdout == "staged.txt\n"  # kept staged
    assert f'"recount" = "{sha}"' in ledger_at(repo)
    assert f'"tokens" = {_estimate(repo, sha)}' in ledger_at(repo)
    assert tg(repo, "verify").returncode == 0


def test_repair_counts_a_commit_that_passed_uncounted(repo: Path, tmp_path: Path) -> None:
    (repo / "app.py").write_text(CHANGE)
    git(repo, "add", "app.py")
    commit(repo, "-m", "no hooks", "--no-verify")
    sha = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert tg(repo, "verify", check=False).returncode != 0
    proc = tg(repo, "repair")
    assert sha[:12] in proc.stdout
    commit(repo, "--allow-empty", "-m", "count it")  # the counted events alone
    assert tg(repo, "verify").returncode == 0
    assert _push(repo, _remote(tmp_path)).returncode == 0
    assert ledger_at(repo).count(f'"recount" = "{sha}"') == 1
    tg(repo, "repair")  # counted once, whatever runs again
    commit(repo, "-m", "again", "--allow-empty")
    assert ledger_at(repo).count(f'"recount" = "{sha}"') == 1


def test_accept_refuses_an_unknown_commit_clearly(repo: Path) -> None:
    proc = tg(repo, "verify", "--accept", "no-such-commit", check=False)
    assert proc.returncode == 2 and "'no-such-commit' is not a commit" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
