"""An agent hook ends itself short of the agent's timeout (``protocol.BOUND``), whatever it is
blocked in: not every agent's timeout reaches a hung tg-git. Gemini CLI signals its shell only
and then waits for the hook's output to close, and the tool call's shell pipes the payload into
Python rather than ``exec`` it (``formats.HOT_SCRIPT``): a hung Python kept the output open for
good. Here tg-git hangs for real in a read that never ends (the failpoint ``NAME:hang``), with
the tests' shorter bound (``protocol.BOUND_KNOB``), run by each agent's own hook shell
(``formats.HOOK_SHELL``) as `agent install` writes the command."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.repos import TG_GIT
from tests.support.repos import git
from tests.support.repos import tags
from tests.support.repos import tg
from tg_git.agents import formats
from tg_git.agents import opencode
from tg_git.agents import protocol
from tg_git.agents.protocol import EVENTS
from tg_git.agents.protocol import GOES_ON

AGENTS = ("claude", "codex", "gemini", "copilot", "opencode", "cursor", "antigravity")
BOUND = 1  # seconds: the tests' bound
WAIT = BOUND + protocol.BACKSTOP + 20  # far past anything the bound lets run: a hang, not a delay
PYTHON = os.path.realpath(sys.executable)


def _tool_event(agent: str) -> str:
    return next(e for e, kind in EVENTS[agent].items() if kind == "tool")


def _other_event(agent: str) -> str:
    return next(e for e, kind in EVENTS[agent].items() if kind != "tool")


def _hanging(point: str = "agent-hook") -> dict[str, str]:
    return {**os.environ, "TG_GIT_FAILPOINT": f"{point}:hang", protocol.BOUND_KNOB: str(BOUND)}


def _start(
    argv: list[str], cwd: Path, env: dict[str, str], payload: object
) -> subprocess.Popen[bytes]:
    """``argv`` in a session of its own, ``payload`` (JSON) on its stdin, then end of file."""
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(payload).encode() + b"\n")
    proc.stdin.close()
    proc.stdin = None  # written: ``communicate`` reads the output only
    return proc


def _finish(proc: subprocess.Popen[bytes], what: str) -> tuple[bytes, bytes]:
    """The output once it closes; a failure if it is still open after ``WAIT`` seconds (the
    hang went on). Whatever is left of the session is killed either way."""
    try:
        return proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"{what}: the output was still open after {WAIT} s")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def _python_in(session: int) -> bool:
    """Whether a process of ``session`` runs this Python (tg-git has started)."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_bytes().rsplit(b")", 1)[1].split()
            if int(stat[3]) == session and os.readlink(Path(entry.path, "exe")) == PYTHON:
                return True
        except (OSError, IndexError, ValueError):
            continue
    return False


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("kind", ["tool", "other"])
def test_a_hung_hook_ends_itself_with_a_status_the_agent_goes_on_at(
    tmp_path: Path, agent: str, kind: str
) -> None:
    """Claude Code, Codex and the others go on at 1 (any status but 2), Gemini CLI at 1 (it
    blocks on any status but 0 and 1: the default SIGALRM's 142 would block it), Copilot CLI
    at 0; one line says what happened."""
    event = _tool_event(agent) if kind == "tool" else _other_event(agent)
    command = formats.command(agent, event)
    shell = formats.HOOK_SHELL.get(agent, formats.SCRIPT_SHELL)
    payload = {"cwd": str(tmp_path), "tool_name": "bash"}
    proc = _start([*shell, command], tmp_path, _hanging(), payload)
    out, err = _finish(proc, f"{agent} {event}")
    assert proc.returncode == GOES_ON.get(agent, 1), (out, err)
    assert out == b""
    said = err.decode()
    assert said.count("\n") == 1 and f"stopped after {BOUND} s" in said, said
    assert "not blocked" in said, said


@pytest.mark.parametrize("agent", AGENTS)
def test_a_hung_tool_call_hook_outlives_no_signal_to_the_agents_shell(
    tmp_path: Path, agent: str
) -> None:
    """What Gemini CLI does on its timeout (tg-git's OpenCode plugin did it too): SIGTERM to
    the shell it started, then it waits for the output to close. The tool call's shell waits
    for Python in a pipe; the hung Python ends itself at its bound."""
    command = formats.command(agent, _tool_event(agent))
    shell = formats.HOOK_SHELL.get(agent, formats.SCRIPT_SHELL)
    payload = {"cwd": str(tmp_path), "tool_name": "bash"}
    proc = _start([*shell, command], tmp_path, _hanging(), payload)
    for _ in range(400):
        if _python_in(proc.pid):
            break
        time.sleep(0.025)
    assert _python_in(proc.pid), "tg-git never started"
    proc.send_signal(signal.SIGTERM)  # the shell only
    _finish(proc, agent)


def test_a_save_out_of_time_leaves_nothing_behind_and_the_next_one_lands(repo: Path) -> None:
    """The bound raises where the hook is, so the way out runs: the save's temporary index
    is removed (the default SIGALRM, or a handler that exits at once, left it in .git), the
    lock let go; the next compaction's save lands, and the work tree is as it was."""
    (repo / "notes.txt").write_text("unstaged work\n")
    payload = {"session_id": "A", "cwd": str(repo), "trigger": "manual"}
    argv = [TG_GIT, "hook", "agent", "claude", "PreCompact"]
    proc = _start(argv, repo, _hanging("in-temp-index"), payload)
    out, err = _finish(proc, "PreCompact")
    assert proc.returncode == 1 and out == b"", (out, err)
    assert f"stopped after {BOUND} s" in err.decode(), err
    assert not [p.name for p in (repo / ".git").iterdir() if p.name.startswith("tg-git-index")]
    assert not (repo / ".git" / "index.lock").exists()
    assert not [t for t in tags(repo) if t.endswith("pre-compact")]
    again = json.dumps(payload)
    saved = tg(repo, "hook", "agent", "claude", "PreCompact", input=again, check=False)
    assert saved.returncode == 0 and "pre-compact" in saved.stdout, saved
    assert [t for t in tags(repo) if t.endswith("pre-compact")]
    assert (repo / "notes.txt").read_text() == "unstaged work\n"
    assert "?? notes.txt" in git(repo, "status", "--porcelain").stdout


def test_the_bound_is_the_agent_hooks_only(repo: Path) -> None:
    """A command a user runs (here a save stopped for longer than the bound, then let go) is
    not bounded: it finishes. The agent hook stopped the same way ends at its bound."""
    for argv, bounded in (
        ([TG_GIT, "checkpoint", "-m", "by hand"], False),
        ([TG_GIT, "hook", "agent", "claude", "PreCompact"], True),
    ):
        env = {**os.environ, "TG_GIT_FAILPOINT": "in-temp-index:stop", protocol.BOUND_KNOB: "1"}
        proc = _start(argv, repo, env, {"session_id": "B", "cwd": str(repo)})
        for _ in range(400):
            state = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            if state == "T":
                break
            time.sleep(0.025)
        assert state == "T", "never reached the failpoint"
        time.sleep(BOUND + 0.5)  # past the bound while stopped
        os.kill(proc.pid, signal.SIGCONT)
        out, err = _finish(proc, argv[1])
        if bounded:
            assert proc.returncode == 1 and "stopped after 1 s" in err.decode(), (out, err)
        else:
            assert proc.returncode == 0, (out, err)
            assert b"stopped after" not in err


# ---- tg-git's OpenCode plugin ----------------------------------------------------------------
DRIVER = """
const { TgGit } = await import(process.argv[2])
const hooks = await TgGit({ directory: process.argv[3], client: {} })
await hooks["tool.execute.before"]({ sessionID: "S", tool: "bash" }, { args: {} })
process.stdout.write("went on\\n")
process.exit(0)
"""


def _marked(mark: str) -> list[int]:
    """The processes whose environment holds ``mark``."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if mark.encode() in Path(entry.path, "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
    return found


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_opencode_plugins_timeout_ends_the_hooks_whole_process_group(
    tmp_path: Path,
) -> None:
    """The plugin, run by node as OpenCode runs it (its timeout shortened here), on a tool call
    whose tg-git hangs with no bound of its own in reach: the tool call goes on at the
    timeout, and nothing of the hook run is left (``child.kill()`` signalled the shell only,
    and the Python it waited for in a pipe hung on)."""
    text = opencode.plugin_text(portable=False)
    assert "const TIMEOUT_MS = 30000\n" in text
    plugin = tmp_path / "tg-git.mjs"  # node takes ES modules by this name
    plugin.write_text(text.replace("const TIMEOUT_MS = 30000\n", "const TIMEOUT_MS = 1000\n"))
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER)
    mark = f"TG_GIT_TEST_MARK={tmp_path}"
    env = {**_hanging(), protocol.BOUND_KNOB: "600", "TG_GIT_TEST_MARK": str(tmp_path)}
    try:
        ran = subprocess.run(
            ["node", str(driver), plugin.as_uri(), str(tmp_path)], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=WAIT,
        )  # fmt: skip
        assert (ran.returncode, ran.stdout) == (0, "went on\n"), ran
        for _ in range(400):
            if not _marked(mark):
                break
            time.sleep(0.025)
        assert not _marked(mark), "the hook run outlived the plugin's timeout"
    finally:
        for pid in _marked(mark):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_the_bound_is_let_go_on_the_way_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """However the hook ends (an answer, an error, out of time), no alarm is left: one that
    answered just before the bound was cut off as it ended, and a caller that goes on (a
    program calling ``main``) would be, later, anywhere. The handler before it is back."""
    before = signal.getsignal(signal.SIGALRM)
    assert protocol.bounded("claude", lambda: 7, str) == 7
    assert signal.alarm(0) == 0 and signal.getsignal(signal.SIGALRM) == before

    def failing() -> int:
        raise ValueError("a bug")

    with pytest.raises(ValueError):
        protocol.bounded("claude", failing, str)
    assert signal.alarm(0) == 0 and signal.getsignal(signal.SIGALRM) == before

    def hung() -> int:
        time.sleep(WAIT)
        return 5

    monkeypatch.setenv(protocol.BOUND_KNOB, str(BOUND))
    late = protocol.bounded("copilot", hung, "late after {} s".format)
    assert late == GOES_ON["copilot"]
    assert signal.alarm(0) == 0 and signal.getsignal(signal.SIGALRM) == before


@pytest.mark.parametrize("knob", ["", "x", "0", "-1", "1e3", "٣", "99999999999999999999"])
def test_a_bound_knob_that_is_no_shorter_bound_is_the_bound(
    knob: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tests' knob only shortens the bound: any other value (not a number, none at all,
    a longer one) leaves ``BOUND``, and the hook runs (it did not: ``int("x")`` raised)."""
    monkeypatch.setenv(protocol.BOUND_KNOB, knob)
    armed: list[int] = []

    def answer() -> int:
        armed.append(signal.alarm(0))  # what was armed (taken off: nothing fires in the test)
        return 3

    assert protocol.bounded("claude", answer, str) == 3
    assert armed and protocol.BOUND - 1 <= armed[0] <= protocol.BOUND, armed
