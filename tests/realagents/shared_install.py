"""The portable commands of a shared install (`tg-git agent install AGENT --shared`, settings a
team commits) run by the real CLIs. With `tg-git` found only through PATH (a folder holding a
link to the installed one; the commands name no path of this machine) the hooks do what the
absolute ones do: the session's start and prompts reach tg-git, a tool call at the halt is
denied by the CLI, the turn's end saves the level. On a teammate's machine without tg-git a
whole turn with tool calls runs unblocked, and what the CLI shows of each hook is tg-git's one
sentence (or nothing), never the shell's "not found"; the same commands written bare are shown
failing, which is what the guard keeps from the teammate. Its real-CLI
scenarios run from ``test_real_clis`` (one table)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg
from tg_git.agents import formats
from tg_git.text import messages

SAID = messages.text("en", "agent_hook_not_found")
# the shell's own words for a missing command: dash "sh: 1: tg-git: not found", bash "bash: line
# 1: tg-git: command not found" (tg-git's sentence starts "tg-git: not found (was it...")
SHELL_NOT_FOUND = re.compile(r"sh: (?:line )?\d+: tg-git: (?:command )?not found")


def path_without_tg_git() -> str:
    """This process's PATH less every folder that holds a `tg-git`: a teammate's machine."""
    kept = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    return os.pathsep.join(d for d in kept if shutil.which("tg-git", path=d) is None)


def path_with_tg_git(folder: Path) -> str:
    """That PATH with ``folder`` first, holding nothing but a link named `tg-git` to the
    installed one."""
    assert os.path.isabs(TG_GIT), TG_GIT
    folder.mkdir()
    (folder / "tg-git").symlink_to(TG_GIT)
    return os.pathsep.join((str(folder), path_without_tg_git()))


def install_shared(repo: Path, agent: str) -> list[str]:
    """`tg-git agent install AGENT --shared`, committed; the commands written, each checked to
    run `tg-git` from PATH and to name nothing of this machine."""
    tg(repo, "agent", "install", agent, "--shared")
    git(repo, "add", "-A")
    commit(repo, "-m", f"wire {agent} for the team")
    path = formats.target_file(agent, repo, user=False, shared=True)
    commands = _commands(json.loads(path.read_text()))
    assert sorted(commands) == sorted(formats.EVENTS[agent])
    for event, command in commands.items():
        assert formats.interpreter(command) == formats.PORTABLE, event
        assert sys.prefix not in command and str(Path(TG_GIT).parent) not in command, event
    return sorted(commands)


def shared_cli(
    agent: str, repo: Path, home: Path, server_url: str, path: str
) -> tuple[Path, dict[str, str]]:
    """``agent``'s CLI, the shared install in ``repo``, and the CLI's environment with ``path``
    for PATH."""
    binary = clis.installed(agent)
    install_shared(repo, agent)
    return binary, {**clis.env_of(agent, home, repo, server_url), "PATH": path}


def _commands(data: dict[str, Any]) -> dict[str, str]:
    """event -> tg-git's command in a settings file's data."""
    found = {}
    for event, groups in data["hooks"].items():
        for group in groups:
            for handler in group.get("hooks", [group]):
                if formats.is_ours(handler):
                    found[event] = formats.command_of(handler)
    return found


def write_bare(repo: Path, agent: str) -> None:
    """The shared file's commands as bare `tg-git hook agent AGENT EVENT` (no guard)."""
    path = formats.target_file(agent, repo, user=False, shared=True)
    data = json.loads(path.read_text())
    for event, groups in data["hooks"].items():
        for group in groups:
            for handler in group.get("hooks", [group]):
                key = "bash" if agent == "copilot" else "command"
                handler[key] = f"tg-git hook agent {agent} {event}"
    path.write_text(json.dumps(data))


def codex_shown(binary: Path, repo: Path, env: dict[str, str], prompt: str) -> tuple[str, str]:
    """One ``codex exec`` as a person reads it (no ``--json``): its stdout and stderr, where
    it lists each hook it runs and how that ended."""
    proc = subprocess.run(
        [str(binary), "exec", "--dangerously-bypass-approvals-and-sandbox",
         "--dangerously-bypass-hook-trust", "--skip-git-repo-check", prompt],
        cwd=repo, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, proc.stderr


def claude_hook_runs(home: Path) -> list[dict[str, Any]]:
    """Claude Code's transcript records of its hook runs (``hook_*`` attachments: the event,
    the exit code, stdout and stderr)."""
    runs = []
    for path in sorted((home / ".claude" / "projects").rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            attachment = json.loads(line).get("attachment")
            if isinstance(attachment, dict) and "exitCode" in attachment:
                runs.append(attachment)
    return runs


def copilot_hook_runs(env: dict[str, str]) -> list[tuple[str, bool]]:
    """Copilot CLI's record of its hook runs (``hook.end`` in each session's events): the
    hook and whether it succeeded."""
    runs = []
    for path in sorted(Path(env["COPILOT_HOME"]).glob("session-state/*/events.jsonl")):
        for line in path.read_text().splitlines():
            event = json.loads(line)
            if event.get("type") == "hook.end":
                runs.append((str(event["data"]["hookType"]), bool(event["data"]["success"])))
    return runs


def after(server: ModelServer, before: int) -> str:
    """Every main request after the first ``before``, as one text."""
    return "\n".join(r.text for r in server.main_requests()[before:])


# ---- tg-git on PATH: the hooks work ---------------------------------------------------------
def claude_code_runs_the_shared_hooks_through_the_tg_git_on_its_path(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    binary, env = shared_cli(
        "claude", repo, agent_home, server.url, path_with_tg_git(tmp_path / "bin")
    )
    sid = str(uuid.uuid4())
    # within the turn the context fills past the halt (a record, as a commit's estimate would)
    server.script(
        Turn(tool=("Bash", {"command": f"{TG_GIT} record --tokens 190000"}), used=1_000),
        Turn(tool=("Write", {"file_path": str(repo / "a.txt"), "content": "x\n"}), used=1_100),
        Turn("landed", used=192_000),
    )
    result = clis.claude(binary, repo, env, "work", "--session-id", sid)
    first = server.main_requests()[0].text
    assert "tg-git 🔋 ~" in first  # SessionStart's context
    assert not (repo / "a.txt").exists()
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Write"]
    assert "this Write call was denied" in after(server, 1)  # the reason reached the model
    context = status(repo)["context"]  # Stop: the transcript's own figure, the level saved
    assert (context["used"], context["source"], context["level"]) == (192_010, "measured", "halt")
    assert any(t.endswith("-halt") for t in tags(repo))
    asked = len(server.requests)
    refused = clis.claude(binary, repo, env, "again", "--resume", sid)
    assert len(server.requests) == asked  # UserPromptSubmit at the halt: nothing was sent
    assert "context window is full" in json.dumps(refused)


def codex_runs_the_shared_hooks_through_the_tg_git_on_its_path(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    binary, env = shared_cli(
        "codex", repo, agent_home, server.url, path_with_tg_git(tmp_path / "bin")
    )
    tg(repo, "config", "set", "budget.context", "200000")  # the halt below Codex's compaction
    # Codex runs the model's commands in a login shell (`bash -lc`), whose profile sets PATH
    # anew: the record names tg-git by path; the hooks get Codex's own PATH
    server.script(
        Turn(tool=("exec_command", {"cmd": f"{TG_GIT} record --tokens 250000"}), used=1_000),
        Turn(tool=("exec_command", {"cmd": "touch a.txt"}), used=1_100),
        Turn("landed", used=192_000),
    )
    events, _ = clis.codex(binary, repo, env, "work")
    assert "tg-git 🔋 ~" in server.main_requests()[0].text  # SessionStart's context
    assert not (repo / "a.txt").exists()
    assert "this Bash call was denied" in after(server, 1)  # Codex names its shell so to hooks
    context = status(repo)["context"]  # Stop: the rollout's own figure, the level saved
    assert (context["used"], context["source"], context["level"]) == (192_010, "measured", "halt")
    asked = len(server.requests)
    clis.codex(binary, repo, env, "again", "resume", clis.thread_id(events))
    assert len(server.requests) == asked  # UserPromptSubmit at the halt: nothing was sent


def gemini_runs_the_shared_hooks_through_the_tg_git_on_its_path(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    entry, env = shared_cli(
        "gemini", repo, agent_home, server.url, path_with_tg_git(tmp_path / "bin")
    )
    # AfterModel reads each call's figures: the second call's 192,000 is the halt at once
    server.script(
        Turn(tool=("run_shell_command", {"command": "git status"}), used=1_000),
        Turn(tool=("write_file", {"file_path": str(repo / "a.txt"), "content": "x\n"}),
             used=192_000),
        Turn("landed", used=192_100),
    )  # fmt: skip
    clis.gemini(entry, repo, env, "work")
    assert "tg-git 🔋 ~" in server.main_requests()[0].text  # SessionStart's context
    assert not (repo / "a.txt").exists()
    assert "this write_file call was denied" in after(server, 1)
    assert status(repo)["context"]["level"] == "halt"
    assert any(t.endswith("-halt") for t in tags(repo))  # AfterAgent saved it
    asked = len(server.requests)
    clis.gemini(entry, repo, env, "again", "--resume", "latest")
    assert len(server.main_requests()[asked:]) == 0  # BeforeAgent at the halt: nothing sent


def copilot_runs_the_shared_hooks_through_the_tg_git_on_its_path(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    entry, env = shared_cli(
        "copilot", repo, agent_home, server.url, path_with_tg_git(tmp_path / "bin")
    )
    # its answer fills 62,010 of the 64,000 prompt tokens Copilot allows (96.9 %): its events,
    # written when the run ends, are read by `usage import` (else by the next run's prompt)
    server.script(Turn("hello", used=62_000))
    out, err = clis.copilot(entry, repo, env, "hi")
    assert "tg-git 🔋 ~" in server.main_requests()[0].text  # sessionStart's context
    conversation = re.search(r"--resume=([0-9a-f-]{36})", out + err)
    assert conversation, out + err
    tg(repo, "usage", "import", env={**os.environ, "COPILOT_HOME": env["COPILOT_HOME"]})
    assert status(repo)["context"]["level"] == "halt"
    before = len(server.main_requests())
    server.script(
        Turn(tool=("create", {"path": str(repo / "a.txt"), "file_text": "x\n"})),
        Turn(tool=("bash", {"command": "git status", "description": "status"})),
        Turn("landed"),
    )
    clis.copilot(entry, repo, env, "work", f"--resume={conversation.group(1)}")
    told = after(server, before)
    assert "this session is still halted" in told  # sessionStart (resume): the model is told
    ran = copilot_hook_runs(env)  # Copilot's own record of each hook run
    assert {t for t, _ in ran} == set(formats.EVENTS["copilot"]) - {"preCompact"}
    assert all(ok for _, ok in ran), ran
    assert not (repo / "a.txt").exists()
    assert "this create call was denied" in told
    assert "On branch" in server.main_requests()[-1].text  # git status lands work: it ran


# ---- no tg-git on the machine: nothing is blocked, one sentence --------------------------------
def claude_code_without_tg_git_runs_a_whole_turn_and_records_one_sentence(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    binary, env = shared_cli("claude", repo, agent_home, server.url, path_without_tg_git())
    server.script(
        Turn(tool=("Bash", {"command": "git status"}), used=1_000),
        Turn(tool=("Write", {"file_path": str(repo / "a.txt"), "content": "x\n"}), used=1_100),
        Turn("done", used=1_200),
    )
    result = clis.claude(binary, repo, env, "work", "--session-id", str(uuid.uuid4()))
    assert (result["is_error"], result["result"], result["permission_denials"]) == (
        False,
        "done",
        [],
    )
    assert (repo / "a.txt").read_text() == "x\n"
    assert "On branch" in after(server, 1)
    runs = claude_hook_runs(agent_home)
    seen = sorted(
        (r["hookEvent"], r["type"], r["exitCode"], r["stdout"], r["stderr"]) for r in runs
    )
    # Claude Code 2.1.332 records each run but UserPromptSubmit's (in print mode)
    expected = [(e, "hook_success", 0, "", SAID + "\n") for e in
                ("PreToolUse", "PreToolUse", "SessionStart", "Stop")]  # fmt: skip
    assert seen == expected


def codex_without_tg_git_runs_a_whole_turn_and_shows_every_hook_completed(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    binary, env = shared_cli("codex", repo, agent_home, server.url, path_without_tg_git())
    server.script(
        Turn(tool=("exec_command", {"cmd": "git status"}), used=1_000),
        Turn(tool=("exec_command", {"cmd": "touch a.txt"}), used=1_100),
        Turn("done", used=1_200),
    )
    out, err = codex_shown(binary, repo, env, "work")
    assert out == "done\n" and (repo / "a.txt").exists()
    assert "On branch" in after(server, 1)
    # Codex 0.171 lists each hook and how it ended; of one that ended with 0 it shows no output
    ran = re.findall(r"^hook: (\w+) (\w+)$", err, re.M)
    events = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PreToolUse", "Stop"]
    assert ran == [(e, "Completed") for e in events], err[-3000:]
    assert not SHELL_NOT_FOUND.search(out + err)
    assert all(line == SAID for line in (out + err).splitlines() if "tg-git" in line)


def gemini_without_tg_git_runs_a_whole_turn_and_shows_one_sentence(
    repo: Path, agent_home: Path, server: ModelServer, function: bool
) -> None:
    """``function``: a `tg-git` exported as a bash function, which Gemini's own hook shell
    (bash) would take: the portable command's ``/bin/sh`` takes no code from the environment."""
    entry, env = shared_cli("gemini", repo, agent_home, server.url, path_without_tg_git())
    if function:
        env["BASH_FUNC_tg-git%%"] = "() {  echo from-environment\n}"
    server.script(
        Turn(tool=("run_shell_command", {"command": "git status"}), used=1_000),
        Turn(tool=("write_file", {"file_path": str(repo / "a.txt"), "content": "x\n"}),
             used=1_100),
        Turn("done", used=1_200),
    )  # fmt: skip
    proc = subprocess.run(
        [clis.node(), str(entry), "-p", "work", "--yolo", "-m", "gemini-2.5-pro"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert (proc.returncode, proc.stdout.strip()) == (0, "done"), proc.stderr[-2000:]
    assert (repo / "a.txt").read_text() == "x\n"
    assert "On branch" in after(server, 1)
    # Gemini shows a hook's stderr as a "system message": tg-git's sentence, once per run
    shown = re.findall(r"^Hook system message: (.*)$", proc.stderr, re.M)
    assert shown and set(shown) == {SAID}, proc.stderr[-3000:]
    assert "failed" not in proc.stderr.lower() and not SHELL_NOT_FOUND.search(proc.stderr)


def copilot_without_tg_git_runs_a_whole_turn_unblocked(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    entry, env = shared_cli("copilot", repo, agent_home, server.url, path_without_tg_git())
    server.script(
        Turn(tool=("bash", {"command": "git status", "description": "status"})),
        Turn(tool=("create", {"path": str(repo / "a.txt"), "file_text": "x\n"})),
        Turn("done"),
    )
    out, err = clis.copilot(entry, repo, env, "work")
    assert (repo / "a.txt").read_text() == "x\n"
    assert "On branch" in after(server, 1) and "done" in out
    assert not SHELL_NOT_FOUND.search(out + err)  # Copilot shows nothing of its hooks here
    ran = copilot_hook_runs(env)  # its record: each run a success (its output is not kept)
    assert sorted(t for t, _ in ran) == sorted(
        ["sessionStart", "userPromptSubmitted", "preToolUse", "preToolUse", "agentStop"]
    )
    assert all(ok for _, ok in ran), ran


# ---- the same commands bare: what the guard keeps from a teammate ------------------------------
def bare_tg_git_commands_fail_in_claude_code_where_tg_git_is_absent(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    binary, env = shared_cli("claude", repo, agent_home, server.url, path_without_tg_git())
    write_bare(repo, "claude")
    server.script(Turn(tool=("Bash", {"command": "git status"})), Turn("done"))
    clis.claude(binary, repo, env, "work", "--session-id", str(uuid.uuid4()))
    runs = claude_hook_runs(agent_home)
    assert runs and all(r["exitCode"] == 127 for r in runs)
    assert all(r["type"] == "hook_non_blocking_error" for r in runs), {r["type"] for r in runs}
    assert all(SHELL_NOT_FOUND.search(r["stderr"]) for r in runs), runs[0]["stderr"]


def bare_tg_git_commands_fail_in_codex_where_tg_git_is_absent(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    binary, env = shared_cli("codex", repo, agent_home, server.url, path_without_tg_git())
    write_bare(repo, "codex")
    server.script(Turn(tool=("exec_command", {"cmd": "git status"})), Turn("done"))
    _, err = codex_shown(binary, repo, env, "work")
    ran = re.findall(r"^hook: (\w+) (\w+)$", err, re.M)
    assert ran and {outcome for _, outcome in ran} == {"Failed"}, err[-3000:]


def bare_tg_git_commands_block_gemini_s_prompt_where_tg_git_is_absent(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    """Gemini CLI 0.61 takes any status but 0 and 1 for a block: the shell's 127 refuses the
    prompt itself."""
    entry, env = shared_cli("gemini", repo, agent_home, server.url, path_without_tg_git())
    write_bare(repo, "gemini")
    server.script(Turn("done"))
    clis.gemini(entry, repo, env, "work")
    assert server.main_requests() == []


def bare_tg_git_commands_block_copilot_s_tool_calls_where_tg_git_is_absent(
    repo: Path, agent_home: Path, server: ModelServer
) -> None:
    """Copilot CLI 1.0.102 refuses a tool call whose preToolUse hook exits with any status
    but 0."""
    entry, env = shared_cli("copilot", repo, agent_home, server.url, path_without_tg_git())
    write_bare(repo, "copilot")
    server.script(
        Turn(tool=("bash", {"command": "git status", "description": "status"})), Turn("done")
    )
    clis.copilot(entry, repo, env, "work")
    assert server.main_requests() and "On branch" not in after(server, 1)
    assert [ok for t, ok in copilot_hook_runs(env) if t == "preToolUse"] == [False]


# ---- Claude Code's status line --------------------------------------------------------------
def claude_code_s_status_line_is_the_gauge_or_one_sentence(
    repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path, present: bool
) -> None:
    """Claude Code interactive under tmux (its status line runs only there), no prompt sent:
    the shared file's status line is tg-git's gauge with tg-git on PATH; without it, the one
    sentence, where the gauge would be."""
    import time

    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed")
    binary = clis.installed("claude")
    install_shared(repo, "claude")
    env = clis.claude_env(agent_home, repo, server.url)
    env["PATH"] = path_with_tg_git(tmp_path / "bin") if present else path_without_tg_git()
    socket = f"tg-git-shared-{os.getpid()}-{int(present)}"
    log = tmp_path / "claude.log"
    command = f"{shlex.quote(str(binary))} 2>{shlex.quote(str(log))}; sleep 30"
    subprocess.run([tmux, "-L", socket, "new-session", "-d", "-s", "cc", "-x", "220", "-y", "40",
                    "-c", str(repo), command], env=env, check=True)  # fmt: skip
    wanted = "tg-git 🔋" if present else messages.text("en", "status_line_not_found")
    screen = ""
    try:
        for _ in range(60):
            time.sleep(1)
            screen = subprocess.run([tmux, "-L", socket, "capture-pane", "-p", "-t", "cc"],
                                    capture_output=True, text=True).stdout  # fmt: skip
            if wanted in screen:
                break
    finally:
        subprocess.run([tmux, "-L", socket, "kill-server"], capture_output=True)
    assert wanted in screen, (screen, log.read_text() if log.exists() else "")
    assert not SHELL_NOT_FOUND.search(screen) and server.main_requests() == []
