"""Hand-offs between the real agent CLIs: a halt in one agent, ``tg-git resume --agent`` to
another, and the briefing reaches the second agent's model in its first request (asserted on
the scripted server's log)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg


@pytest.mark.network
def test_a_claude_code_halt_hands_off_to_codex_and_its_first_request_is_briefed(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    claude, codex = clis.wired(repo, "claude"), clis.wired(repo, "codex")
    tg(repo, "task", "add", "port the parser")
    tg(repo, "task", "start", "port the parser", "--at", "lexer done, parser half way")
    server.script(Turn(tool=("Bash", {"command": "git status"}), used=100_000),
                  Turn("on it", used=192_000))  # fmt: skip
    clis.claude(claude, repo, clis.claude_env(agent_home, repo, server.url), "work",
                "--session-id", str(uuid.uuid4()))  # fmt: skip
    halted = status(repo)
    assert halted["level"] == "halt" and any(t.endswith("-halt") for t in tags(repo))
    said = tg(repo, "resume", "--agent", "codex").stdout
    assert "Codex CLI" in said and "Saved by" in said
    assert status(repo)["session"]["id"] != halted["session"]["id"]  # a new session
    before = len(server.main_requests())
    server.script(Turn("resuming", used=20_000))
    events, _ = clis.codex(codex, repo, clis.codex_env(agent_home, repo, server.url), "go on")
    first, *_ = server.main_requests()[before:]
    told = first.text
    assert told.count("Session resumed") == 1  # the briefing, once, in the first request
    assert "Saved by" in told and "claude" in told  # who wrote the checkpoint
    assert "port the parser" in told and "lexer done, parser half way" in told
    assert "Integrity**: all 3 intact" in told and "still halted" not in told
    assert "~0/200,000 tokens (0%) · ok" in told  # the new session's gauge, not the halt
    assert status(repo)["level"] == "ok"  # the new session serves Codex, not the halt
    assert clis.thread_id(events)


@pytest.mark.network
def test_a_codex_halt_hands_off_to_claude_code_and_its_first_request_is_briefed(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    codex = clis.wired(repo, "codex")
    claude = clis.wired(repo, "claude")
    tg(repo, "task", "add", "write the docs")
    tg(repo, "config", "set", "budget.context", "200000")  # the halt below Codex's compaction
    server.script(Turn("hello", used=192_000))
    clis.codex(codex, repo, clis.codex_env(agent_home, repo, server.url), "hi")
    assert any(t.endswith("-halt") for t in tags(repo))
    said = tg(repo, "resume", "--agent", "claude").stdout
    assert "Claude Code" in said
    before = len(server.main_requests())
    server.script(Turn("resuming", used=20_000))
    clis.claude(claude, repo, clis.claude_env(agent_home, repo, server.url), "go on",
                "--session-id", str(uuid.uuid4()))  # fmt: skip
    first, *_ = server.main_requests()[before:]
    assert first.text.count("Session resumed") == 1
    assert "Saved by" in first.text and "codex" in first.text
    assert "write the docs" in first.text
