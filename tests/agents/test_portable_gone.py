"""The portable ``tg-git`` command a team commits (`agent install --shared`), on a machine where
tg-git was removed or never installed: every event and the status line say one sentence and
exit 0, which blocks nothing (the shell's "command not found" was exit 127), through every
login shell Codex CLI may run it with; where tg-git is on PATH the command runs it and starts
nothing else (no Python of its own)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.agents import LOCALES
from tg_git.agents import formats
from tg_git.agents.protocol import EVENTS
from tg_git.text import messages

LOGIN_SHELLS = ["/bin/sh", "bash", "zsh", "fish", "tcsh", "csh"]
BARE_PATH = "/usr/bin:/bin"  # no tg-git there: it lives in this interpreter's own folder
SAID = {"agent": "agent_hook_not_found", "line": "status_line_not_found"}


def _payload(cwd: Path) -> str:
    data = {"session_id": "A", "cwd": str(cwd), "hook_event_name": "Stop"}
    return json.dumps(data, separators=(",", ":"))


def _login(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def _run(shell: str, command: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([shell, "-c", command], cwd=cwd, input=_payload(cwd).encode(),
                          capture_output=True, env={**os.environ, "PATH": BARE_PATH, **env},
                          timeout=60)  # fmt: skip


def test_tg_git_is_not_on_the_bare_path() -> None:
    assert shutil.which("tg-git", path=BARE_PATH) is None


@pytest.mark.parametrize("login", LOGIN_SHELLS)
def test_every_portable_event_without_tg_git_says_one_sentence_and_blocks_nothing(
    tmp_path: Path, home: Path, login: str
) -> None:
    shell = _login(login)
    said = messages.text("en", SAID["agent"]) + "\n"
    for event in EVENTS["codex"]:
        proc = _run(shell, formats.command("codex", event, portable=True), tmp_path)
        assert (proc.returncode, proc.stdout, proc.stderr.decode()) == (0, b"", said), event


@pytest.mark.parametrize("agent", ["claude", "gemini", "copilot", "cursor", "antigravity"])
def test_each_agent_s_portable_commands_without_tg_git_block_nothing(
    tmp_path: Path, agent: str
) -> None:
    said = messages.text("en", SAID["agent"]) + "\n"
    shell = shutil.which(formats.HOOK_SHELL.get(agent, ("/bin/sh",))[0]) or "/bin/sh"
    for event in EVENTS[agent]:
        proc = _run(shell, formats.command(agent, event, portable=True), tmp_path)
        assert (proc.returncode, proc.stdout, proc.stderr.decode()) == (0, b"", said), event


@pytest.mark.parametrize("login", LOGIN_SHELLS)
def test_the_portable_status_line_without_tg_git_shows_one_sentence(
    tmp_path: Path, home: Path, login: str
) -> None:
    proc = _run(_login(login), formats.status_line_command(None, portable=True), tmp_path)
    said = messages.text("en", SAID["line"]) + "\n"
    assert (proc.returncode, proc.stdout.decode(), proc.stderr) == (0, said, b"")


def test_the_sentence_speaks_the_locale_s_language(tmp_path: Path) -> None:
    command = formats.command("codex", "Stop", portable=True)
    for lang, env in (*LOCALES, ("en", {"LC_ALL": "C", "LANG": "ko_KR.UTF-8"})):
        clean = {k: "" for k in ("LC_ALL", "LC_MESSAGES", "LANG")}
        proc = _run("/bin/sh", command, tmp_path, **{**clean, **env})
        assert proc.stderr.decode() == messages.text(lang, SAID["agent"]) + "\n", env


@pytest.mark.parametrize("login", LOGIN_SHELLS)
def test_with_tg_git_on_path_the_portable_command_runs_it_alone(
    tmp_path: Path, home: Path, login: str
) -> None:
    """tg-git found: it gets the event's arguments and the payload, and its exit status
    is the command's; the command names no interpreter of its own."""
    shell = _login(login)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    seen = tmp_path / "seen"
    fake = bin_dir / "tg-git"
    fake.write_text(
        f'#!/bin/sh\necho "$@" > {shlex.quote(str(seen))}\ncat >> {shlex.quote(str(seen))}\nexit 3\n'
    )
    fake.chmod(0o755)
    commands = {e: formats.command("codex", e, portable=True) for e in EVENTS["codex"]}
    commands["statusline"] = formats.status_line_command(None, portable=True)
    for event, command in commands.items():
        assert "python" not in command.lower(), event
        proc = _run(shell, command, tmp_path, PATH=f"{bin_dir}:{BARE_PATH}")
        assert (proc.returncode, proc.stdout, proc.stderr) == (3, b"", b""), event
        args = "statusline" if event == "statusline" else f"hook agent codex {event}"
        assert seen.read_text() == f"{args}\n{_payload(tmp_path)}", event
