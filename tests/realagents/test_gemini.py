"""Whole sessions of the real Gemini CLI (``gemini -p``) with tg-git wired, against the
scripted model server."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import tags


def pre_compact(repo: Path) -> list[str]:
    return [t for t in tags(repo) if t.endswith("-pre-compact")]


@pytest.mark.network
def test_gemini_saves_before_a_real_compression_only_and_its_model_reads_plain_context(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    entry = clis.wired(repo, "gemini")
    # Gemini compresses at 15 % of its 1,048,576-token limit here: past 157,286 tokens
    env = clis.gemini_env(agent_home, repo, server.url, threshold=0.15)
    server.script(Turn("hello", used=20_000))
    clis.gemini(entry, repo, env, "hi")
    (first,) = server.main_requests()
    assert "tg-git 🔋 ~" in first.text  # SessionStart's context reached the model
    assert pre_compact(repo) == []  # PreCompress fired, but Gemini only checked
    # a tool call at 82 % of tg-git's 200,000, past Gemini's 15 %: its next call compresses
    asked = len(server.requests)
    server.script(
        Turn(tool=("run_shell_command", {"command": "git status"}), used=165_000),
        Turn("done", used=165_000),
    )
    clis.gemini(entry, repo, env, "work", "--resume", "latest")
    assert len(pre_compact(repo)) == 1  # the real compression, saved first
    assert any(not r.main for r in server.requests[asked:]), "Gemini did not compress"
    asked = len(server.requests)
    server.script(Turn("going on", used=30_000))
    clis.gemini(entry, repo, env, "again", "--resume", "latest")
    assert len(pre_compact(repo)) == 1  # a resumed process only checks (its count starts at 0)
    warned = next(r.text for r in server.requests[asked:] if "Token warning" in r.text)
    assert "&gt;" not in warned and "&lt;" not in warned  # what the model reads, unescaped
