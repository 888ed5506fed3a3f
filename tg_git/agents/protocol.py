"""Each agent's hook protocol: which of its events tg-git handles and what it does there
(``EVENTS``), where a halt reaches it (``CHANNELS``), the JSON it sends on stdin (read and
picked apart without trusting a field), and how a reply gets back to it (``Reply``: exit code,
stderr, the stdout fields the agent reads). ``tg_git.agents.hook`` decides what to reply.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from tg_git.agents import stdin

try:
    import _signal as signals  # type: ignore[import-not-found]  # ``signal``'s enums: 0.4 ms
except ImportError:  # not CPython
    import signal as signals

# agent -> {the agent's own event name: what tg-git does there}. The kinds: ``start`` (roll
# over or keep the session, brief the model), ``prompt`` (warn; block at a halt), ``tool``
# (landing mode at a halt: deny all but what lands work), ``stop`` (save at force-save),
# ``compact`` (save before the agent compacts), ``compacted`` (re-inject the briefing after a
# compaction), ``model`` (a live per-call usage measurement), ``invocation`` (Antigravity's
# per-model-call hook: the briefing at a conversation's first call, then as ``prompt``).
# `tg-git agent install` installs exactly these events.
EVENTS = {
    "claude": {"SessionStart": "start", "UserPromptSubmit": "prompt", "PreToolUse": "tool",
               "Stop": "stop", "PreCompact": "compact", "PostCompact": "compacted"},
    "codex": {"SessionStart": "start", "UserPromptSubmit": "prompt", "PreToolUse": "tool",
              "Stop": "stop", "PreCompact": "compact", "PostCompact": "compacted"},
    "gemini": {"SessionStart": "start", "BeforeAgent": "prompt", "BeforeTool": "tool",
               "AfterModel": "model", "AfterAgent": "stop", "PreCompress": "compact"},
    "antigravity": {"PreInvocation": "invocation", "PreToolUse": "tool", "Stop": "stop"},
    "cursor": {"sessionStart": "start", "beforeSubmitPrompt": "prompt", "preToolUse": "tool",
               "stop": "stop", "preCompact": "compact"},
    "copilot": {"sessionStart": "start", "userPromptSubmitted": "prompt", "preToolUse": "tool",
                "preCompact": "compact", "agentStop": "stop"},
    # OpenCode: its plugin (tg_git/agents/opencode_plugin.js) names its hooks and events so
    "opencode": {"session.start": "start", "chat.message": "prompt",
                 "tool.execute.before": "tool", "message.updated": "model",
                 "session.idle": "stop", "experimental.session.compacting": "compact",
                 "session.compacted": "compacted"},
}  # fmt: skip


# Where a halt reaches each agent (for `agent list` and the docs): its block channel.
CHANNELS = {
    "claude": "exit 2 + stderr (prompt, tool call); PreCompact exit 2 until the save lands",
    "codex": "exit 2 + stderr (prompt, tool call)",
    "gemini": "exit 2 + stderr (BeforeAgent, BeforeTool)",
    "antigravity": 'PreToolUse {"decision": "deny"}; PreInvocation injectSteps (no prompt block)',
    "cursor": 'beforeSubmitPrompt {"continue": false}; preToolUse {"permission": "deny"}',
    "copilot": 'preToolUse {"permissionDecision": "deny"} (its prompt hook cannot block)',
    "opencode": "its plugin throws (chat.message, tool.execute.before)",
}


# The status Gemini CLI and Copilot CLI go on at where tg-git cannot say more (an error, a hook
# out of time): Gemini goes on at 0 and 1 only, Copilot refuses a tool call on any status but 0
# (``tg_git.agents.formats``). Every other agent goes on at any status but 2: tg-git's 1.
GOES_ON = {"gemini": 1, "copilot": 0}

# ---- the hook's bound ---------------------------------------------------------------------------
# `tg-git hook agent` ends itself ``BOUND`` seconds in, whatever it waits for, short of the 30 s
# each agent's settings give it. Not every agent's timeout reaches a hung tg-git: Gemini CLI
# signals only its shell, then waits for the output to close, and the tool call's shell waits
# for Python in a pipe (``formats.HOT_SCRIPT``). SIGALRM raises ``OutOfTime`` where the hook is,
# even in a blocking read, a lock's wait or a wait for git (Python runs its handler there and
# does not retry the call: PEP 475), so every ``finally`` on the way out runs: a lock let go,
# the save's temporary index and git's ``index.lock`` removed, a git child killed. tg-git's files
# are replaced whole or appended in one write, as a killed hook leaves them too. The hook then
# says so in one line and exits with the status its agent goes on at (``GOES_ON``). Not the
# default action of SIGALRM: its status, 142 from a shell, blocks Gemini CLI, and it skips the
# way out. Should the way out hang too, the default action ends the process ``BACKSTOP``
# seconds on. Only the agent hooks: the commands users run and the git hooks have no agent's
# timeout. Not on Windows (no SIGALRM).
BOUND = 25
BACKSTOP = 2
BOUND_KNOB = "TG_GIT_TEST_HOOK_BOUND"  # the tests' shorter bound, in seconds (1 to BOUND)


class OutOfTime(BaseException):
    """The hook's ``BOUND`` passed (a BaseException: no ``except Exception`` keeps it)."""


def _out_of_time(signum: int, frame: object) -> None:
    signals.signal(signals.SIGALRM, signals.SIG_DFL)  # the way out hangs too: end it then
    signals.alarm(BACKSTOP)
    raise OutOfTime


def bounded(agent: str, answer: Callable[[], int], late: Callable[[int], str]) -> int:
    """``answer()`` within the hook's bound (``BOUND``); out of time, the line ``late`` says
    of the bound's seconds and the status ``agent`` goes on at. The bound is let go on the
    way out, whichever it is: a hook that answered just in time is not cut off as it ends,
    and a caller that goes on (a test, a program calling ``main``) keeps no alarm."""
    if not hasattr(signals, "alarm"):  # no SIGALRM: no bound
        return answer()
    knob = os.environ.get(BOUND_KNOB, "")
    seconds = int(knob) if knob.isascii() and knob.isdigit() and 0 < int(knob) <= BOUND else BOUND
    before = signals.signal(signals.SIGALRM, _out_of_time)
    signals.alarm(seconds)
    try:
        return answer()
    except OutOfTime:
        print(late(seconds), file=sys.stderr)
        return GOES_ON.get(agent, 1)
    finally:
        signals.alarm(0)
        signals.signal(signals.SIGALRM, before)


def read_payload() -> dict[str, object]:
    """The agent's JSON (``stdin.read_payload``, what every hook reads first); a test's
    ``TG_GIT_FAILPOINT=agent-hook:hang`` hangs the hook right after it."""
    payload = stdin.read_payload()
    if "TG_GIT_FAILPOINT" in os.environ:
        from tg_git.services import failpoint  # lazy: 0.2 ms, a test's only

        failpoint.hit("agent-hook")
    return payload


CLAUDE_LIKE = ("claude", "codex", "gemini")  # exit 2 + stderr, hookSpecificOutput
NO_PROMPT_BLOCK = ("copilot", "antigravity")  # their prompt hooks cannot refuse a prompt
COMPACT_BLOCK = ("claude",)  # PreCompact exit 2 refuses the compaction (its summary request)
_SAFE_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-")


class Reply:
    """What the hook hands back, in the channels of ``agent``'s ``event``: the model's context,
    a note for the user, a blocked prompt, a denied tool call, a postponed compaction."""

    def __init__(self, agent: str, event: str) -> None:
        self.agent, self.event = agent, event
        self.fields: dict[str, Any] = {}
        self.stderr = ""
        self.code = 0

    def context(self, text: str) -> None:
        """Text for the model (the briefing, a warning; Antigravity: the halt too)."""
        if self.agent in CLAUDE_LIKE:
            self.fields["hookSpecificOutput"] = {
                "hookEventName": self.event,
                "additionalContext": shown_to(self.agent, text),
            }
        elif self.agent == "opencode":  # its plugin adds it to the system text
            self.fields["context"] = "\n".join(filter(None, (self.fields.get("context"), text)))
        elif self.agent == "antigravity":
            self.fields["injectSteps"] = [{"ephemeralMessage": text}]
        elif self.agent == "cursor" and self.event == "sessionStart":
            self.fields["additional_context"] = text
        elif self.agent == "cursor":  # beforeSubmitPrompt has no channel to the model
            self.fields.update({"continue": True, "user_message": text})
        elif self.event == "sessionStart":  # Copilot CLI: the SDK's field (see docs)
            self.fields["additionalContext"] = text
        else:  # Copilot CLI does not process a prompt hook's output: its log only
            self.note(text)

    def message(self, text: str) -> None:
        """A one-line note for the user (a save)."""
        if self.agent in CLAUDE_LIKE:
            previous = self.fields.get("systemMessage")
            self.fields["systemMessage"] = f"{previous}\n{text}" if previous else text
        elif self.agent == "cursor" and self.event == "preCompact":
            self.fields["user_message"] = text
        # elsewhere the checkpoint's own "saved" line on stderr says it already

    def note(self, text: str) -> None:
        self.stderr += text.rstrip("\n") + "\n"

    def block(self, text: str) -> None:
        """A prompt refused at the halt, through the agent's own block channel."""
        if self.agent in CLAUDE_LIKE:
            self.code = 2
            self.note(text)
        elif self.agent == "cursor":
            self.fields = {"continue": False, "user_message": text}
        elif self.agent == "opencode":  # its plugin throws: the prompt never reaches the model
            self.fields = {"block": text}
        elif self.agent == "antigravity":  # PreInvocation cannot refuse: the model is told
            self.context(text)
        else:  # Copilot CLI: a prompt hook cannot block; its tool calls are denied
            self.note(text)

    def deny(self, text: str) -> None:
        """A tool call refused in landing mode."""
        if self.agent in CLAUDE_LIKE:
            self.code = 2
            self.note(text)
        elif self.agent == "cursor":
            self.fields = {"permission": "deny", "user_message": text, "agent_message": text}
        elif self.agent == "copilot":
            self.fields = {"permissionDecision": "deny", "permissionDecisionReason": text}
        elif self.agent == "opencode":  # its plugin throws: the model reads the reason
            self.fields = {"deny": text}
        else:
            self.fields = {"decision": "deny", "reason": text}

    def emit(self) -> int:
        if self.fields and self.code != 2:
            sys.stdout.write(json.dumps(self.fields, ensure_ascii=False) + "\n")
        if self.stderr:
            sys.stderr.write(self.stderr.rstrip("\n") + "\n")
        sys.stdout.flush()  # within the hook's bound: a pipe the agent does not read blocks
        sys.stderr.flush()
        return self.code


def shown_to(agent: str, text: str) -> str:
    """Context text in the form the agent hands it to the model. Gemini CLI 0.61 wraps it in
    ``<hook_context>`` and escapes ``<`` and ``>`` as ``&lt;`` / ``&gt;``: the quote marks at
    the lines' starts go (the text stands alone there) and any other angle bracket becomes
    ‹ ›, so the model reads what the other agents' models read."""
    if agent != "gemini":
        return text
    lines = [line[2:] if line.startswith("> ") else line for line in text.split("\n")]
    return "\n".join(lines).replace("<", "‹").replace(">", "›")


def usable_text(value: Any) -> str:
    return value if isinstance(value, str) and "\0" not in value and len(value) < 4096 else ""


def event_dir(payload: dict[str, Any]) -> str | None:
    """The event's directory: its ``cwd``, else the first workspace root, else the project
    folder the agent names in the environment (None: none that is a folder)."""
    roots = payload.get("workspace_roots") or payload.get("workspacePaths")
    first = roots[0] if isinstance(roots, list) and roots else None
    cwd = (
        usable_text(payload.get("cwd"))
        or usable_text(first)
        or os.environ.get("CLAUDE_PROJECT_DIR")
        or os.environ.get("GEMINI_PROJECT_DIR")
        or os.environ.get("CURSOR_PROJECT_DIR")
        or None
    )
    return cwd if cwd is not None and os.path.isdir(cwd) else None


def first_field(payload: dict[str, Any], *names: str) -> str:
    """The first of ``names`` that holds usable text (the agents spell ids differently:
    ``session_id``, Cursor ``conversation_id``, Copilot ``sessionId``, Antigravity
    ``conversationId``)."""
    for name in names:
        value = usable_text(payload.get(name))
        if value:
            return value
    return ""


def agent_session(payload: dict[str, Any]) -> str:
    return first_field(payload, "session_id", "conversation_id", "sessionId", "conversationId")


def token_count(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**12
    return value if ok else None


def tool_name(value: Any) -> str:
    """A tool name fit to print: the agents' names are plain words; anything else is cut."""
    text = value if isinstance(value, str) else ""
    return "".join(c for c in text[:64] if c in _SAFE_NAME) or "?"
