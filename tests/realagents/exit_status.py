"""A hook of tg-git's that fails blocks no turn in any real CLI: tg-git's own error (a config a
merge left broken: one sentence, exit 1) and a command whose interpreter was removed since (the
shell's 127). What the CLIs do with a status other than their block code, seen: Claude Code
(2.1.332) and Codex CLI (0.171.0) block on 2 only; Gemini CLI (0.61.0) goes on at 0 and 1 and
blocks on any other status (127 refused the prompt itself); Copilot CLI (1.0.102) refuses the
tool call on any status but 0 (tg-git's error refused every tool call). The commands for those
two end in a filter (``formats.STATUS_FILTER``). Its real-CLI
scenarios run from ``test_real_clis`` (one table)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.realagents import clis
from tests.realagents.command_text import _run
from tests.realagents.command_text import _turn
from tests.realagents.modelserver import ModelServer
from tests.realagents.shared_install import path_without_tg_git
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.agents import formats


def a_failing_hook_blocks_no_prompt_and_no_tool_call(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, agent: str, why: str
) -> None:
    tg(repo, "agent", "install", agent, env={"PATH": path_without_tg_git()})  # by path
    git(repo, "add", "-A")
    commit(repo, "-m", f"wire {agent}")
    if why == "error":  # every hook says what is wrong and exits 1
        (repo / ".tg-git" / "config.toml").write_text("max_tokens = [\n")
    else:  # the interpreter the commands name was removed since (pipx or uv tool uninstall)
        path = formats.target_file(agent, repo, user=False, shared=False)
        python = os.path.abspath(sys.executable)
        assert python in path.read_text()
        path.write_text(path.read_text().replace(python, str(tmp_path / "gone" / "python")))
    server.script(*_turn(agent, repo))
    _run(agent, clis.installed(agent), repo, clis.env_of(agent, agent_home, repo, server.url))
    sent = server.main_requests()
    assert sent, "the prompt was blocked"
    assert "On branch" in "".join(r.text for r in sent[1:]), "the shell call was refused"
    assert (repo / "a.txt").read_text() == "x\n", "the file was not written"
