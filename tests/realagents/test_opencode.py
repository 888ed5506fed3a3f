"""Whole sessions of the real OpenCode CLI (``opencode run``) with tg-git's plugin wired,
against the scripted model server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg

Run = tuple[Path, dict[str, str], ModelServer, Path]
BRIEFED = "the context was compacted"


@pytest.fixture
def opencode(repo: Path, agent_home: Path, server: ModelServer) -> Run:
    binary = clis.wired(repo, "opencode")
    return binary, clis.opencode_env(agent_home, repo, server.url), server, repo


def turn(
    run: Run, prompt: str, *turns: Turn, session: str = ""
) -> tuple[str, list[dict[str, Any]]]:
    """One ``opencode run``: what its first main request told the model ("not sent …" when
    none), and its events."""
    binary, env, server, repo = run
    before = len(server.main_requests())
    server.script(*turns)
    events, err = clis.opencode(
        binary, repo, env, prompt, *(("--session", session) if session else ())
    )
    return clis.first_told(server, before, json.dumps(events) + err), events


@pytest.mark.network
def test_opencode_levels_landing_and_a_blocked_prompt(opencode: Run) -> None:
    server, repo = opencode[2], opencode[3]
    first, events = turn(opencode, "hi", Turn("hello", used=20_000))
    assert "tg-git 🔋 ~" in first  # the session's start reached the model
    session = clis.session_of(events)
    turn(
        opencode,
        "work",
        Turn(tool=("bash", {"command": "git status", "description": "status"}), used=150_000),
        Turn("done", used=182_000),
        session=session,
    )
    assert status(repo)["context"]["used"] == 182_010  # message.updated: the live figure
    assert any(t.endswith("-force-save") for t in tags(repo))  # 91 % at the turn's end
    # the warning reaches the model; 96 % with a tool call: the next calls are in landing mode
    asked = len(server.requests)
    warned, _ = turn(
        opencode,
        "land",
        Turn(tool=("bash", {"command": "echo hi", "description": "x"}), used=192_000),
        Turn(tool=("write", {"filePath": str(repo / "a.txt"), "content": "x"}), used=192_100),
        Turn(tool=("bash", {"command": "git status", "description": "status"}), used=192_200),
        Turn("landed", used=192_300),
        session=session,
    )
    assert "Token warning" in warned
    assert status(repo)["context"]["level"] == "halt"
    assert not (repo / "a.txt").exists()
    denial = [r for r in server.requests[asked:] if "this write call was denied" in r.text]
    assert denial, "the denial's reason did not reach the model"
    assert "On branch" in server.requests[-1].text  # git status ran
    assert any(t.endswith("-halt") for t in tags(repo))
    asked = len(server.requests)
    refused, events = turn(opencode, "again", session=session)
    assert refused.startswith("not sent") and len(server.main_requests()) == len(
        [r for r in server.requests[:asked] if r.main]
    )
    # OpenCode 1.18 shows a plugin's refusal of a prompt as "Unexpected server error" (the
    # reason is in its log): the prompt never reached the model
    assert "Unexpected server error" in refused


@pytest.mark.network
def test_opencode_compaction_spend_halt_and_conversations(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    binary = clis.wired(repo, "opencode")
    tg(
        repo, "config", "set", "budget.context", "400000"
    )  # OpenCode's window (200,000) compacts first
    tg(repo, "config", "set", "budget.spend_usd", "0.5")
    run = (binary, clis.opencode_env(agent_home, repo, server.url, context=200_000), server, repo)
    # OpenCode compacts by itself right after an answer that fills its window: saved first,
    # then its summary request, then its own "continue" turn
    asked = len(server.requests)
    _, events = turn(run, "hi", Turn("hello", used=196_000), Turn("continued", used=9_000))
    assert any(t.endswith("-pre-compact") for t in tags(repo))
    assert [r.main for r in server.requests[asked:] if r.api == "chat"][-2:] == [False, True]
    assert status(repo)["context"]["used"] == 9_010  # OpenCode's own figure after it
    session, tg_session = clis.session_of(events), status(repo)["session"]["id"]
    told, _ = turn(run, "next", Turn("more", used=60_000), session=session)
    assert told.count(BRIEFED) == 1, told  # the next prompt is briefed once, and truly
    assert "halt" not in told.split(BRIEFED, 1)[1].split("CHECKPOINT")[0]
    assert status(repo)["session"]["id"] == tg_session  # a resumed conversation keeps it
    assert status(repo)["spend"]["level"] == "halt", status(repo)["spend"]  # $0.54 of $0.50
    refused, _ = turn(run, "new one", Turn("never"))
    assert refused.startswith("not sent")  # a spend halt holds through a new conversation
    assert status(repo)["session"]["id"] == tg_session
