"""Whole agent sessions for the agents without token counts in their transcripts (Cursor,
GitHub Copilot CLI, Antigravity), landing mode at a halt for every agent, resume at a halt,
compaction that never loses work, and the live readings of Gemini's AfterModel and Cursor's
preCompact. Each hook gets the stdin JSON its agent documents, and the test asserts the exact
bytes the agent reads (stdout JSON, exit code, stderr)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import MARKER
from tests.support.agents import blocked
from tests.support.agents import context
from tests.support.agents import fill_line
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.agents import reply
from tests.support.agents import silent
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import session_id
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp


def fill_to(repo: Path, tokens: int) -> None:
    """Estimates up to ``tokens`` in all (the agents below report no counts of their own)."""
    used = status(repo)["used"]
    assert tokens > used
    tg(repo, "record", "--tokens", str(tokens - used))


def stricter_force_save(repo: Path) -> None:
    """Force-save reached with no command acting on it (a record or a commit saves at the level
    it reaches itself): a stricter hand edit of the thresholds counts at once, so the hooks are
    the first to meet the level."""
    path = repo / ".tg-git" / "config.toml"
    text = path.read_text()
    assert "force_save = 90" in text
    path.write_text(text.replace("force_save = 90", "force_save = 82"))
    assert status(repo)["level"] == "force-save" and tags(repo) == []


def quiet(proc: subprocess.CompletedProcess[str]) -> str:
    """Exit 0 and nothing on stdout (the agent goes on as if there were no hook); the stderr
    (which these agents log) is returned."""
    assert (proc.returncode, proc.stdout) == (0, ""), (proc.returncode, proc.stdout)
    return proc.stderr


def halt_tags(repo: Path) -> list[str]:
    return [t for t in tags(repo) if t.endswith("-halt")]


def plan(repo: Path) -> None:
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser", "--at", "tokenizer half done")


# ---- Cursor --------------------------------------------------------------------------------------
def test_cursor_agent_session(repo: Path) -> None:
    plan(repo)
    base = {"conversation_id": "cur-1", "generation_id": "g-1", "model": "claude-4.5-sonnet",
            "cursor_version": "2.1.0", "workspace_roots": [str(repo)], "user_email": None,
            "transcript_path": None}  # fmt: skip
    first = session_id(repo)

    def run(event: str, **extra: Any) -> subprocess.CompletedProcess[str]:
        return hook(repo, "cursor", event, {**base, "hook_event_name": event, **extra})

    def prompt() -> subprocess.CompletedProcess[str]:
        return run("beforeSubmitPrompt", prompt="go on", attachments=[])

    start = reply(run("sessionStart", session_id="cur-1", is_background_agent=False,
                      composer_mode="agent"))  # fmt: skip
    assert list(start) == ["additional_context"]
    assert start["additional_context"].startswith("tg-git 🔋")
    assert session_id(repo) == first

    fill_to(repo, 100_000)
    silent(prompt())
    fill_to(repo, 165_000)
    warned = reply(prompt())
    assert warned["continue"] is True and list(warned) == ["continue", "user_message"]
    assert "Token warning" in warned["user_message"] and "parser" in warned["user_message"]

    stricter_force_save(repo)
    assert "force-save" in quiet(run("stop", status="completed", loop_count=0))
    assert [t for t in tags(repo) if t.endswith("-force-save")]

    compact = reply(run("preCompact", trigger="auto", context_usage_percent=75,
                        context_tokens=150_000, context_window_size=200_000, message_count=40,
                        messages_to_compact=30, is_first_compaction=True))  # fmt: skip
    assert list(compact) == ["user_message"] and "pre-compact" in compact["user_message"]
    assert [t for t in tags(repo) if t.endswith("-pre-compact")]
    assert status(repo)["context"]["used"] == 150_000  # its figure is the fill now

    tg(repo, "record", "--tokens", "42000")  # 192,000: the halt
    halt = reply(prompt())
    assert halt["continue"] is False and list(halt) == ["continue", "user_message"]
    assert "Token limit reached" in halt["user_message"] and "not sent" in halt["user_message"]
    assert len(halt_tags(repo)) == 1

    denied = reply(run("preToolUse", tool_name="Write", tool_use_id="call_1\nctc_1",
                       tool_input={"path": str(repo / "a.py"), "contents": "x"}))  # fmt: skip
    assert denied["permission"] == "deny" and "landing mode" in denied["agent_message"]
    assert denied["user_message"] == denied["agent_message"]
    silent(run("preToolUse", tool_name="Shell", tool_input={"command": "git commit -m done"}))
    silent(run("preToolUse", tool_name="Read", tool_input={"path": str(repo / "a.py")}))

    again = reply(run("sessionStart", session_id="cur-1"))  # the same conversation, resumed
    assert "still halted" in again["additional_context"] and session_id(repo) == first

    start_b = reply(hook(repo, "cursor", "sessionStart",
                         {**base, "conversation_id": "cur-2", "session_id": "cur-2",
                          "hook_event_name": "sessionStart"}))  # fmt: skip
    assert "Session resumed" in start_b["additional_context"]
    assert "tokenizer half done" in start_b["additional_context"]
    assert session_id(repo) != first


# ---- GitHub Copilot CLI (camelCase payloads) -----------------------------------------------------
def test_copilot_agent_session(repo: Path) -> None:
    plan(repo)
    base = {"sessionId": "cp-1", "timestamp": 1764583200000, "cwd": str(repo)}
    first = session_id(repo)

    def run(event: str, **extra: Any) -> subprocess.CompletedProcess[str]:
        return hook(repo, "copilot", event, {**base, **extra})

    start = reply(run("sessionStart", source="new", initialPrompt="fix the parser"))
    assert list(start) == ["additionalContext"]
    assert start["additionalContext"].startswith("tg-git 🔋")
    assert session_id(repo) == first

    fill_to(repo, 165_000)  # its prompt hook's output is not processed: the log only
    assert "Token warning" in quiet(run("userPromptSubmitted", prompt="go on"))

    stricter_force_save(repo)
    stop = quiet(run("agentStop", transcriptPath=str(repo / "t.jsonl"), stopReason="end_turn"))
    assert "force-save" in stop  # never a "decision": block would force another turn
    compact = quiet(run("preCompact", transcriptPath="", trigger="auto", customInstructions=""))
    assert "pre-compact" in compact

    fill_to(repo, 192_000)
    said = quiet(run("userPromptSubmitted", prompt="go on"))
    assert "Token limit reached" in said and "stop here" in said
    assert len(halt_tags(repo)) == 1
    denied = reply(run("preToolUse", toolName="edit",
                       toolArgs=json.dumps({"path": "a.py", "new_str": "x"})))  # fmt: skip
    assert list(denied) == ["permissionDecision", "permissionDecisionReason"]
    assert denied["permissionDecision"] == "deny"
    assert "landing mode" in denied["permissionDecisionReason"]
    silent(run("preToolUse", toolName="bash", toolArgs=json.dumps({"command": "git status"})))
    silent(run("preToolUse", toolName="view", toolArgs={"path": "a.py"}))

    start_b = reply(hook(repo, "copilot", "sessionStart",
                         {**base, "sessionId": "cp-2", "source": "new"}))  # fmt: skip
    assert "Session resumed" in start_b["additionalContext"]
    assert session_id(repo) != first


# ---- Antigravity (no SessionStart: the first PreInvocation briefs) -----------------------------
def test_antigravity_agent_session(repo: Path) -> None:
    plan(repo)
    base = {"conversationId": "ag-1", "workspacePaths": [str(repo)],
            "transcriptPath": str(repo / ".gemini" / "t.jsonl"),
            "artifactDirectoryPath": str(repo / ".gemini" / "artifacts")}  # fmt: skip
    first = session_id(repo)

    def run(event: str, **extra: Any) -> subprocess.CompletedProcess[str]:
        return hook(repo, "antigravity", event, {**base, **extra})

    def invocation(n: int) -> subprocess.CompletedProcess[str]:
        return run("PreInvocation", invocationNum=n, initialNumSteps=n + 1)

    def injected(proc: subprocess.CompletedProcess[str]) -> str:
        data = reply(proc)
        assert list(data) == ["injectSteps"] and len(data["injectSteps"]) == 1
        (step,) = data["injectSteps"]
        assert list(step) == ["ephemeralMessage"]
        return str(step["ephemeralMessage"])

    assert injected(invocation(0)).startswith("tg-git 🔋")  # its first event
    assert session_id(repo) == first
    silent(invocation(1))
    fill_to(repo, 165_000)
    assert "Token warning" in injected(invocation(0))
    silent(invocation(1))  # once per turn, not per model call

    stricter_force_save(repo)
    silent(run("Stop", executionNum=1, terminationReason="model_stop", error="",
               fullyIdle=False))  # fmt: skip
    assert tags(repo) == []  # background work still runs: the turn is not over
    saved = quiet(run("Stop", executionNum=1, terminationReason="model_stop", fullyIdle=True))
    assert "force-save" in saved  # the save before any compaction: no hook sees one coming

    fill_to(repo, 192_000)
    halt = injected(invocation(2))
    assert "Token limit reached" in halt and "stop here" in halt
    assert len(halt_tags(repo)) == 1
    denied = reply(run("PreToolUse", stepIdx=7, toolCall={
        "name": "write_to_file", "args": {"TargetFile": '"a.py"', "CodeContent": "x"}}))  # fmt: skip
    assert denied["decision"] == "deny" and "landing mode" in denied["reason"]
    assert list(denied) == ["decision", "reason"]
    silent(run("PreToolUse", toolCall={"name": "run_command",
                                       "args": {"CommandLine": '"git status"'}}))  # fmt: skip
    silent(run("PreToolUse", toolCall={"name": "view_file", "args": {"AbsolutePath": "a.py"}}))

    brief = injected(hook(repo, "antigravity", "PreInvocation",
                          {**base, "conversationId": "ag-2", "invocationNum": 0}))  # fmt: skip
    assert "Session resumed" in brief and "tokenizer half done" in brief
    assert session_id(repo) != first
    bindings = json.loads((repo / ".git" / "tg-git" / "agents.json").read_text())
    assert bindings["antigravity"]["agent_session"] == "ag-2"


# ---- landing mode for Claude Code, Codex, Gemini CLI -------------------------------------------
TOOLS = {  # agent: (event, denied calls, allowed calls) in each agent's own names
    "claude": ("PreToolUse",
               [("Edit", {"file_path": "a.py", "old_string": "a", "new_string": "b"}),
                ("Write", {"file_path": "a.py", "content": "x"}),
                ("Bash", {"command": "rm -rf build", "description": "clean"})],
               [("Read", {"file_path": "a.py"}),
                ("Bash", {"command": "git add -A && git commit -m 'land the parser'"})]),
    "codex": ("PreToolUse",
              [("Bash", {"command": "rm -rf build"}), ("apply_patch", {"input": "*** x"})],
              [("Bash", {"command": "git commit -m done"})]),
    "gemini": ("BeforeTool",
               [("write_file", {"file_path": "a.py", "content": "x"}),
                ("replace", {"file_path": "a.py", "old_string": "a", "new_string": "b"}),
                ("run_shell_command", {"command": "rm a.py"})],
               [("read_file", {"absolute_path": "a.py"}),
                ("run_shell_command", {"command": "tg-git checkpoint -m 'landed'"})]),
}  # fmt: skip


@pytest.mark.parametrize("agent", sorted(TOOLS))
def test_landing_mode_at_a_context_halt(repo: Path, agent: str) -> None:
    event, denied, allowed = TOOLS[agent]
    base = {"session_id": "A", "cwd": str(repo), "hook_event_name": event, "tool_use_id": "t1"}
    for name, args in denied + allowed:
        silent(hook(repo, agent, event, {**base, "tool_name": name, "tool_input": args}))
    tg(repo, "record", "--tokens", "195000")
    for name, args in denied:
        reason = blocked(hook(repo, agent, event, {**base, "tool_name": name, "tool_input": args}))
        way = "/compress" if agent == "gemini" else "/compact"  # Gemini CLI's own command
        assert "landing mode" in reason and name in reason and way in reason
        assert reason.count("\n") == 1  # one line
    for name, args in allowed:
        silent(hook(repo, agent, event, {**base, "tool_name": name, "tool_input": args}))


def test_landing_mode_speaks_korean(repo: Path) -> None:
    tg(repo, "config", "set", "language", "ko")
    tg(repo, "record", "--tokens", "195000")
    proc = hook(repo, "claude", "PreToolUse",
                {"cwd": str(repo), "tool_name": "Write", "tool_input": {}})  # fmt: skip
    assert "착륙 모드" in blocked(proc)


def test_tool_names_from_a_hostile_payload_are_not_printed(repo: Path) -> None:
    tg(repo, "record", "--tokens", "195000")
    proc = hook(repo, "claude", "PreToolUse",
                {"cwd": str(repo), "tool_name": "\x1b]0;pwned\x07Write", "tool_input": {}})  # fmt: skip
    reason = blocked(proc)
    assert "\x1b" not in reason and "\x07" not in reason and "0pwnedWrite" in reason


# ---- the spend budget: a hard halt ---------------------------------------------------------------
def test_spend_halt_blocks_prompt_and_edits_but_lands_work(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    tg(repo, "config", "set", "budget.spend_tokens", "100000")
    git(repo, "add", ".tg-git/config.toml")
    transcript = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    base = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    context(hook(repo, "claude", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    # ten requests of 10,000 each: the context holds 10,000, the spend is 100,000
    transcript.write_text("".join(fill_line(n, 10_000) for n in range(10)))
    proc = hook(repo, "claude", "UserPromptSubmit", {**base, "prompt": "go on"})
    halt = blocked(proc)  # exit 2
    assert "spend budget" in halt and "tg-git session start" in halt
    data = status(repo)
    assert data["context"]["level"] == "ok" and data["spend"]["level"] == "halt"
    tool = {**base, "hook_event_name": "PreToolUse"}
    for name, args in TOOLS["claude"][1]:
        reason = blocked(hook(repo, "claude", "PreToolUse",
                              {**tool, "tool_name": name, "tool_input": args}))  # fmt: skip
        assert "tg-git session start" in reason
    for name, args in TOOLS["claude"][2]:
        silent(hook(repo, "claude", "PreToolUse", {**tool, "tool_name": name, "tool_input": args}))
    # a new conversation does not lift a spend halt: only a person does
    first = session_id(repo)
    again = context(hook(repo, "claude", "SessionStart",
                         {**base, "session_id": "B", "source": "startup"}), "SessionStart")  # fmt: skip
    assert session_id(repo) == first and "still halted" in again
    tg(repo, "session", "start")
    silent(hook(repo, "claude", "PreToolUse",
                {**tool, "tool_name": "Write", "tool_input": {"file_path": "a.py"}}))  # fmt: skip


# ---- resume keeps the conversation's session ---------------------------------------------------
def test_resumed_claude_session_at_halt_stays_blocked_a_new_one_rolls_over(repo: Path) -> None:
    base = {"session_id": "A", "cwd": str(repo)}
    context(hook(repo, "claude", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    first = session_id(repo)
    tg(repo, "record", "--tokens", "195000")
    blocked(hook(repo, "claude", "UserPromptSubmit", base))
    resumed = context(hook(repo, "claude", "SessionStart", {**base, "source": "resume"}),
                      "SessionStart")  # fmt: skip
    assert session_id(repo) == first and "new session started" not in resumed
    assert "still halted" in resumed and "/compact" in resumed
    assert "not sent" in blocked(hook(repo, "claude", "UserPromptSubmit", base))
    new = context(hook(repo, "claude", "SessionStart",
                       {**base, "session_id": "B", "source": "startup"}), "SessionStart")  # fmt: skip
    assert session_id(repo) != first and "Session resumed" in new
    silent(hook(repo, "claude", "UserPromptSubmit", {**base, "session_id": "B"}))


def test_clear_that_keeps_the_same_session_does_not_say_a_new_one_started(repo: Path) -> None:
    base = {"session_id": "A", "cwd": str(repo)}
    tg(repo, "record", "--tokens", "195000")
    blocked(hook(repo, "claude", "UserPromptSubmit", base))  # saved at the halt
    fresh = context(hook(repo, "claude", "SessionStart", {**base, "session_id": "B",
                                                          "source": "startup"}), "SessionStart")  # fmt: skip
    assert "new session started" in fresh
    kept = session_id(repo)
    cleared = context(hook(repo, "claude", "SessionStart", {**base, "session_id": "B",
                                                            "source": "clear"}), "SessionStart")  # fmt: skip
    assert session_id(repo) == kept  # nothing was spent: resume takes the same session again
    assert "new session started" not in cleared and kept in cleared


# ---- compaction ----------------------------------------------------------------------------------
def test_precompact_with_a_failing_save_lets_the_compaction_through(repo: Path) -> None:
    no_identity = {k: "" for k in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                                   "GIT_COMMITTER_EMAIL")}  # fmt: skip
    payload = {"session_id": "A", "cwd": str(repo), "trigger": "auto"}
    proc = hook(repo, "claude", "PreCompact", payload, env=no_identity)
    assert (proc.returncode, proc.stdout) == (0, "")  # never exit 2: it goes ahead
    assert "was not saved" in proc.stderr and "goes ahead" in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_auto_compaction_waits_for_a_save_once_never_for_good(repo: Path) -> None:
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    (repo / ".git" / "MERGE_HEAD").write_text(head + "\n")  # a merge under way: no save now
    payload = {"session_id": "A", "cwd": str(repo), "trigger": "auto"}
    waits = hook(repo, "claude", "PreCompact", payload)
    assert waits.returncode == 2 and "waits" in waits.stderr and waits.stdout == ""
    silent(hook(repo, "claude", "PreCompact", payload))  # the next one goes ahead
    silent(hook(repo, "claude", "PreCompact", {**payload, "trigger": "manual"}))
    (repo / ".git" / "MERGE_HEAD").unlink()
    saved = hook(repo, "claude", "PreCompact", payload)
    assert saved.returncode == 0 and "pre-compact" in saved.stdout


def test_after_compaction_the_briefing_comes_again_and_the_halt_lifts(repo: Path) -> None:
    plan(repo)
    base = {"session_id": "A", "cwd": str(repo)}
    context(hook(repo, "claude", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    first = session_id(repo)
    tg(repo, "record", "--tokens", "195000")
    blocked(hook(repo, "claude", "UserPromptSubmit", base))
    hook(repo, "claude", "PreCompact", {**base, "trigger": "manual"})
    silent(hook(repo, "claude", "PostCompact",
                {**base, "trigger": "manual", "compact_summary": "short summary " * 50}))  # fmt: skip
    again = context(hook(repo, "claude", "SessionStart", {**base, "source": "compact"}),
                    "SessionStart")  # fmt: skip
    assert session_id(repo) == first  # the same session goes on
    assert "compacted" in again and "tokenizer half done" in again and len(again) <= 10_000
    assert "new session started" not in again
    silent(hook(repo, "claude", "UserPromptSubmit", base))  # the halt lifted: no block
    assert status(repo)["context"]["level"] == "ok"


def test_codex_post_compact_briefs_at_the_next_prompt(repo: Path) -> None:
    plan(repo)
    base = {"session_id": "X", "cwd": str(repo), "transcript_path": None, "model": "gpt-5"}
    context(hook(repo, "codex", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    hook(repo, "codex", "PreCompact", {**base, "trigger": "auto"})
    silent(hook(repo, "codex", "PostCompact", {**base, "trigger": "auto"}))
    brief = context(hook(repo, "codex", "UserPromptSubmit", {**base, "prompt": "go"}),
                    "UserPromptSubmit")  # fmt: skip
    assert "compacted" in brief and "tokenizer half done" in brief
    silent(hook(repo, "codex", "UserPromptSubmit", {**base, "prompt": "go"}))  # once


def test_long_briefing_is_cut_to_ten_thousand_characters(repo: Path) -> None:
    for n in range(60):
        tg(repo, "note", f"note {n} " + "x" * 300)
    base = {"session_id": "A", "cwd": str(repo)}
    context(hook(repo, "claude", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    hook(repo, "claude", "PreCompact", {**base, "trigger": "manual"})
    again = context(hook(repo, "claude", "SessionStart", {**base, "source": "compact"}),
                    "SessionStart")  # fmt: skip
    assert 5_000 < len(again) <= 10_000


# ---- live readings from the agents' hooks --------------------------------------------------------
def test_gemini_after_model_usage_is_the_fill(repo: Path) -> None:
    base = {"session_id": "g-1", "cwd": str(repo), "hook_event_name": "AfterModel",
            "timestamp": "2026-12-01T10:00:00.000Z",
            "llm_request": {"model": "gemini-3-flash-preview", "messages": []}}  # fmt: skip

    def after(total: int) -> subprocess.CompletedProcess[str]:
        usage = {"promptTokenCount": total - 500, "candidatesTokenCount": 500,
                 "totalTokenCount": total}  # fmt: skip
        return hook(repo, "gemini", "AfterModel", {**base, "llm_response": {
            "candidates": [{"content": {"role": "model", "parts": ["x"]}}],
            "usageMetadata": usage}})  # fmt: skip

    silent(after(150_500))  # nothing on stdout: it would replace the model's response
    data = status(repo)["context"]
    assert data["used"] == 150_500 and data["level"] == "ok"
    assert data["source"] == "hook"  # AfterModel's reading, not a status line's
    silent(after(192_000))
    assert status(repo)["context"]["level"] == "halt"
    blocked(hook(repo, "gemini", "BeforeTool", {**base, "hook_event_name": "BeforeTool",
                                                "tool_name": "write_file", "tool_input": {}}))  # fmt: skip
    silent(hook(repo, "gemini", "AfterModel", {**base, "llm_response": {"usageMetadata": "x"}}))


# ---- hostile input in the new agents' shapes -----------------------------------------------------
@pytest.mark.parametrize(
    ("agent", "event", "payload"),
    [
        ("cursor", "preCompact", {"context_tokens": True, "context_window_size": -5}),
        ("cursor", "preCompact", {"context_tokens": 10**15, "context_window_size": "x"}),
        ("cursor", "sessionStart", {"workspace_roots": "not a list", "conversation_id": 7}),
        ("cursor", "preToolUse", {"tool_name": {"a": 1}, "tool_input": "[[["}),
        ("copilot", "preToolUse", {"toolName": "bash", "toolArgs": '{"command": ["git"'}),
        ("antigravity", "PreToolUse", {"toolCall": "write_to_file"}),
        ("antigravity", "PreToolUse", {"toolCall": {"name": None, "args": [1, 2]}}),
        ("antigravity", "PreInvocation", {"invocationNum": "0", "workspacePaths": [None]}),
        ("antigravity", "Stop", {"fullyIdle": "yes"}),
        ("gemini", "AfterModel", {"llm_response": {"usageMetadata": {"totalTokenCount": -1}}}),
        ("gemini", "AfterModel", {"llm_response": [1], "llm_request": "x"}),
        ("claude", "PostCompact", {"compact_summary": 12}),
    ],
)
def test_odd_payloads_of_the_new_events_never_break_the_agent(
    repo: Path, agent: str, event: str, payload: dict[str, Any]
) -> None:
    tg(repo, "record", "--tokens", "195000")  # at the halt: a quiet pass is not luck
    proc = hook(repo, agent, event, {"cwd": str(repo), **payload})
    assert proc.returncode in (0, 2) and "internal error" not in proc.stderr, proc.stderr
    if event in ("preCompact", "AfterModel"):
        assert status(repo)["context"]["used"] == 195_000  # no reading from bad figures
    if event.lower() == "pretooluse":  # a call it cannot read is not a landing call
        assert proc.returncode == 2 or "deny" in proc.stdout


def test_new_events_keep_transcript_text_private(repo: Path) -> None:

    outputs: list[str] = []
    base = {"session_id": "A", "cwd": str(repo)}
    tg(repo, "record", "--tokens", "195000")
    cases: list[tuple[str, str, dict[str, Any]]] = [
        ("claude", "PreToolUse", {"tool_name": "Write", "tool_input": {"content": MARKER}}),
        ("claude", "PostCompact", {"compact_summary": MARKER * 40, "trigger": "auto"}),
        ("gemini", "AfterModel", {"llm_request": {"messages": [MARKER]}, "llm_response": {
            "candidates": [MARKER], "usageMetadata": {"totalTokenCount": 1000}}}),
        ("cursor", "beforeSubmitPrompt", {"prompt": MARKER}),
        ("copilot", "userPromptSubmitted", {"prompt": MARKER, "sessionId": "B"}),
        ("antigravity", "PreToolUse", {"toolCall": {"name": "run_command",
                                                    "args": {"CommandLine": MARKER}}}),
    ]  # fmt: skip
    for agent, event, extra in cases:
        proc = hook(repo, agent, event, {**base, **extra})
        outputs += [proc.stdout, proc.stderr]
    assert all(MARKER not in text for text in outputs)
    for path in [*(repo / ".tg-git").rglob("*"), *(repo / ".git").rglob("*")]:
        if path.is_file() and "objects" not in path.parts:
            assert MARKER.encode() not in path.read_bytes(), path


def test_a_halt_prompt_during_a_conflicted_merge_does_not_claim_a_save(repo: Path) -> None:
    (repo / "both.txt").write_text("base\n")
    git(repo, "add", "both.txt")
    commit(repo, "-m", "base")
    git(repo, "checkout", "-q", "-b", "other")
    (repo / "both.txt").write_text("theirs\n")
    commit(repo, "-a", "-m", "theirs")
    git(repo, "checkout", "-q", "main")
    (repo / "both.txt").write_text("ours\n")
    commit(repo, "-a", "-m", "ours")
    assert git(repo, "merge", "other", check=False).returncode != 0  # conflicted, under way
    tg(repo, "record", "--tokens", "195000")
    proc = tg(repo, "hook", "agent", "claude", "UserPromptSubmit", check=False,
              input=json.dumps({"cwd": str(repo), "prompt": "go on"}))  # fmt: skip
    assert proc.returncode == 2 and "Token limit reached" in proc.stderr
    assert git(repo, "tag", "-l", "checkpoint/*").stdout == ""  # nothing was saved ...
    assert "Checkpoint saved" not in proc.stderr  # ... so the block must not say it was


# Claude Code 2.1.332's own order and payloads around a `/compact` (captured from the real CLI,
# ids and paths replaced): SessionStart `compact` comes before PostCompact.
CLAUDE_COMPACTION: list[tuple[str, dict[str, Any]]] = [
    ("PreCompact", {"prompt_id": "p-1", "hook_event_name": "PreCompact", "trigger": "manual",
                    "custom_instructions": None}),
    ("SessionStart", {"prompt_id": "p-1", "hook_event_name": "SessionStart", "source": "compact",
                      "model": "claude-opus-5-5"}),
    ("PostCompact", {"prompt_id": "p-1", "hook_event_name": "PostCompact", "trigger": "manual",
                     "compact_summary": "done"}),
]  # fmt: skip


def test_claude_compaction_in_its_real_order_briefs_once_and_truly(repo: Path) -> None:
    plan(repo)
    base = {"session_id": "A", "cwd": str(repo)}
    context(hook(repo, "claude", "SessionStart", {**base, "source": "startup"}), "SessionStart")
    tg(repo, "record", "--tokens", "195000")
    blocked(hook(repo, "claude", "UserPromptSubmit", base))
    replies = [hook(repo, "claude", event, {**base, **payload})
               for event, payload in CLAUDE_COMPACTION]  # fmt: skip
    again = context(replies[1], "SessionStart")
    assert "compacted" in again and "tokenizer half done" in again
    head = again.split("#")[0]  # the compaction is the way out; the figure is said to be old
    assert "still halted" not in head and "(before the compaction" in head, again
    silent(replies[2])
    prompt = {**base, "prompt_id": "p-2", "permission_mode": "bypassPermissions", "prompt": "go"}
    silent(hook(repo, "claude", "UserPromptSubmit", prompt))  # briefed once, not again here
    assert status(repo)["context"]["level"] == "ok"


# Codex CLI 0.171's UserPromptSubmit and PreToolUse payloads (captured from the real CLI, ids
# and paths replaced); Codex has /compact and /new, no /clear.
CODEX_BASE = {"session_id": "01a23b49-f321", "turn_id": "01a23b49-f346", "transcript_path": None,
              "model": "gpt-5.5", "permission_mode": "bypassPermissions"}  # fmt: skip


def test_codex_halt_names_codex_own_way_out(repo: Path) -> None:
    base = {**CODEX_BASE, "cwd": str(repo)}
    tg(repo, "record", "--tokens", "195000")
    refused = blocked(hook(repo, "codex", "UserPromptSubmit",
                           {**base, "hook_event_name": "UserPromptSubmit", "prompt": "again"}))  # fmt: skip
    denied = blocked(hook(repo, "codex", "PreToolUse",
                          {**base, "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                           "tool_input": {"command": "x"}, "tool_use_id": "call_4"}))  # fmt: skip
    for said in (refused, denied):
        assert "/new" in said and "/compact" in said and "/clear" not in said, said


def test_gemini_context_reads_as_its_model_reads_it(repo: Path) -> None:
    """Gemini CLI 0.61 escapes < and > of hook context (the model read `&gt; ⚠️`)."""
    base = {"session_id": "g-1", "cwd": str(repo), "hook_event_name": "BeforeAgent",
            "timestamp": "2026-12-03T09:56:16.376Z", "prompt": "more"}  # fmt: skip
    tg(repo, "record", "--tokens", "165000")
    warned = context(hook(repo, "gemini", "BeforeAgent", base), "BeforeAgent")
    assert "Token warning" in warned and "<" not in warned and ">" not in warned, warned
