"""Whole sessions of the real Claude Code CLI (print mode) with tg-git wired, against the
scripted model server: what the model is told, and what it never receives."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg

BRIEFED = "the context was compacted"


@pytest.fixture
def claude(repo: Path, agent_home: Path, server: ModelServer) -> tuple[Path, dict[str, str]]:
    binary = clis.installed("claude")
    clis.wire(repo, "claude")
    return binary, clis.claude_env(agent_home, repo, server.url)


@pytest.mark.network
def test_claude_code_compaction_lowers_the_fill_to_its_own_figure_and_briefs_once(
    repo: Path, agent_home: Path, server: ModelServer, claude: tuple[Path, dict[str, str]]
) -> None:
    binary, env = claude
    sid = str(uuid.uuid4())
    # 96 % of 200,000 at the turn's end: the halt
    server.script(
        Turn(tool=("Bash", {"command": "git status"}), used=100_000), Turn("on it", used=192_000)
    )
    clis.claude(binary, repo, env, "start", "--session-id", sid)
    assert status(repo)["context"]["level"] == "halt"
    assert any(t.endswith("-halt") for t in tags(repo))
    clis.claude(binary, repo, env, "/compact", "--resume", sid)
    assert any(not r.main for r in server.requests), "no summary request was sent"
    assert any(t.endswith("-pre-compact") for t in tags(repo))  # saved first
    (boundary,) = clis.transcript_lines(agent_home, "compact_boundary")
    post = boundary["compactMetadata"]["postTokens"]
    before = len(server.main_requests())
    server.script(Turn("going on", used=post + 500))
    result = clis.claude(binary, repo, env, "go on", "--resume", sid)
    assert "not sent" not in json.dumps(result)
    (asked, *_) = server.main_requests()[before:]
    told = asked.text
    assert told.count(BRIEFED) == 1, told.count(BRIEFED)  # once per compaction
    briefing = told.split(BRIEFED, 1)[1][:1500]
    head = briefing.split("CHECKPOINT")[0]  # true: the halt is lifted, the figure is "before"
    assert "still halted" not in head and "(before the compaction" in head, head
    # the first hook after the compaction takes the agent's own figure (not 0, not a guess)
    assert f"~{post:,}/200,000 tokens" in told
    assert status(repo)["context"]["used"] == post + 500 + 10


@pytest.mark.network
def test_claude_code_levels_reach_the_model_and_a_halted_prompt_sends_nothing(
    repo: Path, server: ModelServer, claude: tuple[Path, dict[str, str]]
) -> None:
    binary, env = claude
    sid = str(uuid.uuid4())

    def turn(prompt: str, *turns: Turn, session: tuple[str, ...] = ("--resume", sid)) -> str:
        """One prompt; what its first request told the model ("" when none was sent)."""
        before = len(server.main_requests())
        server.script(*turns)
        result = clis.claude(binary, repo, env, prompt, *session)
        sent = server.main_requests()[before:]
        return sent[0].text if sent else "not sent: " + json.dumps(result)

    first = turn("hi", Turn("hello", used=20_000), session=("--session-id", sid))
    assert "tg-git 🔋 ~" in first and "200,000 tokens" in first  # SessionStart reached the model
    turn(
        "work",
        Turn(tool=("Bash", {"command": "git status"}), used=120_000),
        Turn("done", used=165_000),
    )
    assert status(repo)["context"]["used"] == 165_010  # the transcript's own figures
    warned = turn("more", Turn("done", used=185_000))
    assert "Token warning" in warned and "~165,010/200,000" in warned
    assert any(t.endswith("-force-save") for t in tags(repo))  # the turn's end at 92.5 %
    turn("more", Turn("done", used=192_000))
    assert any(t.endswith("-halt") for t in tags(repo))
    refused = turn("again")
    assert refused.startswith("not sent: ") and "context window is full" in refused
    assert "/compact" in refused
    # a new conversation rolls the session over and is briefed from the checkpoint
    fresh = turn(
        "continue", Turn("resuming", used=5_000), session=("--session-id", str(uuid.uuid4()))
    )
    assert not fresh.startswith("not sent") and "Session resumed" in fresh, fresh[:300]


@pytest.mark.network
def test_claude_code_spend_halt_holds_through_compact_and_a_new_conversation(
    repo: Path, server: ModelServer, claude: tuple[Path, dict[str, str]]
) -> None:
    binary, env = claude
    tg(repo, "config", "set", "budget.spend_tokens", "100000")
    sid = str(uuid.uuid4())
    server.script(
        Turn(tool=("Bash", {"command": "git status"}), used=60_000), Turn("done", used=61_000)
    )
    clis.claude(binary, repo, env, "work", "--session-id", sid)
    assert status(repo)["halted_by"] == "spend"
    asked = len(server.requests)
    compact = clis.claude(binary, repo, env, "/compact", "--resume", sid)
    assert len(server.requests) == asked, "the paid summary request was sent"
    assert "compaction was not started" in json.dumps(compact), compact
    new = clis.claude(binary, repo, env, "hi", "--session-id", str(uuid.uuid4()))
    assert len(server.requests) == asked and "spend budget is spent" in json.dumps(new)
