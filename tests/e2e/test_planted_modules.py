"""A clone's code never runs: a work tree that ships ``tg_git/``, ``json.py``, ``re.py``,
``pathlib.py``, ``orjson.py``, ``sitecustomize.py``, ``usercustomize.py`` and a ``.pth`` (each
leaves a marker file when imported) goes through every git hook (commit, merge, post-merge,
pre-push), every event of every agent (the commands its settings hold, run through ``sh -c``
with the agent's JSON on stdin), the status line and an import of a transcript large enough
to be read by orjson (the fast extra), and no marker appears. From this test environment's
install, and (network) from a pipx and a uv tool install."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import claude_line
from tests.support.agents import project_folder
from tests.support.repos import PROJECT
from tests.support.repos import TG_GIT
from tests.support.repos import git
from tg_git.agents.formats import EVENTS
from tg_git.usage.claude import FAST_FROM

PLANTED = ("tg_git/__init__.py", "json.py", "re.py", "pathlib.py", "orjson.py",
           "sitecustomize.py", "usercustomize.py", "planted.pth", "sub/json.py")  # fmt: skip
SETTINGS = {"claude": ".claude/settings.local.json", "codex": ".codex/hooks.json",
            "gemini": ".gemini/settings.json", "antigravity": ".agents/hooks.json",
            "cursor": ".cursor/hooks.json", "copilot": ".github/hooks/tg-git.json"}  # fmt: skip


def plant_modules(tree: Path, markers: Path) -> None:
    """Each planted file leaves ``markers/<its name>`` when Python runs it."""
    for name in PLANTED:
        path = tree / name
        path.parent.mkdir(parents=True, exist_ok=True)
        marker = markers / name.replace("/", "_")
        code = f"open({str(marker)!r}, 'w').close()\n"
        path.write_text(f"import os; {code}" if name.endswith(".pth") else code)


def run(cmd: list[str], cwd: Path, env: dict[str, str], stdin: str = "") -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    return f"$ {' '.join(cmd)} -> {proc.returncode}\n{proc.stdout}{proc.stderr}"


def our_entries(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(event, command) of each of tg-git's handlers in a settings document of any shape."""
    found = []
    for table in (data.get("hooks"), data.get("tg-git")):
        for event, groups in (table or {}).items():
            for group in groups if isinstance(groups, list) else []:
                for h in group.get("hooks", [group]):
                    command = h.get("command") or h.get("bash") or ""
                    if "hook agent" in command:
                        found.append((event, command))
    return found


def payload(agent: str, event: str, tree: Path) -> str:
    """The fields the agents send (an unknown session: the hook reads and answers)."""
    data = {"session_id": "planted-1", "sessionId": "planted-1", "conversation_id": "planted-1",
            "cwd": str(tree), "workspace_roots": [str(tree)], "hook_event_name": event,
            "transcript_path": str(tree / "none.jsonl"), "prompt": "hello", "source": "startup",
            "tool_name": "Bash", "tool_input": {"command": "git status"},
            "toolName": "bash", "toolArgs": json.dumps({"command": "git status"})}  # fmt: skip
    return json.dumps(data)


def drive_everything(tg_git: str, tree: Path, markers: Path, env: dict[str, str]) -> str:
    """Set tg-git up with ``tg_git`` (a command), plant the modules and commit them, then run
    every git hook, every agent event and the status line; returns what ran, for the failure."""
    log = []
    remote = tree.parent / "remote.git"
    git(tree.parent, "init", "-q", "--bare", str(remote))
    (tree / "README.md").write_text("# demo\n")
    for args in (["add", "README.md"], ["commit", "-q", "-m", "first"]):
        git(tree, *args)
    for args in (["init", "--max-tokens", "200000"], ["install"],
                 ["agent", "install", *SETTINGS]):  # fmt: skip
        log.append(run([tg_git, *args], tree, env))
    plant_modules(tree, markers)
    steps = [["git", "add", "-A"], ["git", "commit", "-q", "-m", "planted"],
             ["git", "checkout", "-q", "-b", "side"], ["git", "commit", "-q", "--allow-empty",
             "-m", "side"], ["git", "checkout", "-q", "main"],
             ["git", "commit", "-q", "--allow-empty", "-m", "main"],
             ["git", "merge", "-q", "--no-ff", "-m", "merge", "side"],
             ["git", "commit", "-q", "--allow-empty", "-m", "before pull"],
             ["git", "merge", "-q", "--ff-only", "side"],
             ["git", "push", "-q", str(remote), "main"]]  # fmt: skip
    for step in steps:
        log.append(run(step, tree, env))
    for agent, rel in SETTINGS.items():
        entries = our_entries(json.loads((tree / rel).read_text()))
        assert {event for event, _ in entries} == set(EVENTS[agent]), (agent, entries)
        for event, command in entries:
            log.append(run(["/bin/sh", "-c", command], tree, env, payload(agent, event, tree)))
    line = json.loads((tree / SETTINGS["claude"]).read_text())["statusLine"]["command"]
    status = {"session_id": "planted-1", "cwd": str(tree), "model": {"id": "claude-opus-4-6"}}
    log.append(run(["/bin/sh", "-c", line], tree, env, json.dumps(status)))
    request = claude_line("m1", "r1", out=5)  # a transcript orjson reads, when it is installed
    transcript = project_folder(tree, Path(env["CLAUDE_CONFIG_DIR"])) / "large.jsonl"
    transcript.write_text(request * (FAST_FROM // len(request) + 1))
    log.append(run([tg_git, "usage", "import"], tree, env))
    return "\n".join(log)


def assert_nothing_ran(markers: Path, log: str) -> None:
    ran = sorted(p.name for p in markers.iterdir())
    assert not ran, f"the clone's files ran: {ran}\n{log}"


def assert_counted(tree: Path, log: str) -> None:
    """The hooks did their work: the commit of the planted files carries its ledger event."""
    planted = git(tree, "log", "--format=%H", "--grep=^planted$").stdout.split()
    assert planted, log
    files = git(tree, "show", "--name-only", "--format=", planted[0]).stdout
    assert ".tg-git/" in files, log


def make_tree(tmp_path: Path) -> tuple[Path, Path]:
    tree, markers = tmp_path / "clone", tmp_path / "markers"
    tree.mkdir()
    markers.mkdir()
    git(tree, "init", "-q")
    return tree, markers


@pytest.mark.usefixtures("agent_homes")
def test_no_planted_module_runs_in_any_hook_or_agent_event(tmp_path: Path) -> None:
    tree, markers = make_tree(tmp_path)
    env = {**os.environ, "PATH": f"{Path(TG_GIT).parent}:{os.environ['PATH']}"}
    log = drive_everything(TG_GIT, tree, markers, env)
    assert_nothing_ran(markers, log)
    assert "hook agent" in log and "usage import -> 0" in log
    assert_counted(tree, log)
    # The planted files are real: Python run from the work tree does import them.
    subprocess.run([sys.executable, "-c", "import json, orjson"], cwd=tree, check=True)
    assert (markers / "json.py").exists() and (markers / "orjson.py").exists()


def _tools(cache: Path) -> Path:
    """A venv holding pipx and uv, kept between runs in pytest's cache folder."""
    tools = cache / "tools"
    bin_dir = tools / "bin"
    if not (bin_dir / "pipx").exists() or not (bin_dir / "uv").exists():
        shutil.rmtree(tools, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True)
        subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "pipx", "uv"],
                       check=True, env={**os.environ, "PIP_CACHE_DIR": str(cache / "pip")})  # fmt: skip
    return bin_dir


@pytest.mark.network
@pytest.mark.usefixtures("agent_homes")
@pytest.mark.parametrize("installer", ["pipx", "uv", "pip --user"])
def test_no_planted_module_runs_from_a_pipx_or_uv_tool_install(
    tmp_path: Path, installer: str, request: pytest.FixtureRequest
) -> None:
    """pipx and uv tool installs each keep tg-git in a venv of their own, with the `tg-git`
    command linked into a bin folder on PATH; the git hooks and agent settings they write
    run that venv's Python, isolated from the work tree all the same. `pip install --user`
    (outside any venv) puts it in the user's site-packages, which the hooks keep."""
    if not (PROJECT / "pyproject.toml").is_file():
        pytest.skip("not a source checkout")
    cache = Path(request.config.cache.mkdir("tg-git-tool-installs"))
    tools = _tools(cache)
    bin_dir = tmp_path / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
           "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(bin_dir),
           "PIPX_MAN_DIR": str(tmp_path / "man"), "PIP_CACHE_DIR": str(cache / "pip"),
           "UV_TOOL_DIR": str(tmp_path / "uv-tools"), "UV_TOOL_BIN_DIR": str(bin_dir),
           "UV_CACHE_DIR": str(cache / "uv"), "UV_PYTHON_DOWNLOADS": "never"}  # fmt: skip
    env.pop("VIRTUAL_ENV", None)
    base = Path(sys.base_prefix) / "bin" / "python3"
    if installer == "pip --user":
        user_home = tmp_path / "user-home"  # the user site is under HOME (-E drops PYTHONUSERBASE)
        bin_dir = user_home / ".local" / "bin"
        env.update(HOME=str(user_home), PATH=f"{bin_dir}:{os.environ['PATH']}")
        if subprocess.run([str(base), "-m", "pip", "--version"], capture_output=True).returncode:
            pytest.skip(f"{base} has no pip")
        cmd = [str(base), "-m", "pip", "install", "-q", "--user", "--break-system-packages",
               str(PROJECT)]  # fmt: skip
    elif installer == "pipx":
        cmd = [str(tools / "pipx"), "install", "--python", sys.executable, str(PROJECT)]
    else:
        cmd = [str(tools / "uv"), "tool", "install", "--python", sys.executable, str(PROJECT)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tg_git = bin_dir / "tg-git"
    assert tg_git.exists()
    tree, markers = make_tree(tmp_path)
    log = drive_everything(str(tg_git), tree, markers, env)
    assert "hook agent" in log
    shim = (tree / ".git" / "hooks" / "pre-commit").read_text()
    if installer != "pip --user":
        assert str(tmp_path) in shim  # the hooks run the tool's own venv
    assert_nothing_ran(markers, log)
    assert_counted(tree, log)
