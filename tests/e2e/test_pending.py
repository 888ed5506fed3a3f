"""Records leave the index the user's: no tg-git writer stages anything.

Every writer but the commit hook adds its lines to the session's waiting events under the git
dir (``.git/tg-git/pending/<session>.toml``, per work tree); the next commit folds them into the
session's own file. So `git merge`, `pull --rebase`, `checkout`, `switch`, `bisect`, `stash` and
`rebase` meet an index and a work tree as they would without tg-git, and a crash, a stash, a
`reset --hard` or a branch switch leaves the records where they are. The staged pending file of
an older tg-git (``.tg-git/ledger/<session>.pending.toml``) is still folded. Each test drives real
git through the installed hooks (and the real pre-commit framework).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.agents import fill_line
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.repos import add
from tests.support.repos import clean
from tests.support.repos import commit
from tests.support.repos import commit_events
from tests.support.repos import git
from tests.support.repos import session_id
from tests.support.repos import status
from tests.support.repos import tg
from tests.support.repos import used

BIN = Path(sys.executable).parent


def files_at(repo: Path, rev: str) -> list[str]:
    """The ledger folder's files in ``rev`` (``:`` for the index)."""
    if rev == ":":
        return git(repo, "ls-files", "--", ".tg-git/ledger").stdout.split()
    return git(repo, "ls-tree", "-r", "--name-only", rev, "--", ".tg-git/ledger").stdout.split()


def older_pending(repo: Path) -> str:
    """Where an older tg-git kept the session's pending file: in the work tree, staged."""
    return f".tg-git/ledger/{session_id(repo)}.pending.toml"


def own(repo: Path) -> str:
    return f".tg-git/ledger/{session_id(repo)}.toml"


def waiting(repo: Path, sid: str | None = None) -> Path:
    """The session's events waiting for the next commit, under the git dir."""
    return repo / ".git" / "tg-git" / "pending" / f"{sid or session_id(repo)}.toml"


def any_pending(names: list[str]) -> bool:
    return any(n.endswith(".pending.toml") for n in names)


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


WRITERS = ["record", "task", "note", "next", "agent"]  # each way tg-git writes an event


def write(repo: Path, writer: str, homes: dict[str, Path] | None = None) -> str:
    """One writer's event; returns its kind."""
    if writer == "agent":
        assert homes is not None
        agent_turn(repo, homes)
    elif writer == "record":
        tg(repo, "record", "--tokens", "500")
    elif writer == "task":
        tg(repo, "task", "add", "parser")
    elif writer == "note":
        tg(repo, "note", "the tokenizer is half done")
    elif writer == "next":
        tg(repo, "next", "finish the lexer")
    return {"record": "input", "task": "task", "note": "note", "next": "next",
            "agent": "usage"}[writer]  # fmt: skip


@pytest.fixture(params=WRITERS)
def writer(request: pytest.FixtureRequest) -> str:
    """Each way tg-git writes an event, one test each."""
    return str(request.param)


def test_a_writer_leaves_the_index_and_the_work_tree_clean(
    repo: Path, writer: str, agent_homes: dict[str, Path]
) -> None:
    clean(repo)
    kind = write(repo, writer, agent_homes)
    assert git(repo, "status", "--porcelain").stdout == ""  # nothing staged, nothing changed
    assert f'"kind" = "{kind}"' in waiting(repo).read_text()
    add(repo, "later.py", "later_value = 3")  # the next commit carries it
    assert f'"kind" = "{kind}"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert not waiting(repo).exists() and not any_pending(files_at(repo, "HEAD"))
    clean(repo)


def test_checkout_after_each_writer_is_not_blocked(
    repo: Path, writer: str, agent_homes: dict[str, Path]
) -> None:
    other_branch(repo)
    kind = write(repo, writer, agent_homes)
    after = recorded(repo)
    held = waiting(repo).read_text()
    assert f'"kind" = "{kind}"' in held
    assert git(repo, "diff", "--quiet", "HEAD", "--", own(repo), check=False).returncode == 0
    switched = git(repo, "checkout", "-q", "other", check=False)
    assert switched.returncode == 0, switched.stderr
    assert waiting(repo).read_text() == held  # the records stay where they wait
    assert recorded(repo) == after
    assert git(repo, "checkout", "-q", "main", check=False).returncode == 0
    assert recorded(repo) == after
    add(repo, "later.py", "later_value = 3")
    assert not any_pending(files_at(repo, "HEAD") + files_at(repo, ":"))
    assert not waiting(repo).exists()
    clean(repo)


def test_a_record_does_not_block_a_merge(repo: Path) -> None:
    """A real merge (not a fast-forward) refuses while anything is staged: a record stages
    nothing, so it goes through as without tg-git."""
    other_branch(repo)
    tg(repo, "record", "--tokens", "500")
    total = used(repo)
    merged = git(repo, "merge", "--no-edit", "other", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert git(repo, "rev-parse", "HEAD^2").stdout.strip()  # a merge commit
    assert used(repo) == total
    add(repo, "after.py", "after_the_merge = compute('x')")
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    clean(repo)


def test_a_record_does_not_block_pull_rebase(repo: Path, tmp_path: Path) -> None:
    """`git pull --rebase` refuses while the index holds any change; a record leaves none."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "main")
    friend = tmp_path / "friend"
    git(tmp_path, "clone", "-q", str(remote), str(friend))
    (friend / "theirs.py").write_text("theirs = 1\n")
    git(friend, "add", "theirs.py")
    git(friend, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "theirs")
    git(friend, "push", "-q", "origin", "HEAD:main")
    add(repo, "mine.py", "mine_value = compute('local', 'work')")
    tg(repo, "record", "--tokens", "500")
    total = used(repo)
    pulled = git(repo, "pull", "-q", "--rebase", "origin", "main", check=False)
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    assert (repo / "theirs.py").is_file()
    assert used(repo) == total
    clean(repo)


def test_records_survive_a_stash_a_hard_reset_and_a_switch_and_count_once(repo: Path) -> None:
    other_branch(repo)
    tg(repo, "record", "--tokens", "500")
    total = used(repo)
    (repo / "wip.py").write_text("work_in_progress = 1\n")
    git(repo, "add", "wip.py")
    git(repo, "stash", "-q")
    git(repo, "reset", "-q", "--hard", "HEAD")
    git(repo, "switch", "-q", "other")
    git(repo, "switch", "-q", "main")
    git(repo, "stash", "pop", "-q")
    assert used(repo) == total
    commit(repo, "-m", "wip")
    tg(repo, "record", "--tokens", "7")
    add(repo, "next.py", "next_value = 2")
    head = git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert head.count('"tokens" = 500') == 1 and head.count('"tokens" = 7') == 1
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


def test_a_commit_of_records_alone_is_asked_for_with_allow_empty(repo: Path) -> None:
    """git decides "nothing to commit" before any hook runs: a plain `git commit` of records
    alone is refused by git and leaves the index as it was; `--allow-empty` lands them."""
    tg(repo, "record", "--tokens", "500")
    tg(repo, "task", "add", "parser")
    total, commits = used(repo), commit_events(repo)
    refused = commit(repo, "-m", "records only", check=False)
    assert refused.returncode != 0
    clean(repo)  # nothing left staged behind git's refusal
    assert waiting(repo).is_file()
    done = commit(repo, "--allow-empty", "-m", "records only", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    landed = git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert '"kind" = "input"' in landed and "parser" in landed
    assert not waiting(repo).exists()
    assert (used(repo), commit_events(repo)) == (total, commits)
    clean(repo)


def as_older_tg_git(repo: Path) -> str:
    """What a clone of an older tg-git holds after a record: the waiting events in the work
    tree's pending file, staged. Returns its path."""
    tg(repo, "record", "--tokens", "500")
    path = older_pending(repo)
    (repo / path).write_text(waiting(repo).read_text())
    waiting(repo).unlink()
    git(repo, "add", path)
    return path


def test_an_older_staged_pending_file_is_folded(repo: Path) -> None:
    path = as_older_tg_git(repo)
    total = used(repo)
    spent = add(repo, "counted.py", "counted_value = compute('the', 'next', 'commit')")
    assert path not in files_at(repo, "HEAD") + files_at(repo, ":")
    assert not (repo / path).exists()
    assert git(repo, "show", f"HEAD:{own(repo)}").stdout.count('"tokens" = 500') == 1
    assert used(repo) == total + spent
    clean(repo)


def test_a_pending_file_committed_without_the_hook_is_folded_by_the_next_commit(
    repo: Path,
) -> None:
    path = as_older_tg_git(repo)
    total, commits = used(repo), commit_events(repo)
    (repo / "skipped.py").write_text("skipped = 1\n")
    git(repo, "add", "skipped.py")
    commit(repo, "--no-verify", "-m", "no hook")
    assert path in files_at(repo, "HEAD")
    assert used(repo) == total  # the skipped commit is uncounted, its input still there
    spent = add(repo, "counted.py", "counted_value = compute('the', 'next', 'commit')")
    assert path not in files_at(repo, "HEAD") + files_at(repo, ":")
    assert not (repo / path).exists()
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert used(repo) == total + spent and commit_events(repo) == commits + 1
    clean(repo)
    git(repo, "checkout", "-q", "-b", "elsewhere", "HEAD~2")  # before the records
    git(repo, "checkout", "-q", "main")
    assert used(repo) == total + spent


def test_records_waiting_through_a_commit_without_the_hook_land_with_the_next(
    repo: Path,
) -> None:
    tg(repo, "record", "--tokens", "500")
    total = used(repo)
    (repo / "skipped.py").write_text("skipped = 1\n")
    git(repo, "add", "skipped.py")
    commit(repo, "--no-verify", "-m", "no hook")
    assert waiting(repo).is_file() and used(repo) == total
    spent = add(repo, "counted.py", "counted_value = compute('the', 'next', 'commit')")
    assert git(repo, "show", f"HEAD:{own(repo)}").stdout.count('"tokens" = 500') == 1
    assert used(repo) == total + spent
    clean(repo)


def test_the_pre_commit_framework_stash_keeps_the_records(plain_repo: Path, tmp_path: Path) -> None:
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
    assert not any_pending(files_at(repo, ":"))
    (repo / "tracked.txt").write_text("one\nunstaged edit\n")  # the framework stashes this
    (repo / "app.py").write_text("def main():\n    print('hello')\n")
    git(repo, "add", "app.py")
    done = commit(repo, "-m", "app", check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (repo / "tracked.txt").read_text() == "one\nunstaged edit\n"
    assert git(repo, "status", "--porcelain").stdout == " M tracked.txt\n"
    assert not any_pending(files_at(repo, "HEAD"))
    assert not waiting(repo).exists()
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert used(repo) > total


def test_a_partial_commit_lands_and_folds_the_records(repo: Path) -> None:
    tg(repo, "record", "--tokens", "300")
    total = used(repo)
    (repo / "one.py").write_text("one = 1\n")
    git(repo, "add", "one.py")
    commit(repo, "-m", "one", "--", "one.py")  # git commit PATH: a temporary index
    assert '"kind" = "input"' in git(repo, "show", f"HEAD:{own(repo)}").stdout
    assert not any_pending(files_at(repo, "HEAD") + files_at(repo, ":"))
    assert not waiting(repo).exists()
    clean(repo)  # post-commit set the real index to the committed ledger
    counted = used(repo)
    assert counted > total
    add(repo, "two.py", "two_value = compute('after', 'the', 'partial', 'commit')")
    assert git(repo, "show", f"HEAD:{own(repo)}").stdout.count('"kind" = "input"') == 1
    assert used(repo) > counted
    clean(repo)


def test_an_unstaged_edit_of_an_older_pending_file_refuses_the_commit(repo: Path) -> None:
    path = as_older_tg_git(repo)
    (repo / path).write_text((repo / path).read_text() + "# my own note\n")
    (repo / "one.py").write_text("one = 1\n")
    git(repo, "add", "one.py")
    refused = commit(repo, "-m", "one", check=False)
    assert refused.returncode != 0 and path in refused.stdout + refused.stderr
    assert (repo / path).read_text().endswith("# my own note\n")
    git(repo, "add", path)
    commit(repo, "-m", "one")
    assert path not in files_at(repo, "HEAD") + files_at(repo, ":")
    clean(repo)


def test_records_of_an_ending_session_land_in_its_own_file(repo: Path) -> None:
    """Records still waiting when a new session starts, or written for the old session while
    it starts (a rollover racing a record), land in the old session's own file with the
    next commit; no commit ever holds a pending file, and nothing is left staged."""
    tg(repo, "record", "--tokens", "500")
    first, first_own = session_id(repo), own(repo)
    tg(repo, "session", "start")  # stages nothing: its start rides in the next commit
    commit(repo, "-m", "new session", "--allow-empty")
    assert waiting(repo, first).is_file() or '"tokens" = 500' in (repo / first_own).read_text()
    race = (
        "from tg_git.domain import eventlog\n"
        "from tg_git.repo.workspace import Workspace\n"
        "ws = Workspace.open()\n"
        f"_, line = eventlog.event_line('input', session={first!r}, tokens=77, label='late')\n"
        f"ws.append(line, rel='.tg-git/ledger/{first}.toml')\n"
    )  # a record that read the old session before the rollover, written after it
    subprocess.run([sys.executable, "-c", race], cwd=repo, check=True)
    clean(repo)
    tg(repo, "record", "--tokens", "30")
    add(repo, "later.py", "later_value = compute('in', 'the', 'next', 'session')")
    landed = files_at(repo, "HEAD")
    assert not any_pending(landed + files_at(repo, ":"))
    old = git(repo, "show", f"HEAD:{first_own}").stdout
    assert old.count('"tokens" = 500') == 1 and old.count('"tokens" = 77') == 1
    assert not waiting(repo, first).exists()
    clean(repo)
