"""Concurrency, half-finished writes, odd files and resource limits (issue 14), through real git."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import TG_GIT
from tests.conftest import commit
from tests.conftest import git
from tests.conftest import ledger_at
from tests.conftest import ledger_file
from tests.conftest import read_only
from tests.conftest import restricted
from tests.conftest import status
from tests.conftest import tg
from tg_git.domain.errors import ExitCode
from tg_git.domain.eventlog import parse
from tg_git.estimate.estimator import estimate_tokens


def labels(text: str) -> list[str]:
    return [str(e.get("label")) for e in parse(text).values() if e["kind"] == "input"]


def test_parallel_records_and_commits_in_two_worktrees(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt", str(other))
    env = {**os.environ}

    def record(n: int) -> subprocess.CompletedProcess[str]:
        where = repo if n % 2 else other
        return subprocess.run([TG_GIT, "record", "--tokens", "1", "--label", f"r{n}"], cwd=where,
                              capture_output=True, text=True, env=env)  # fmt: skip

    def commit_some(where: Path) -> list[str]:
        errors = []
        for i in range(3):
            (where / f"c{i}.py").write_text(f"value_{i} = {i}\n")
            for _attempt in range(200):
                proc = git(where, "add", f"c{i}.py", check=False)  # may meet a record's lock
                if proc.returncode == 0:
                    proc = subprocess.run(["git", "commit", "-q", "-m", f"c{i}"], cwd=where,
                                          capture_output=True, text=True, env=env)  # fmt: skip
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
        commit(where, "-m", "carry the records")
        assert git(where, "status", "--porcelain").stdout == ""
    found = labels(ledger_at(repo)) + labels(ledger_at(other))
    assert sorted(found) == sorted(f"r{n}" for n in range(50))  # each exactly once


@pytest.mark.parametrize("abort", ["empty message", "failing commit-msg hook"])
def test_aborted_partial_commit_is_neither_refused_nor_counted(repo: Path, abort: str) -> None:
    (repo / "a.txt").write_text("alpha beta gamma\n")
    git(repo, "add", "a.txt")
    before = status(repo)["output"]
    message = ""
    if abort == "failing commit-msg hook":
        hook = repo / ".git" / "hooks" / "commit-msg"
        hook.write_text('#!/bin/sh\ngrep -q ok "$1"\n')
        hook.chmod(0o755)
        message = "a bad message"
    aborted = subprocess.run(["git", "commit", "-q", "-m", message, "--", "a.txt"], cwd=repo,
                             capture_output=True, text=True)  # fmt: skip
    assert aborted.returncode != 0
    left = git(repo, "status", "--porcelain").stdout.splitlines()  # tg-git's own write may stay
    assert [ln for ln in left if not ln.startswith(" M .tg-git/ledger/")] == ["A  a.txt"]
    message = message.replace("a bad message", "ok")
    assert status(repo)["output"] == before  # the dropped attempt is not counted
    proc = commit(repo, "-m", message or "a", "--", "a.txt")
    assert "refused" not in proc.stderr
    assert status(repo)["output"] == before + estimate_tokens("alpha beta gamma", "a.txt")  # type: ignore[operator]
    assert git(repo, "status", "--porcelain").stdout == ""


def test_record_when_the_index_is_locked_still_records(repo: Path) -> None:
    lock = repo / ".git" / "index.lock"
    lock.write_text("")
    try:
        proc = tg(repo, "record", "--tokens", "42", "--label", "locked")
    finally:
        lock.unlink()
    assert "could not stage" in proc.stderr
    assert status(repo)["input"] == 42
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    commit(repo, "-m", "x")  # the next commit carries the event
    assert "locked" in labels(ledger_at(repo))


def test_unwritable_ledger_folder_is_one_clear_line(repo: Path) -> None:
    folder = repo / ".tg-git" / "ledger"
    shutil.rmtree(folder)
    folder.write_text("not a folder\n")
    proc = tg(repo, "record", "--tokens", "1", check=False)
    assert proc.returncode == 0 and "the next commit writes it" in proc.stderr  # journaled
    assert len(proc.stderr.strip().splitlines()) == 1


def _journal_file(repo: Path) -> Path:
    (found,) = (repo / ".git" / "tg-git" / "journal").rglob(ledger_file(repo).name)
    return found


def _held_fsize(repo: Path, condition: str) -> int | None:
    """For a full disk: a file size limit under which the journal's append (under .git)
    fits and the ledger file's rewrite does not."""
    if condition != "disk full for the ledger file":
        return None
    size = ledger_file(repo).stat().st_size
    tg(repo, "record", "--tokens", "4", "--label", "p1")  # a line like the one to come
    commit(repo, "-q", "-m", "p1")
    line = ledger_file(repo).stat().st_size - size
    low, high = _journal_file(repo).stat().st_size, ledger_file(repo).stat().st_size
    assert high - low > 60, "the ledger file's header makes it the larger of the two"
    return (low + high) // 2 + line


def _record_held(repo: Path, fsize: int | None) -> subprocess.CompletedProcess[str]:
    """`record` while the ledger file cannot be written but the journal (under .git) can."""
    with read_only(repo / ".tg-git", fsize is None):
        return restricted(repo, TG_GIT, "record", "--tokens", "4", "--label", "held", fsize=fsize)


@pytest.mark.parametrize("condition", ["read-only .tg-git", "disk full for the ledger file"])
def test_a_record_that_cannot_write_the_ledger_file_is_one_clear_line(
    repo: Path, condition: str
) -> None:
    fsize = _held_fsize(repo, condition)
    before = ledger_file(repo).read_bytes()
    proc = _record_held(repo, fsize)
    assert proc.returncode in (0, 1) and proc.stderr.startswith("tg-git: ")
    one_clear_line(proc.stderr)
    assert ledger_file(repo).read_bytes() == before  # never half a file
    assert git(repo, "status", "--porcelain").stdout == ""


@pytest.mark.parametrize("condition", ["read-only .tg-git", "disk full for the ledger file"])
def test_a_record_that_said_it_failed_never_comes_back(repo: Path, condition: str) -> None:
    fsize = _held_fsize(repo, condition)
    start = int(status(repo)["input"])  # type: ignore[call-overload]
    proc = _record_held(repo, fsize)
    if proc.returncode != 0:  # the user was told it failed, so retries
        tg(repo, "record", "--tokens", "4", "--label", "held")
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    commit(repo, "-m", "x")
    assert labels(ledger_at(repo)).count("held") == 1
    assert status(repo)["input"] == start + 4
    assert git(repo, "status", "--porcelain").stdout == ""


def test_crlf_ledger_blob_is_not_refused_forever(repo: Path) -> None:
    path = ledger_file(repo)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    git(repo, "add", str(path))
    commit(repo, "--no-verify", "-m", "crlf ledger")
    (repo / "b.txt").write_text("bravo charlie\n")
    git(repo, "add", "b.txt")
    before = status(repo)["output"]
    commit(repo, "-m", "b")
    assert status(repo)["output"] == before + estimate_tokens("bravo charlie", "b.txt")  # type: ignore[operator]


def test_huge_hand_written_line_is_bounded_and_repaired(repo: Path) -> None:
    path = ledger_file(repo)
    path.write_text(path.read_text() + "junk = '" + "x" * 30_000_000 + "'\n")
    git(repo, "add", str(path))
    commit(repo, "--no-verify", "-m", "huge line")
    (repo / "c.txt").write_text("charlie\n")
    git(repo, "add", "c.txt")
    start = time.perf_counter()
    proc = commit(repo, "-m", "c")
    assert "repaired" in proc.stderr and "xxxx" not in path.read_text()
    print(f"hook with a 30 MB junk line: {time.perf_counter() - start:.2f} s")


def test_missing_git_is_a_clear_error(repo: Path) -> None:
    bin_dir = Path(sys.executable).parent
    proc = subprocess.run([TG_GIT, "status"], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "PATH": str(bin_dir)})  # fmt: skip
    assert proc.returncode == 1 and "git is not installed" in proc.stderr


def test_hook_bug_passes_the_commit_unless_debugging(repo: Path) -> None:
    (repo / "d.txt").write_text("delta\n")
    git(repo, "add", "d.txt")
    crashed = commit(repo, "-m", "d", env={"TG_GIT_FAILPOINT": "hook-crash"})
    assert "internal error" in crashed.stderr
    (repo / "e.txt").write_text("echo\n")
    git(repo, "add", "e.txt")
    debug = commit(repo, "-m", "e", check=False, env={"TG_GIT_FAILPOINT": "hook-crash",
                                                    "TG_GIT_DEBUG": "1"})  # fmt: skip
    assert debug.returncode != 0 and "Traceback" in debug.stderr


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "/etc/hostname"])
def test_estimate_never_follows_links_out_of_a_folder(tmp_path: Path, target: str) -> None:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "a.py").write_text("a = 1\n")
    if target == "fifo":
        os.mkfifo(tmp_path / "pipe")
        target = str(tmp_path / "pipe")
    (folder / "link").symlink_to(target)
    proc = subprocess.run([TG_GIT, "estimate", str(folder), "--json"], capture_output=True,
                          text=True, timeout=20)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    files = {Path(f["path"]).name: f["tokens"] for f in json.loads(proc.stdout)["files"]}
    assert files["link"] == estimate_tokens(target, "link")  # the link text, not the target
    if target == "/dev/zero":
        named = subprocess.run([TG_GIT, "estimate", "/dev/zero"], capture_output=True, text=True,
                               timeout=20)  # fmt: skip
        assert named.returncode == 1 and "not a regular file" in named.stderr


# ---- a read-only .git and a full disk, for real ---------------------------------------------
# Helpers: `modes_bind` in conftest (as root, modes bind; RLIMIT_FSIZE stands for a full disk).


def one_clear_line(stderr: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) <= 1, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr


def git_lines(proc_stderr: str) -> str:
    """tg-git's own lines of a commit's stderr (git adds its own `fatal:`/`error:` lines)."""
    return "\n".join(ln for ln in proc_stderr.splitlines() if ln.startswith("tg-git"))


def _grow_ledger(repo: Path, beyond: int) -> None:
    """Record events until the session's ledger file is larger than ``beyond`` bytes."""
    n = 0
    while ledger_file(repo).stat().st_size <= beyond:
        tg(repo, "record", "--tokens", "1", "--label", f"pad{n}-" + "p" * 150)
        n += 1
    commit(repo, "-q", "--allow-empty", "-m", "padding")


def _git_files_limit(repo: Path) -> int:
    """A file size limit every file git writes for one small commit stays under."""
    git_dir = repo / ".git"
    sizes = [(git_dir / n).stat().st_size for n in ("index", "logs/HEAD", "logs/refs/heads/main")]
    return max(sizes) + 1024


def _the_users_work(repo: Path) -> tuple[str, str]:
    (repo / "a.txt").write_text("alpha beta gamma\n")
    git(repo, "add", "a.txt")
    unstaged = "# demo\nan unstaged line of the user's\n"
    (repo / "README.md").write_text(unstaged)
    return "a.txt", unstaged


def _assert_work_survived(repo: Path, unstaged: str) -> None:
    assert (repo / "README.md").read_text() == unstaged
    changed = git(repo, "diff", "--name-only").stdout.split()  # tg-git's ledger may be there
    assert [n for n in changed if not n.startswith(".tg-git/ledger/")] == ["README.md"]
    assert git(repo, "show", ":a.txt").stdout == "alpha beta gamma\n"


@pytest.mark.parametrize("condition", ["read-only .git", "read-only objects", "full disk"])
def test_read_only_git_dir_or_full_disk_loses_nothing(repo: Path, condition: str) -> None:
    """Nothing can be written where git writes: the commit cannot happen, tg-git says so in one
    line, and once the condition goes away nothing is refused, lost or counted twice."""
    _grow_ledger(repo, 0)
    before = status(repo)
    head = git(repo, "rev-parse", "HEAD").stdout
    _the_users_work(repo)
    unstaged = (repo / "README.md").read_text()
    fsize = 0 if condition == "full disk" else None
    target = repo / (".git" if condition == "read-only .git" else ".git/objects")
    with read_only(target, fsize is None):
        probe = restricted(repo, "sh", "-c", f"echo x > '{target}/probe'", fsize=fsize)
        assert probe.returncode != 0, "the condition does not bite: the test would prove nothing"
        rec = restricted(repo, TG_GIT, "record", "--tokens", "5", "--label", "held", fsize=fsize)
        attempt = restricted(repo, "git", "commit", "-q", "-m", "a", fsize=fsize)
    one_clear_line(rec.stderr)
    one_clear_line(git_lines(attempt.stderr))
    assert rec.returncode in (0, 1), rec.stderr
    assert attempt.returncode != 0  # git itself cannot write the commit
    assert git(repo, "rev-parse", "HEAD").stdout == head
    _assert_work_survived(repo, unstaged)

    if rec.returncode != 0:  # refused in one line: nothing of it was kept; the retry records it
        assert "held" not in labels(ledger_at(repo, ":")) + labels(ledger_file(repo).read_text())
        tg(repo, "record", "--tokens", "5", "--label", "held")
    (repo / "b.txt").write_text("bravo charlie delta\n")
    git(repo, "add", "b.txt")
    landed = commit(repo, "-m", "a and b")  # not refused for tg-git's own unstaged ledger edit
    assert "refused" not in landed.stderr
    after = status(repo)
    assert after["output"] == before["output"] + estimate_tokens(  # type: ignore[operator]
        "alpha beta gamma", "a.txt"
    ) + estimate_tokens("bravo charlie delta", "b.txt")
    assert after["input"] == before["input"] + 5  # type: ignore[operator]
    assert labels(ledger_at(repo)).count("held") == 1
    assert git(repo, "status", "--porcelain").stdout == " M README.md\n"
    assert tg(repo, "verify", check=False).returncode == 0


@pytest.mark.parametrize("condition", ["read-only tg-git state", "disk full for the ledger"])
def test_commit_git_can_write_but_tg_git_cannot(repo: Path, condition: str) -> None:
    """git can still commit, tg-git cannot write its ledger or lock: the commit is not blocked,
    tg-git says in one line that it is not counted, and the user's work is intact."""
    fsize = None
    if condition == "disk full for the ledger":
        fsize = _git_files_limit(repo)
        _grow_ledger(repo, fsize + 256)  # git's files fit, the ledger's rewrite does not
        fsize = max(fsize, _git_files_limit(repo))
        assert ledger_file(repo).stat().st_size > fsize
    head = git(repo, "rev-parse", "HEAD").stdout
    _the_users_work(repo)
    unstaged = (repo / "README.md").read_text()
    state = repo / ".git" / "tg-git"
    with read_only(state, fsize is None):
        rec = restricted(repo, TG_GIT, "record", "--tokens", "5", "--label", "held", fsize=fsize)
        attempt = restricted(repo, "git", "commit", "-q", "-m", "a", fsize=fsize)
    one_clear_line(rec.stderr)
    assert rec.returncode == 1 and "held" not in labels(ledger_file(repo).read_text())
    assert attempt.returncode == 0, attempt.stderr
    said = git_lines(attempt.stderr)
    one_clear_line(said)
    assert "not counted" in said and "not blocked" in said
    assert git(repo, "rev-parse", "HEAD^").stdout == head
    assert (repo / "README.md").read_text() == unstaged
    assert git(repo, "status", "--porcelain").stdout == " M README.md\n"  # nothing of tg-git's


@pytest.mark.parametrize("condition", ["read-only tg-git state", "disk full for the ledger"])
def test_commit_landed_uncounted_is_loud_and_named_by_verify(repo: Path, condition: str) -> None:
    """SPEC: only when a repair is impossible does a commit pass uncounted, and then loudly;
    verify (so pre-push) names it, as it names a `--no-verify` commit."""
    fsize = None
    if condition == "disk full for the ledger":
        fsize = _git_files_limit(repo)
        _grow_ledger(repo, fsize + 256)
        fsize = max(fsize, _git_files_limit(repo))
    before = status(repo)["output"]
    _the_users_work(repo)
    state = repo / ".git" / "tg-git"
    with read_only(state, fsize is None):
        attempt = restricted(repo, "git", "commit", "-q", "-m", "a", fsize=fsize)
    assert attempt.returncode == 0, attempt.stderr
    assert "this commit is not counted" in attempt.stderr
    uncounted = git(repo, "rev-parse", "--short", "HEAD").stdout.strip()
    (repo / "b.txt").write_text("bravo charlie delta\n")
    git(repo, "add", "b.txt")
    commit_b = commit(repo, "-m", "b")
    b = estimate_tokens("bravo charlie delta", "b.txt")
    checked = tg(repo, "verify", check=False)
    if fsize is not None:  # the hook noted the commit it missed: the next commit counts it
        assert status(repo)["output"] > before + b  # type: ignore[operator]
        assert checked.returncode == 0 and uncounted in attempt.stderr + commit_b.stderr
        return
    # Nowhere to note it (read-only state): verify names it, and the command that counts it.
    assert status(repo)["output"] == before + b  # type: ignore[operator]
    assert checked.returncode == ExitCode.DRIFT and uncounted in checked.stdout + checked.stderr
    assert f"tg-git verify --accept {uncounted}" in checked.stdout


WRITERS = [["task", "add", "x"], ["note", "n"], ["next", "s"], ["record", "--tokens", "3"],
           ["checkpoint"], ["session", "start"], ["resume"], ["install"], ["repair"]]  # fmt: skip


def _prepare(repo: Path) -> None:
    tg(repo, "checkpoint")  # something for resume to resume from...
    (repo / "after.txt").write_text("after the checkpoint\n")
    git(repo, "add", "after.txt")
    commit(repo, "-m", "after")  # ...and something new for the next


def _every_writer(
    repo: Path, condition: str
) -> list[tuple[list[str], subprocess.CompletedProcess[str]]]:
    fsize = 0 if condition == "full disk" else None
    with read_only(repo / ".git", fsize is None):
        return [(args, restricted(repo, TG_GIT, *args, fsize=fsize)) for args in WRITERS]


@pytest.mark.parametrize("condition", ["read-only .git", "full disk"])
def test_every_writing_command_fails_in_one_line_and_changes_nothing(
    repo: Path, condition: str
) -> None:
    _prepare(repo)
    files = {p: p.read_bytes() for p in (repo / ".tg-git").rglob("*") if p.is_file()}
    head, index = git(repo, "rev-parse", "HEAD").stdout, (repo / ".git" / "index").read_bytes()
    for args, proc in _every_writer(repo, condition):
        assert proc.returncode == 1, (args, proc.stderr)
        assert proc.stderr.startswith("tg-git: "), (args, proc.stderr)
        one_clear_line(proc.stderr)
        if args == ["install"]:  # an OSError that reaches main: the advice fits the cause
            fix = "free some disk space" if condition == "full disk" else "make it writable"
            assert fix in proc.stderr, proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout == head
    assert (repo / ".git" / "index").read_bytes() == index
    assert {p: p.read_bytes() for p in (repo / ".tg-git").rglob("*") if p.is_file()} == files
    assert git(repo, "status", "--porcelain").stdout == ""


def test_a_full_disk_is_named_as_such(repo: Path) -> None:
    _prepare(repo)
    for args, proc in _every_writer(repo, "full disk"):
        assert "writable" not in proc.stderr, (args, proc.stderr)
