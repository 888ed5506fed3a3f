"""Whole sessions of the real GitHub Copilot CLI (``copilot -p``, its offline mode) with
tg-git's hooks wired, against the scripted model server. Copilot's hooks carry no token
counts, but its session's events (``$COPILOT_HOME/session-state/<id>/events.jsonl``) hold one
usage record a request, written when a run ends: the next run's hooks (or ``tg-git usage
import``) read them, and the spend tg-git records is the server's figures. The levels of the
landing case come from Copilot's own figures. Copilot CLI 1.0.102 did not compact by itself here
(``COPILOT_PROVIDER_MAX_PROMPT_TOKENS`` at 30,000 and 12,000 with answers reporting 29,000
prompt tokens); ``/compact`` as a run's prompt compacts, and runs its preCompact hook."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import ledger_file
from tests.support.repos import pending_file
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg
from tg_git.domain import eventlog

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


@pytest.mark.network
def test_copilot_start_landing_and_conversations(copilot: Run) -> None:
    server, repo = copilot[2], copilot[3]
    first, conversation = turn(copilot, "hi", Turn("hello", used=20_000))
    assert "tg-git 🔋 ~" in first and conversation  # sessionStart's context reached the model
    tg_session = status(repo)["session"]["id"]
    # its answer fills 62,010 of the 64,000 prompt tokens Copilot allows (96.9 %): its events,
    # written when the run ends, are read by the next run's prompt hook
    turn(copilot, "work", Turn("done", used=62_000), resume=conversation)
    assert status(repo)["session"]["id"] == tg_session  # a resumed conversation keeps it
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


def spent(repo: Path) -> dict[str, int]:
    """The counts of every usage event tg-git recorded, summed (committed and pending)."""
    pending = pending_file(repo)
    text = ledger_file(repo).read_text() + (pending.read_text() if pending.exists() else "")
    usage = [dict(e) for e in eventlog.parse(text).values() if e["kind"] == "usage"]
    names = ("requests", "fresh_input", "cache_write", "cache_read", "output")
    return {n: sum(int(str(e.get(n, 0))) for e in usage) for n in names}


@pytest.mark.network
def test_copilot_spend_is_the_servers_figures(copilot: Run) -> None:
    """One real session with a tool call: what tg-git records is the server's figures, each
    request once (12,345 + 13,000 in, 5,000 of them cached; 77 + 55 out), the context the
    second request's. Copilot writes the session's events when its process ends: the next
    run's prompt hook reads them, and an import after that run adds its one request. Then
    ``/compact``: Copilot writes no usage record for the summary's request, only its
    compaction event's counts; tg-git counts them and takes the context left as the fill."""
    env, repo = {"COPILOT_HOME": copilot[1]["COPILOT_HOME"]}, copilot[3]
    call = ("bash", {"command": "echo measured", "description": "say it"})
    first = Turn(tool=call, used=12_345, out=77, cached=5_000)
    _, conversation = turn(copilot, "go", first, Turn("done", used=13_000, out=55))
    turn(copilot, "again", Turn("ok", used=40_000, out=9), resume=conversation)
    assert spent(repo) == {"requests": 2, "fresh_input": 20_345, "cache_write": 0,
                           "cache_read": 5_000, "output": 132}  # fmt: skip
    data = status(repo)
    assert data["used"] == 13_055 and data["measured"]["window"] == 64_000
    after = json.loads(tg(repo, "usage", "import", "--json", env=env).stdout)
    assert (after["requests"], after["tokens"]) == (1, 40_009)
    assert json.loads(tg(repo, "usage", "import", "--json", env=env).stdout)["requests"] == 0
    assert spent(repo)["requests"] == 3 and status(repo)["used"] == 40_009
    turn(copilot, "/compact", Turn("Summary: done.", used=41_000, out=300), resume=conversation)
    tg(repo, "usage", "import", "--json", env=env)
    assert spent(repo) == {"requests": 4, "fresh_input": 20_345 + 40_000 + 41_000,
                           "cache_write": 0, "cache_read": 5_000, "output": 441}  # fmt: skip
    assert 0 < status(repo)["used"] < 40_009
    assert any(t.endswith("-pre-compact") for t in tags(repo))  # its preCompact hook ran
