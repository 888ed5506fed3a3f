"""Usage belongs to a work tree by the transcript's own record, not by its folder's name:
Claude Code names a project's folder lossily (``/w/my.proj`` and ``/w/my-proj`` are both
``-w-my-proj``), so each transcript's ``cwd`` is read (Codex: ``session_meta.cwd``; Gemini
CLI: the chat's ``projectHash``) and must be this work tree or a folder of it that is no
other repository's or worktree's."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import claude_line
from tests.support.agents import codex_lines
from tests.support.agents import gemini_message
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.agents import ts
from tests.support.repos import git
from tests.support.repos import set_up
from tests.support.repos import status
from tests.support.repos import tg

pytestmark = pytest.mark.usefixtures("agent_homes")


def usage_import(repo: Path, *args: str) -> dict[str, Any]:
    return json.loads(tg(repo, "usage", "import", "--json", *args).stdout)  # type: ignore[no-any-return]


def transcript(cwd: Path, msg: str, read: int, session: str) -> str:
    """A Claude Code transcript started in ``cwd``: a user line, then one request."""
    user = {
        "type": "user",
        "cwd": str(cwd),
        "sessionId": session,
        "timestamp": ts(),
        "message": {"role": "user", "content": "go"},
    }
    line = json.loads(claude_line(msg, f"r-{msg}", read=read, session=session))
    line["cwd"] = str(cwd)
    return json.dumps(user) + "\n" + json.dumps(line) + "\n"


@pytest.fixture
def twins(tmp_path: Path) -> tuple[Path, Path]:
    """Two real repositories whose paths Claude Code encodes alike."""
    dotted, dashed = tmp_path / "w" / "my.proj", tmp_path / "w" / "my-proj"
    for repo in (dotted, dashed):
        repo.mkdir(parents=True)
        git(repo, "init", "-q")
        set_up(repo)
    return dotted, dashed


def test_colliding_folders_keep_each_projects_usage(
    twins: tuple[Path, Path], agent_homes: dict[str, Path]
) -> None:
    dotted, dashed = twins
    folder = project_folder(dashed, agent_homes["CLAUDE_CONFIG_DIR"])
    assert folder == project_folder(dotted, agent_homes["CLAUDE_CONFIG_DIR"])  # one folder
    (folder / "dotted.jsonl").write_text(transcript(dotted, "m1", 150_000, "s-dotted"))
    (folder / "dashed.jsonl").write_text(transcript(dashed, "m2", 100, "s-dashed"))
    assert usage_import(dashed)["tokens"] == 113
    assert usage_import(dotted)["tokens"] == 150_013
    assert status(dashed)["spend"]["total"] == 113
    assert status(dotted)["spend"]["total"] == 150_013
    # ... and again, with what each has read saved: nothing moves across
    with (folder / "dotted.jsonl").open("a") as fh:
        fh.write(transcript(dotted, "m3", 1000, "s-dotted").split("\n", 1)[1])
    assert usage_import(dashed)["tokens"] == 0
    assert usage_import(dotted)["tokens"] == 1013


def test_an_agent_hook_naming_the_twins_transcript_is_refused(
    twins: tuple[Path, Path], agent_homes: dict[str, Path]
) -> None:
    dotted, dashed = twins
    folder = project_folder(dashed, agent_homes["CLAUDE_CONFIG_DIR"])
    theirs = folder / "dotted.jsonl"
    theirs.write_text(transcript(dotted, "m1", 150_000, "s-dotted"))
    payload = {"session_id": "s-dotted", "cwd": str(dashed), "transcript_path": str(theirs)}
    proc = hook(dashed, "claude", "Stop", {**payload, "hook_event_name": "Stop"})
    assert proc.returncode == 0 and "refused" in proc.stderr, proc.stderr
    assert status(dashed)["spend"]["total"] == 0
    mine = folder / "dashed.jsonl"
    mine.write_text(transcript(dashed / "src", "m2", 100, "s-dashed"))  # a folder inside counts
    payload = {"session_id": "s-dashed", "cwd": str(dashed), "transcript_path": str(mine)}
    proc = hook(dashed, "claude", "Stop", {**payload, "hook_event_name": "Stop"})
    assert "refused" not in proc.stderr, proc.stderr
    assert status(dashed)["spend"]["total"] == 113


def test_a_worktree_inside_the_repository_keeps_its_own_usage(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    """A linked worktree nested in the work tree (as ``.claude/worktrees/NAME``) is another
    work tree with its own ledger: its transcripts are not this one's, though its path is
    inside this one's (and its folder's name starts with this one's)."""
    nested = repo / ".claude" / "worktrees" / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(nested))
    folder = project_folder(nested, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "wt.jsonl").write_text(transcript(nested, "m1", 50_000, "s-wt"))
    codex = agent_homes["CODEX_HOME"] / "sessions" / ts()[:10].replace("-", "/")
    codex.mkdir(parents=True)
    (codex / "rollout-2026-12-01T10-00-00-wt.jsonl").write_text(
        codex_lines(str(nested / "src"), [(1000, 200, 50)])
    )
    assert usage_import(repo)["tokens"] == 0
    assert status(repo)["spend"]["total"] == 0
    (repo / "src").mkdir()
    sub = project_folder(repo / "src", agent_homes["CLAUDE_CONFIG_DIR"])
    (sub / "own.jsonl").write_text(transcript(repo / "src", "m2", 100, "s-own"))
    assert usage_import(repo)["tokens"] == 113


def test_a_gemini_chat_of_another_project_hash_is_not_taken(
    twins: tuple[Path, Path], agent_homes: dict[str, Path]
) -> None:
    """Gemini CLI's chat records the SHA-256 of its project's path: a chat in this work
    tree's folder that records another project's is that project's."""
    dotted, dashed = twins
    tmp = agent_homes["GEMINI_CLI_HOME"] / ".gemini" / "tmp"
    chats = tmp / hashlib.sha256(str(dashed).encode()).hexdigest() / "chats"
    chats.mkdir(parents=True)
    tokens = {"input": 1000, "output": 10, "cached": 0, "thoughts": 0, "tool": 0, "total": 1010}

    def chat(project: Path, mid: str) -> str:
        head = {
            "sessionId": f"g-{mid}",
            "projectHash": hashlib.sha256(str(project).encode()).hexdigest(),
            "startTime": ts(),
            "lastUpdated": ts(),
        }
        return json.dumps(head) + "\n" + json.dumps(gemini_message(mid, tokens)) + "\n"

    (chats / "session-2026-12-01T10-00-aaaa.jsonl").write_text(chat(dotted, "a"))
    (chats / "session-2026-12-01T10-01-bbbb.jsonl").write_text(chat(dashed, "b"))
    assert usage_import(dashed, "--agent", "gemini")["tokens"] == 1010
    shutil.rmtree(tmp)
