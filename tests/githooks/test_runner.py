"""End-to-end: real `git commit` through the installed native hooks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import commit_file
from tests.support.repos import git
from tests.support.repos import ledger_at
from tests.support.repos import ledger_file
from tests.support.repos import status
from tests.support.repos import tg
from tg_git.domain.eventlog import parse
from tg_git.domain.replay import Session
from tg_git.domain.replay import replay
from tg_git.estimate.estimator import estimate_tokens


def head_session(repo: Path, rev: str = "HEAD") -> Session:
    """The session replayed from the ledger files at ``rev``."""
    session = replay(parse(ledger_at(repo, rev)))
    assert session is not None, f"no session in the ledger files at {rev}"
    return session


def out(repo: Path) -> int:
    return int(status(repo)["output"])


PY = "def handler(event, context):\n    return {'status': 200, 'body': event['name']}\n"


def test_plain_commit_counts_the_added_lines(repo: Path) -> None:
    (repo / "app.py").write_text(PY)
    git(repo, "add", "app.py")
    proc = commit(repo, "-m", "add app")
    assert "tg-git 🔋" in proc.stderr
    assert head_session(repo).output == out(repo) == estimate_tokens(PY.rstrip("\n"), "app.py")
    assert git(repo, "status", "--porcelain").stdout == ""


def test_unstaged_changes_in_other_files_survive(repo: Path) -> None:
    (repo / "a.py").write_text(PY)
    (repo / "b.py").write_text("x = 1\n")
    git(repo, "add", "a.py", "b.py")
    commit(repo, "-m", "two files")
    (repo / "b.py").write_text("x = 2  # unstaged\n")
    (repo / "a.py").write_text(PY + "# staged\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a only")
    assert (repo / "b.py").read_text() == "x = 2  # unstaged\n"
    assert git(repo, "status", "--porcelain").stdout == " M b.py\n"


def test_commit_all(repo: Path) -> None:
    (repo / "README.md").write_text("# demo\n\nMore words here.\n")
    before = out(repo)
    commit(repo, "-a", "-m", "all")
    # the added lines ("" and "More words here.") are what counts, not the whole file
    assert out(repo) == before + estimate_tokens("\nMore words here.", "README.md")
    assert git(repo, "status", "--porcelain").stdout == ""


def test_partial_commit_then_no_verify_never_goes_backwards(repo: Path) -> None:
    (repo / "one.py").write_text(PY)
    (repo / "two.py").write_text(PY.replace("handler", "other"))
    git(repo, "add", "one.py", "two.py")
    commit(repo, "-m", "only one", "--", "one.py")
    after_partial = head_session(repo).output
    assert after_partial == estimate_tokens(PY.rstrip("\n"), "one.py")  # two.py is not in it
    # The real index must hold the committed ledger: nothing of ours left to commit.
    assert git(repo, "diff", "--cached", "--name-only").stdout == "two.py\n"
    commit(repo, "--no-verify", "-m", "bypass")
    assert head_session(repo).output == after_partial  # a bypass adds nothing, removes nothing


def test_amend_with_and_without_changes_counts_once(repo: Path) -> None:
    (repo / "a.py").write_text(PY)
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")
    first = out(repo)
    commit(repo, "--amend", "-m", "a, reworded")
    assert out(repo) == first
    (repo / "b.py").write_text("y = 2\n")
    git(repo, "add", "b.py")
    commit(repo, "--amend", "-m", "a and b")
    assert out(repo) == first + estimate_tokens("y = 2", "b.py")


def test_failed_later_hook_then_retry_counts_once(repo: Path) -> None:
    hooks = Path(git(repo, "rev-parse", "--git-path", "hooks").stdout.strip())
    hooks = hooks if hooks.is_absolute() else repo / hooks
    msg_hook = hooks / "commit-msg"
    msg_hook.write_text('#!/bin/sh\ngrep -q ok "$1"\n')
    msg_hook.chmod(0o755)
    (repo / "a.py").write_text(PY)
    git(repo, "add", "a.py")
    assert commit(repo, "-m", "bad message", check=False).returncode != 0
    commit(repo, "-m", "ok now")
    assert out(repo) == estimate_tokens(PY.rstrip("\n"), "a.py")
    commit_events = [
        e for e in parse(ledger_file(repo).read_text()).values() if e["kind"] == "commit"
    ]
    assert len(commit_events) == 1


def test_unborn_branch(plain_repo: Path) -> None:
    tg(plain_repo, "init")
    tg(plain_repo, "install")
    (plain_repo / "a.py").write_text(PY)
    git(plain_repo, "add", "a.py")
    commit(plain_repo, "-m", "root commit")
    assert out(plain_repo) == estimate_tokens(PY.rstrip("\n"), "a.py")


def test_allow_empty_adds_nothing(repo: Path) -> None:
    before = ledger_file(repo).read_text()
    commit(repo, "--allow-empty", "-m", "empty")
    assert ledger_file(repo).read_text() == before


def test_merge_with_conflict_counts_the_resolution_only(repo: Path) -> None:
    (repo / "f.txt").write_text("base\n")
    git(repo, "add", "f.txt")
    commit(repo, "-m", "base")
    git(repo, "checkout", "-q", "-b", "side")
    base = out(repo)
    (repo / "f.txt").write_text("side change with several words\n")
    commit(repo, "-a", "-m", "side")
    side = out(repo) - base
    git(repo, "checkout", "-q", "main")
    (repo / "f.txt").write_text("main change with other words\n")
    commit(repo, "-a", "-m", "main")
    assert git(repo, "merge", "side", check=False).returncode != 0
    resolution = "resolved: both changes kept in one line\n"
    (repo / "f.txt").write_text(resolution)
    git(repo, "add", "f.txt")
    before = out(repo)
    commit(repo, "--no-edit")
    # side's event counted once already (the session spent it); the merge pays its resolution
    assert side == estimate_tokens("side change with several words", "f.txt")
    assert out(repo) - before == estimate_tokens(resolution.rstrip("\n"), "f.txt")


def test_branches_merge_without_conflict_and_replay_equals_sum(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "left")
    (repo / "left.py").write_text(PY)
    git(repo, "add", "left.py")
    commit(repo, "-m", "left")
    left = out(repo)
    git(repo, "checkout", "-q", "main")
    (repo / "right.md").write_text("# Right\n\nSome prose on the right branch.\n")
    git(repo, "add", "right.md")
    commit(repo, "-m", "right")
    right = out(repo) - left  # the session's spend on left counts here too, once
    merge = git(repo, "merge", "--no-edit", "left", check=False)
    assert merge.returncode == 0, merge.stdout + merge.stderr
    assert out(repo) == left + right
    parse(ledger_file(repo).read_text())  # still valid TOML


def test_rebase_reword_and_cherry_pick(repo: Path) -> None:
    (repo / "a.py").write_text(PY)
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")
    (repo / "b.py").write_text("b = 1\n")
    git(repo, "add", "b.py")
    commit(repo, "-m", "b")
    total = out(repo)
    env = {
        "GIT_SEQUENCE_EDITOR": "sed -i -e '1s/^pick/reword/'",
        "GIT_EDITOR": "sed -i -e '1s/.*/a reworded/'",
    }
    proc = git(repo, "rebase", "-i", "HEAD~2", env={**__import__("os").environ, **env}, check=False)
    assert proc.returncode == 0, proc.stderr
    assert out(repo) == total
    git(repo, "checkout", "-q", "-b", "other", "HEAD~2")
    (repo / "c.py").write_text("c = 3\n")
    git(repo, "add", "c.py")
    commit(repo, "-m", "c")
    pick = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "checkout", "-q", "main")
    git(repo, "cherry-pick", pick)
    assert out(repo) == total + estimate_tokens("c = 3", "c.py")


def test_linked_worktree(repo: Path, tmp_path: Path) -> None:
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt", str(wt))
    (wt / "w.py").write_text(PY)
    git(wt, "add", "w.py")
    proc = commit(wt, "-m", "in worktree")
    assert "tg-git 🔋" in proc.stderr
    assert head_session(wt).output == estimate_tokens(PY.rstrip("\n"), "w.py")


def test_renames_deletions_binary_odd_paths(repo: Path) -> None:
    (repo / "old name.py").write_text(PY)
    (repo / "ünïcödé.md").write_text("# 한글 제목\n\n본문입니다.\n")
    (repo / "latin1.txt").write_bytes("café\n".encode("latin-1"))
    (repo / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    (repo / "deps.lock").write_text("lots of lock data\n" * 100)
    git(repo, "add", ".")
    files = json.loads(tg(repo, "estimate", "--staged", "--json").stdout)["files"]
    by_path = {f["path"]: f for f in files}
    assert by_path["blob.bin"]["binary"] is True and by_path["blob.bin"]["tokens"] == 0
    assert by_path["deps.lock"]["excluded"] is True and by_path["deps.lock"]["tokens"] == 0
    text_files = {  # what each text file counts as: its text, an undecodable byte replaced
        "old name.py": PY.rstrip("\n"),
        "ünïcödé.md": "# 한글 제목\n\n본문입니다.",
        "latin1.txt": "caf\ufffd",
    }
    expected = {p: estimate_tokens(t, p) for p, t in text_files.items()}
    assert {p: by_path[p]["tokens"] for p in text_files} == expected
    before_commit = out(repo)
    commit(repo, "-m", "odd files")
    events = [e for e in head_session(repo).outputs]
    assert len(events) == 1 and out(repo) == before_commit + sum(expected.values())
    assert git(repo, "status", "--porcelain").stdout == ""
    before = out(repo)
    git(repo, "mv", "old name.py", "new name.py")
    git(repo, "rm", "-q", "ünïcödé.md")
    commit(repo, "-m", "rename and delete")
    assert out(repo) == before + estimate_tokens(PY.rstrip("\n"), "new name.py")


def test_estimate_staged_matches_the_hook(repo: Path) -> None:
    (repo / "x.py").write_text(PY * 3)
    (repo / "package-lock.json").write_text('{"a": 1}\n')
    git(repo, "add", ".")
    staged = json.loads(tg(repo, "estimate", "--staged", "--json").stdout)
    lock = next(f for f in staged["files"] if f["path"] == "package-lock.json")
    assert lock.get("excluded") is True and lock["tokens"] == 0
    before = out(repo)
    commit(repo, "-m", "x")
    assert out(repo) - before == staged["total"]


def test_unstaged_ledger_edit_is_refused_and_kept(repo: Path) -> None:
    ledger = ledger_file(repo)
    edited = ledger.read_text() + "# my own note\n"
    ledger.write_text(edited)
    (repo / "a.py").write_text(PY)
    git(repo, "add", "a.py")
    proc = commit(repo, "-m", "a", check=False)
    assert proc.returncode == 1 and "unstaged edits" in proc.stderr
    assert ledger.read_text() == edited
    git(repo, "add", str(ledger))
    commit(repo, "-m", "a")
    assert "# my own note" in ledger_at(repo)


def test_corrupt_config_lets_the_commit_through_with_one_line(repo: Path) -> None:
    path = repo / ".tg-git" / "config.toml"
    path.write_text(path.read_text() + "this is = = not toml\n")
    git(repo, "add", str(path))
    (repo / "a.py").write_text(PY)
    git(repo, "add", "a.py")
    proc = commit(repo, "-m", "a")
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("tg-git:")]
    assert len(line) == 1 and "not valid TOML" in line[0] and "was not blocked" in line[0]
    assert git(repo, "log", "-1", "--format=%s").stdout.strip() == "a"


def test_record_task_note_next_show_in_status(repo: Path) -> None:
    tg(repo, "record", "--tokens", "1500", "--label", "user request")
    tg(repo, "record", "--input", "please build the parser")
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "tokenizer half done")
    tg(repo, "task", "add", "docs")
    tg(repo, "note", "no network calls")
    tg(repo, "next", "finish the tokenizer")
    st = status(repo)
    expected = 1500 + estimate_tokens("please build the parser", None, "o200k")
    assert st["input"] == expected and st["tasks"] == {"parser": "in_progress", "docs": "pending"}
    assert st["next_steps"] == ["finish the tokenizer"]
    assert git(repo, "diff", "--name-only").stdout == ""  # all staged, nothing unstaged
    table = tg(repo, "status").stdout
    assert "## 🔋 Token gauge" in table and f"| ~{st['input']:,} |" in table


def test_warning_block_in_korean(repo: Path) -> None:
    config = repo / ".tg-git/config.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    git(repo, "add", str(config))
    tg(repo, "session", "start", "--max-tokens", "100")
    tg(repo, "task", "add", "다음 작업")
    tg(repo, "record", "--tokens", "80")
    proc = commit_file(repo, "a.txt", "ok\n")
    assert "토큰 경고" in proc.stderr and "다음 작업" in proc.stderr


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
    aborted = subprocess.run(
        ["git", "commit", "-q", "-m", message, "--", "a.txt"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert aborted.returncode != 0
    left = git(repo, "status", "--porcelain").stdout.splitlines()  # tg-git's own write may stay
    assert [ln for ln in left if not ln.startswith(" M .tg-git/ledger/")] == ["A  a.txt"]
    message = message.replace("a bad message", "ok")
    assert status(repo)["output"] == before  # the dropped attempt is not counted
    proc = commit(repo, "-m", message or "a", "--", "a.txt")
    assert "refused" not in proc.stderr
    assert status(repo)["output"] == before + estimate_tokens("alpha beta gamma", "a.txt")
    assert git(repo, "status", "--porcelain").stdout == ""


def test_missing_git_is_a_clear_error(repo: Path) -> None:
    bin_dir = Path(sys.executable).parent
    proc = subprocess.run(
        [TG_GIT, "status"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": str(bin_dir)},
    )
    assert proc.returncode == 1 and "git is not installed" in proc.stderr


def test_hook_bug_passes_the_commit_unless_debugging(repo: Path) -> None:
    (repo / "d.txt").write_text("delta\n")
    git(repo, "add", "d.txt")
    crashed = commit(repo, "-m", "d", env={"TG_GIT_FAILPOINT": "hook-crash"})
    assert "internal error" in crashed.stderr
    (repo / "e.txt").write_text("echo\n")
    git(repo, "add", "e.txt")
    debug = commit(
        repo, "-m", "e", check=False, env={"TG_GIT_FAILPOINT": "hook-crash", "TG_GIT_DEBUG": "1"}
    )
    assert debug.returncode != 0 and "Traceback" in debug.stderr


def test_post_commit_without_git_on_path_names_git(repo: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TG_GIT_HOOK_GIT_DIR"}
    env["PATH"] = "/nonexistent"
    proc = subprocess.run(
        [TG_GIT, "hook", "post-commit"], cwd=repo, capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0
    assert "git is not installed or not on PATH" in proc.stderr, proc.stderr
