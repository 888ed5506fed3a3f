"""What the agents see of a tg-git that hangs or fails, through the commands `agent install`
writes, run by each agent's own hook shell (``formats.HOOK_SHELL``; ``/bin/sh -c`` where it is
not known). Gemini CLI goes on at statuses 0 and 1 only and Copilot CLI refuses a tool call on
any status but 0 (seen with the real CLIs: ``tests/realagents/exit_status.py``), so their
tool-call commands filter the status (``formats.STATUS_FILTER``). Every other command
``exec``s tg-git: Gemini's timeout signals the process it started (SIGTERM to its shell, then
it waits for the output to close), as tg-git's own OpenCode plugin does (``child.kill()``), and
dash, Debian's /bin/sh, waits for the one command of ``sh -c``: a shell left waiting for a hung
tg-git let the hang through. (Claude Code 2.1.332 and Codex CLI 0.171.0 signal the whole
process group, which reached it anyway.) Here the interpreter is replaced by a small script:
one that hangs, one that fails, one that is gone."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.repos import tg
from tg_git.agents import formats
from tg_git.agents import settings
from tg_git.agents import wiring
from tg_git.agents.protocol import EVENTS

AGENTS = ("claude", "codex", "gemini", "copilot", "opencode", "cursor", "antigravity")
PYTHON = shlex.quote(os.path.abspath(sys.executable))


def _standing_in(command: str, script: Path, portable: bool) -> str:
    """``command`` with ``script`` where it starts tg-git (the interpreter's path, or the
    portable `tg-git`, found first on PATH)."""
    if portable:
        return command
    assert PYTHON in command, command
    return command.replace(PYTHON, shlex.quote(str(script)))


def _script(folder: Path, body: str) -> Path:
    path = folder / "tg-git"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def _shell(agent: str) -> tuple[str, ...]:
    return formats.HOOK_SHELL.get(agent, formats.SCRIPT_SHELL)


CASES = [
    (agent, event, portable)
    for agent in AGENTS
    for event, kind in EVENTS[agent].items()
    if kind != "tool"
    for portable in (False, True)
]


def _ends_with_its_shell(
    tmp_path: Path, shell: tuple[str, ...], command: str, portable: bool
) -> None:
    """``command`` run by ``shell`` with a tg-git that hangs in its place: a SIGTERM to the
    shell alone (what Gemini's timeout and a cancelled status line send) ends it all, and the
    output closes (nothing is left holding it)."""
    started = tmp_path / "started"
    hung = _script(tmp_path, f": > {shlex.quote(str(started))}; exec sleep 60")
    command = _standing_in(command, hung, portable)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    proc = subprocess.Popen(
        [*shell, command], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        for _ in range(400):
            if started.exists():
                break
            time.sleep(0.025)
        assert started.exists(), "tg-git never started"
        proc.send_signal(signal.SIGTERM)  # the process the agent started
        proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tg-git outlived the signal to its shell: {command[:60]}")
    finally:
        with contextlib.suppress(ProcessLookupError):  # all of it ended
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


@pytest.mark.parametrize(("agent", "event", "portable"), CASES)
def test_an_agents_timeout_reaches_a_hung_tg_git(
    tmp_path: Path, agent: str, event: str, portable: bool
) -> None:
    _ends_with_its_shell(tmp_path, _shell(agent), formats.command(agent, event, portable), portable)


@pytest.mark.parametrize(
    ("theirs", "portable"), [(None, False), (None, True), ("echo mine", False)]
)  # (a portable file keeps the user's own line as it is: no wrapper)
def test_a_refresh_that_ends_the_status_lines_shell_ends_a_hung_tg_git(
    tmp_path: Path, theirs: str | None, portable: bool
) -> None:
    """Claude Code cancels a status-line run still in flight when the next refresh comes:
    whatever it signals, the shell it started ``exec``s tg-git (the gauge, or the wrapper
    around the user's own line), so the signal ends tg-git and nothing holds the output."""
    command = formats.status_line_command(theirs, portable)
    _ends_with_its_shell(tmp_path, ("/bin/sh", "-c"), command, portable)


@pytest.mark.parametrize("status", [1, 2, 3, 127])
@pytest.mark.parametrize("agent", sorted(formats.STATUS_FILTER))
@pytest.mark.parametrize("portable", [False, True])
def test_a_failing_tool_call_hook_gives_a_status_the_agent_goes_on_at(
    tmp_path: Path, agent: str, portable: bool, status: int
) -> None:
    """Gemini: 2 (tg-git's block) stays 2, anything else is 1; Copilot: anything is 0 (its
    halt is a "deny" on stdout)."""
    failing = _script(tmp_path, f"cat >/dev/null; exit {status}")
    event = next(e for e, kind in EVENTS[agent].items() if kind == "tool")
    command = _standing_in(formats.command(agent, event, portable), failing, portable)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    payload = '{"cwd":"/nowhere","tool_name":"bash"}\n'  # no state: the shell asks tg-git
    ran = subprocess.run(
        [*_shell(agent), command], cwd=tmp_path, env=env, input=payload, text=True,
        capture_output=True, timeout=30,
    )  # fmt: skip
    wanted = {"gemini": 2 if status == 2 else 1, "copilot": 0}[agent]
    assert ran.returncode == wanted, ran


@pytest.mark.parametrize("agent", ["gemini", "copilot"])
def test_an_interpreter_removed_since_blocks_no_other_event(tmp_path: Path, agent: str) -> None:
    """The shell's 127 (Gemini blocks on it) is answered before ``exec``: the status the agent
    goes on at."""
    for event, kind in EVENTS[agent].items():
        if kind == "tool":
            continue
        command = _standing_in(formats.command(agent, event), tmp_path / "gone", False)
        ran = subprocess.run([*_shell(agent), command], cwd=tmp_path, capture_output=True,
                             stdin=subprocess.DEVNULL, timeout=30)  # fmt: skip
        assert ran.returncode == {"gemini": 1, "copilot": 0}[agent], (event, ran)


@pytest.mark.parametrize("agent", sorted(set(AGENTS) - set(formats.GOES_ON)))
def test_an_interpreter_removed_since_is_the_shells_not_found(tmp_path: Path, agent: str) -> None:
    """Every agent's but Gemini's and Copilot's (which answer 127 first): ``exec`` of a missing
    interpreter ends as the bare command did, the shell's "not found" and 127 (Claude Code and
    Codex CLI go on at any status but 2), in dash and in bash (Codex CLI's login shell here)."""
    for event, kind in EVENTS[agent].items():
        if kind == "tool":
            continue
        command = _standing_in(formats.command(agent, event), tmp_path / "gone", False)
        assert command.startswith("exec "), command
        for shell in (("/bin/sh", "-c"), ("/bin/bash", "-c")):
            ran = subprocess.run([*shell, command], cwd=tmp_path, capture_output=True,
                                 stdin=subprocess.DEVNULL, timeout=30)  # fmt: skip
            assert ran.returncode == 127, (event, shell, ran)
            assert ran.stdout == b"", (event, shell, ran)
            said = ran.stderr.decode()
            assert said.count("\n") == 1 and str(tmp_path / "gone") in said, (shell, said)
            assert "not found" in said or "No such file" in said, (shell, said)


@pytest.mark.parametrize("agent", sorted(formats.FORMATS))
def test_todays_commands_are_not_older(agent: str) -> None:
    for event in EVENTS[agent]:
        for portable in (False, True):
            today = formats.command(agent, event, portable)
            assert not formats.is_older(agent, event, today), (event, portable, today[:80])


def _handlers(data: dict[str, object]) -> list[dict[str, str]]:
    hooks = data["hooks"]
    assert isinstance(hooks, dict)
    return [h for groups in hooks.values() for g in groups for h in g.get("hooks", [g])]


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_command_that_starts_python_without_exec_is_older_and_install_replaces_it(
    repo: Path, agent: str
) -> None:
    """The form an earlier tg-git wrote (``PY -E -c CODE tg_git hook agent AGENT EVENT``, a
    shell waiting for it) is listed as older (`agent status`, `doctor`: reinstall) with the
    same interpreter, and `agent install` writes today's in its place."""
    tg(repo, "agent", "install", agent)
    path = formats.target_file(agent, repo, user=False, shared=False)
    today = path.read_text()
    data = json.loads(today)
    others = sorted(e for e, kind in EVENTS[agent].items() if kind != "tool")
    python = ""
    for handler in _handlers(data):
        if formats.interpreter(handler["command"]) != formats.hot_fallback(handler["command"]):
            assert handler["command"].startswith("exec "), handler
            python = formats.interpreter(handler["command"])
            handler["command"] = handler["command"].removeprefix("exec ")
            assert formats.interpreter(handler["command"]) == python  # what doctor checks
    path.write_text(json.dumps(data, indent=2))
    found = wiring.wired(agent, repo, user=False)
    assert found is not None and found["older"] == others, found
    assert found["interpreters"] == [python], found
    checks = [c for c in wiring.diagnose(repo, "en") if c[0] == f"agent {agent}"]
    assert [ok for _, ok, _, _ in checks] == [False], checks
    assert "older tg-git" in checks[0][2] and "a shell waits" in checks[0][2], checks
    tg(repo, "agent", "install", agent)
    assert json.loads(path.read_text()) == json.loads(today)
    found = wiring.wired(agent, repo, user=False)
    assert found is not None and found["older"] == [], found


@pytest.mark.parametrize("theirs", [None, "echo mine"])
def test_a_status_line_without_exec_is_older_and_install_replaces_it(
    repo: Path, theirs: str | None
) -> None:
    """The status line an earlier tg-git wrote (the gauge, or the wrapper around the user's
    own line, a shell waiting for either) is named by `doctor` with the commands a shell
    waits for; `agent install` writes today's, the user's own line kept."""
    path = formats.target_file("claude", repo, user=False, shared=False)
    if theirs:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"statusLine": {"type": "command", "command": theirs}}))
    tg(repo, "agent", "install", "claude")
    today = path.read_text()
    data = json.loads(today)
    line = data["statusLine"]["command"]
    assert line.startswith("exec "), line
    assert (settings.unwrapped(line) == theirs) if theirs else settings.unwrapped(line) is None
    data["statusLine"]["command"] = line.removeprefix("exec ")
    path.write_text(json.dumps(data, indent=2))
    found = wiring.wired("claude", repo, user=False)
    assert found is not None and found["older"] == ["statusLine"] and found["status_line"], found
    checks = [c for c in wiring.diagnose(repo, "en") if c[0] == "agent claude"]
    assert [ok for _, ok, _, _ in checks] == [False], checks
    assert "a shell waits" in checks[0][2] and "statusLine" in checks[0][2], checks
    tg(repo, "agent", "install", "claude")
    assert json.loads(path.read_text()) == json.loads(today)
    found = wiring.wired("claude", repo, user=False)
    assert found is not None and found["older"] == [], found


def test_todays_status_lines_are_not_older() -> None:
    for theirs, portable in ((None, False), (None, True), ("echo mine", False)):
        assert not formats.line_is_older(formats.status_line_command(theirs, portable))


@pytest.mark.parametrize(
    "line",
    ["/home/u/.local/bin/tg-git statusline", "uvx tg-git statusline", "tg-git statusline",
     "/usr/bin/env tg-git statusline", "python3 -m tg_git statusline", "'unclosed statusline"],
)  # fmt: skip
def test_a_status_line_the_user_wrote_is_not_older(line: str) -> None:
    """Only the form an older tg-git wrote is older (`doctor` would say "an older tg-git")."""
    assert not formats.line_is_older(line)


def test_doctor_names_every_older_command_of_an_agent(repo: Path) -> None:
    """An older tool-call command and an older command a shell waits for, in one settings
    file: `doctor` says both (it said the tool call's alone; the fix is the same)."""
    tg(repo, "agent", "install", "claude")
    path = formats.target_file("claude", repo, user=False, shared=False)
    data = json.loads(path.read_text())
    for handler in _handlers(data):
        command = handler["command"]
        if formats.interpreter(command) == formats.hot_fallback(command):  # the tool call's
            handler["command"] = command.replace(formats.SCRIPT_GUARDS[0], "", 1)
        else:
            handler["command"] = command.removeprefix("exec ")
    path.write_text(json.dumps(data, indent=2))
    checks = [c for c in wiring.diagnose(repo, "en") if c[0] == "agent claude"]
    assert [ok for _, ok, _, _ in checks] == [False], checks
    said = checks[0][2]
    assert "tool-call hook" in said and "PreToolUse" in said, said
    assert "a shell waits" in said and "Stop" in said and "SessionStart" in said, said
