"""Whole sessions of the real GitHub Copilot CLI (``copilot -p``, its offline mode) with
tg-git's hooks wired, against the scripted model server. Copilot's hooks carry no token
counts: the levels here come from tg-git's own records (``tg-git record``), as its estimates
would set them. Copilot CLI 1.0.102 did not compact here (``COPILOT_PROVIDER_MAX_PROMPT_TOKENS``
at 30,000 and 12,000 with answers reporting 29,000 prompt tokens): its preCompact is not
driven; its spend is not measured (no hook or file tg-git reads carries its tokens)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg

Run = tuple[Path, dict[str, str], ModelServer, Path]


@pytest.fixture
def copilot(repo: Path, agent_home: Path, server: ModelServer) -> Run:
    entry = clis.installed("copilot")
    clis.wire(repo, "copilot")
    return entry, clis.copilot_env(agent_home, server.url), server, repo


def turn(run: Run, prompt: str, *turns: Turn, resume: str = "") -> tuple[str, str]:
    """One ``copilot -p``: what its first main request told the model ("not sent …" when
    none), and the conversation's id."""
    entry, env, server, repo = run
    before = len(server.main_requests())
    server.script(*turns)
    out, err = clis.copilot(entry, repo, env, prompt, *((f"--resume={resume}",) if resume else ()))
    sent = server.main_requests()[before:]
    found = re.search(r"--resume=([0-9a-f-]{36})", out + err)
    return (sent[0].text if sent else "not sent: " + out + err), (found.group(1) if found else "")


def record(repo: Path, tokens: int) -> None:
    tg(repo, "record", "--tokens", str(tokens))


@pytest.mark.network
def test_copilot_start_landing_and_conversations(copilot: Run) -> None:
    server, repo = copilot[2], copilot[3]
    first, conversation = turn(copilot, "hi", Turn("hello", used=20_000))
    assert "tg-git 🔋 ~" in first and conversation  # sessionStart's context reached the model
    tg_session = status(repo)["session"]["id"]
    turn(copilot, "work", Turn("done"), resume=conversation)
    assert status(repo)["session"]["id"] == tg_session  # a resumed conversation keeps it
    record(repo, 192_000)  # 96 % (tg-git's own save at the level; Copilot's hooks carry no tokens)
    asked = len(server.requests)
    turn(
        copilot,
        "land",
        Turn(tool=("create", {"path": str(repo / "a.txt"), "file_text": "x\n"})),
        Turn(tool=("bash", {"command": "git status", "description": "status"})),
        Turn("landed"),
        resume=conversation,
    )
    assert not (repo / "a.txt").exists()
    later = [r.text for r in server.requests[asked:]]
    assert any("this create call was denied" in t for t in later), "the reason never reached it"
    assert "On branch" in later[-1]  # git status ran
    assert any(t.endswith("-halt") for t in tags(repo))
    # a new conversation at a context halt starts a new tg-git session, and its model is told
    fresh, _ = turn(copilot, "new", Turn("fresh start"))
    assert status(repo)["session"]["id"] != tg_session
    assert "tg-git 🔋 ~" in fresh
