"""`tg-git doctor` proves the wiring per agent: the settings parse as the agent parses them
(strict JSON; TOML for Codex's config), Codex's trust, and the CLI versions the suite drives
beside the installed ones (never a command from the work tree)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.realagents.clis import VERSIONS
from tests.support.repos import tg
from tg_git.agents import wiring

pytestmark = pytest.mark.usefixtures("agent_homes")


def doctor(repo: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    proc = tg(repo, "doctor", check=False, env=env)
    return proc.returncode, proc.stdout


def doctor_with(repo: Path, name: str, text: str) -> tuple[int, str]:
    """``doctor`` with the settings file ``name`` (its folder new) holding ``text``."""
    path = repo / name
    path.parent.mkdir()
    path.write_text(text)
    return doctor(repo)


def test_a_settings_file_the_agent_would_not_parse_is_reported(repo: Path) -> None:
    tg(repo, "agent", "install", "claude", "--shared")
    settings = repo / ".claude" / "settings.json"
    text = settings.read_text()
    # Python's json reads NaN; Claude Code's JSON.parse refuses the whole file.
    settings.write_text(text.replace("{", '{"cleanupPeriodDays": NaN,', 1))
    code, out = doctor(repo)
    assert code == 1
    assert "claude: .claude/settings.json does not parse as claude reads it" in out, out
    assert "NaN is not JSON" in out and "fix .claude/settings.json by hand" in out


def test_a_trailing_comma_is_reported_with_its_place(repo: Path) -> None:
    code, out = doctor_with(repo, ".gemini/settings.json", '{\n  "hooks": {},\n}\n')
    assert code == 1 and "gemini: .gemini/settings.json does not parse" in out, out
    assert "line 3, column 1" in out


def test_antigravity_drops_a_malformed_file_silently_and_doctor_says_so(repo: Path) -> None:
    code, out = doctor_with(repo, ".agents/hooks.json", '{"hooks": {"PreToolUse": [ // ours\n]}}')
    assert code == 1 and "antigravity drops such a file without a word" in out, out


def test_a_codex_config_that_is_not_toml_is_reported(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    (agent_homes["CODEX_HOME"] / "config.toml").write_text('model = "gpt-5"\n[hooks\n')
    code, out = doctor(repo)
    assert code == 1 and "codex: " in out and "config.toml does not parse as codex reads it" in out


def test_untrusted_codex_hooks_are_reported(repo: Path) -> None:
    tg(repo, "agent", "install", "codex")
    code, out = doctor(repo)
    assert code == 1 and "are not trusted in Codex" in out and "/hooks" in out, out


def test_the_version_here_beside_the_version_the_suite_drives(repo: Path, tmp_path: Path) -> None:
    assert {a: v for a, (_, v) in wiring.VERIFIED.items()} == VERSIONS  # one table, two uses
    tools = tmp_path / "tools"
    tools.mkdir()
    fake = tools / "claude"
    fake.write_text("#!/bin/sh\necho '2.1.300 (Claude Code)'\n")
    fake.chmod(0o755)
    same = tools / "codex"
    same.write_text(f"#!/bin/sh\necho 'codex-cli {VERSIONS['codex']}'\n")
    same.chmod(0o755)
    env = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    _code, out = doctor(repo, env)
    assert f"claude 2.1.300 here; tg-git's tests drive {VERSIONS['claude']}" in out, out
    assert f"codex {VERSIONS['codex']} here, the version tg-git's tests drive" in out


def test_a_cli_in_the_work_tree_is_never_run(repo: Path) -> None:
    tools = repo / "tools"
    tools.mkdir()
    trap = tools / "gemini"
    trap.write_text(f"#!/bin/sh\ntouch '{repo}/ran'\necho 9.9.9\n")
    trap.chmod(0o755)
    _code, out = doctor(repo, {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"})
    assert not (repo / "ran").exists() and "9.9.9" not in out


@pytest.mark.parametrize("agent", ["claude", "gemini", "opencode"])
def test_a_tool_call_command_of_an_older_tg_git_is_reported_until_installed_again(
    repo: Path, agent: str
) -> None:
    """A tool-call command written by an older tg-git reads today's shell state as a doubt, so
    every tool call starts Python: doctor says so, and `agent install` puts it right. (An
    installed OpenCode plugin is a module, not JSON: doctor never calls it malformed.)"""
    from tg_git.repo import hotstate

    tg(repo, "agent", "install", agent)
    code, out = doctor(repo)
    assert f"FIX agent {agent}" not in out and f"ok  agent {agent}" in out, out
    written = [p for p in (repo / f".{agent}").rglob("*") if p.is_file()]
    settings = next(p for p in written if hotstate.MAGIC in p.read_text(errors="replace"))
    text = settings.read_text()
    settings.write_text(text.replace(hotstate.MAGIC, "tg-git-hot 1"))
    code, out = doctor(repo)
    assert code == 1
    assert f"{agent}: the tool-call hook in" in out and "older tg-git" in out, out
    assert f"tg-git agent install {agent}" in out, out
    tg(repo, "agent", "install", agent)
    code, out = doctor(repo)
    assert f"FIX agent {agent}" not in out and f"ok  agent {agent}" in out, out
