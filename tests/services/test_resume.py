"""Resume end to end: clones, branches, tampered files, hostile checkpoints, the plan a halted
session kept changing, tg-git's own fresh agent files (verify is in test_verify.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg


def saved_repo(repo: Path) -> str:
    """A session with a plan, two committed files, a manual checkpoint; returns its tag."""
    (repo / "src").mkdir()
    (repo / "src" / "parser.py").write_text("def parse(text):\n    return text.split()\n")
    (repo / "docs.md").write_text("# Docs\n\nHow to parse.\n")
    git(repo, "add", ".")
    commit(repo, "-m", "parser and docs")
    for task in ("write tests", "lexer", "parser"):
        tg(repo, "task", "add", task)
    tg(repo, "task", "start", "lexer", "--at", "tokens for numbers left")
    tg(repo, "task", "done", "parser")
    tg(repo, "note", "no network calls")
    tg(repo, "next", "finish the lexer")
    commit(repo, "--allow-empty", "-m", "plan")
    return tg(repo, "checkpoint").stdout.strip()


def resume_json(repo: Path, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(tg(repo, "resume", "--json", *args).stdout)
    return data


def statuses(result: dict[str, Any]) -> dict[str, str]:
    return {i["path"]: i["status"] for i in result["integrity"]}


def test_clone_elsewhere_and_resume(repo: Path, tmp_path: Path) -> None:
    tag = saved_repo(repo)
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "push", "-q", str(bare), "main", "--tags")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    result = resume_json(clone)
    assert result["checkpoint"]["tag"] == tag
    assert (
        result["checkpoint"]["commit"] == git(repo, "rev-parse", f"{tag}^{{commit}}").stdout.strip()
    )
    # Files and tasks are kept apart: the task `parser` is no integrity entry.
    assert statuses(result) == {"src/parser.py": "intact", "docs.md": "intact"}
    assert result["completed_tasks"] == ["parser"] and result["completed_file_count"] == 2
    assert result["pending"] == ["write tests"]
    assert result["in_progress"] == [
        {"task": "lexer", "stopping_point": "tokens for numbers left", "blockers": []}
    ]
    assert result["next_steps"] == ["finish the lexer"]
    assert "no network calls" in result["critical_context"]
    assert result["drift"] == [] and result["session"]["reused"] is False
    status = json.loads(tg(clone, "status", "--json").stdout)
    assert status["session"]["id"] == result["session"]["id"] and status["used"] == 0
    assert status["tasks"] == {"write tests": "pending", "lexer": "in_progress"}
    again = resume_json(clone)
    assert again["session"] == {**result["session"], "reused": True}
    assert again["integrity"] == result["integrity"]
    briefing = tg(clone, "resume").stdout
    assert "## 🔄 Session resumed" in briefing and "lexer — tokens for numbers left" in briefing


def test_modified_missing_and_symlinked_away(repo: Path, tmp_path: Path) -> None:
    saved_repo(repo)
    (repo / "docs.md").write_text("changed\n")
    (repo / "src" / "parser.py").unlink()
    result = resume_json(repo)
    assert statuses(result)["docs.md"] == "modified"
    assert statuses(result)["src/parser.py"] == "missing"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "parser.py").write_text("def parse(text):\n    return text.split()\n")
    (repo / "src").rmdir()
    (repo / "src").symlink_to(outside)
    tg(repo, "session", "start")
    assert statuses(resume_json(repo))["src/parser.py"] == "rejected"


def test_resume_from_a_checkpoint_on_another_branch(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    tag = saved_repo(repo)
    git(repo, "checkout", "-q", "main")
    result = resume_json(repo, "--from", tag)
    assert result["checkpoint"]["tag"] == tag
    assert statuses(result)["docs.md"] == "missing"  # not on main's work tree
    assert result["pending"] == ["write tests"]


def test_no_checkpoint_at_all(repo: Path) -> None:
    proc = tg(repo, "resume", check=False)
    assert proc.returncode == 5 and "no checkpoint found" in proc.stderr
    proc = tg(repo, "resume", "--from", "checkpoint/nope", check=False)
    assert proc.returncode == 5 and "tg-git log" in proc.stderr


def test_only_the_working_tree_json(repo: Path) -> None:
    saved_repo(repo)
    data = (repo / "harness_checkpoint.json").read_text()
    for tag in git(repo, "tag", "--list", "checkpoint/*").stdout.split():
        git(repo, "tag", "-d", tag)
    # Squash history: one root commit with the same tree, no `checkpoint:` message.
    tree = git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    root = git(repo, "commit-tree", tree, "-m", "squashed").stdout.strip()
    git(repo, "reset", "-q", "--hard", root)
    assert (repo / "harness_checkpoint.json").read_text() == data
    result = resume_json(repo)
    assert result["checkpoint"]["source"] == "worktree" and result["checkpoint"]["commit"] is None
    assert statuses(result)["docs.md"] == "intact"


VALID: dict[str, Any] = {
    "schema_version": "1.0",
    "session": {
        "timestamp": "2026-01-01T00:00:00Z",
        "project_name": "p",
        "project_root": "/x",
        "max_tokens": 1000,
        "estimated_used": 10,
    },
    "token_thresholds": {"warning": 800, "force_save": 900, "halt": 950},
    "status": {"completed": ["README.md"], "in_progress": [], "pending": []},
    "critical_context": [],
    "next_steps": [],
    "resume_instructions": "",
}


def hostile(repo: Path, content: bytes) -> None:
    (repo / "harness_checkpoint.json").write_bytes(content)


@pytest.mark.parametrize(
    "content,message",
    [
        (b"{not json", "not valid JSON"),
        (json.dumps({**VALID, "schema_version": "2.0"}).encode(), "schema_version '2.0'"),
        (
            json.dumps(
                {**VALID, "status": {"completed": "x", "in_progress": [], "pending": []}}
            ).encode(),
            "must be an array",
        ),
        (json.dumps({**VALID, "extra": 1}).encode(), "unexpected key"),
        (
            json.dumps({**VALID, "session": {**VALID["session"], "max_tokens": "many"}}).encode(),
            "must be an integer",
        ),
        (b"[" * 100_000 + b"]" * 100_000, "nested"),
        (
            json.dumps(
                {**VALID, "next_steps": [[[[[[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]]]]]}
            ).encode(),
            "nested deeper",
        ),
        (b'{"a": "' + b"x" * (2 << 20) + b'"}', "over the"),
        (b"\xff\xfe not utf-8", "not UTF-8"),
    ],
    ids=[
        "invalid",
        "version",
        "wrong-type",
        "extra-key",
        "wrong-int",
        "deep-json",
        "deep-valid-json",
        "huge",
        "binary",
    ],
)
def test_bad_checkpoints_get_one_clear_error(repo: Path, content: bytes, message: str) -> None:
    hostile(repo, content)
    proc = tg(repo, "resume", check=False)
    assert proc.returncode == 4, proc.stderr
    assert (
        message in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    )


def test_symlinked_checkpoint_file_is_refused(repo: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps(VALID))
    (repo / "harness_checkpoint.json").symlink_to(target)
    proc = tg(repo, "resume", check=False)
    assert proc.returncode == 4 and "symbolic link" in proc.stderr


class OpenWatch:
    """An inotify watch on one file: whether anything opened it (Linux; the test proves the
    watch works by opening the file itself at the end)."""

    IN_ACCESS, IN_OPEN = 0x01, 0x20

    def __init__(self, path: Path) -> None:
        import ctypes

        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK)
        assert self.fd >= 0, os.strerror(ctypes.get_errno())
        wd = self.libc.inotify_add_watch(self.fd, bytes(path), self.IN_ACCESS | self.IN_OPEN)
        assert wd >= 0, os.strerror(ctypes.get_errno())

    def opened(self) -> bool:
        try:
            return bool(os.read(self.fd, 4096))
        except BlockingIOError:
            return False

    def close(self) -> None:
        os.close(self.fd)


def _blob_id(data: bytes) -> str:
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
@pytest.mark.parametrize("schema", ["1.0", "1.1"])
def test_hostile_paths_are_rejected_and_never_opened(
    repo: Path, tmp_path: Path, schema: str
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("outside")
    (repo / "inside").symlink_to(tmp_path)
    paths = [
        "/etc/passwd",
        str(secret),
        "../secret.txt",
        "src/../../secret.txt",
        "C:\\Windows\\win.ini",
        "inside/secret.txt",
        "README.md",
        "a task title",
    ]
    status: dict[str, object] = {"completed": paths, "in_progress": [], "pending": []}
    if schema == "1.1":  # each path with the blob the secret has: opened, it would be `intact`
        files = [p for p in paths if p != "a task title"]
        blobs = {p: _blob_id(b"outside") for p in files}
        blobs["README.md"] = _blob_id((repo / "README.md").read_bytes())
        status["completed_files"] = [{"path": p, "blob": blobs[p]} for p in files]
        status["completed"] = files
    hostile(repo, json.dumps({**VALID, "schema_version": schema, "status": status}).encode())
    watch = OpenWatch(secret)
    try:
        result = json.loads(tg(repo, "resume", "--json").stdout)
        assert not watch.opened(), "resume opened a file outside the repository"
        secret.read_bytes()
        assert watch.opened()  # the watch itself works
    finally:
        watch.close()
    expected = {
        "/etc/passwd": "rejected",
        str(secret): "rejected",
        "../secret.txt": "rejected",
        "src/../../secret.txt": "rejected",
        "C:\\Windows\\win.ini": "rejected",
        "inside/secret.txt": "rejected",
        "README.md": "intact",
    }
    if schema == "1.0":
        expected["a task title"] = "not-a-file"
    assert statuses(result) == expected


def test_resume_in_korean_and_commit(repo: Path) -> None:
    config = repo / ".tg-git/config.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    git(repo, "add", str(config))
    saved_repo(repo)
    out = tg(repo, "resume", "--commit").stdout
    assert "## 🔄 세션 재개" in out and "**재개 지점**" in out and "개 파일" in out
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("tg-git: session ")
    assert git(repo, "status", "--porcelain").stdout == ""
    # The README's recipe lists the saves only, not tg-git's own resume commit.
    listed = git(repo, "log", "--grep", "checkpoint", "--format=%s").stdout.splitlines()
    assert len(listed) == 1 and listed[0].startswith(
        "checkpoint: 수동"
    )  # the subject in Korean too


def tag_document(repo: Path, data: object, name: str) -> str:
    """A checkpoint commit + annotated tag holding ``data`` as its JSON (made by hand)."""
    blob = git(repo, "hash-object", "-w", "--stdin", input=json.dumps(data)).stdout.strip()
    env = {**os.environ, "GIT_INDEX_FILE": str(repo / ".git" / "tmp-index")}
    git(repo, "read-tree", "HEAD", env=env)
    git(
        repo,
        "update-index",
        "--add",
        "--cacheinfo",
        f"100644,{blob},harness_checkpoint.json",
        env=env,
    )
    tree = git(repo, "write-tree", env=env).stdout.strip()
    sha = git(repo, "commit-tree", tree, "-p", "HEAD", "-m", "checkpoint: by hand").stdout.strip()
    git(repo, "tag", "-a", name, sha, "-m", "by hand")
    git(repo, "merge", "-q", "--ff-only", sha)  # resume looks at saves reachable from HEAD
    return sha


def test_old_and_newer_1x_checkpoints_load(repo: Path) -> None:
    old = {
        **VALID,
        "status": {"completed": ["README.md", "a task"], "in_progress": [], "pending": ["p"]},
    }
    tag_document(repo, old, "checkpoint/20200101T000000.000000Z-s1-manual")
    result = resume_json(repo)
    assert result["checkpoint"]["schema_version"] == "1.0"
    assert statuses(result) == {"README.md": "intact", "a task": "not-a-file"}
    assert result["completed_tasks"] == ["a task"] and result["pending"] == ["p"]
    newer = {**VALID, "schema_version": "1.9", "something_new": {"x": 1}}
    tag_document(repo, newer, "checkpoint/20200102T000000.000000Z-s1-manual")
    assert resume_json(repo)["checkpoint"]["schema_version"] == "1.9"


def test_a_broken_newest_tag_falls_back_to_the_next(repo: Path) -> None:
    good = saved_repo(repo)
    tag_document(repo, {"not": "a checkpoint"}, "checkpoint/29990101T000000.000000Z-s1-manual")
    proc = tg(repo, "resume", "--json")
    result = json.loads(proc.stdout)
    assert result["checkpoint"]["tag"] == good
    assert result["skipped"][0]["tag"] == "checkpoint/29990101T000000.000000Z-s1-manual"
    assert "skipped checkpoint/29990101T000000.000000Z-s1-manual" in proc.stderr
    # Named with --from, the broken one is the answer.
    named = tg(
        repo, "resume", "--from", "checkpoint/29990101T000000.000000Z-s1-manual", check=False
    )
    assert named.returncode == 4


def test_an_unchanged_submodule_is_intact(repo: Path, tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q")
    (sub / "lib.txt").write_text("lib\n")
    git(sub, "add", ".")
    git(sub, "commit", "-q", "-m", "lib")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor/lib")
    commit(repo, "-m", "add a submodule")
    tg(repo, "checkpoint")
    result = resume_json(repo)
    assert statuses(result)["vendor/lib"] == "intact"
    git(repo / "vendor" / "lib", "commit", "-q", "--allow-empty", "-m", "moved on")
    tg(repo, "session", "start")
    assert statuses(resume_json(repo))["vendor/lib"] == "modified"


def test_briefing_says_everything_the_json_does(repo: Path) -> None:
    saved_repo(repo)
    tg(repo, "next", "then the docs")
    tg(repo, "task", "block", "write tests", "--why", "waiting for fixtures")
    tg(repo, "checkpoint")
    (repo / "left.py").write_text("x = 1\n")
    git(repo, "add", "left.py")  # as a refused commit leaves it
    out = tg(repo, "resume", "--max-tokens", "5000").stdout
    result = json.loads(tg(repo, "resume", "--json").stdout)
    for step in ("1. finish the lexer", "2. then the docs"):
        assert step in out
    assert "- no network calls" in out and "- MAX_TOKENS: 200000" in out
    assert (
        "write tests (waiting for fixtures)" in out
        and result["blocked"][0]["task"] == "write tests"
    )
    assert "left.py" in out and result["staged"] == ["left.py"]
    assert "budget 5,000 tokens" in out and result["session"]["max_tokens"] == 5000
    assert "halt 4,750" in out and result["session"]["token_thresholds"]["halt"] == 4750
    assert "Completed**: 2 file(s); 1 task(s): parser" in out
    assert "**Done last session**: 3 commit(s)" in out and result["done"]["commits"] == 3


def test_resume_budget_is_validated(repo: Path) -> None:
    saved_repo(repo)
    for budget, words in (("0", "positive"), ("5", "force-save and halt")):
        proc = tg(repo, "resume", "--max-tokens", budget, check=False)
        assert proc.returncode == 2 and words in proc.stderr


def test_a_lightweight_checkpoint_tag_names_its_commit(repo: Path) -> None:
    tag = saved_repo(repo)
    commit_id = git(repo, "rev-parse", f"{tag}^{{commit}}").stdout.strip()
    git(repo, "tag", "-d", tag)
    git(repo, "tag", "checkpoint/29990101T000000.000000Z-s1-manual", commit_id)  # lightweight
    (repo / "harness_checkpoint.json").write_text("{}")  # what a read of the index would see
    git(repo, "add", "harness_checkpoint.json")
    result = resume_json(repo)
    assert result["checkpoint"]["commit"] == commit_id
    rows = json.loads(tg(repo, "log", "--json").stdout)["checkpoints"]
    assert [(r["tag"], r["commit"]) for r in rows] == [
        ("checkpoint/29990101T000000.000000Z-s1-manual", commit_id)
    ]


def test_any_checkpoint_bytes_load_or_fail_clearly() -> None:
    from tg_git.domain.errors import BadCheckpoint
    from tg_git.services import resume as resume_mod

    leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    values = st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=30,
    )
    near_valid = st.builds(
        lambda version, status, extra: {
            **VALID,
            "schema_version": version,
            "status": status,
            **extra,
        },
        st.sampled_from(["1.0", "1.1", "1.99", "1.", "1.x", "2.0"]) | st.text(max_size=5),
        values,
        st.dictionaries(st.sampled_from(["usage", "message", "done_this_session"]), values),
    )

    @hypothesis.settings(max_examples=300, deadline=None)
    @hypothesis.given(
        st.binary(max_size=200)
        | values.map(json.dumps).map(str.encode)
        | near_valid.map(json.dumps).map(str.encode)
    )
    def check(raw: bytes) -> None:
        found = resume_mod.Found("worktree", None, None, raw)
        try:
            data = resume_mod.load(found)
        except BadCheckpoint as exc:
            assert "\n" not in str(exc)
            return
        assert isinstance(data, dict) and str(data["schema_version"]).startswith("1.")

    check()


def _halt(repo: Path) -> None:
    tg(repo, "record", "--tokens", "192000")  # reaches the halt: its records land, it saves


def _plan(repo: Path) -> dict[str, str]:
    tasks = json.loads(tg(repo, "task", "list", "--json").stdout)["tasks"]
    return {t["title"]: t["status"] for t in tasks}


def test_task_done_after_the_halt_survives_the_resume(repo: Path) -> None:
    for title in ("alpha", "beta", "gamma"):
        tg(repo, "task", "add", title)
    tg(repo, "task", "start", "alpha")
    _halt(repo)
    assert git(repo, "tag", "-l", "checkpoint/*-halt").stdout.strip()
    tg(repo, "task", "done", "alpha")  # after the save: the plan moved on
    tg(repo, "task", "start", "beta", "--at", "half way")
    tg(repo, "task", "add", "delta")
    tg(repo, "next", "ship it")
    tg(repo, "resume")
    plan = _plan(repo)
    assert "alpha" not in plan or plan["alpha"] == "done", plan
    assert plan.get("beta") == "in_progress" and plan.get("delta") == "pending", plan
    assert plan.get("gamma") == "pending", plan
    listed = json.loads(tg(repo, "task", "list", "--json").stdout)
    assert "ship it" in listed["next_steps"]


def test_an_older_checkpoint_chosen_with_from_keeps_its_own_plan(repo: Path) -> None:
    tg(repo, "task", "add", "alpha")
    tg(repo, "checkpoint", "-m", "first save")
    tag = git(repo, "tag", "-l", "checkpoint/*").stdout.split()[0]
    tg(repo, "task", "done", "alpha")
    tg(repo, "task", "add", "later")
    tg(repo, "resume", "--from", tag)
    assert _plan(repo) == {"alpha": "pending"}


def test_tg_gits_fresh_agent_files_are_not_the_users_work(repo: Path) -> None:
    tg(repo, "agent", "install", "claude", "codex", "gemini")
    (repo / "work.py").write_text("mine = 1\n")
    tg(repo, "checkpoint", "-m", "save")
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    dirty = [i["task"] for i in data["status"]["in_progress"]]
    assert dirty == ["work.py"], dirty
    result = json.loads(tg(repo, "resume", "--json").stdout)
    assert ".codex/hooks.json" in result["agent_files"]
    assert ".claude/settings.local.json" not in result["agent_files"]  # kept out of git
    assert ".agents/skills/token-guard/SKILL.md" in result["agent_files"]
    assert "work.py" not in result["agent_files"]
    briefing = tg(repo, "resume").stdout
    line = next(ln for ln in briefing.splitlines() if ".codex/hooks.json" in ln)
    assert "not committed" in line and "commit it" in line
    assert "Resume at" not in line
