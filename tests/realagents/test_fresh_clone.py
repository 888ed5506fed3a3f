"""A fresh clone with the real agent CLIs: a checkpoint made, the repository cloned, ``tg-git
resume`` there, and the next agent session's first request carries the briefing (asserted on
the scripted server's log)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import git
from tests.support.repos import status
from tests.support.repos import tg


def cloned(repo: Path, agent: str, tmp_path: Path, *, named: bool = True) -> Path:
    """``repo`` with ``agent`` wired and a task in progress, checkpointed, then cloned as a
    teammate would: hooks installed, ``tg-git resume --agent AGENT`` (``named``), or a plain
    ``tg-git resume``, which leaves the briefing to the next agent session started there."""
    clis.wire(repo, agent)
    tg(repo, "task", "add", "port the parser")
    tg(repo, "task", "start", "port the parser", "--at", "lexer done, parser half way")
    tg(repo, "note", "the grammar lives in grammar.ebnf")
    tg(repo, "checkpoint", "-m", "before the clone")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    tg(clone, "install")
    said = tg(clone, "resume", *(["--agent", agent] if named else [])).stdout
    assert "Session resumed" in said and "port the parser" in said
    return clone


def briefed(told: str) -> None:
    assert told.count("Session resumed") == 1  # once, in the first request
    assert "port the parser" in told and "lexer done, parser half way" in told
    assert "the grammar lives in grammar.ebnf" in told
    assert "before the clone" in told or "Checkpoint" in told


def first_session_in_a_clone(
    agent: str, repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    """``agent``'s first session in a fresh clone: its first request is briefed, the level ok."""
    binary = clis.installed(agent)
    clone = cloned(repo, agent, tmp_path)
    server.script(Turn("resuming", used=20_000))
    if agent == "codex":
        clis.codex(binary, clone, clis.codex_env(agent_home, clone, server.url), "go on")
    else:
        clis.gemini(binary, clone, clis.gemini_env(agent_home, clone, server.url), "go on")
    first, *_ = server.main_requests()
    briefed(first.text)
    assert status(clone)["level"] == "ok"


@pytest.mark.network
def test_a_fresh_clone_briefs_codex_in_its_first_request(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    first_session_in_a_clone("codex", repo, agent_home, server, tmp_path)


@pytest.mark.network
def test_a_fresh_clone_briefs_gemini_in_its_first_request(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    first_session_in_a_clone("gemini", repo, agent_home, server, tmp_path)


@pytest.mark.network
def test_a_plain_resume_in_a_fresh_clone_briefs_codex_in_its_first_request(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    """No agent named: the resume leaves the briefing to the next session start in the clone."""
    binary = clis.installed("codex")
    clone = cloned(repo, "codex", tmp_path, named=False)
    resumed = status(clone)["session"]["id"]
    server.script(Turn("resuming", used=20_000))
    clis.codex(binary, clone, clis.codex_env(agent_home, clone, server.url), "go on")
    first, *_ = server.main_requests()
    briefed(first.text)
    assert f"{resumed}, budget 200,000 tokens" in first.text  # the resume's session, taken
    assert "Integrity" in first.text
    assert status(clone)["session"]["id"] == resumed and status(clone)["level"] == "ok"
