"""The command text an agent runs is the text tg-git wrote, or one its loader rewrote as
``formats.EXPANDS`` says: Gemini CLI (0.61.0) expands ``$NAME``, ``${NAME}`` and
``${NAME:-default}`` in every string of its settings files as it loads them, from its own
environment; Claude Code, Codex CLI and Copilot CLI run the text as it is. Each command tg-git
writes comes through that loader unchanged: in a repository under a folder whose name holds
an apostrophe and a space (``$PWD`` expanded into the single-quoted script broke its quoting:
bash exited 2, which Gemini takes for a block, and every tool call was refused), every agent's
tool calls run and its hooks reach tg-git. Its real-CLI
scenarios run from ``test_real_clis`` (one table)."""

from __future__ import annotations

import json
import os
import pwd
import shlex
import shutil
from pathlib import Path
from typing import Any

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.realagents.shared_install import path_with_tg_git
from tests.realagents.shared_install import path_without_tg_git
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.agents import formats
from tg_git.agents.protocol import EVENTS

# agent -> (a shell command its model runs, a file it writes: path key, content key)
TOOLS = {
    "claude": (("Bash", {"command": "git status"}), ("Write", "file_path", "content")),
    "codex": (("exec_command", {"cmd": "git status"}), None),
    "gemini": (("run_shell_command", {"command": "git status"}), ("write_file", "file_path", "content")),
    "copilot": (("bash", {"command": "git status", "description": "s"}), ("create", "path", "file_text")),
}  # fmt: skip
LITERAL = "$PWD|${HOME}|${TG_GIT_NO_SUCH_VARIABLE:-unset}"


def _run(agent: str, entry: Path, repo: Path, env: dict[str, str]) -> None:
    clis.run(agent, entry, repo, env, "go")


def _turn(agent: str, repo: Path) -> list[Turn]:
    """A shell call and a file written (Codex: through its shell), then the answer."""
    shell, write = TOOLS[agent]
    if write is None:
        second = (shell[0], {"cmd": "printf 'x\\n' > a.txt"})
    else:
        second = (write[0], {write[1]: str(repo / "a.txt"), write[2]: "x\n"})
    return [Turn(tool=shell, used=1_000), Turn(tool=second, used=1_100), Turn("done", used=1_200)]


def which_agents_expand_variables_in_a_hook_command(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, agent: str
) -> None:
    """A probe for the tool-call event writes the single-quoted ``LITERAL`` (no shell expands
    it): what it wrote is the text the agent ran."""
    log = tmp_path / "probe.log"
    command = f"printf '%s\\n' {shlex.quote(LITERAL)} >>{shlex.quote(str(log))}; cat >/dev/null"
    clis.one_hook(agent, repo, command, shared=True)
    server.script(Turn(tool=TOOLS[agent][0], used=1_000), Turn("done", used=1_100))
    env = {**clis.env_of(agent, agent_home, repo, server.url), "PWD": str(repo)}
    _run(agent, clis.installed(agent), repo, env)
    assert log.exists(), f"{agent} ran no tool-call hook"
    ran = log.read_text().splitlines()[0]
    expanded = f"{repo}|{agent_home}|unset"
    assert ran in (LITERAL, expanded), ran
    assert (ran == expanded) == (agent in formats.EXPANDS), f"{agent} ran {ran!r}"


def a_folder_named_with_an_apostrophe_and_a_space_blocks_no_tool_call(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, agent: str,
    flags: list[str],
) -> None:  # fmt: skip
    moved = tmp_path / "Bob's work" / "repo"
    moved.parent.mkdir()
    shutil.move(str(repo), moved)
    git(moved, "update-index", "-q", "--refresh")
    tg(moved, "agent", "install", agent, *flags)
    git(moved, "add", "-A")
    commit(moved, "-m", f"wire {agent}")
    entry = clis.installed(agent)
    env = {**clis.env_of(agent, agent_home, moved, server.url), "PWD": str(moved),
           "PATH": path_with_tg_git(tmp_path / "bin")}  # fmt: skip
    server.script(*_turn(agent, moved))
    _run(agent, entry, moved, env)
    sent = server.main_requests()
    assert "tg-git 🔋 ~" in sent[0].text  # the session's start reached tg-git
    assert "On branch" in "".join(r.text for r in sent[1:]), "the shell call did not run"
    assert (moved / "a.txt").read_text() == "x\n", "the file was not written"


# ---- a tg-git that is only a shell function or alias ------------------------------------------
STARTUP = {  # the user's shell startup files, each defining tg-git
    ".bashrc": "alias tg-git='echo from-alias'\n",
    ".bash_profile": "tg-git() { echo from-function; }\n",
    ".profile": "tg-git() { echo from-function; }\n",
    ".zshenv": "tg-git() { echo from-function; }\n",
}


def a_tg_git_that_is_only_a_shell_function_reaches_which_hook_shell(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, agent: str, exported: bool
) -> None:
    """A bare `type tg-git` as the tool-call hook, PATH without tg-git: an alias or function
    in the user's startup files reaches no agent's hook shell (none is interactive or a login
    shell), so the portable command's ``exec /bin/sh -c`` loses nothing there. An exported
    bash function (in the environment) reaches the agents whose hook shell is bash (Codex CLI:
    the login shell, bash here; Gemini CLI; Copilot CLI), not Claude Code's ``/bin/sh``; the
    portable command does not take it (``/bin/sh`` runs no code from the environment): it says
    its one sentence and blocks nothing (``shared_install``, Gemini CLI)."""
    for name, text in STARTUP.items():
        (agent_home / name).write_text(text)
    log = tmp_path / "type.log"
    event = next(e for e, kind in EVENTS[agent].items() if kind == "tool")
    entry: dict[str, Any] = formats.hook_entry(agent, event)
    handler = entry["hooks"][0] if "hooks" in entry else entry
    handler["bash" if agent == "copilot" else "command"] = (
        f"{{ type tg-git || :; }} >>{log} 2>&1; cat >/dev/null"
    )
    path = formats.target_file(agent, repo, user=False, shared=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {"version": 1} if agent == "copilot" else {}
    data["hooks"] = {event: [entry]}
    path.write_text(json.dumps(data))
    env = {**clis.env_of(agent, agent_home, repo, server.url), "PATH": path_without_tg_git()}
    if exported:
        env["BASH_FUNC_tg-git%%"] = "() {  echo from-environment\n}"
    server.script(Turn(tool=TOOLS[agent][0]), Turn("done"))
    _run(agent, clis.installed(agent), repo, env)
    said = log.read_text()
    shell = formats.HOOK_SHELL.get(agent, (pwd.getpwuid(os.getuid()).pw_shell,))[0]
    if exported and os.path.basename(shell) == "bash":
        assert said.startswith("tg-git is a function") and "from-environment" in said, said
    else:  # dash "tg-git: not found", bash "type: tg-git: not found"
        assert said.endswith("tg-git: not found\n") and "from-" not in said, said
