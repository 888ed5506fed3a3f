"""The agents' transcripts and hook payloads, written here in each agent's own shape."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import uuid
from datetime import datetime
from datetime import timedelta
from datetime import timezone
from pathlib import Path
from typing import Any

import pytest

from bench._transcripts import token_counts
from tests.support.repos import tg


def claude_binary(tmp_path: Path) -> str:
    """TG_GIT_CLAUDE_CLI, or the native binary npm installs (~240 MB); skips without either."""
    binary = os.environ.get("TG_GIT_CLAUDE_CLI", "")
    if not binary:
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed")
        subprocess.run([npm, "install", "--silent", "--ignore-scripts", "@anthropic-ai/claude-code"],
                       cwd=tmp_path, check=True, capture_output=True, timeout=1200)  # fmt: skip
        binary = str(
            tmp_path / "node_modules" / "@anthropic-ai" / "claude-code-linux-x64" / "claude"
        )
    if not Path(binary).is_file():
        pytest.skip("no native Claude Code binary for this platform")
    return binary


# ---- the agents' transcripts, written here in each agent's own shape -------------------------
MARKER = "TGGIT-PRIVATE-7f3a9c"
"""Stands in every transcript's text: it must never reach a ledger, a report or the terminal."""

# One Gemini CLI response's `tokens`, as its chat files hold it (2026).
GEMINI_TOKENS = {"input": 15327, "output": 23, "cached": 11526, "thoughts": 919, "tool": 7,
                 "total": 16276}  # fmt: skip


def ts(seconds: float = 0) -> str:
    """A transcript timestamp ``seconds`` from now, in the agents' millisecond UTC form."""
    moment = datetime.now(timezone.utc) + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def claude_line(msg: str, req: str, *, fresh: int = 3, write: int = 0, read: int = 0,
                out: int = 10, model: str = "claude-opus-4-6", side: bool = False,
                at: str | None = None, session: str = "sess-1") -> str:  # fmt: skip
    """One Claude Code assistant line with its usage (message ``msg``, request ``req``)."""
    obj = {
        "parentUuid": None, "isSidechain": side, "userType": "external", "cwd": f"/home/{MARKER}",
        "sessionId": session, "version": "2.1.87", "gitBranch": "main", "type": "assistant",
        "timestamp": at or ts(), "requestId": req,
        "message": {
            "id": msg, "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": f"the answer {MARKER}"}],
            "usage": {
                "input_tokens": fresh, "cache_creation_input_tokens": write,
                "cache_read_input_tokens": read,
                "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write},
                "output_tokens": out,
            },
        },
    }  # fmt: skip
    return json.dumps(obj, separators=(",", ":")) + "\n"


def fill_line(n: int, fill: int, session: str = "A") -> str:
    """The ``n``-th Claude request of ``session``, leaving the context ``fill`` tokens full."""
    return claude_line(
        f"m{n}", f"r{n}", fresh=10, write=0, read=fill - 110, out=100, session=session
    )


def user_line(text: str = MARKER) -> str:
    """One Claude Code user line (no usage)."""
    return (
        json.dumps(
            {"type": "user", "timestamp": ts(), "message": {"role": "user", "content": text}},
            separators=(",", ":"),
        )
        + "\n"
    )


def project_folder(repo: Path, home: Path) -> Path:
    """Claude Code's transcript folder for ``repo`` under its ``home``, made."""
    folder = home / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def transcript_before_session(repo: Path, home: Path, name: str, line: str) -> Path:
    """A Claude Code transcript ``name`` holding ``line``, last written 30 s ago (before the
    session the test starts)."""
    path = project_folder(repo, home) / name
    path.write_text(line)
    os.utime(path, (time.time() - 30, time.time() - 30))
    return path


def codex_lines(cwd: str, totals: list[tuple[int, int, int]], repeat: bool = True) -> str:
    """A Codex rollout in ``cwd`` whose running totals (input, cached, output) are ``totals``."""
    lines = [
        {"timestamp": ts(), "type": "session_meta",
         "payload": {"id": "0199-abc", "cwd": cwd, "cli_version": "0.169.0", "instructions": MARKER}},
        {"timestamp": ts(), "type": "turn_context", "payload": {"model": "gpt-5.3-codex", "cwd": cwd}},
        {"timestamp": ts(), "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": MARKER}]}},
    ]  # fmt: skip
    lines += token_counts(totals, repeat)
    return "".join(json.dumps(line) + "\n" for line in lines)


def gemini_message(
    mid: str, tokens: dict[str, int] | None, model: str = "gemini-3-flash-preview"
) -> dict[str, Any]:
    """One Gemini CLI chat message ``mid``, with its ``tokens`` when given."""
    msg: dict[str, Any] = {
        "id": mid,
        "timestamp": ts(),
        "type": "gemini",
        "content": MARKER,
        "model": model,
    }
    if tokens is not None:
        msg["tokens"] = tokens
    return msg


COPILOT_SESSION = "3c9e51d2-8f4a-4b6e-a0d7-5e21f9c4b083"


def _copilot_event(kind: str, data: dict[str, Any], at: str | None = None) -> str:
    """One line of a Copilot CLI ``events.jsonl``: compact JSON, its keys in Copilot's order."""
    event = {"type": kind, "data": data, "id": str(uuid.uuid4()), "timestamp": at or ts(),
             "parentId": None}  # fmt: skip
    return json.dumps(event, separators=(",", ":")) + "\n"


def copilot_start(cwd: str, session: str = COPILOT_SESSION, resume: bool = False) -> str:
    """A Copilot CLI session's first line (``session.start``), or a resume's line."""
    context = {"cwd": cwd, "gitRoot": cwd, "branch": "main"}
    if resume:
        return _copilot_event("session.resume", {"resumeTime": ts(), "eventCount": 9,
                                                  "context": context, "alreadyInUse": False})  # fmt: skip
    return _copilot_event("session.start", {
        "sessionId": session, "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.102",
        "startTime": ts(), "selectedModel": "gpt-4.1", "contextTier": None, "context": context,
        "alreadyInUse": False, "remoteSteerable": False})  # fmt: skip


def copilot_usage(sequence: int, used: int, out: int, *, cached: int = 0, written: int = 0,
                  call: str = "", session: str = COPILOT_SESSION, model: str = "gpt-4.1",
                  window: int = 64000, kind: str = "conversation-agent",
                  at: str | None = None) -> str:  # fmt: skip
    """One ``session.usage_record``: a request of ``used`` prompt tokens (``cached`` read and
    ``written`` to the cache among them) and ``out`` output tokens, as Copilot CLI 1.0.102
    writes it."""
    call = call or f"resp_{sequence:04d}"
    usage = {
        "model": model, "modelDisplayName": model, "inputTokens": used, "outputTokens": out,
        "cacheReadTokens": cached, "cacheWriteTokens": written, "cost": 0.0, "duration": 41,
        "initiator": "user" if sequence == 1 else "agent", "interactionType": kind,
        "isByok": True, "providerType": "openai", "isAuto": False, "maxPromptTokens": window,
        "maxOutputTokens": 16384, "transport": "http", "apiCallId": call, "rte": False,
        "apiEndpoint": "/chat/completions",
        "accounting": {"sourceSessionId": session, "sequence": sequence, "usageId": call},
        "aiCreditsStatus": "unavailable", "numToolCalls": 0, "toolCounts": {},
        "finishReason": "stop", "contentFilterTriggered": False,
    }  # fmt: skip
    return _copilot_event("session.usage_record", {"usage": usage}, at)


def copilot_turn(sequence: int, used: int, out: int, **usage: Any) -> str:
    """A turn of a Copilot CLI session: the user's message, one request's usage record and
    the assistant's message (whose text is ``MARKER``)."""
    return (
        _copilot_event(
            "user.message",
            {"content": MARKER, "transformedContent": MARKER, "messageId": str(uuid.uuid4())},
        )
        + _copilot_event("assistant.turn_start", {"turnId": str(sequence)})
        + copilot_usage(sequence, used, out, **usage)
        + _copilot_event(
            "assistant.message",
            {
                "messageId": str(uuid.uuid4()),
                "model": "gpt-4.1",
                "content": MARKER,
                "toolRequests": [],
            },
        )
        + _copilot_event("assistant.turn_end", {"turnId": str(sequence)})
    )


def copilot_compaction(used: int, out: int, after: int, *, attempt: str = "",
                       limit: int = 64000) -> str:  # fmt: skip
    """A compaction's ``session.compaction_start`` and ``session.compaction_complete``, as
    Copilot CLI 1.0.102 writes them: its summary's request (``used`` prompt tokens, ``out``
    output) and the context left after it (``after``)."""
    attempt = attempt or str(uuid.uuid4())
    spent = {"requestCount": 1, "modelDisplayName": "gpt-4.1", "inputTokens": used,
             "outputTokens": out, "cacheReadTokens": 0, "cacheWriteTokens": 0,
             "aiCreditsStatus": "unavailable", "duration": 30, "model": "gpt-4.1"}  # fmt: skip
    start = {"compactionAttemptId": attempt, "model": "gpt-4.1", "systemTokens": 4000,
             "conversationTokens": used - 4000, "toolDefinitionsTokens": 0,
             "currentTokens": used, "tokenLimit": limit, "trigger": "manual"}  # fmt: skip
    done = {"success": True, "outcome": "applied", "compactionAttemptId": attempt,
            "preCompactionMessagesLength": 6, "messagesRemoved": 5,
            "preCompactionTokens": used, "postCompactionTokens": after,
            "tokensRemoved": used - after, "tokenAccountingBasis": "local_full_context_estimate",
            "summaryContent": MARKER, "behaviorModelId": "gpt-4.1", "compactionTokensUsed": spent,
            "systemTokens": 4000, "conversationTokens": after - 4000, "toolDefinitionsTokens": 0,
            "tokenLimit": limit, "trigger": "manual", "checkpointNumber": 1}  # fmt: skip
    return _copilot_event("session.compaction_start", start) + _copilot_event(
        "session.compaction_complete", done
    )


def copilot_session(home: Path, session: str = COPILOT_SESSION) -> Path:
    """Where Copilot CLI (``COPILOT_HOME`` = ``home``) keeps ``session``'s events (its folder made)."""
    folder = home / "session-state" / session
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "events.jsonl"


# ---- agent hooks, driven with the stdin JSON each agent documents ----------------------------


def age(repo: Path, seconds: int = 30) -> None:
    """Everything in the repository (work tree and git dir) made ``seconds`` old: a state
    written now then counts them as read before it (its margin is two seconds)."""
    then = int(time.time()) - seconds
    for folder, dirs, files in os.walk(repo):
        for name in [*dirs, *files]:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.utime(path, (then, then))
    os.utime(repo, (then, then))


def hot_state(repo: Path) -> Path:
    """The state the agents' tool-call script reads in the shell."""
    return repo / ".git" / "tg-git" / "hot" / "state"


def halt(repo: Path) -> None:
    """The session recorded at the halt."""
    tg(repo, "record", "--tokens", "195000")


def hook(
    repo: Path,
    agent: str,
    event: str,
    payload: dict[str, Any] | str,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``tg-git hook agent AGENT EVENT`` with ``payload`` on stdin, as the agent runs it."""
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return tg(repo, "hook", "agent", agent, event, input=data, check=False, env=env)


def context(proc: subprocess.CompletedProcess[str], event: str) -> str:
    """The text the agent adds to the model's context: exit 0, nothing on stderr, and stdout
    exactly one JSON object holding only ``hookSpecificOutput {hookEventName,
    additionalContext}`` (Codex's hook schemas forbid any other key; Gemini parses all of
    stdout as JSON; Claude Code reads the same field)."""
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert proc.stdout.endswith("}\n") and proc.stdout.count("\n") == 1, proc.stdout
    data = json.loads(proc.stdout)
    assert list(data) == ["hookSpecificOutput"], data
    assert data["hookSpecificOutput"] == {
        "hookEventName": event,
        "additionalContext": data["hookSpecificOutput"]["additionalContext"],
    }
    text = data["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str) and text.strip()
    return text


def reply(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """A hook's stdout JSON answer: exit 0, exactly one JSON object on one line."""
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("}\n") and proc.stdout.count("\n") == 1, proc.stdout
    data = json.loads(proc.stdout)
    assert isinstance(data, dict)
    return data


def system_message(proc: subprocess.CompletedProcess[str]) -> str:
    """What the agent shows the user: exit 0, stdout only ``{"systemMessage": ...}``. At exit 0
    the agents ignore stderr (Claude Code shows it in verbose mode only, Gemini logs it); the
    checkpoint's own "saved" line is all that may be there."""
    assert proc.returncode == 0, proc.stderr
    assert all(line.startswith("tg-git: saved checkpoint/") for line in proc.stderr.splitlines())
    assert proc.stdout.count("\n") == 1, proc.stdout
    data = json.loads(proc.stdout)
    assert list(data) == ["systemMessage"] and isinstance(data["systemMessage"], str), data
    return str(data["systemMessage"])


def blocked(proc: subprocess.CompletedProcess[str]) -> str:
    """A blocked prompt: exit 2, nothing on stdout (a JSON reply would be read instead), the
    reason on stderr (Codex ignores an exit 2 whose stderr is blank)."""
    assert (proc.returncode, proc.stdout) == (2, ""), (proc.returncode, proc.stdout)
    assert proc.stderr.strip(), "exit 2 without a reason on stderr"
    return proc.stderr


def silent(proc: subprocess.CompletedProcess[str]) -> None:
    """The hook said nothing at all, and let the agent go on."""
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


# (language, locale) of the sentence a command says where tg-git is gone: the language of the
# first of LC_ALL, LC_MESSAGES and LANG that is set and not empty
LOCALES = (
    ("ko", {"LC_ALL": "ko_KR.UTF-8"}),
    ("en", {"LC_ALL": "C"}),
    ("ko", {"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}),
    ("en", {"LC_MESSAGES": "en_US.UTF-8", "LANG": "ko_KR.UTF-8"}),
    ("ko", {"LANG": "ko_KR.UTF-8"}),
    ("en", {"LC_ALL": "C", "LC_MESSAGES": "ko_KR.UTF-8"}),
)


def read_in_small_blocks(
    monkeypatch: pytest.MonkeyPatch, path: Path, agent: str
) -> tuple[Any, Any, Any]:
    """One read of ``path`` as an import reads it, in blocks of 256 bytes with lines bounded
    at 1,000 (``importer.CHUNK``, ``MAX_LINE``): its batch, the mark it moved and the parser."""
    from tg_git.usage import importer
    from tg_git.usage import store

    monkeypatch.setattr(importer, "MAX_LINE", 1000)
    monkeypatch.setattr(importer, "CHUNK", 256)
    mark = store.Mark(path=str(path), agent=agent)
    parse = importer._parser(agent, path, False)
    return importer._read(path, mark, parse, path.stat()), mark, parse
