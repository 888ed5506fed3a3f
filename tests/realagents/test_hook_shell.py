"""The shell each real agent CLI runs a hook command in, as its tool-call hook sees it: a probe
command in place of tg-git's records its own program (``/proc/$$/exe``), its ``$0`` and its
parent's command line. ``$SHELL`` names a ``bash`` of the test's own that logs every start: a
hook run through the user's shell shows there. Each agent's shell is the one
``formats.HOOK_SHELL`` names (Codex CLI: the user's login shell): the tool-call command tg-git
installs is the shell script itself where that is ``/bin/sh -c``, else behind
``exec /bin/sh -c``."""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
from pathlib import Path

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tg_git.agents import formats

# agent -> a shell command its model asks to run
TOOL_CALLS = {
    "claude": ("Bash", {"command": "echo hi"}),
    "codex": ("exec_command", {"cmd": "echo hi"}),
    "gemini": ("run_shell_command", {"command": "echo hi"}),
    "copilot": ("bash", {"command": "echo hi", "description": "hi"}),
}
MARK = "tg-git-probe"


def probe(log: Path) -> str:
    """A hook command that records the shell running it (and reads its stdin, as a hook does)."""
    out = shlex.quote(str(log))
    return (
        f': {MARK}; {{ printf "%s\\n" "$0" "$(readlink /proc/$$/exe)" '
        f'"$(tr "\\000" " " </proc/$PPID/cmdline | head -c 300)" '
        f'"$(tr "\\000" " " </proc/$$/cmdline | head -c 60)"; }} >>{out}; cat >/dev/null'
    )


def _install_probe(repo: Path, agent: str, command: str) -> None:
    """The agent's hooks file with one hook: the probe, for its tool-call event."""
    clis.one_hook(agent, repo, command, shared=False)


def _run(agent: str, repo: Path, home: Path, server: ModelServer) -> None:
    server.script(Turn(tool=TOOL_CALLS[agent], used=1_000), Turn("done", used=1_100))
    entry = clis.installed(agent)
    env = clis.env_of(agent, home, repo, server.url)
    env["SHELL"] = str(home.parent / "login" / "bash")
    clis.run(agent, entry, repo, env, "go")


@pytest.mark.network
@pytest.mark.parametrize("agent", sorted(TOOL_CALLS))
def test_the_shell_an_agent_runs_its_tool_call_hook_in(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, agent: str
) -> None:
    log, logins = tmp_path / "probe.log", tmp_path / "logins.log"
    login = tmp_path / "login" / "bash"  # the user's shell: logs each start, then is bash
    login.parent.mkdir()
    login.write_text(f'#!/bin/sh\necho "$*" >>{shlex.quote(str(logins))}\nexec /bin/bash "$@"\n')
    login.chmod(0o755)
    _install_probe(repo, agent, probe(log))
    _run(agent, repo, agent_home, server)
    assert log.exists(), f"{agent} ran no tool-call hook"
    name, program, parent, argv = log.read_text().split("\n")[:4]
    seen = f"{agent}: $0={name!r} exe={program!r} argv={argv!r} parent={parent[:100]!r}"
    assert not (logins.exists() and MARK in logins.read_text()), f"through $SHELL: {seen}"
    shell: tuple[str, ...] = formats.HOOK_SHELL.get(agent, ())
    if agent == "codex":  # the user's login shell, from the password database
        shell = (pwd.getpwuid(os.getuid()).pw_shell or "/bin/sh", "-c")
    assert program == os.path.realpath(shutil.which(shell[0]) or shell[0]), seen
    assert argv.startswith(f"{' '.join(shell)} : {MARK}"), seen
