"""A hung tg-git under each real agent CLI: every hook of tg-git's hangs right after it reads
the agent's payload (``TG_GIT_FAILPOINT=agent-hook:hang``, each hung process's id written to a
log first), the tests' shorter bound ends each one (``protocol.BOUND_KNOB``: 1 s for the 25 s
``agent install`` leaves under the agents' 30 s), and the agent goes on: the tool call runs,
the turn ends, and no hung process is left.

The agents' own hook timeouts are raised to 600 s here (tg-git's OpenCode plugin's too), past
each CLI run's own timeout in ``clis``: only the bound can end a hung hook in time, so without
it every case fails (Gemini CLI never ends even at its own timeout: it signals the tool call's
shell alone and then waits for the output pipes the hung Python holds). No shell state is left
to answer the tool call, so it reaches Python behind its shell script too."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tg_git.agents import formats
from tg_git.agents import opencode
from tg_git.agents import protocol
from tg_git.repo import hotstate

# agent -> its model's shell tool call: the tool's name and the key of its command
TOOL_CALLS = {
    "claude": ("Bash", "command"),
    "codex": ("exec_command", "cmd"),
    "gemini": ("run_shell_command", "command"),
    "copilot": ("bash", "command"),
    "opencode": ("bash", "command"),  # (through tg-git's own plugin)
}
LONG = 20  # the agents' hook timeouts times this: 600 s


def _raised(value: Any) -> int:
    """The number of timeouts raised in ``value`` (a settings file's JSON), each in place."""
    found = 0
    for key, inner in value.items() if isinstance(value, dict) else enumerate(value):
        if key in ("timeout", "timeoutSec") and inner in (30, 30000):
            value[key] = inner * LONG
            found += 1
        elif isinstance(inner, (dict, list)):
            found += _raised(inner)
    return found


def _only_the_bound(repo: Path, agent: str) -> None:
    """The agent's own timeouts of tg-git's hooks, as `agent install` wrote them, raised."""
    if agent == "opencode":
        plugin = repo / opencode.FILE
        text = plugin.read_text()
        assert "const TIMEOUT_MS = 30000\n" in text
        plugin.write_text(text.replace("const TIMEOUT_MS = 30000\n", "const TIMEOUT_MS = 600000\n"))
        return
    path = formats.target_file(agent, repo, user=False, shared=False)
    data = json.loads(path.read_text())
    assert _raised(data) >= 2, data  # (every hook's entry has one)
    path.write_text(json.dumps(data))


def _alive(pid: int) -> bool:
    """Whether ``pid`` is still a tg-git hook (its command line says so)."""
    try:
        return b"hook\0agent\0" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@pytest.mark.network
@pytest.mark.parametrize("agent", sorted(TOOL_CALLS))
def test_a_hung_tg_git_holds_no_real_agent(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, agent: str
) -> None:
    entry = clis.wired(repo, agent)
    _only_the_bound(repo, agent)
    hot = repo / ".git" / hotstate.FOLDER
    shutil.rmtree(hot, ignore_errors=True)  # nothing the shell could answer a call from
    if agent == "opencode":
        env = clis.opencode_env(agent_home, repo, server.url)
    else:
        env = clis.env_of(agent, agent_home, repo, server.url)
    log = tmp_path / "hung"
    env.update(
        {"TG_GIT_FAILPOINT": "agent-hook:hang", "TG_GIT_FAILPOINT_LOG": str(log),
         protocol.BOUND_KNOB: "1"}
    )  # fmt: skip
    ran = tmp_path / "ran"
    name, key = TOOL_CALLS[agent]
    arguments = {key: f"echo ran > {ran}"}
    if agent in ("copilot", "opencode"):
        arguments["description"] = "mark"
    server.script(Turn(tool=(name, arguments), used=1_000), Turn("done", used=1_100))
    try:
        if agent == "opencode":
            clis.opencode(entry, repo, env, "go")
        else:
            clis.run(agent, entry, repo, env, "go")
        assert ran.read_text() == "ran\n"  # the tool call ran: tg-git held and refused nothing
        assert len(server.main_requests()) >= 2  # and the turn went on to the model after it
        hung = [int(pid) for pid in log.read_text().split()]
        assert len(hung) >= 2, hung  # the tool call's hook and others hung
        assert not [pid for pid in hung if _alive(pid)]  # and the bound ended each one
    finally:  # nothing left behind by a failure
        for pid in [int(p) for p in log.read_text().split()] if log.exists() else []:
            if _alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
