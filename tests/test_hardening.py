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

from tests.conftest import TG_GIT, commit, git, ledger_at, ledger_file, tg
from tg_git.estimate import estimate_tokens
from tg_git.ledger import parse


def status(repo: Path) -> dict[str, object]:
    return json.loads(tg(repo, "status", "--json").stdout)


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
                git(where, "add", f"c{i}.py", check=False)
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


def test_aborted_partial_commit_is_neither_refused_nor_counted(repo: Path) -> None:
    (repo / "a.txt").write_text("alpha beta gamma\n")
    git(repo, "add", "a.txt")
    before = status(repo)["output"]
    aborted = subprocess.run(["git", "commit", "-q", "-m", "", "--", "a.txt"], cwd=repo,
                             capture_output=True, text=True)  # fmt: skip
    assert aborted.returncode != 0
    assert status(repo)["output"] == before  # the dropped attempt is not counted
    proc = commit(repo, "-m", "a", "--", "a.txt")
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
    assert proc.returncode == 1 and "internal error" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


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
