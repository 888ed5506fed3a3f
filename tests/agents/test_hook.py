"""Agent hooks, settings files and skills. Each agent's hook is driven with the stdin JSON its
docs describe, with transcripts written between calls, and the exact channel the agent reads
(stdout JSON fields, exit code, stderr) is asserted."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench._transcripts import token_counts
from tests.support.agents import MARKER
from tests.support.agents import blocked
from tests.support.agents import claude_binary
from tests.support.agents import codex_lines
from tests.support.agents import context
from tests.support.agents import fill_line
from tests.support.agents import gemini_message
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.agents import silent
from tests.support.agents import system_message
from tests.support.agents import user_line
from tests.support.repos import TG_GIT
from tests.support.repos import git
from tests.support.repos import session_id
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg
from tg_git.agents.protocol import EVENTS

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp


# ---- Claude Code: a whole agent session ------------------------------------------------------
def test_claude_agent_session(repo: Path, agent_homes: dict[str, Path]) -> None:
    tg(repo, "agent", "install", "claude")
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "tokenizer half done")
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    transcript = folder / "A.jsonl"
    base = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo),
            "permission_mode": "default"}  # fmt: skip
    first = session_id(repo)

    gauge = started(repo, "claude", base)
    assert gauge.startswith("tg-git 🔋") and "\n" not in gauge  # one line
    assert session_id(repo) == first  # a fresh tg-git session is taken, not rolled over

    def prompt() -> subprocess.CompletedProcess[str]:
        return hook(repo, "claude", "UserPromptSubmit",
                    {**base, "hook_event_name": "UserPromptSubmit", "prompt": "go on"})  # fmt: skip

    transcript.write_text(fill_line(1, 100_000))
    silent(prompt())

    with transcript.open("a") as fh:
        fh.write(fill_line(2, 165_000))
    warned = context(prompt(), "UserPromptSubmit")
    assert "Token warning" in warned and "parser" in warned and "165,000" in warned

    with transcript.open("a") as fh:
        fh.write(fill_line(3, 182_000))
    stop = hook(
        repo, "claude", "Stop", {**base, "hook_event_name": "Stop", "stop_hook_active": False}
    )
    assert "force-save" in system_message(stop)
    assert [t for t in tags(repo) if t.endswith("-force-save")]
    silent(hook(repo, "claude", "Stop", {**base, "hook_event_name": "Stop"}))  # once per level
    assert len(tags(repo)) == 1

    compact = hook(
        repo, "claude", "PreCompact", {**base, "hook_event_name": "PreCompact", "trigger": "auto"}
    )
    assert "pre-compact" in system_message(compact)
    silent(hook(repo, "claude", "PreCompact", {**base, "hook_event_name": "PreCompact"}))
    saved = json.loads(git(repo, "show", f"{tags(repo)[-1]}:harness_checkpoint.json").stdout)
    assert saved["session"]["estimated_used"] == 182_000

    with transcript.open("a") as fh:  # the compaction emptied the context
        fh.write(fill_line(4, 40_000))
    silent(prompt())
    assert json.loads(tg(repo, "status", "--json").stdout)["used"] == 40_000

    with transcript.open("a") as fh:
        fh.write(fill_line(5, 192_000))
    halt = blocked(prompt())
    assert "Token limit reached" in halt and "not sent" in halt
    assert [t for t in tags(repo) if t.endswith("-halt")]
    blocked(prompt())  # still blocked, saved once
    assert len([t for t in tags(repo) if t.endswith("-halt")]) == 1

    # the commit hook acts on the same figure: the commit carrying the measurement lands
    # (it is the one that crosses), every later one is refused
    def commit() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "x"], cwd=repo,
                              capture_output=True, text=True)  # fmt: skip

    assert commit().returncode == 0
    refused = commit()
    assert refused.returncode != 0 and "Token limit reached" in refused.stderr

    # a new agent session: a new tg-git session, briefed from the checkpoint
    transcript_b = folder / "B.jsonl"
    base_b = {**base, "session_id": "B", "transcript_path": str(transcript_b)}
    brief = started(repo, "claude", base_b)
    assert "Session resumed" in brief and "tokenizer half done" in brief
    assert "new session started" in brief
    assert session_id(repo) != first
    transcript_b.write_text(fill_line(6, 5_000, session="B"))
    done = hook(
        repo,
        "claude",
        "UserPromptSubmit",
        {**base_b, "hook_event_name": "UserPromptSubmit", "prompt": "finish"},
    )
    silent(done)
    data = json.loads(tg(repo, "status", "--json").stdout)
    assert data["used"] == 5_000 and data["level"] == "ok"
    # the same agent session starting again (resume) keeps the tg-git session
    again_b = hook(
        repo,
        "claude",
        "SessionStart",
        {**base_b, "hook_event_name": "SessionStart", "source": "resume"},
    )
    assert "Session resumed" not in context(again_b, "SessionStart")
    assert session_id(repo) == data["session"]["id"]


def cumulative(fills: list[int]) -> list[tuple[int, int, int]]:
    """Codex's cumulative (input, cached, output) totals whose turns fill the context so."""
    totals, acc = [], (0, 0, 0)
    for fill in fills:
        acc = (acc[0] + fill - 100, acc[1], acc[2] + 100)
        totals.append(acc)
    return totals


def event(
    repo: Path, agent: str, name: str, base: dict[str, Any], **fields: Any
) -> subprocess.CompletedProcess[str]:
    """The agent's ``name`` hook with the session's ``base`` fields, the event's own name and
    ``fields``, as the agent sends it."""
    return hook(repo, agent, name, {**base, "hook_event_name": name, **fields})


def started(repo: Path, agent: str, base: dict[str, Any]) -> str:
    """What the agent's SessionStart hook (at startup) adds to the model's context."""
    return context(event(repo, agent, "SessionStart", base, source="startup"), "SessionStart")


def through_the_levels(
    repo: Path,
    agent: str,
    base: dict[str, Any],
    turn: Callable[[int], None],
    events: tuple[str, str, str],
    after: dict[str, Any],
) -> None:
    """One session on the agent's own hooks (``events``: its prompt, after-turn and compaction
    events; ``turn(k)`` writes the k-th turn, filling 100,000, 165,000, 182,000, 40,000 and
    192,000 of 200,000): quiet, then a warning naming the task, one force-save (a second
    after-turn says nothing), a pre-compact save, quiet after the compaction, then every
    prompt blocked with one halt tag."""
    prompt_event, after_event, compact_event = events

    def prompt() -> subprocess.CompletedProcess[str]:
        return event(repo, agent, prompt_event, base, prompt="go on")

    turn(0)
    silent(prompt())
    turn(1)
    warned = context(prompt(), prompt_event)
    assert "Token warning" in warned and "parser" in warned
    turn(2)
    saved = event(repo, agent, after_event, base, **after, stop_hook_active=False)
    assert "force-save" in system_message(saved)
    silent(event(repo, agent, after_event, base))  # once per level
    # Gemini's automatic PreCompress only checks (it compresses at half its 1M limit): /compress
    trigger = "manual" if agent == "gemini" else "auto"
    assert "pre-compact" in system_message(event(repo, agent, compact_event, base, trigger=trigger))
    turn(3)  # the compaction emptied the context
    silent(prompt())
    assert status(repo)["used"] == 40_000
    turn(4)
    assert "Token limit reached" in blocked(prompt())
    blocked(prompt())
    assert len([t for t in tags(repo) if t.endswith("-halt")]) == 1


def briefed_in_a_new_session(
    repo: Path,
    agent: str,
    base: dict[str, Any],
    first: str,
    prompt_event: str,
    write: Callable[[], None],
) -> None:
    """A new agent session (``base``) after the halt: a new tg-git session briefed from the
    checkpoint; its transcript (``write``) counts from zero."""
    brief = started(repo, agent, base)
    assert "Session resumed" in brief and "tokenizer half done" in brief
    assert session_id(repo) != first
    write()
    silent(event(repo, agent, prompt_event, base, prompt="go on"))
    data = status(repo)
    assert data["used"] == 5_000 and data["level"] == "ok"


def test_codex_agent_session(repo: Path, agent_homes: dict[str, Path]) -> None:

    tg(repo, "agent", "install", "codex")
    # The rollout reports a 272,000 window (budget.context = auto would guard that): the fills
    # below are chosen against 200,000.
    tg(repo, "config", "set", "budget.context", "200000")
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "tokenizer half done")
    hooks = json.loads((repo / ".codex" / "hooks.json").read_text())["hooks"]
    assert set(hooks) == set(EVENTS["codex"])  # `agent install` wires the runtime's events
    for event, groups in hooks.items():  # Codex's hooks.json: {type, command, timeout (s)}
        (group,) = groups
        assert group == {"hooks": [{"type": "command", "timeout": 30,
                                    "command": group["hooks"][0]["command"]}]}  # fmt: skip
        assert group["hooks"][0]["command"].endswith(f"hook agent codex {event}")
    day = agent_homes["CODEX_HOME"] / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    rollout = day / "rollout-2026-11-30T10-00-00-0199-abc.jsonl"
    base = {"session_id": "0199-abc", "turn_id": "t1", "transcript_path": None, "cwd": str(repo),
            "model": "gpt-5.3-codex", "permission_mode": "default"}  # fmt: skip
    first = session_id(repo)
    fills = [100_000, 165_000, 182_000, 40_000, 192_000]
    totals = cumulative(fills)

    def turn(k: int) -> None:  # the k-th turn's token_count events land in the rollout
        with rollout.open("a") as fh:
            for event in token_counts(totals[: k + 1])[-2:]:
                fh.write(json.dumps(event) + "\n")

    assert started(repo, "codex", base).startswith("tg-git 🔋")
    assert session_id(repo) == first
    rollout.write_text(codex_lines(str(repo), []))
    through_the_levels(repo, "codex", base, turn, ("UserPromptSubmit", "Stop", "PreCompact"), {})

    # a new Codex session: a new rollout, a new tg-git session briefed from the checkpoint
    rollout_b = day / "rollout-2026-11-30T11-00-00-0199-def.jsonl"

    def write_b() -> None:
        rollout_b.write_text(
            codex_lines(str(repo), cumulative([5_000])).replace("0199-abc", "0199-def")
        )

    briefed_in_a_new_session(
        repo, "codex", {**base, "session_id": "0199-def"}, first, "UserPromptSubmit", write_b
    )


def test_gemini_agent_session(repo: Path, agent_homes: dict[str, Path]) -> None:
    tg(repo, "agent", "install", "gemini")
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "tokenizer half done")
    settings = json.loads((repo / ".gemini" / "settings.json").read_text())
    assert settings["hooksConfig"] == {"enabled": True}
    assert set(settings["hooks"]) == set(EVENTS["gemini"])
    for event, groups in settings["hooks"].items():  # Gemini: a name, timeout in milliseconds
        (group,) = groups
        (entry,) = group["hooks"]
        assert group["matcher"] == "*"  # "*" matches every lifecycle source
        assert entry == {"name": "tg-git", "type": "command", "timeout": 30000,
                         "command": entry["command"]}  # fmt: skip
        assert re.search(rf"hook agent gemini {event}( \|\||$)", entry["command"])
    chats = agent_homes["GEMINI_CLI_HOME"] / ".gemini" / "tmp" / "repo" / "chats"
    chats.mkdir(parents=True)
    chat = chats / "session-2026-11-30T10-00-abcd1234.jsonl"
    base = {"session_id": "g-1", "transcript_path": str(chat), "cwd": str(repo),
            "timestamp": "2026-11-30T10:00:00.000Z"}  # fmt: skip
    first = session_id(repo)

    def say(mid: str, fill: int, path: Path = chat) -> None:
        tokens = {"input": fill - 100, "cached": 0, "output": 100, "thoughts": 0, "tool": 0,
                  "total": fill}  # fmt: skip
        with path.open("a") as fh:
            fh.write(json.dumps(gemini_message(mid, tokens)) + "\n")

    assert started(repo, "gemini", base).startswith("tg-git 🔋")
    assert session_id(repo) == first
    chat.write_text(json.dumps({"sessionId": "g-1"}) + "\n")
    fills = [100_000, 165_000, 182_000, 40_000, 192_000]

    def turn(k: int) -> None:  # the k-th turn's message lands in the chat file
        say("abcde"[k], fills[k])

    after = {"prompt": "go on", "prompt_response": "done"}  # never exit 2 at it: Gemini would retry
    through_the_levels(
        repo, "gemini", base, turn, ("BeforeAgent", "AfterAgent", "PreCompress"), after
    )

    chat_b = chats / "session-2026-11-30T11-00-ef567890.jsonl"

    def write_b() -> None:
        chat_b.write_text(json.dumps({"sessionId": "g-2"}) + "\n")
        say("f", 5_000, chat_b)

    base_b = {**base, "session_id": "g-2", "transcript_path": str(chat_b)}
    briefed_in_a_new_session(repo, "gemini", base_b, first, "BeforeAgent", write_b)


@pytest.mark.parametrize(
    ("source", "halted", "rolls"),
    [("startup", True, True), ("resume", True, False), ("compact", True, False),
     ("clear", False, True), ("compact", False, False), ("resume", False, False)],
)  # fmt: skip
def test_same_agent_session_rolls_over_only_at_clear_or_a_start_after_a_halt(
    repo: Path, source: str, halted: bool, rolls: bool
) -> None:
    base = {"session_id": "A", "cwd": str(repo)}
    context(hook(repo, "claude", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    first = session_id(repo)
    if halted:
        tg(repo, "record", "--tokens", "195000")
        blocked(hook(repo, "claude", "UserPromptSubmit", base))
    again = context(hook(repo, "claude", "SessionStart", {**base, "source": source}),
                    "SessionStart")  # fmt: skip
    assert (session_id(repo) != first) is rolls
    assert ("new session started" in again) is rolls
    assert ("Session resumed" in again) is (rolls and halted)  # briefed from the halt save


def test_korean_messages(repo: Path, agent_homes: dict[str, Path]) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    transcript = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    transcript.write_text(fill_line(1, 192_000))
    base = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    blocked = hook(
        repo, "claude", "UserPromptSubmit", {**base, "hook_event_name": "UserPromptSubmit"}
    )
    assert blocked.returncode == 2 and "토큰 한계 도달" in blocked.stderr


def halted_prompt(
    repo: Path, homes: dict[str, Path], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A prompt whose own reading crosses the halt (no command acted on it first)."""
    transcript = project_folder(repo, homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    transcript.write_text(fill_line(1, 195_000))
    payload = {"cwd": str(repo), "session_id": "A", "transcript_path": str(transcript)}
    return hook(repo, "claude", "UserPromptSubmit", payload, env=env)


def test_halt_blocks_even_when_the_save_fails(repo: Path, agent_homes: dict[str, Path]) -> None:
    no_identity = {
        k: ""
        for k in (
            "GIT_AUTHOR_NAME",
            "GIT_AUTHOR_EMAIL",
            "GIT_COMMITTER_NAME",
            "GIT_COMMITTER_EMAIL",
        )
    }
    proc = halted_prompt(repo, agent_homes, env=no_identity)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "Token limit reached" in proc.stderr and "was not saved" in proc.stderr
    assert tags(repo) == []


# ---- never break the agent ---------------------------------------------------------------------
def test_hook_without_tg_git_does_nothing(plain_repo: Path, tmp_path: Path) -> None:
    payload = {"session_id": "A", "cwd": str(plain_repo), "hook_event_name": "SessionStart"}
    for cwd in (plain_repo, tmp_path):
        proc = hook(cwd, "claude", "SessionStart", {**payload, "cwd": str(cwd)})
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert not (plain_repo / ".tg-git").exists()


@pytest.mark.parametrize(
    "stdin", ["", "not json", "[1, 2]", '{"cwd": 5, "transcript_path": ["x"]}', "\x00\xff"]
)
def test_odd_stdin_is_tolerated(repo: Path, stdin: str) -> None:
    proc = hook(repo, "claude", "UserPromptSubmit", stdin)
    assert (proc.returncode, proc.stdout) == (0, "")


def raw_hook(repo: Path, agent: str, event: str, data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([TG_GIT, "hook", "agent", agent, event], cwd=repo, input=data,
                          capture_output=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    "data",
    [
        b'{"cwd": "\xff\xfe", "session_id": "\x80", "prompt": "\xc3"}',  # not UTF-8
        b'{"session_id": "A", "prompt": "' + b"x" * (5 << 20) + b'"}',  # past the 4 MB cap
        b"[" * 200_000 + b"]" * 200_000,  # deeper than any parser's recursion
        b'{"session_id": 7, "cwd": {"a": 1}, "transcript_path": 3.5, "source": ["clear"]}',
    ],
    ids=["not-utf8", "huge", "deep", "wrong-types"],
)
def test_hostile_stdin_never_breaks_the_agent(repo: Path, data: bytes) -> None:
    tg(repo, "record", "--tokens", "170000")  # at the warning: a quiet exit is not luck
    for agent, event in (("claude", "UserPromptSubmit"), ("gemini", "BeforeAgent")):
        proc = raw_hook(repo, agent, event, data)
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
        assert b"Token warning" in proc.stdout  # the hook still did its job from the cwd


@pytest.mark.parametrize("kind", ["fifo", "directory", "dev-zero", "link-to-dev-zero", "binary"])
def test_hostile_transcript_path(repo: Path, tmp_path: Path, kind: str) -> None:
    """A transcript path the agent should never send: a FIFO (opening it would hang), a
    directory, /dev/zero (endless), a link to it, bytes that are not UTF-8 JSON."""
    import os

    path = tmp_path / "odd.jsonl"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "dev-zero":
        path = Path("/dev/zero")
    elif kind == "link-to-dev-zero":
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(b'\xff\xfe\x00{"usage": 1}\n\x80\x81\n' * 1000)
    payload = {"session_id": "A", "cwd": str(repo), "transcript_path": str(path)}
    for event in ("UserPromptSubmit", "Stop", "PreCompact"):
        data = json.dumps({**payload, "hook_event_name": event}).encode()
        proc = raw_hook(repo, "claude", event, data)
        assert proc.returncode in (0, 1), proc.stderr  # never a block, never a hang
        if event == "PreCompact":  # the save before a compaction needs no transcript
            assert list(json.loads(proc.stdout)) == ["systemMessage"]
        else:
            assert proc.stdout == b""
            assert proc.stderr.count(b"\n") <= 1, proc.stderr
    assert json.loads(tg(repo, "status", "--json").stdout)["used"] == 0


def test_hooks_keep_transcript_text_private(repo: Path, agent_homes: dict[str, Path]) -> None:
    """Only counts and ids leave a transcript: a marker in the prompt, the transcript's text
    and its cwd reaches no hook output, ledger line, local state file or git object."""

    transcript = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    base = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    outputs: list[str] = []

    def run(event: str, **extra: Any) -> None:
        proc = hook(repo, "claude", event, {**base, "hook_event_name": event, **extra})
        outputs.extend([proc.stdout, proc.stderr])

    run("SessionStart", source="startup")
    for n, fill in enumerate((100_000, 170_000, 185_000, 192_000)):
        with transcript.open("a") as fh:
            fh.write(user_line(f"please {MARKER}") + fill_line(n, fill))
        run("UserPromptSubmit", prompt=f"do it {MARKER}")
        run("Stop", last_assistant_message=MARKER)
        run("PreCompact", trigger="manual", custom_instructions=MARKER)
    run("SessionStart", source="clear")
    assert len(tags(repo)) >= 3  # force-save, pre-compact, halt were all saved
    assert all(MARKER not in text for text in outputs)
    for path in [*(repo / ".tg-git").rglob("*"), *(repo / ".git").rglob("*")]:
        if path.is_file() and "objects" not in path.parts:
            assert MARKER.encode() not in path.read_bytes(), path
    objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=repo,
                             capture_output=True, check=True).stdout  # fmt: skip
    assert MARKER.encode() not in objects


def test_failed_halt_save_does_not_claim_a_checkpoint(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    no_identity = {k: "" for k in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                                   "GIT_COMMITTER_EMAIL")}  # fmt: skip
    proc = halted_prompt(repo, agent_homes, env=no_identity)
    assert "was not saved" in blocked(proc)
    assert "Checkpoint saved" not in proc.stderr


def test_halt_says_saved_once(repo: Path, agent_homes: dict[str, Path]) -> None:
    proc = halted_prompt(repo, agent_homes)
    assert blocked(proc).count("tg-git: saved checkpoint/") == 1


def test_tool_error_is_one_line_and_never_blocks(repo: Path) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text() + "broken = [\n")
    git(repo, "add", ".tg-git/config.toml")
    proc = hook(repo, "claude", "UserPromptSubmit", {"cwd": str(repo), "session_id": "A"})
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "not blocked" in proc.stderr


def test_unknown_agent_or_event(repo: Path) -> None:
    assert hook(repo, "claude", "PostToolUse", {"cwd": str(repo)}).stdout == ""
    bad = hook(repo, "aider", "Stop", {})
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1


# ---- the real Claude Code CLI (large download; offline once installed) -------------------------
@pytest.mark.network
def test_real_claude_code_runs_the_hooks(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path
) -> None:
    """Claude Code's own binary runs tg-git's hooks: SessionStart's context reaches its
    transcript, and at the halt tg-git's block is what the prompt gets. A hook of the test's
    own blocks every prompt, so no model is ever asked. TG_GIT_CLAUDE_CLI may name an
    installed binary; otherwise npm installs @anthropic-ai/claude-code (~240 MB)."""
    import os

    binary = claude_binary(tmp_path)
    tg(repo, "agent", "install", "claude")
    settings = repo / ".claude" / "settings.local.json"

    def block_every_prompt(delay: int) -> None:
        data = json.loads(settings.read_text())
        data["hooks"]["UserPromptSubmit"] = [g for g in data["hooks"]["UserPromptSubmit"]
                                             if "test-blocker" not in json.dumps(g)]  # fmt: skip
        data["hooks"]["UserPromptSubmit"].append({"matcher": "", "hooks": [
            {"type": "command", "command": f"sleep {delay}; echo test-blocker >&2; exit 2"}]})  # fmt: skip
        settings.write_text(json.dumps(data, indent=2))

    env = {"ANTHROPIC_API_KEY": "not-a-key", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1"}  # fmt: skip

    def claude(session: str) -> str:
        proc = subprocess.run([binary, "-p", "hello", "--output-format", "json", "--session-id", session],
                              cwd=repo, capture_output=True, text=True, timeout=180,
                              env={**os.environ, **env})  # fmt: skip
        return str(json.loads(proc.stdout)["result"])

    block_every_prompt(0)
    first = "11111111-2222-3333-4444-000000000001"
    assert "test-blocker" in claude(first)
    transcript = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / f"{first}.jsonl"
    added = [json.loads(line).get("attachment", {}) for line in transcript.read_text().splitlines()]
    contexts = [a for a in added if a.get("type") == "hook_additional_context"]
    assert any("tg-git 🔋" in "".join(a["content"]) for a in contexts)

    tg(repo, "record", "--tokens", "195000")
    data = json.loads(settings.read_text())
    del data["hooks"]["SessionStart"]  # else the new conversation would start a new session
    settings.write_text(json.dumps(data, indent=2))
    block_every_prompt(10)  # tg-git's block answers first
    result = claude("11111111-2222-3333-4444-000000000002")
    assert "hook agent claude UserPromptSubmit" in result and "Token limit reached" in result
    assert [t for t in tags(repo) if t.endswith("-halt")]
