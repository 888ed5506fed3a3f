"""Landing mode as a table: every command below (allowed and denied) in the payload shape of
every agent's shell tool (Claude Code ``Bash {command}``, Codex's hook ``Bash {command}``,
``exec_command {cmd, workdir}``, ``shell {command: [argv], workdir}``, ``local_shell {command:
[argv]}``, ``shell_command {command}``, Gemini CLI ``run_shell_command {command, dir_path}``,
Antigravity ``run_command {CommandLine, Cwd}`` double-encoded, Cursor ``Shell {command}``,
Copilot CLI ``bash`` with ``toolArgs`` as JSON text), judged by ``landing.allowed``; a sample of
it through the real hook entry of each agent at a halt; and the directory a call runs in
(a nested repository, outside the repository) judged by the repository it belongs to.
The table is ``landing_table.json``; ``tests/agents/test_landing_shell.py`` runs every allowed
command of it through bash.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import hook
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.agents import landing

# The table: commands by group, allowed and denied (data shared with test_landing_shell.py).
TABLE = json.loads((Path(__file__).parent / "landing_table.json").read_text(encoding="utf-8"))
ALLOWED: list[str] = [c for group in TABLE["allowed"].values() for c in group]
DENIED: list[str] = [c for group in TABLE["denied"].values() for c in group]

REPO = "/work/repo"


def _inside(directory: str) -> bool:
    """The halted repository is REPO: the agent's own directory (".") and REPO itself lie in
    it; anything else does not."""
    return directory in (".", REPO)


# agent shape -> (tool name, arguments) as the hook reads them from that agent's payload
SHAPES: dict[str, Callable[[str], tuple[str, Any]]] = {
    "claude Bash": lambda c: ("Bash", {"command": c, "description": "land"}),
    "codex Bash (hook)": lambda c: ("Bash", {"command": c}),
    "codex exec_command": lambda c: ("exec_command", {"cmd": c, "workdir": REPO, "login": True}),
    "codex shell": lambda c: ("shell", {"command": ["bash", "-lc", c], "workdir": REPO}),
    "codex local_shell": lambda c: ("local_shell", {"command": ["bash", "-c", c]}),
    "codex shell_command": lambda c: ("shell_command", {"command": c, "workdir": REPO}),
    "gemini run_shell_command": lambda c: ("run_shell_command", {"command": c, "dir_path": REPO}),
    "antigravity run_command": lambda c: (
        "run_command",
        json.dumps({"CommandLine": json.dumps(c), "Cwd": REPO, "Blocking": True}),
    ),
    "cursor Shell": lambda c: ("Shell", {"command": c}),
    "copilot bash": lambda c: ("bash", json.dumps({"command": c, "description": "land"})),
}


def test_the_table_is_big_enough_and_has_no_command_twice() -> None:
    assert len(ALLOWED) + len(DENIED) >= 150
    assert len(set(ALLOWED)) == len(ALLOWED) and len(set(DENIED)) == len(DENIED)
    assert not set(ALLOWED) & set(DENIED)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_command_in_every_agents_payload_shape(shape: str) -> None:
    wrong = []
    for command in ALLOWED + DENIED:
        tool, args = SHAPES[shape](command)
        if landing.allowed(tool, args, _inside) is not (command in ALLOWED):
            wrong.append(command)
    assert not wrong, (shape, wrong)


@pytest.mark.parametrize("command", ALLOWED)
def test_a_word_list_is_run_without_a_shell(command: str) -> None:
    """Codex's argument lists without a shell: the words themselves are judged."""
    parts = landing.parse(command)
    assert parts is not None
    if len(parts) == 1 and not any("$" in w or "`" in w for w in parts[0]):
        assert landing.allowed("shell", {"command": parts[0]})


# ---- the real hook entry, one sample per agent -------------------------------------------------
SAMPLE_ALLOWED = ["git add -A && git commit -m 'land the parser'", "git status --short",
                  "tg-git checkpoint -m landed", "git diff --cached -- src/a.py"]  # fmt: skip
SAMPLE_DENIED = ["git status x#;touch F", "git diff {--output=F,HEAD}", "git commit --no-verif -m x",
                 "git commit {--no-verify,-mx}", "git diff *", "cd nested && git commit -m x",
                 "rm -rf /"]  # fmt: skip


def _payload(agent: str, repo: Path, command: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    """The hook event and stdin JSON each agent sends for a shell call of ``command``."""
    base: dict[str, Any] = {"cwd": str(repo), "session_id": "S1"}
    if agent in ("claude", "codex"):
        call = {"tool_name": "Bash", "tool_input": {"command": command, **extra}}
        return "PreToolUse", {**base, "hook_event_name": "PreToolUse", **call}
    if agent == "gemini":
        call = {"tool_name": "run_shell_command", "tool_input": {"command": command, **extra}}
        return "BeforeTool", {**base, "hook_event_name": "BeforeTool", **call}
    if agent == "cursor":
        call = {"tool_name": "Shell", "tool_input": {"command": command, **extra}}
        roots = {"conversation_id": "c1", "workspace_roots": [str(repo)]}
        return "preToolUse", {**base, **roots, **call}
    if agent == "copilot":
        args = json.dumps({"command": command, "description": "land", **extra})
        return "preToolUse", {**base, "sessionId": "p1", "toolName": "bash", "toolArgs": args}
    args = json.dumps({"CommandLine": json.dumps(command), "Cwd": str(repo), **extra})
    call = {"toolCall": {"name": "run_command", "args": args}}
    return "PreToolUse", {**base, "conversationId": "a1", "workspacePaths": [str(repo)], **call}


def denied(agent: str, proc: subprocess.CompletedProcess[str]) -> bool:
    """Whether the agent reads the hook's answer as a denial; an allowed call is silent."""
    if agent in ("claude", "codex", "gemini"):
        if proc.returncode == 2 and proc.stdout == "" and "landing mode" in proc.stderr:
            return True
    elif proc.returncode == 0 and proc.stdout:
        answer = json.loads(proc.stdout)
        return "deny" in (answer.get("permission"), answer.get("permissionDecision"),
                          answer.get("decision"))  # fmt: skip
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), proc
    return False


@pytest.fixture
def halted(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    tg(repo, "record", "--tokens", "195000")
    return repo


AGENTS = ["claude", "codex", "gemini", "cursor", "copilot", "antigravity"]


@pytest.mark.parametrize("agent", AGENTS)
def test_a_sample_through_each_agents_hook(halted: Path, agent: str) -> None:
    for command in SAMPLE_ALLOWED + SAMPLE_DENIED:
        event, payload = _payload(agent, halted, command)
        verdict = denied(agent, hook(halted, agent, event, payload))
        assert verdict is (command in SAMPLE_DENIED), (agent, command)
        assert landing.parse(command) is not None or command in SAMPLE_DENIED


# ---- where the call runs -------------------------------------------------------------------------
@pytest.fixture
def nested(halted: Path) -> Path:
    """A repository of its own inside the halted one (not set up for tg-git)."""
    inner = halted / "vendor" / "lib"
    inner.mkdir(parents=True)
    git(inner, "init", "-q")
    return inner


@pytest.mark.parametrize("agent", AGENTS)
def test_a_call_from_a_nested_repository_stays_in_landing_mode(
    halted: Path, nested: Path, agent: str
) -> None:
    for command, refused in (("touch F", True), ("git commit -m x", True)):
        extra = {"Cwd": str(nested)} if agent == "antigravity" else {}
        event, payload = _payload(agent, halted, command, **extra)
        payload["cwd"] = str(nested)  # the agent's shell moved into the nested repository
        proc = subprocess.run(
            [*_tg_hook(agent, event)], cwd=nested, input=json.dumps(payload),
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert denied(agent, proc) is refused, (agent, command, proc)
    assert not (nested / "F").exists()


def _tg_hook(agent: str, event: str) -> list[str]:
    from tests.support.repos import TG_GIT

    return [TG_GIT, "hook", "agent", agent, event]


@pytest.mark.parametrize(
    ("agent", "key"),
    [("antigravity", "Cwd"), ("gemini", "dir_path"), ("cursor", "cwd"), ("copilot", "cwd"),
     ("claude", "cwd"), ("codex", "workdir")],
)  # fmt: skip
def test_a_call_that_names_another_directory_is_judged_by_its_repository(
    halted: Path, nested: Path, tmp_path: Path, agent: str, key: str
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    src = halted / "src"
    src.mkdir(exist_ok=True)
    for place, refused in ((nested, True), (outside, True), (halted, False), (src, False),
                           (halted / "vendor", False), (nested / ".." / "..", False)):  # fmt: skip
        event, payload = _payload(agent, halted, "git commit -m x", **{key: str(place)})
        assert denied(agent, hook(halted, agent, event, payload)) is refused, (agent, place)


def test_a_call_from_outside_any_repository_belongs_to_the_agents_project(
    halted: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    event, payload = _payload("claude", halted, "touch F")
    payload["cwd"] = str(outside)
    env = {"CLAUDE_PROJECT_DIR": str(halted)}
    proc = subprocess.run(
        _tg_hook("claude", event), cwd=outside, input=json.dumps(payload), capture_output=True,
        text=True, check=False, env={**os.environ, **env},
    )  # fmt: skip
    assert denied("claude", proc)
    event, payload = _payload("cursor", halted, "git status")
    payload["cwd"] = str(outside)  # Cursor names its workspace roots
    proc = subprocess.run(
        _tg_hook("cursor", event), cwd=outside, input=json.dumps(payload), capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    assert denied("cursor", proc)


def test_a_denied_shell_call_says_how_to_write_one(halted: Path) -> None:
    event, payload = _payload("claude", halted, "cd src && git commit -m x")
    reason = hook(halted, "claude", event, payload).stderr
    assert "landing mode" in reason and "no `cd`" in reason and "spelled in full" in reason
    assert reason.count("\n") == 1
    tg(halted, "config", "set", "language", "ko")
    reason = hook(halted, "claude", event, payload).stderr
    assert "착륙 모드" in reason and "`cd` 없이" in reason


@pytest.mark.parametrize(
    "roots", [[{}, [1], 5, None], ["\0", "x" * 5000, "/nonexistent/tg"], "not a list", [True]]
)
def test_odd_workspace_roots_of_a_tool_call_never_break_the_agent(
    halted: Path, tmp_path: Path, roots: Any
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    payload = {"cwd": str(outside), "tool_name": "Shell", "tool_input": {"command": "touch F"},
               "workspace_roots": roots, "workspacePaths": roots}  # fmt: skip
    proc = subprocess.run(
        _tg_hook("cursor", "preToolUse"), cwd=outside, input=json.dumps(payload),
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")  # no tg-git found here
