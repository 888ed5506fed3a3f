"""A plain ``tg-git resume`` briefs the next agent's model, not only the person: in a fresh clone
(or any clone), the next session start of whichever agent is installed hands its model the same
briefing ``resume --agent`` gives, integrity and the new session's budget included, once. Each
agent's start hook is driven with the stdin JSON it documents, on real git repositories."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import context
from tests.support.agents import hook
from tests.support.agents import reply
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import session_id
from tests.support.repos import tg

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp

TITLE = "Session resumed"


def checkpointed(repo: Path) -> None:
    """Work in progress, a file committed, and a checkpoint: what a teammate clones."""
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "tokenizer half done")
    tg(repo, "note", "the grammar lives in grammar.ebnf")
    (repo / "lexer.py").write_text("TOKENS = []\n")
    git(repo, "add", "lexer.py")
    commit(repo, "-m", "lexer")
    tg(repo, "checkpoint", "-m", "before the clone")


def fresh_clone(repo: Path, tmp_path: Path) -> Path:
    checkpointed(repo)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    tg(clone, "install")
    return clone


# ---- each agent's session start, in its own stdin JSON and reply channel -----------------------
def _claude_like(agent: str) -> Callable[[Path, str], str]:
    def start(clone: Path, conversation: str) -> str:
        payload: dict[str, Any] = {
            "session_id": conversation, "cwd": str(clone),
            "transcript_path": str(clone.parent / f"{conversation}.jsonl"),
            "hook_event_name": "SessionStart", "source": "startup",
        }  # fmt: skip
        if agent == "codex":
            payload.update({"transcript_path": None, "model": "gpt-5.5"})
        if agent == "gemini":
            payload["timestamp"] = "2026-12-03T10:00:00.000Z"
        return context(hook(clone, agent, "SessionStart", payload), "SessionStart")

    return start


def _antigravity(clone: Path, conversation: str) -> str:
    data = reply(hook(clone, "antigravity", "PreInvocation", {
        "conversationId": conversation, "workspacePaths": [str(clone)], "invocationNum": 0,
        "initialNumSteps": 1, "transcriptPath": str(clone.parent / "t.jsonl")}))  # fmt: skip
    (step,) = data["injectSteps"]
    return str(step["ephemeralMessage"])


def _cursor(clone: Path, conversation: str) -> str:
    data = reply(hook(clone, "cursor", "sessionStart", {
        "conversation_id": conversation, "session_id": conversation, "generation_id": "g-1",
        "model": "claude-4.5-sonnet", "cursor_version": "2.1.0", "workspace_roots": [str(clone)],
        "user_email": None, "transcript_path": None, "hook_event_name": "sessionStart",
        "is_background_agent": False, "composer_mode": "agent"}))  # fmt: skip
    return str(data["additional_context"])


def _copilot(clone: Path, conversation: str) -> str:
    data = reply(hook(clone, "copilot", "sessionStart", {
        "sessionId": conversation, "timestamp": 1764583200000, "cwd": str(clone),
        "source": "new", "initialPrompt": "go on"}))  # fmt: skip
    return str(data["additionalContext"])


def _opencode(clone: Path, conversation: str) -> str:
    data = reply(hook(clone, "opencode", "session.start",
                      {"session_id": conversation, "cwd": str(clone), "source": "startup"}))  # fmt: skip
    return str(data["context"])


STARTS: dict[str, Callable[[Path, str], str]] = {
    "claude": _claude_like("claude"), "codex": _claude_like("codex"),
    "gemini": _claude_like("gemini"), "antigravity": _antigravity, "cursor": _cursor,
    "copilot": _copilot, "opencode": _opencode,
}  # fmt: skip


def briefed(told: str, session: str) -> None:
    """The resume briefing, whole: the plan, the note, integrity and the new session's budget."""
    assert told.count(TITLE) == 1, told
    assert "parser" in told and "tokenizer half done" in told, told
    assert "the grammar lives in grammar.ebnf" in told, told
    assert "Integrity" in told, told
    assert f"{session}, budget 200,000 tokens" in told, told


# ---- the must-holds --------------------------------------------------------------------------
@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_a_plain_resume_in_a_fresh_clone_briefs_the_first_start_once(
    repo: Path, tmp_path: Path, agent: str
) -> None:
    clone = fresh_clone(repo, tmp_path)
    said = tg(clone, "resume").stdout
    assert TITLE in said
    resumed = session_id(clone)
    (clone / "lexer.py").write_text("TOKENS = ['changed']\n")  # integrity as it stands now
    told = STARTS[agent](clone, "conv-1")
    briefed(told, resumed)
    assert "lexer.py (modified)" in told
    assert session_id(clone) == resumed  # the resume's session, not another one
    other = "claude" if agent != "claude" else "codex"
    assert TITLE not in STARTS[other](clone, "conv-2")  # a later start: not again
    assert session_id(clone) == resumed


@pytest.mark.parametrize("agent", ["antigravity", "cursor", "copilot", "opencode"])
def test_the_other_agents_first_start_events_carry_it_too(
    repo: Path, tmp_path: Path, agent: str
) -> None:
    clone = fresh_clone(repo, tmp_path)
    tg(clone, "resume")
    resumed = session_id(clone)
    briefed(STARTS[agent](clone, "conv-1"), resumed)
    assert TITLE not in STARTS["claude"](clone, "conv-2")
    assert session_id(clone) == resumed


def test_a_start_before_any_resume_briefs_no_stale_session(repo: Path, tmp_path: Path) -> None:
    clone = fresh_clone(repo, tmp_path)
    before = session_id(clone)
    assert TITLE not in STARTS["claude"](clone, "conv-1")
    assert session_id(clone) == before
    tg(clone, "resume")  # then a resume: the next start (another agent) is briefed
    briefed(STARTS["codex"](clone, "conv-2"), session_id(clone))


def test_a_session_started_since_the_resume_is_not_briefed(repo: Path, tmp_path: Path) -> None:
    clone = fresh_clone(repo, tmp_path)
    tg(clone, "resume")
    tg(clone, "session", "start")  # the resume's session is no longer the current one
    assert TITLE not in STARTS["gemini"](clone, "conv-1")
    assert TITLE not in STARTS["codex"](clone, "conv-2")


def test_a_resume_a_day_old_is_not_briefed(repo: Path, tmp_path: Path) -> None:
    clone = fresh_clone(repo, tmp_path)
    tg(clone, "resume")
    path = clone / ".git" / "tg-git" / "agents.json"
    data = json.loads(path.read_text())
    owed = [v for v in data.values() if isinstance(v, dict) and isinstance(v.get("at"), int)]
    assert owed, data  # the resume left what the next start takes
    for entry in owed:
        entry["at"] -= 24 * 3600
    path.write_text(json.dumps(data))
    assert TITLE not in STARTS["claude"](clone, "conv-1")
    tg(clone, "resume")  # a new resume of the same session: owed again, once
    briefed(STARTS["codex"](clone, "conv-2"), session_id(clone))
    assert TITLE not in STARTS["gemini"](clone, "conv-3")


def test_a_resume_then_another_resume_briefs_once(repo: Path, tmp_path: Path) -> None:
    clone = fresh_clone(repo, tmp_path)
    tg(clone, "resume", "--agent", "codex")  # a hand-off first, then a plain resume: it decides
    tg(clone, "resume")
    resumed = session_id(clone)
    briefed(STARTS["gemini"](clone, "conv-1"), resumed)
    assert TITLE not in STARTS["codex"](clone, "conv-2")
    assert TITLE not in STARTS["claude"](clone, "conv-3")
    assert session_id(clone) == resumed


def test_a_plain_resume_then_a_handoff_leaves_the_briefing_to_the_named_agent(
    repo: Path, tmp_path: Path
) -> None:
    clone = fresh_clone(repo, tmp_path)
    tg(clone, "resume")
    tg(clone, "resume", "--agent", "codex")
    assert TITLE not in STARTS["claude"](clone, "conv-1")
    assert TITLE in STARTS["codex"](clone, "conv-2")


def test_the_bound_conversation_resumed_keeps_its_session(repo: Path) -> None:
    """In the clone that worked: the conversation the session serves, resumed, goes on as
    before; a new conversation still rolls over with the briefing."""
    checkpointed(repo)
    tg(repo, "resume")
    resumed = session_id(repo)
    start = {"session_id": "A", "cwd": str(repo), "transcript_path": str(repo.parent / "A.jsonl"),
             "hook_event_name": "SessionStart"}  # fmt: skip
    briefed(context(hook(repo, "claude", "SessionStart", {**start, "source": "startup"}),
                    "SessionStart"), resumed)  # fmt: skip
    tg(repo, "resume")  # the same session again (nothing spent in it yet)
    assert session_id(repo) == resumed
    again = context(hook(repo, "claude", "SessionStart", {**start, "source": "resume"}),
                    "SessionStart")  # fmt: skip
    assert TITLE not in again and session_id(repo) == resumed


def test_the_owed_briefing_speaks_the_configured_language(repo: Path, tmp_path: Path) -> None:
    tg(repo, "config", "set", "language", "ko")
    git(repo, "add", ".tg-git/config.toml")
    commit(repo, "-m", "ko")
    clone = fresh_clone(repo, tmp_path)
    assert "세션 재개" in tg(clone, "resume").stdout
    told = STARTS["codex"](clone, "conv-1")
    assert "세션 재개" in told and f"{session_id(clone)}, 예산 200,000 토큰" in told
    assert "token-guard 스킬" in told
