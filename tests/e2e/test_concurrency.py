"""Several writers at once: records and commits in parallel worktrees, a record while git holds
the index lock, two SessionStart hooks at once. Nothing is lost, nothing is counted twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import labels
from tests.support.repos import ledger_at
from tests.support.repos import ledger_file
from tests.support.repos import status
from tests.support.repos import tg


def test_parallel_records_and_commits_in_two_worktrees(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt", str(other))
    env = {**os.environ}

    def record(n: int) -> subprocess.CompletedProcess[str]:
        where = repo if n % 2 else other
        return subprocess.run(
            [TG_GIT, "record", "--tokens", "1", "--label", f"r{n}"],
            cwd=where,
            capture_output=True,
            text=True,
            env=env,
        )

    def commit_some(where: Path) -> list[str]:
        errors = []
        for i in range(3):
            (where / f"c{i}.py").write_text(f"value_{i} = {i}\n")
            for _attempt in range(200):
                proc = git(where, "add", f"c{i}.py", check=False)  # may meet a record's lock
                if proc.returncode == 0:
                    proc = subprocess.run(
                        ["git", "commit", "-q", "-m", f"c{i}"],
                        cwd=where,
                        capture_output=True,
                        text=True,
                        env=env,
                    )
                if proc.returncode == 0:
                    break
                errors.append(proc.stderr)
                assert "index.lock" in proc.stderr, (
                    proc.stderr
                )  # git's own lock, never tg-git's refusal
                time.sleep(0.1)
            else:
                raise AssertionError(f"c{i} never committed: {errors[-3:]}")
        return errors

    with ThreadPoolExecutor(max_workers=8) as pool:
        commits = [pool.submit(commit_some, w) for w in (repo, other)]
        records = list(pool.map(record, range(50)))
        for c in commits:
            c.result()
    assert all(r.returncode == 0 for r in records), [r.stderr for r in records if r.returncode]
    assert not any("unstaged" in r.stderr for r in records)
    for where in (repo, other):
        assert git(where, "diff", "--name-only").stdout == ""  # nothing of tg-git's unstaged
        commit(where, "--allow-empty", "-m", "carry the records")
        assert git(where, "status", "--porcelain").stdout == ""
    found = labels(ledger_at(repo)) + labels(ledger_at(other))
    assert sorted(found) == sorted(f"r{n}" for n in range(50))  # each exactly once


def test_record_when_the_index_is_locked_still_records(repo: Path) -> None:
    lock = repo / ".git" / "index.lock"
    lock.write_text("")
    try:
        proc = tg(repo, "record", "--tokens", "42", "--label", "locked")
    finally:
        lock.unlink()
    assert proc.stderr == ""  # a record stages nothing: another git command's lock is no matter
    assert git(repo, "status", "--porcelain").stdout == ""
    assert status(repo)["input"] == 42
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    commit(repo, "-m", "x")  # the next commit carries the event
    assert "locked" in labels(ledger_at(repo))


def session_files(repo: Path) -> list[Path]:
    """One ledger file a session, or its start waiting under the git dir for the next commit
    (a pending file holds records, not a session)."""
    files = [*(repo / ".tg-git" / "ledger").glob("*.toml")]
    names = {p.name for p in files}
    files += [
        p for p in (repo / ".git" / "tg-git" / "pending").glob("*.toml") if p.name not in names
    ]
    return [p for p in files if not p.name.endswith(".pending.toml")]


def test_two_simultaneous_session_starts_start_one_session(repo: Path) -> None:
    payload = json.dumps(
        {
            "session_id": "A",
            "cwd": str(repo),
            "source": "startup",
            "hook_event_name": "SessionStart",
        }
    )
    tg(repo, "record", "--tokens", "199000")  # halted: a SessionStart rolls over
    before = len(session_files(repo))
    go = threading.Barrier(4)
    results: list[subprocess.CompletedProcess[str]] = []

    def start() -> None:
        go.wait()
        results.append(
            subprocess.run(
                [TG_GIT, "hook", "agent", "claude", "SessionStart"],
                input=payload,
                cwd=repo,
                capture_output=True,
                text=True,
            )
        )

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.returncode == 0 for r in results), results
    assert len(session_files(repo)) == before + 1


def _together(
    repo: Path,
    go: threading.Barrier,
    done: dict[str, subprocess.CompletedProcess[str]],
    name: str,
    cmd: list[str],
) -> None:
    go.wait()
    done[name] = subprocess.run(cmd, cwd=repo, capture_output=True, text=True)


def test_a_commit_racing_a_checkpoint_never_fails_after_its_gauge(repo: Path) -> None:
    """A `tg-git checkpoint` moving HEAD while a `git commit` runs its hooks made that commit
    fail at its very end ("cannot lock ref 'HEAD'") after it had printed its count: the save
    now waits for the commit's index lock before it moves HEAD, and makes itself again on
    top. Raced a few times: it failed about one run in three."""
    tg(repo, "session", "start", "--max-tokens", "100000000")
    git(repo, "add", "-A", ".tg-git")
    commit(repo, "--allow-empty", "-m", "a long session")
    for n in range(4):
        lines = (f"raced_value_{n}_{k} = compute({k}, 'in', 'parallel')\n" for k in range(20_000))
        (repo / f"race{n}.py").write_text("".join(lines))  # a hook long enough to race
        git(repo, "add", f"race{n}.py")
        go = threading.Barrier(2)
        done: dict[str, subprocess.CompletedProcess[str]] = {}
        save = [TG_GIT, "checkpoint", "-m", f"save {n}"]
        made = ["git", "commit", "-q", "-m", f"r{n}"]
        threads = [
            threading.Thread(target=_together, args=(repo, go, done, "save", save)),
            threading.Thread(target=_together, args=(repo, go, done, "commit", made)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        made_it, saved = done["commit"], done["save"]
        assert saved.returncode == 0, saved.stderr
        assert "cannot lock ref" not in made_it.stderr, made_it.stderr
        if made_it.returncode != 0:  # git's own lock refused it before any hook ran: not after
            assert "tg-git" not in made_it.stderr and "index.lock" in made_it.stderr, made_it.stderr
            commit(repo, "-m", f"r{n}")
        assert f"race{n}.py" in git(repo, "ls-tree", "--name-only", "HEAD").stdout
        assert git(repo, "status", "--porcelain").stdout == ""


def _state(pid: int) -> str:
    """The process's state letter (T: stopped, Z: a zombie), "" once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(") ")[2][:1]
    except OSError:
        return ""


def _until(found: Callable[[], bool], what: str) -> None:
    """Wait (at most 30 s) until ``found()`` is true: a step of the other process, not a time."""
    for _ in range(600):
        if found():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def _paused_save(repo: Path, point: str, what: str) -> subprocess.Popen[str]:
    """`tg-git checkpoint`, stopped at the failpoint ``point`` (paused there, not ended)."""
    env = {**os.environ, "TG_GIT_FAILPOINT": f"{point}:stop"}
    save = subprocess.Popen(
        [TG_GIT, "checkpoint", "-m", point],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _until(lambda: _state(save.pid) in ("T", "Z", ""), what)
    assert _state(save.pid) == "T", save.communicate()
    return save


def _stopped_child(parent: int) -> int:
    """The child of ``parent`` stopped at a failpoint (a hook git runs), once there is one."""
    found: list[int] = []

    def stopped() -> bool:
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    fields = Path(f"/proc/{name}/stat").read_text().rpartition(") ")[2].split()
                except OSError:
                    continue
                if fields[:2] == ["T", str(parent)]:
                    found.append(int(name))
                    return True
        return False

    _until(stopped, f"a stopped child of {parent}")
    return found[0]


def _gate_before_tg_gits_hook(repo: Path, started: Path, go: Path) -> None:
    """A user's pre-commit hook, which runs before tg-git's: it says it started and waits for
    ``go``, so that the commit is under way (its process running) before tg-git counts it."""
    hook = repo / ".git" / "hooks" / "pre-commit.pre-tg-git"
    hook.write_text(
        f'#!/bin/sh\ntouch "{started}"\n'
        f'n=0; while [ ! -e "{go}" ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done\n'
    )
    hook.chmod(0o755)


def test_a_save_waiting_for_a_commit_leaves_the_index_to_that_commits_hook(
    repo: Path, tmp_path: Path
) -> None:
    """A save waits for a `git commit` under way before it moves HEAD. It took git's index
    lock each time it looked at the process table for one, while the commit's hooks ran
    without it: a hook that staged the ledger in that moment met the lock (the commit landed
    without its event, the ledger left modified in the work tree), and a user's hook's `git
    add` fails on it outright. Here the save is paused where it waits (a failpoint) while
    tg-git's hook counts and stages the commit: the index must be free."""
    started, go = tmp_path / "started", tmp_path / "go"
    _gate_before_tg_gits_hook(repo, started, go)
    (repo / "work.py").write_text("value = compute(1, 'the user', 'work')\n")
    git(repo, "add", "work.py")
    made = subprocess.Popen(
        ["git", "commit", "-q", "-m", "work"], cwd=repo, stderr=subprocess.PIPE, text=True
    )
    _until(started.exists, "the commit's hooks started")
    save = _paused_save(repo, "index-wait", "the save waits for the commit")
    go.touch()
    _, said = made.communicate(timeout=60)
    save.send_signal(signal.SIGCONT)
    _, saved = save.communicate(timeout=60)
    assert made.returncode == 0, said
    assert save.returncode == 0, saved
    assert git(repo, "status", "--porcelain").stdout == ""
    rel = str(ledger_file(repo).relative_to(repo))
    work = git(repo, "log", "--format=%H", "--grep=^work$").stdout.strip()
    assert rel in git(repo, "show", "--format=", "--name-only", work).stdout  # its event
    assert git(repo, "rev-parse", "HEAD^").stdout.strip() == work  # the save made again on top
    assert git(repo, "tag", "--points-at", "HEAD").stdout.startswith("checkpoint/")


def test_a_commit_hook_waits_for_another_git_commands_index_lock(repo: Path) -> None:
    """The hook stages the ledger while another git command may hold the index lock for a
    moment (an editor's `git status`, a save moving HEAD): it waits for the lock. It meant
    to, but looked for the lock's name in the last line of git's message, which does not
    hold it: the hook failed at once, and the commit landed without its event (the ledger
    left modified in the work tree). The hook is paused just before it stages (a failpoint)
    while the lock is taken; the lock is given back half a second after the hook goes on,
    well within the hook's wait for it (seconds)."""
    (repo / "work.py").write_text("value = compute(1, 'the user', 'work')\n")
    git(repo, "add", "work.py")
    env = {**os.environ, "TG_GIT_FAILPOINT": "before-stage:stop"}
    made = subprocess.Popen(
        ["git", "commit", "-q", "-m", "work"], cwd=repo, env=env, stderr=subprocess.PIPE, text=True
    )
    hook = _stopped_child(made.pid)
    lock = repo / ".git" / "index.lock"
    lock.write_text("")
    try:
        os.kill(hook, signal.SIGCONT)
        time.sleep(0.5)
    finally:
        lock.unlink()
    _, said = made.communicate(timeout=60)
    assert made.returncode == 0, said
    assert git(repo, "status", "--porcelain").stdout == "", said
    rel = str(ledger_file(repo).relative_to(repo))
    assert rel in git(repo, "show", "--format=", "--name-only", "HEAD").stdout  # its event


def test_a_save_ended_while_it_holds_the_index_lock_leaves_no_lock_behind(repo: Path) -> None:
    """A save holds git's index lock while it moves HEAD. What an agent's timeout sends a hook
    run (SIGTERM: OpenCode's plugin, Gemini CLI, Claude Code; tg-git's own bound: SIGALRM)
    ended it there and left `.git/index.lock`: every git command refused to run until it was
    removed by hand. Such a signal now waits until the lock is let go. Here the save is
    paused holding the lock (a failpoint), sent SIGTERM, and let go on: it ends, without the
    lock, and the next commit finishes what it saved."""
    save = _paused_save(repo, "index-held", "the save holds the index lock")
    lock = repo / ".git" / "index.lock"
    assert lock.exists()
    save.send_signal(signal.SIGTERM)
    save.send_signal(signal.SIGCONT)
    save.communicate(timeout=60)
    assert save.returncode == -signal.SIGTERM  # ended by the signal, once the lock was let go
    assert not lock.exists()
    (repo / "work.py").write_text("value = compute(1, 'the user', 'work')\n")
    git(repo, "add", "work.py")
    made = git(repo, "commit", "-q", "-m", "work", check=False)
    assert made.returncode == 0, made.stderr
    assert git(repo, "status", "--porcelain").stdout == "", made.stderr
    assert git(repo, "tag", "--list", "checkpoint/*").stdout.strip(), made.stderr  # finished
