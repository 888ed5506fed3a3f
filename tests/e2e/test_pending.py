"""Records never block `git checkout` or `git bisect` (issue 21 item 14).

Every writer but the commit hook adds its lines to the session's pending file
(``.tg-git/ledger/<session>.pending.toml``), which no commit holds: git carries a file added
in the index and absent from both branches across a checkout or a bisect, while the session's
own file stays equal to HEAD's. The next commit folds the pending file into the session's file.
Each test drives real git through the installed hooks (and the real pre-commit framework).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import add
from tests.conftest import clean
from tests.conftest import commit
from tests.conftest import commit_events
from tests.conftest import fill_line
from tests.conftest import git
from tests.conftest import hook
from tests.conftest import project_folder
from tests.conftest import session_id
from tests.conftest import status
from tests.conftest import tg
from tests.conftest import used

BIN = Path(sys.executable).parent


def files_at(repo: Path, rev: str) -> list[str]:
    """The ledger folder's files in ``rev`` (``:`` for the index)."""
    if rev == ":":
        return git(repo, "ls-files", "--", ".tg-git/ledger").stdout.split()
    return git(repo, "ls-tree", "-r", "--name-only", rev, "--", ".tg-git/ledger").stdout.split()


def pending(repo: Path) -> str:
    return f".tg-git/ledger/{session_id(repo)}.pending.toml"


def own(repo: Path) -> str:
    return f".tg-git/ledger/{session_id(repo)}.toml"


def recorded(repo: Path) -> dict[str, object]:
    """What the writers record, as status reads it (the commits differ between branches)."""
    found = status(repo)
    return {k: found[k] for k in ("input", "tasks", "spend", "measured")}


def other_branch(repo: Path) -> None:
    """A branch ``other`` one commit away from ``main`` each way, ``main`` checked out."""
    git(repo, "checkout", "-q", "-b", "other")
    add(repo, "other.py", "on_the_other_branch = 1")
    git(repo, "checkout", "-q", "main")
    add(repo, "main.py", "on_main = 2")


def agent_turn(repo: Path, homes: dict[str, Path]) -> None:
    """A Claude Code session's start, committed, then one turn: a usage event."""
    transcript = project_folder(repo, homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    base = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo),
            "hook_event_name": "SessionStart", "source": "startup"}  # fmt: skip
    assert hook(repo, "claude", "SessionStart", base).returncode == 0
    if git(repo, "status", "--porcelain").stdout:
        commit(repo, "-m", "agent session start")
    transcript.write_text(fill_line(1, 30_000))
    turn = {**base, "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
    done = hook(repo, "claude", "UserPromptSubmit", turn)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("writer", ["record", "task", "note", "agent"])
def test_checkout_after_each_writer_is_not_blocked(
    repo: Path, writer: str, agent_homes: dict[str, Path]
) -> None:
    other_branch(repo)
    if writer == "agent":
        agent_turn(repo, agent_homes)
    if writer == "record":
        tg(repo, "record", "--tokens", "500")
    elif writer == "task":
        tg(repo, "task", "add", "parser")
    elif writer == "note":
        tg(repo, "note", "the tokenizer is half done")
    after = recorded(repo)
    held = (repo / pending(repo)).read_text()
    kind = {"record": "input", "task": "task", "note": "note", "agent": "usage"}[writer]
    assert f'"kind" = "{kind}"' in (repo / pending(repo)).read_text()
    assert git(repo, "diff", "--quiet", "HEAD", "--", own(repo), check=False).returncode == 0
    assert pending(repo) in files_at(repo, ":") and pending(repo) not in files_at(repo, "HEAD")
    switched = git(repo, "checkout", "-q", "other", check=False)
    assert switched.returncode == 0, switched.stderr
    assert (repo / pending(repo)).read_text() == held  # the pending file came along
    assert recorded(repo) == after
    assert git(repo, "checkout", "-q", "main", check=False).returncode == 0
    assert recorded(repo) == after
    add(repo, "later.py", "later_value = 3")
    assert pending(repo) not in files_at(repo, "HEAD") + files_at(repo, ":")
    assert not (repo / pending(repo)).exists()
    clean(repo)


def test_bisect_run_after_a_record_is_not_blocked(repo: Path) -> None:
    other_branch(repo)
    add(repo, "broken.py", "broken = True")
    tg(repo, "record", "--tokens", "700")
    total = used(repo)
    started = git(repo, "bisect", "start", "HEAD", "HEAD~2", check=False)
    assert started.returncode == 0, started.stderr
    ran = git(repo, "bisect", "run", "sh", "-c", "! test -f broken.py", check=False)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "is the first bad commit" in ran.stdout
    assert git(repo, "bisect", "reset", check=False).returncode == 0
    assert used(repo) == total
    add(repo, "fixed.py", "fixed = True")
    assert used(repo) > total
    clean(repo)


def test_a_commit_of_records_alone_lands_them_in_the_session_file(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    tg(repo, "task", "add", "parser")
    total, commits = used(repo), commit_events(repo)
    done = commit(repo, "-m", "records only", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert pending(repo) not in files_at(repo, "HEAD")
    landed = git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert '"kind" = "input"' in landed and "parser" in landed
    assert (used(repo), commit_events(repo)) == (total, commits)
    clean(repo)


def test_a_pending_file_committed_without_the_hook_is_folded_by_the_next_commit(
    repo: Path,
) -> None:
    tg(repo, "record", "--tokens", "500")
    total, commits = used(repo), commit_events(repo)
    (repo / "skipped.py").write_text("skipped = 1\n")
    git(repo, "add", "skipped.py")
    commit(repo, "--no-verify", "-m", "no hook")
    assert pending(repo) in files_at(repo, "HEAD")
    assert used(repo) == total  # the skipped commit is uncounted, its input still there
    spent = add(repo, "counted.py", "counted_value = compute('the', 'next', 'commit')")
    assert pending(repo) not in files_at(repo, "HEAD") + files_at(repo, ":")
    assert not (repo / pending(repo)).exists()
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert used(repo) == total + spent and commit_events(repo) == commits + 1
    clean(repo)
    git(repo, "checkout", "-q", "-b", "elsewhere", "HEAD~2")  # before the records
    git(repo, "checkout", "-q", "main")
    assert used(repo) == total + spent


def test_the_pre_commit_framework_stash_keeps_a_pending_file(
    plain_repo: Path, tmp_path: Path
) -> None:
    repo = plain_repo
    (repo / "README.md").write_text("# demo\n")
    (repo / "tracked.txt").write_text("one\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"),
           "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    tg(repo, "init")
    tg(repo, "install", "--pre-commit")
    run = ["pre-commit", "install", "--hook-type", "pre-commit", "--hook-type", "post-commit"]
    assert subprocess.run(run, cwd=repo, env=env, capture_output=True).returncode == 0
    git(repo, "add", ".pre-commit-config.yaml", ".tg-git", ".gitattributes")
    commit(repo, "-m", "guarded", env=env)
    tg(repo, "record", "--tokens", "400")
    total = used(repo)
    assert pending(repo) in files_at(repo, ":")
    (repo / "tracked.txt").write_text("one\nunstaged edit\n")  # the framework stashes this
    (repo / "app.py").write_text("def main():\n    print('hello')\n")
    git(repo, "add", "app.py")
    done = commit(repo, "-m", "app", check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (repo / "tracked.txt").read_text() == "one\nunstaged edit\n"
    assert git(repo, "status", "--porcelain").stdout == " M tracked.txt\n"
    assert not any(f.endswith(".pending.toml") for f in files_at(repo, "HEAD"))
    assert not (repo / pending(repo)).exists()
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert used(repo) > total


def test_a_partial_commit_lands_and_folds_the_records(repo: Path) -> None:
    tg(repo, "record", "--tokens", "300")
    total = used(repo)
    (repo / "one.py").write_text("one = 1\n")
    git(repo, "add", "one.py")
    commit(repo, "-m", "one", "--", "one.py")  # git commit PATH: a temporary index
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert pending(repo) not in files_at(repo, "HEAD") + files_at(repo, ":")
    assert not (repo / pending(repo)).exists()
    clean(repo)  # post-commit took the pending file out of the real index too
    counted = used(repo)
    assert counted > total
    add(repo, "two.py", "two_value = compute('after', 'the', 'partial', 'commit')")
    assert git(repo, "show", f"HEAD:{own(repo)}").stdout.count('"kind" = "input"') == 1
    assert used(repo) > counted
    clean(repo)


def test_an_unstaged_edit_of_the_pending_file_refuses_the_commit(repo: Path) -> None:
    tg(repo, "record", "--tokens", "300")
    path = repo / pending(repo)
    path.write_text(path.read_text() + "# my own note\n")
    (repo / "one.py").write_text("one = 1\n")
    git(repo, "add", "one.py")
    refused = commit(repo, "-m", "one", check=False)
    assert refused.returncode != 0 and pending(repo) in refused.stdout + refused.stderr
    assert path.read_text().endswith("# my own note\n")
    git(repo, "add", pending(repo))
    commit(repo, "-m", "one")
    assert pending(repo) not in files_at(repo, "HEAD") + files_at(repo, ":")
    clean(repo)


def test_a_new_session_folds_the_ending_sessions_pending_file(repo: Path) -> None:
    """The commit hook folds only the current session's pending file: a session that ends
    with records still pending has them moved into its own file as the next one starts,
    so no commit ever holds that pending file (which would block checkout for good)."""
    tg(repo, "record", "--tokens", "500")
    first_pending, first_own = pending(repo), own(repo)
    tg(repo, "session", "start")
    assert not (repo / first_pending).exists()
    assert '"kind" = "input"' in (repo / first_own).read_text()
    tg(repo, "record", "--tokens", "30")
    add(repo, "later.py", "later_value = compute('in', 'the', 'next', 'session')")
    landed = files_at(repo, "HEAD")
    assert first_pending not in landed and pending(repo) not in landed
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{first_own}").stdout
    assert first_pending not in files_at(repo, ":")
    clean(repo)
