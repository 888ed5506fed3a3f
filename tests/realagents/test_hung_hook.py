"""A hung tg-git under each real agent CLI: every hook of tg-git's hangs right after it reads
the agent's payload (``TG_GIT_FAILPOINT=agent-hook:hang``), the tests' shorter bound ends each
one (``protocol.BOUND_KNOB``: 1 s for the 25 s ``agent install`` leaves under the agents' 30 s),
and the agent goes on: the tool call runs and the turn ends.

No shell state is left to answer the tool call (no hook computes a level), so each tool call
reaches Python behind its shell script, which cannot ``exec`` it: there Gemini CLI's own timeout
signals that shell alone and then waits for the output pipes the hung Python holds
(``docs/agent-hooks.md``), and only the bound ends the wait. Each CLI's run has a timeout of its
own (``clis``): a hook that held the agent fails the test there. (OpenCode's timeout is tg-git's
own plugin's, 30 s, which ends the hook run's whole process group: there the bound only makes
the wait short.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tg_git.agents import protocol
from tg_git.repo import hotstate

# agent -> its model's shell tool call, writing the file named by ``{}``
TOOL_CALLS = {
    "claude": ("Bash", "command"),
    "codex": ("exec_command", "cmd"),
    "gemini": ("run_shell_command", "command"),
    "copilot": ("bash", "command"),
    "opencode": ("bash", "command"),  # (through tg-git's own plugin)
}


@pytest.mark.network
@pytest.mark.parametrize("agent", sorted(TOOL_CALLS))
def test_a_hung_tg_git_holds_no_real_agent(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, agent: str
) -> None:
    entry = clis.wired(repo, agent)
    hot = repo / ".git" / hotstate.FOLDER
    shutil.rmtree(hot, ignore_errors=True)  # nothing the shell could answer a call from
    if agent == "opencode":
        env = clis.opencode_env(agent_home, repo, server.url)
    else:
        env = clis.env_of(agent, agent_home, repo, server.url)
    env.update({"TG_GIT_FAILPOINT": "agent-hook:hang", protocol.BOUND_KNOB: "1"})
    ran = tmp_path / "ran"
    name, key = TOOL_CALLS[agent]
    arguments = {key: f"echo ran > {ran}"}
    if agent in ("copilot", "opencode"):
        arguments["description"] = "mark"
    server.script(Turn(tool=(name, arguments), used=1_000), Turn("done", used=1_100))
    if agent == "opencode":
        clis.opencode(entry, repo, env, "go")
    else:
        clis.run(agent, entry, repo, env, "go")
    assert ran.read_text() == "ran\n"  # the tool call ran: tg-git held and refused nothing
    assert len(server.main_requests()) >= 2  # and the turn went on to the model after it
