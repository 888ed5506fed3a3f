"""A shared repository where a teammate works without tg-git: their commits are outside the
budget (listed apart, never a refusal unless `verify.outside = "refuse"`), while a
`--no-verify` commit made in a tg-git clone stays drift, through a rebase too; every refusal
names a command that clears it, also after `tg-git repair`."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg

CODE = "def handler(request):\n    return {'status': 'ok', 'items': list(range(10))}\n" * 8
# The teammate's own identity and clock: nothing of theirs matches a commit of this clone.
TEAMMATE = {
    "GIT_AUTHOR_NAME": "Teammate",
    "GIT_AUTHOR_EMAIL": "teammate@example.com",
    "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z",
    "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z",
}


def _shared(repo: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A bare origin that clone A (``repo``: tg-git, a session) pushed to, and clone B of it,
    plain git (no tg-git hook: a clone copies none)."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    git(repo, "push", "-q", "-u", "origin", "main")
    other = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(origin), str(other))
    return origin, other


def _teammate_pushes(other: Path, name: str, n: int = 0) -> str:
    """Clone B commits a file of code and pushes it; the commit's id."""
    git(other, "pull", "-q", "--no-rebase")
    (other / name).write_text(CODE.replace("handler", f"handler_{n}"))
    git(other, "add", name)
    env = {**TEAMMATE, "GIT_AUTHOR_DATE": f"2026-01-02T03:04:{n:02d}Z"}
    commit(other, "-m", f"teammate: {name}", env=env)
    assert not (other / ".git" / "tg-git").exists()  # no tg-git ran there
    git(other, "push", "-q")
    return git(other, "rev-parse", "HEAD").stdout.strip()


def _push(repo: Path) -> subprocess.CompletedProcess[str]:
    return git(repo, "push", "-q", "origin", "HEAD:refs/heads/main", check=False)


def _named_command(refused: subprocess.CompletedProcess[str]) -> list[str]:
    found = re.findall(r"`(tg-git [^`]+)`", refused.stderr)
    assert found, refused.stderr
    return shlex.split(found[-1])[1:]


def test_a_teammate_without_tg_git_never_jams_the_push(repo: Path, tmp_path: Path) -> None:
    _, other = _shared(repo, tmp_path)
    theirs = [_teammate_pushes(other, "b1.py", 1), _teammate_pushes(other, "b2.py", 2)]
    git(repo, "pull", "-q", "--no-rebase")
    (repo / "mine.py").write_text("mine = True\n")
    git(repo, "add", "mine.py")
    commit(repo, "-m", "my work")
    pushed = _push(repo)
    assert pushed.returncode == 0, pushed.stderr  # no tg-git command in between
    proc = tg(repo, "verify")
    assert proc.returncode == 0
    assert all(sha[:12] in proc.stdout for sha in theirs), proc.stdout
    assert "outside" in proc.stdout
    data = json.loads(tg(repo, "verify", "--json").stdout)
    assert data["ok"] and data["drift"] == []
    assert sorted(o["commit"] for o in data["outside"]) == sorted(theirs)


def test_a_merge_and_a_rebase_over_a_teammates_commits_push(repo: Path, tmp_path: Path) -> None:
    _, other = _shared(repo, tmp_path)
    _teammate_pushes(other, "b1.py", 1)
    (repo / "one.py").write_text("one = 1\n")
    git(repo, "add", "one.py")
    commit(repo, "-m", "one")
    git(repo, "pull", "-q", "--no-rebase", "--no-edit")  # a real merge
    assert _push(repo).returncode == 0
    _teammate_pushes(other, "b2.py", 2)
    (repo / "two.py").write_text("two = 2\n")
    git(repo, "add", "two.py")
    commit(repo, "-m", "two")
    git(repo, "pull", "-q", "--rebase")  # replays my commit on theirs
    pushed = _push(repo)
    assert pushed.returncode == 0, pushed.stderr
    assert tg(repo, "verify").returncode == 0


def test_refuse_turns_outside_commits_into_a_refusal_that_clears(
    repo: Path, tmp_path: Path
) -> None:
    _, other = _shared(repo, tmp_path)
    tg(repo, "config", "set", "verify.outside", "refuse")
    theirs = _teammate_pushes(other, "b1.py", 1)
    git(repo, "pull", "-q", "--no-rebase")
    assert tg(repo, "verify", check=False).returncode == 6
    refused = _push(repo)
    assert refused.returncode != 0
    command = _named_command(refused)
    assert theirs[:12] in " ".join(command)
    tg(repo, *command)
    pushed = _push(repo)
    assert pushed.returncode == 0, pushed.stderr


def test_the_outside_setting_is_checked(repo: Path) -> None:
    proc = tg(repo, "config", "set", "verify.outside", "sometimes", check=False)
    assert proc.returncode == 2 and "ignore, report, refuse" in proc.stderr, proc.stderr
    tg(repo, "config", "set", "verify.outside", "ignore")
    assert tg(repo, "config", "get", "verify.outside").stdout.strip() == "ignore"


def test_ignore_leaves_outside_commits_unlisted(repo: Path, tmp_path: Path) -> None:
    _, other = _shared(repo, tmp_path)
    tg(repo, "config", "set", "verify.outside", "ignore")
    theirs = _teammate_pushes(other, "b1.py", 1)
    git(repo, "pull", "-q", "--no-rebase")
    proc = tg(repo, "verify")
    assert theirs[:12] not in proc.stdout
    assert _push(repo).returncode == 0


def test_no_verify_in_the_session_stays_drift_through_a_rebase(repo: Path, tmp_path: Path) -> None:
    _, other = _shared(repo, tmp_path)
    (repo / "sneaky.py").write_text(CODE)
    git(repo, "add", "sneaky.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    theirs = _teammate_pushes(other, "b1.py", 1)
    git(repo, "pull", "-q", "--rebase")  # the sneaky commit is replayed: a new id
    sneaky = git(repo, "rev-parse", "HEAD").stdout.strip()
    refused = _push(repo)
    assert refused.returncode != 0
    command = _named_command(refused)
    assert sneaky[:12] in command and theirs[:12] not in " ".join(command)
    tg(repo, *command)
    pushed = _push(repo)
    assert pushed.returncode == 0, pushed.stderr


def test_an_amended_no_verify_commit_stays_drift(repo: Path, tmp_path: Path) -> None:
    (repo / "sneaky.py").write_text(CODE)
    git(repo, "add", "sneaky.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    commit(repo, "--no-verify", "--amend", "-m", "sneaky, reworded")
    proc = tg(repo, "verify", check=False)
    assert proc.returncode == 6 and "not counted" in proc.stdout


def test_after_repair_the_named_command_clears_the_push(repo: Path, tmp_path: Path) -> None:
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    (repo / "sneaky.py").write_text(CODE)
    git(repo, "add", "sneaky.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    tg(repo, "repair")  # the ledger rebuilt and the commit counted: staged, not committed
    refused = _push(repo)
    assert refused.returncode != 0
    tg(repo, *_named_command(refused))
    pushed = _push(repo)
    assert pushed.returncode == 0, pushed.stderr
    assert tg(repo, "verify").returncode == 0
