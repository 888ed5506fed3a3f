"""Hand-off from one agent to another: a Claude Code session halts, `tg-git resume --agent
codex` in the same clone names who saved the checkpoint and how to go on in Codex, and Codex's
own SessionStart hook (its documented stdin) gets the briefing, with the integrity check and the
new session's budget, on the exact channel Codex reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.agents import blocked
from tests.support.agents import context
from tests.support.agents import fill_line
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.agents import silent
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import session_id
from tests.support.repos import tags
from tests.support.repos import tg

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp


def claude_halts(repo: Path, agent_homes: dict[str, Path]) -> str:
    """A Claude Code session that did some work and hit the halt; its first tg-git session."""
    tg(repo, "agent", "install", "claude", "codex")
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "tokenizer half done")
    (repo / "lexer.py").write_text("TOKENS = []\n")
    git(repo, "add", "lexer.py")
    commit(repo, "-m", "lexer")
    first = session_id(repo)
    transcript = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    base = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    context(hook(repo, "claude", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    transcript.write_text(fill_line(1, 192_000))
    halt = blocked(hook(repo, "claude", "UserPromptSubmit", {**base, "prompt": "go on"}))
    assert "Token limit reached" in halt
    return first


def test_claude_halts_and_codex_continues_in_the_same_clone(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    first = claude_halts(repo, agent_homes)
    halt_tag = next(t for t in tags(repo) if t.endswith("-halt"))
    saved = json.loads(git(repo, "show", f"{halt_tag}:harness_checkpoint.json").stdout)
    assert saved["schema_version"] == "1.2"
    assert saved["written_by"] == {"agent": "claude", "model": "claude-opus-4-6"}
    (repo / "lexer.py").write_text("TOKENS = ['changed']\n")  # the integrity check sees it

    out = tg(repo, "resume", "--agent", "codex").stdout
    assert "**Saved by**: claude (claude-opus-4-6)" in out
    assert "saved by claude (claude-opus-4-6); Codex CLI continues from it." in out
    assert "Skill: .agents/skills/token-guard/SKILL.md: Token Guard:" in out
    assert "Start it in this clone with `codex`: its SessionStart hook" in out
    handed = session_id(repo)
    assert handed != first

    start = {
        "session_id": "019a-codex",
        "transcript_path": None,
        "cwd": str(repo),
        "hook_event_name": "SessionStart",
        "model": "gpt-5.5",
        "source": "startup",
    }
    brief = context(hook(repo, "codex", "SessionStart", start), "SessionStart")
    assert "Session resumed" in brief and "tokenizer half done" in brief
    assert "**Saved by**: claude (claude-opus-4-6)" in brief
    assert "**Integrity**: lexer.py (modified)" in brief
    assert f"**New session**: {handed}, budget 200,000 tokens" in brief
    assert session_id(repo) == handed  # the hand-off's session, taken over, not another one
    prompt = {**start, "hook_event_name": "UserPromptSubmit", "prompt": "continue"}
    silent(hook(repo, "codex", "UserPromptSubmit", prompt))  # a fresh budget: not blocked
    again = context(
        hook(repo, "codex", "SessionStart", {**start, "source": "resume"}), "SessionStart"
    )
    assert "Session resumed" not in again and session_id(repo) == handed


def test_handoff_json_and_an_agent_not_yet_wired(repo: Path, agent_homes: dict[str, Path]) -> None:
    claude_halts(repo, agent_homes)
    data = json.loads(tg(repo, "resume", "--agent", "gemini", "--json").stdout)
    handoff = data["handoff"]
    assert (handoff["agent"], handoff["start"], handoff["hooks_installed"]) == (
        "gemini",
        "gemini",
        False,
    )
    assert data["checkpoint"]["written_by"]["agent"] == "claude"
    assert any("`tg-git agent install gemini` first" in line for line in handoff["lines"])


def test_handoff_in_korean(repo: Path, agent_homes: dict[str, Path]) -> None:
    claude_halts(repo, agent_homes)
    tg(repo, "config", "set", "language", "ko")
    out = tg(repo, "resume", "--agent", "antigravity").stdout
    assert "인계: claude (claude-opus-4-6)에서 저장한 체크포인트를 Antigravity에서" in out
    assert "이 클론에서 시작하세요: `agy`. PreInvocation 훅이" in out


def test_a_hostile_written_by_is_shown_as_one_line(repo: Path) -> None:
    from tg_git.domain.checkpoint_text import writer_text

    assert writer_text({"agent": "claude\x1b[2J\nrm", "model": "m\x071"}) == "claude rm (m1)"
    assert writer_text({"agent": 5}) == writer_text("claude") == ""
