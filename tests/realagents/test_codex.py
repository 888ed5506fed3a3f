"""Whole sessions of the real Codex CLI (``codex exec`` and ``exec resume``) with tg-git wired,
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

WINDOW = 258_400  # what Codex 0.171 reports as gpt-5.5's window (model_context_window)
BRIEFED = "the context was compacted"
Run = tuple[Path, dict[str, str], ModelServer, Path]


@pytest.fixture
def codex(repo: Path, agent_home: Path, server: ModelServer) -> Run:
    binary = clis.wired(repo, "codex")
    return binary, clis.codex_env(agent_home, repo, server.url), server, repo


def turn(
    run: Run, prompt: str, *turns: Turn, resume: tuple[str, ...] = ()
) -> tuple[str, list[dict[str, Any]]]:
    """One ``codex exec``: what its first request told the model ("not sent …" when none)."""
    binary, env, server, repo = run
    before = len(server.main_requests())
    server.script(*turns)
    events, err = clis.codex(binary, repo, env, prompt, *resume)
    return clis.first_told(server, before, json.dumps(events) + err), events


@pytest.mark.network
def test_codex_levels_reach_the_model_and_its_own_compaction_is_the_way_out(codex: Run) -> None:
    server, repo = codex[2], codex[3]
    first, events = turn(codex, "hi", Turn("hello", used=20_000))
    assert "tg-git 🔋 ~" in first  # SessionStart's context reached the model
    thread = ("resume", clis.thread_id(events))
    turn(
        codex,
        "work",
        Turn(tool=("exec_command", {"cmd": "git status"}), used=150_000),
        Turn("done", used=210_000),
        resume=thread,
    )
    assert status(repo)["context"]["window"] == WINDOW  # the rollout's own figures
    warned, _ = turn(codex, "more", Turn("done", used=236_000), resume=thread)
    assert "Token warning" in warned and "~210,010/258,400" in warned
    assert any(t.endswith("-force-save") for t in tags(repo))
    turn(codex, "more", Turn("done", used=246_000), resume=thread)  # 95.2 %: the turn's end saves
    assert status(repo)["context"]["level"] == "halt"
    assert any(t.endswith("-halt") for t in tags(repo))
    # Codex compacts by itself before the next prompt reaches any hook: saved first, then the
    # summary request, then the prompt goes on, briefed once and truly (the halt is lifted)
    asked = len(server.requests)
    told, _ = turn(codex, "again", Turn("going on", used=9_000), resume=thread)
    assert any(t.endswith("-pre-compact") for t in tags(repo))
    assert [r.main for r in server.requests[asked:]][:2] == [False, True]  # summary, then prompt
    assert told.count(BRIEFED) == 1, told.count(BRIEFED)
    briefing = told.split(BRIEFED, 1)[1].split("CHECKPOINT")[0]
    assert "halt" not in briefing, briefing


@pytest.mark.network
def test_codex_halt_below_its_own_compaction_blocks_with_its_own_commands(codex: Run) -> None:
    server, repo = codex[2], codex[3]
    tg(repo, "config", "set", "budget.context", "200000")  # the halt at 190,000, below Codex's
    _, events = turn(codex, "hi", Turn("hello", used=192_000))
    assert any(t.endswith("-halt") for t in tags(repo))
    asked = len(server.requests)
    refused, _ = turn(codex, "again", resume=("resume", clis.thread_id(events)))
    assert refused.startswith("not sent") and len(server.requests) == asked
    # `codex exec` shows a hook's reason nowhere (not in its JSON, stderr or rollout): the
    # reason's words are checked on Codex's captured payload in tests/agents/test_sessions.py


@pytest.mark.network
def test_codex_runs_untrusted_hooks_never_and_doctor_says_how_to_trust(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    binary = clis.installed("codex")
    said = tg(repo, "agent", "install", "codex").stdout
    assert "/hooks" in said and "Trust all and continue" in said
    env = clis.codex_env(agent_home, repo, server.url)
    server.script(Turn("hello", used=20_000))
    clis.codex(binary, repo, env, "hi", trusted=False)
    (asked,) = server.main_requests()
    assert "tg-git 🔋" not in asked.text  # Codex ran none of tg-git's hooks, silently
    doctor = tg(repo, "doctor", check=False, env={"CODEX_HOME": env["CODEX_HOME"]})
    assert doctor.returncode != 0 and "not trusted in Codex" in doctor.stdout + doctor.stderr
    # what Codex's TUI writes once the user trusts them (its own format, captured)
    hooks = (repo / ".codex" / "hooks.json").resolve()
    state = "".join(
        f'\n[hooks.state."{hooks}:{event}:0:0"]\ntrusted_hash = "sha256:{"0" * 64}"\n'
        for event in (
            "session_start",
            "user_prompt_submit",
            "pre_tool_use",
            "stop",
            "pre_compact",
            "post_compact",
        )
    )
    config = Path(env["CODEX_HOME"]) / "config.toml"
    config.write_text(config.read_text() + "\n[hooks.state]\n" + state)
    doctor = tg(repo, "doctor", check=False, env={"CODEX_HOME": env["CODEX_HOME"]})
    assert "not trusted in Codex" not in doctor.stdout + doctor.stderr


@pytest.mark.network
def test_a_claude_code_halt_hands_off_to_codex_whose_model_is_briefed(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    claude, codex = clis.wired(repo, "claude"), clis.wired(repo, "codex")
    claude_env = clis.claude_env(agent_home, repo, server.url)
    server.script(
        Turn(tool=("Bash", {"command": "git status"}), used=100_000), Turn("on it", used=192_000)
    )
    clis.claude(
        claude, repo, claude_env, "work", "--session-id", "0d9c6f0e-1c1f-4d43-9d0e-3a0b1c2d3e4f"
    )
    assert any(t.endswith("-halt") for t in tags(repo))
    said = tg(repo, "resume", "--agent", "codex").stdout
    assert "codex" in said
    before = len(server.main_requests())
    server.script(Turn("resuming", used=20_000))
    clis.codex(codex, repo, clis.codex_env(agent_home, repo, server.url), "continue")
    (asked,) = server.main_requests()[before:]
    assert "Session resumed" in asked.text and "Saved by" in asked.text and "claude" in asked.text
