"""Force-save and halt end to end: real commits crossing the thresholds; a save racing the
user's commit never enters it, and a save killed half way is finished by the next command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_at
from tests.support.repos import pending_file
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg


def schema_of(version: str) -> dict[str, object]:
    name = f"schemas/checkpoint-{version}.schema.json"
    return json.loads(resources.files("tg_git").joinpath(name).read_text())  # type: ignore[no-any-return]


def validate(data: dict[str, object]) -> None:
    """The document against the shipped schema of its own version, with `jsonschema`."""
    jsonschema.validate(data, schema_of(str(data["schema_version"])))


def small_budget(repo: Path, budget: int = 1000) -> None:
    tg(repo, "session", "start", "--max-tokens", str(budget))
    tg(repo, "task", "add", "write docs")
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "half done")
    tg(repo, "note", "never call the network")
    tg(repo, "next", "finish the parser")
    commit(repo, "--allow-empty", "-m", "plan")


def test_crossing_90_makes_one_tagged_checkpoint_commit(repo: Path) -> None:
    small_budget(repo)
    tg(repo, "record", "--tokens", "898")
    (repo / "a.txt").write_text("a few more words here\n")
    git(repo, "add", "a.txt")
    proc = commit(repo, "-m", "cross 90")
    assert "saved checkpoint/" in proc.stderr
    assert len(tags(repo)) == 1
    listed = git(repo, "log", "--grep", "checkpoint", "--format=%s").stdout.splitlines()
    assert len(listed) == 1 and listed[0].startswith("checkpoint: force-save")
    assert git(repo, "cat-file", "-t", tags(repo)[0]).stdout.strip() == "tag"  # annotated
    assert (
        git(repo, "rev-parse", "HEAD^{tree}").stdout
        != git(repo, "rev-parse", "HEAD~1^{tree}").stdout
    )
    data = json.loads(git(repo, "show", "HEAD:harness_checkpoint.json").stdout)
    validate(data)
    st = status(repo)
    assert data["session"]["estimated_used"] == st["used"]
    assert data["session"]["max_tokens"] == 1000
    assert data["token_thresholds"] == {"warning": 800, "force_save": 900, "halt": 950}
    assert "a.txt" in data["status"]["completed"]
    assert data["status"]["pending"] == ["write docs"]
    assert data["status"]["in_progress"][0] == {
        "task": "parser",
        "stopping_point": "half done",
        "blockers": [],
    }
    assert "never call the network" in data["critical_context"]
    assert data["next_steps"] == ["finish the parser"]
    md = git(repo, "show", "HEAD:CHECKPOINT.md").stdout
    assert md.startswith("# CHECKPOINT") and "## ✅ Completed" in md
    assert git(repo, "status", "--porcelain").stdout == ""
    # A later commit at the same level makes no second save.
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    commit(repo, "-m", "still force-save")
    assert len(tags(repo)) == 1


def test_checkpoint_leaves_user_states_byte_for_byte(repo: Path) -> None:
    small_budget(repo)
    for name in ("committed.txt", "staged.txt", "unstaged.txt"):
        (repo / name).write_text(f"{name} v1\n")
    git(repo, "add", ".")
    commit(repo, "-m", "files")
    tg(repo, "record", "--tokens", str(895 - status(repo)["used"]))  # just under 90 %
    assert tags(repo) == []
    (repo / "committed.txt").write_text("committed v2 with a few more words to cross\n")
    (repo / "staged.txt").write_text("staged v2\n")
    git(repo, "add", "staged.txt")
    (repo / "unstaged.txt").write_bytes(b"unstaged v2 \xff raw\n")
    staged_blob = git(repo, "rev-parse", ":staged.txt").stdout
    commit(repo, "-m", "partial", "--", "committed.txt")
    assert len(tags(repo)) == 1
    assert git(repo, "rev-parse", ":staged.txt").stdout == staged_blob
    assert (repo / "staged.txt").read_text() == "staged v2\n"
    assert (repo / "unstaged.txt").read_bytes() == b"unstaged v2 \xff raw\n"
    porcelain = set(git(repo, "status", "--porcelain").stdout.splitlines())
    assert porcelain == {"M  staged.txt", " M unstaged.txt"}
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    in_progress = {i["task"] for i in data["status"]["in_progress"]}
    # the started task and the files with uncommitted changes
    assert in_progress == {"parser", "staged.txt", "unstaged.txt"}


def test_jump_past_95_saves_once_then_halts(repo: Path) -> None:
    small_budget(repo)
    assert status(repo)["level"] == "ok"
    tg(repo, "record", "--tokens", "960")  # from under 90 % past 95 %: the record lands it
    assert len(tags(repo)) == 1 and tags(repo)[0].endswith("-halt")  # saved once, the halt
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    refused = commit(repo, "-m", "refused", check=False)
    assert refused.returncode != 0
    assert "Token limit reached" in refused.stderr and "still staged" in refused.stderr
    assert git(repo, "diff", "--cached", "--name-only").stdout == "b.txt\n"
    forced = commit(repo, "-m", "forced", env={"TG_GIT_ALLOW_HALT": "1"})
    assert forced.returncode == 0
    assert '"override" = true' in ledger_at(repo)
    (repo / "c.txt").write_text("c\n")
    git(repo, "add", "c.txt")
    tg(repo, "session", "start")  # lifts the halt
    commit(repo, "-m", "new session")
    assert status(repo)["level"] == "ok"


def test_manual_checkpoint_and_log(repo: Path) -> None:
    tg(repo, "task", "add", "docs")
    first = tg(repo, "checkpoint", "-m", "before lunch").stdout.strip()
    second = tg(repo, "checkpoint").stdout.strip()
    assert first.startswith("checkpoint/") and first.endswith("-manual") and first != second
    assert "before lunch" in git(repo, "log", "-1", "--format=%B", first).stdout
    assert "before lunch" not in git(repo, "log", "-1", "--format=%B", second).stdout
    assert (
        git(repo, "rev-parse", f"{second}^{{commit}}^").stdout
        == git(repo, "rev-parse", f"{first}^{{commit}}").stdout
    )
    rows = json.loads(tg(repo, "log", "--json").stdout)["checkpoints"]
    assert [r["tag"] for r in rows] == [second, first]  # newest first
    assert rows[0]["used"] == status(repo)["used"] and rows[0]["max_tokens"] == 200000
    assert rows[0]["commit"] == git(repo, "rev-parse", "HEAD").stdout.strip()
    lines = tg(repo, "log").stdout.splitlines()
    used = f"~{rows[0]['used']:,}/200,000 tokens"
    assert lines[0].startswith(f"{second}  ") and lines[1].startswith(f"{first}  ")
    assert all(f"  {used}  0 files, 0 tasks completed" in ln for ln in lines[:2]), lines
    assert lines[2:] == ["    before lunch"]  # the message under its checkpoint
    # Only the checkpoint files were committed; the plan event still waits (nothing staged).
    assert git(repo, "status", "--porcelain").stdout == ""
    assert '"docs"' in pending_file(repo).read_text()
    assert '"docs"' not in ledger_at(repo)


def test_checkpoint_markdown_in_korean(repo: Path) -> None:
    config = repo / ".tg-git/config.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    git(repo, "add", str(config))
    tg(repo, "checkpoint")
    md = (repo / "CHECKPOINT.md").read_text()
    for heading in (
        "## ✅ 완료",
        "## 🔄 진행 중",
        "## ⏭️ 다음 단계",
        "## 🔑 필수 컨텍스트",
        "저장 시각",
    ):
        assert heading in md
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    assert "stopping_point부터 재개" in data["resume_instructions"]


@pytest.mark.parametrize("failpoint", ["before-ref", "before-files", "before-tag"])
def test_killed_save_leaves_a_consistent_repo_and_the_next_commit_finishes_it(
    repo: Path, failpoint: str
) -> None:
    small_budget(repo)
    tg(repo, "record", "--tokens", "898")
    (repo / "a.txt").write_text("a few more words here\n")
    git(repo, "add", "a.txt")
    (repo / "wip.txt").write_text("unstaged work\n")
    git(repo, "add", "wip.txt")
    commit(repo, "-m", "cross", "--", "a.txt", env={"TG_GIT_FAILPOINT": failpoint})
    assert git(repo, "fsck", "--no-dangling").returncode == 0
    head_msg = git(repo, "log", "-1", "--format=%s").stdout
    assert head_msg.startswith("checkpoint:") == (failpoint != "before-ref")
    assert tags(repo) == []
    committed = git(repo, "ls-tree", "-r", "--name-only", "HEAD").stdout.split()
    if "harness_checkpoint.json" in committed:
        validate(json.loads(git(repo, "show", "HEAD:harness_checkpoint.json").stdout))
    assert git(repo, "diff", "--cached", "--name-only", "--", "wip.txt").stdout == "wip.txt\n"
    staged = git(repo, "diff", "--cached", "--name-only").stdout.split()
    # Killed before the ref moved, nothing of the save is in the index or the work tree (a
    # commit racing it cannot take its files); killed after, HEAD holds them, and a kill
    # before they reached the index is mended by the next tg-git command (the hook's).
    assert ("harness_checkpoint.json" in staged) == (failpoint == "before-files")
    assert (repo / "harness_checkpoint.json").is_file() == (failpoint == "before-tag")
    # The next commit completes the save: exactly one checkpoint commit, tagged.
    (repo / "b.txt").write_text("b\n")
    git(repo, "add", "b.txt")
    commit(repo, "-m", "next", "--", "b.txt")
    assert len(tags(repo)) == 1
    checkpoints = git(repo, "log", "--grep", "^checkpoint:", "--format=%H").stdout.split()
    assert len(checkpoints) == 1
    assert git(repo, "rev-parse", f"{tags(repo)[0]}^{{commit}}").stdout.split() == checkpoints
    assert (repo / "harness_checkpoint.json").is_file()
    assert git(repo, "diff", "--cached", "--name-only").stdout == "wip.txt\n"


def test_gpgsign_that_cannot_sign_saves_unsigned_and_says_why(repo: Path) -> None:
    git(repo, "config", "commit.gpgsign", "true")
    git(repo, "config", "gpg.program", "false")
    proc = tg(repo, "checkpoint")
    assert "NOT signed" in proc.stderr and "signing failed" in proc.stderr
    assert len(tags(repo)) == 1


def test_no_save_while_a_rebase_is_in_progress(repo: Path) -> None:
    small_budget(repo)
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    commit(repo, "-m", "a")
    tg(repo, "record", "--tokens", str(895 - status(repo)["used"]))  # just under 90 %
    commit(repo, "-m", "record", "--allow-empty")
    assert tags(repo) == [] and status(repo)["level"] == "warning"
    env = {**__import__("os").environ, "GIT_SEQUENCE_EDITOR": "sed -i -e '1s/^pick/edit/'"}
    assert git(repo, "rebase", "-i", "HEAD~1", env=env, check=False).returncode == 0
    (repo / "b.txt").write_text("b more words to cross\n")
    git(repo, "add", "b.txt")
    proc = commit(repo, "-m", "during rebase")
    assert "force-save" in proc.stderr  # the level is reached, but no save mid-rebase
    assert tags(repo) == []
    git(repo, "rebase", "--continue")
    tg(repo, "checkpoint")
    assert len(tags(repo)) == 1


def test_force_save_in_a_linked_worktree(repo: Path, tmp_path: Path) -> None:
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "wt", str(wt))
    small_budget(wt)
    tg(wt, "record", "--tokens", "898")
    (wt / "new-untracked.py").write_text("x = 1\n")
    (wt / "a.txt").write_text("a few more words here\n")
    git(wt, "add", "a.txt")
    proc = commit(wt, "-m", "cross 90 in a worktree")
    assert "saved checkpoint/" in proc.stderr
    data = json.loads((wt / "harness_checkpoint.json").read_text())
    assert {
        "task": "new-untracked.py",
        "stopping_point": "uncommitted changes",
        "blockers": [],
    } in data["status"]["in_progress"]
    assert git(wt, "status", "--porcelain").stdout == "?? new-untracked.py\n"
    assert not (repo / "harness_checkpoint.json").exists()


def test_a_users_edits_of_checkpoint_files_are_kept(repo: Path) -> None:
    tg(repo, "checkpoint")
    (repo / "CHECKPOINT.md").write_text("my own notes, unstaged\n")
    (repo / "harness_checkpoint.json").write_text('{"mine": "staged"}\n')
    git(repo, "add", "harness_checkpoint.json")
    tg(repo, "record", "--tokens", "5")  # something new, so the save is made
    proc = tg(repo, "checkpoint")
    kept = sorted((repo / ".git" / "tg-git" / "kept").iterdir())
    contents = {p.name.split("Z-", 1)[1]: p.read_text() for p in kept}
    assert contents == {
        "CHECKPOINT.md": "my own notes, unstaged\n",
        "harness_checkpoint.json": '{"mine": "staged"}\n',
    }
    assert proc.stderr.count("was kept at") == 2
    # A save with nothing of the user's in the way keeps nothing more.
    tg(repo, "record", "--tokens", "5")
    tg(repo, "checkpoint")
    assert len(list((repo / ".git" / "tg-git" / "kept").iterdir())) == 2


def test_checkpoint_document_keeps_files_tasks_and_blocked_apart(repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "a.py").write_text("x = 1\n")
    git(repo, "add", ".")
    commit(repo, "-m", "add a.py")
    for title in ("parser", "docs", "deploy", "packaging"):
        tg(repo, "task", "add", title)
    tg(repo, "task", "start", "parser", "--at", "lexer done")
    tg(repo, "task", "block", "deploy", "--why", "no credentials yet")
    tg(repo, "task", "done", "packaging")
    commit(repo, "--allow-empty", "-m", "plan")
    tg(repo, "checkpoint", "-m", "before the refactor")
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    validate(data)
    assert data["schema_version"] == "1.2"
    saved = data["status"]
    blob = git(repo, "rev-parse", "HEAD:src/a.py").stdout.strip()
    assert saved["completed_files"] == [{"path": "src/a.py", "blob": blob}]
    assert saved["completed"] == ["src/a.py"]  # the seed's key: files only
    assert saved["completed_tasks"] == ["packaging"]
    assert saved["blocked"] == [
        {"task": "deploy", "stopping_point": "", "blockers": ["no credentials yet"]}
    ]
    assert [i["task"] for i in saved["in_progress"]] == ["parser"]
    assert saved["pending"] == ["docs"]
    assert data["done_this_session"] == {
        "commits": 3,
        "output_tokens": status(repo)["output"],
        "subjects": ["set up tg-git", "add a.py", "plan"],
    }
    assert data["message"] == "before the refactor"
    assert (
        "never" not in data["resume_instructions"]
        and "tg-git resume" in data["resume_instructions"]
    )
    # No absolute path of this machine anywhere in what is committed.
    assert data["session"]["project_root"] == "."
    for name in ("harness_checkpoint.json", "CHECKPOINT.md"):
        assert str(repo) not in git(repo, "show", f"HEAD:{name}").stdout
    md = (repo / "CHECKPOINT.md").read_text()
    for piece in (
        "## ✅ Completed",
        "- src/a.py",
        "- packaging",
        "## ⛔ Blocked",
        "**deploy** — blocked by: no credentials yet",
        "## 📝 Done this session",
        "  - add a.py",
        "> Message: before the refactor",
    ):
        assert piece in md, piece


def test_completed_files_carry_over_across_sessions(repo: Path) -> None:
    (repo / "one.py").write_text("one = 1\n")
    (repo / "two.py").write_text("two = 2\n")
    git(repo, "add", ".")
    commit(repo, "-m", "session 1 files")
    tg(repo, "checkpoint")
    tg(repo, "resume", "--commit")
    (repo / "three.py").write_text("three = 3\n")
    git(repo, "add", ".")
    commit(repo, "-m", "session 2 file")
    tg(repo, "checkpoint")
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    assert data["status"]["completed"] == ["one.py", "three.py", "two.py"]
    (repo / "one.py").unlink()  # a session-1 file, deleted later
    result = json.loads(tg(repo, "resume", "--json").stdout)
    assert {i["path"]: i["status"] for i in result["integrity"]} == {
        "one.py": "missing",
        "two.py": "intact",
        "three.py": "intact",
    }


def test_nothing_new_since_the_last_save_adds_no_commit(repo: Path) -> None:
    first = tg(repo, "checkpoint").stdout.strip()
    head = git(repo, "rev-parse", "HEAD").stdout
    again = tg(repo, "checkpoint")
    assert again.stdout.strip() == first and "nothing new since" in again.stderr
    assert git(repo, "rev-parse", "HEAD").stdout == head and len(tags(repo)) == 1
    tg(repo, "note", "something new")
    assert tg(repo, "checkpoint").stdout.strip() != first
    assert len(tags(repo)) == 2


def test_a_tracked_symlink_named_like_a_checkpoint_file_is_kept(repo: Path) -> None:
    (repo / "notes.md").write_text("my notes\n")
    (repo / "CHECKPOINT.md").symlink_to("notes.md")
    git(repo, "add", ".")
    commit(repo, "-m", "a link of mine")
    proc = tg(repo, "checkpoint")
    kept = list((repo / ".git" / "tg-git" / "kept").iterdir())
    assert len(kept) == 1 and kept[0].is_symlink() and os.readlink(kept[0]) == "notes.md"
    assert "symbolic link edit of CHECKPOINT.md was kept" in proc.stderr
    assert (repo / "notes.md").read_text() == "my notes\n"  # never written through
    assert not (repo / "CHECKPOINT.md").is_symlink()


def test_a_killed_save_leaves_no_orphan_temp_index_after_the_next(repo: Path) -> None:
    proc = tg(repo, "checkpoint", check=False, env={"TG_GIT_FAILPOINT": "in-temp-index"})
    assert proc.returncode == -9
    leftovers = list((repo / ".git").glob("tg-git-index-*"))
    assert leftovers  # what a kill leaves
    tg(repo, "checkpoint")
    assert list((repo / ".git").glob("tg-git-index-*")) == []
    assert git(repo, "fsck", "--no-dangling").returncode == 0


def test_schema_1_1_takes_measured_usage_and_both_validators_agree(repo: Path) -> None:
    from tg_git.domain import schema

    tg(repo, "checkpoint")
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    data["usage"] = {
        "source": "claude",
        "measured_at": "2026-01-01T00:00:00Z",
        "agent": "claude-code",
        "model": "claude-opus-4-6",
        "window": 200000,
        "fill": 51000,
        "spend": {"input": 3, "cache_write": 15522, "cache_read": 11801, "output": 48},
    }
    validate(data)
    assert schema.checkpoint_errors(data) == []
    data["usage"]["spend"]["output"] = -1
    with pytest.raises(jsonschema.ValidationError):
        validate(data)
    assert schema.checkpoint_errors(data) == ["$.usage.spend.output: below 0"]
    assert schema.checkpoint_errors({**data, "schema_version": "1.0"}) != []  # 1.0 has no usage


def test_a_file_name_that_is_not_utf8_is_saved_and_resumed(repo: Path) -> None:
    name = os.fsdecode(b"caf\xe9.txt")
    (repo / name).write_text("latin-1 name\n")
    git(repo, "add", "--", name)
    commit(repo, "-m", "odd name", "--no-verify")
    tg(repo, "checkpoint")
    raw = git(repo, "cat-file", "blob", "HEAD:harness_checkpoint.json").stdout
    assert "caf\\udce9.txt" in raw  # valid UTF-8 JSON; the escape reads back to the name
    result = json.loads(tg(repo, "resume", "--json").stdout)
    assert {"path": name, "status": "intact"} in result["integrity"]
    assert "caf\ufffd.txt" in (repo / "CHECKPOINT.md").read_text()


def test_a_directory_named_like_a_checkpoint_file_is_a_clear_error(repo: Path) -> None:
    (repo / "CHECKPOINT.md").mkdir()
    (repo / "CHECKPOINT.md" / "inside.txt").write_text("mine\n")
    head = git(repo, "rev-parse", "HEAD").stdout
    proc = tg(repo, "checkpoint", check=False)
    assert proc.returncode == 1 and "CHECKPOINT.md is a directory" in proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout == head and tags(repo) == []
    assert (repo / "CHECKPOINT.md" / "inside.txt").read_text() == "mine\n"


CHECKPOINT_FILES = {"harness_checkpoint.json", "CHECKPOINT.md"}


def test_checkpoint_racing_a_users_commit_never_enters_that_commit(repo: Path) -> None:
    for n in range(20):
        (repo / f"race{n}.txt").write_text(f"the user's work number {n}\n")
        git(repo, "add", f"race{n}.txt")
        tg(repo, "note", f"something new {n}")
        save = subprocess.Popen(
            [TG_GIT, "checkpoint", "-m", f"save {n}"],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        user = subprocess.Popen(
            ["git", "commit", "-q", "-m", f"user {n}"],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        save.communicate()
        user.communicate()
    users = git(repo, "log", "--format=%H", "--grep=^user ").stdout.split()
    assert users
    for sha in users:
        changed = set(git(repo, "show", "--format=", "--name-only", sha).stdout.split())
        assert not changed & CHECKPOINT_FILES, (sha, changed)
    assert git(repo, "fsck", "--no-dangling").returncode == 0


def _state(pid: int) -> str:
    """The process's state letter (T: stopped, Z: a zombie), "" once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(") ")[2][:1]
    except OSError:
        return ""


# A shell loop for a hook: wait (at most 30 s) until the background job $! is stopped or gone.
WAIT_STOPPED = (
    "n=0; while [ $n -lt 600 ]; do s=$(sed 's/.*) //' /proc/$!/stat 2>/dev/null | cut -c1); "
    'case "$s" in T|Z|"") break;; esac; sleep 0.05; n=$((n+1)); done'
)


def _wait_stopped(pid: int) -> None:
    for _ in range(600):
        if _state(pid) in ("T", "Z", ""):
            return
        time.sleep(0.05)


def _resume_and_wait(pid: int) -> None:
    """Let a stopped save go on, and wait for it to end (it may be another process's child)."""
    os.kill(pid, signal.SIGCONT)
    for _ in range(1200):
        if _state(pid) in ("Z", ""):
            return
        time.sleep(0.05)
    raise AssertionError(f"the save {pid} did not finish")


def _after_the_users_hook(repo: Path, script: str) -> None:
    """Run ``script`` in the user's pre-commit hook after tg-git's own: git reads the index it
    commits only once the hook has returned, so what runs here lands in that window."""
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-commit").rename(hooks / "pre-commit.tg-git")
    hook = hooks / "pre-commit"
    hook.write_text(f'#!/bin/sh\n"$(dirname "$0")/pre-commit.tg-git" "$@" || exit $?\n{script}\n')
    hook.chmod(0o755)


def _checkpoint_files_of(repo: Path, rev: str) -> set[str]:
    return set(git(repo, "show", "--format=", "--name-only", rev).stdout.split()) & CHECKPOINT_FILES


def _user_commit(repo: Path) -> str:
    (repo / "mine.txt").write_text("the user's work\n")
    git(repo, "add", "mine.txt")
    commit(repo, "-m", "user")
    return git(repo, "log", "--format=%H", "--grep=^user$").stdout.strip()


def test_a_save_in_the_window_after_the_users_hook_stays_out_of_that_commit(
    repo: Path, tmp_path: Path
) -> None:
    """The widest window of the race: a save that runs just after the user's pre-commit hook
    (which no guard in the hook can see) and stops before it moves HEAD."""
    pid_file = tmp_path / "save.pid"
    _after_the_users_hook(
        repo,
        f'TG_GIT_FAILPOINT=before-ref:stop "{TG_GIT}" checkpoint -m '
        f'racing >/dev/null 2>&1 &\necho $! >"{pid_file}"\n{WAIT_STOPPED}',
    )
    tg(repo, "note", "something new")
    user = _user_commit(repo)
    _resume_and_wait(int(pid_file.read_text()))
    assert _checkpoint_files_of(repo, user) == set()
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint:")  # made again
    assert git(repo, "rev-parse", "HEAD^").stdout.strip() == user
    assert git(repo, "tag", "--points-at", "HEAD").stdout.startswith("checkpoint/")
    assert git(repo, "status", "--porcelain", "--", *CHECKPOINT_FILES).stdout == ""


def test_a_commit_started_after_a_save_moved_head_keeps_the_saves_files(repo: Path) -> None:
    """A user's commit that starts once a save has moved HEAD, before the save has put its
    files into the index: the user's commit neither deletes nor reverts them."""
    tg(repo, "note", "something new")
    env = {**os.environ, "TG_GIT_FAILPOINT": "before-files:stop"}
    save = subprocess.Popen(
        [TG_GIT, "checkpoint"], cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _wait_stopped(save.pid)
    saved = git(repo, "rev-parse", "HEAD").stdout.strip()
    user = _user_commit(repo)
    save.send_signal(signal.SIGCONT)
    save.communicate()
    assert git(repo, "rev-parse", "HEAD^").stdout.strip() == saved
    assert _checkpoint_files_of(repo, user) == set()
    assert git(repo, "status", "--porcelain", "--", *CHECKPOINT_FILES).stdout == ""
    assert git(repo, "tag", "--points-at", saved).stdout.startswith("checkpoint/")


@pytest.mark.parametrize("failpoint", ["before-files", "before-tag"])
def test_killed_manual_save_is_tagged_by_the_next_tg_git_command(
    repo: Path, failpoint: str
) -> None:
    killed = tg(repo, "checkpoint", check=False, env={"TG_GIT_FAILPOINT": failpoint})
    assert killed.returncode == -9
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint:")
    assert git(repo, "tag", "--points-at", head).stdout == ""
    tg(repo, "status")
    assert git(repo, "tag", "--points-at", head).stdout.startswith("checkpoint/")
    # and its files are in the index and the work tree: the next commit keeps them
    assert git(repo, "status", "--porcelain", "--", *CHECKPOINT_FILES).stdout == ""
