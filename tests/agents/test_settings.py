"""Agent installation: each agent's settings file in its own format (Claude Code, Codex, Gemini
CLI, Antigravity, Cursor, Copilot CLI), other tools' entries kept byte for byte, uninstall
restoring the file, hostile files left untouched with one line, Claude Code's status line
(wrapped when the user has one), --align-compaction, `agent list`, doctor, and the skill."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import tomlkit

from tests.support.agents import claude_binary
from tests.support.agents import fill_line
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.agents import silent
from tests.support.repos import TG_GIT as TG
from tests.support.repos import plant
from tests.support.repos import tg
from tg_git.agents.formats import EVENTS

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp


def our_commands(data: dict[str, Any]) -> list[str]:
    """tg-git's hook commands in a settings document of any agent's shape."""
    found = []
    for table in (data.get("hooks"), data.get("tg-git")):
        for groups in (table or {}).values():
            for group in groups:
                for h in group.get("hooks", [group]):
                    command = h.get("command") or h.get("bash") or ""
                    if "hook agent" in command:
                        found.append(command)
    return found


# ---- settings files ---------------------------------------------------------------------------
OTHER_TOOL: dict[str, Any] = {
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "Stop": [
            {
                "matcher": "",
                "hooks": [{"type": "command", "command": "entire hooks claude-code stop"}],
            }
        ],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}
        ],
    },
    "statusLine": {"type": "command", "command": "ccusage statusline"},
}


def test_settings_round_trip_keeps_other_tools(repo: Path) -> None:
    path = repo / ".claude" / "settings.local.json"
    path.parent.mkdir(parents=True)
    original = json.dumps(OTHER_TOOL, indent=4) + "\n"
    path.write_text(original)
    tg(repo, "agent", "install", "claude")
    installed = path.read_text()
    data = json.loads(installed)
    assert data["permissions"] == OTHER_TOOL["permissions"]
    line = data["statusLine"]["command"]  # theirs is wrapped: run first, then tg-git's gauge
    assert "tg_git.agents.wrap import main" in line and line.endswith(" 'ccusage statusline'")
    assert data["hooks"]["PreToolUse"][:1] == OTHER_TOOL["hooks"]["PreToolUse"]  # theirs first
    stop = [h["command"] for g in data["hooks"]["Stop"] for h in g["hooks"]]
    assert stop[0] == "entire hooks claude-code stop" and stop[1].endswith("hook agent claude Stop")
    assert installed.startswith('{\n    "permissions"')  # the file's own indent
    tg(repo, "agent", "install", "claude")
    assert path.read_text() == installed  # twice changes nothing
    tg(repo, "agent", "uninstall", "claude")
    assert path.read_text() == original


def test_uninstall_after_user_edits_removes_only_ours(repo: Path) -> None:
    path = plant(repo / ".claude" / "settings.local.json", json.dumps(OTHER_TOOL, indent=2) + "\n")
    tg(repo, "agent", "install", "claude")
    data = json.loads(path.read_text())
    data["model"] = "opus"
    data["hooks"]["Stop"].append(
        {"matcher": "", "hooks": [{"type": "command", "command": "./mine.sh"}]}
    )
    path.write_text(json.dumps(data, indent=2) + "\n")
    tg(repo, "agent", "uninstall", "claude")
    after = json.loads(path.read_text())
    assert after["model"] == "opus"
    assert [h["command"] for g in after["hooks"]["Stop"] for h in g["hooks"]] == [
        "entire hooks claude-code stop", "./mine.sh"]  # fmt: skip
    assert "hook agent" not in path.read_text()
    assert set(after["hooks"]) == {"Stop", "PreToolUse"}


SETTINGS = {"claude": ".claude/settings.local.json", "codex": ".codex/hooks.json",
            "gemini": ".gemini/settings.json", "antigravity": ".agents/hooks.json",
            "cursor": ".cursor/hooks.json", "copilot": ".github/hooks/tg-git.json"}  # fmt: skip
# Each agent's settings as another tool (Entire CLI, a user's own guard) left them, in the
# agent's own format, with a tab indent, non-ASCII text and no final newline.
OTHER_TOOLS: dict[str, dict[str, Any]] = {
    "claude": {**OTHER_TOOL, "env": {"GREETING": "안녕 ✓"}},
    "codex": {"hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "entire hooks codex stop",
                             "timeout": 10}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh",
                                                      "statusMessage": "검사 중"}]}],
    }},
    "gemini": {
        "general": {"vimMode": True}, "ui": {"theme": "GitHub"},
        "hooksConfig": {"notifications": False},
        "hooks": {"AfterAgent": [{"matcher": "*", "hooks": [
            {"name": "entire", "type": "command", "command": "entire hooks gemini after-agent",
             "timeout": 5000}]}]},
    },
    # Antigravity: one named entry per tool (Entire's shape), matcher lists for tool events.
    "antigravity": {"entire": {
        "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
                                                  "command": "entire hooks antigravity pre-tool-use"}]}],
        "Stop": [{"type": "command", "command": "entire hooks antigravity stop"}],
    }, "notes": "검사 중"},
    "cursor": {"version": 1, "hooks": {
        "afterFileEdit": [{"command": "./format.sh"}],
        "stop": [{"command": "entire hooks cursor stop", "timeout": 10}],
    }, "comment": "안녕 ✓"},
    # Copilot CLI: tg-git's own file; a file of that name from before comes back as it was.
    "copilot": {"version": 1, "hooks": {"agentStop": [
        {"type": "command", "bash": "./mine.sh", "powershell": "./mine.ps1", "timeoutSec": 5}]},
        "comment": "검사 중"},
}  # fmt: skip


@pytest.mark.parametrize("agent", list(SETTINGS))
def test_settings_round_trip_per_agent(repo: Path, agent: str) -> None:
    path = repo / SETTINGS[agent]
    path.parent.mkdir(parents=True)
    original = json.dumps(OTHER_TOOLS[agent], indent="\t", ensure_ascii=False)
    path.write_text(original)
    tg(repo, "agent", "install", agent)
    installed = path.read_text()
    data = json.loads(installed)
    before = OTHER_TOOLS[agent]
    for key, value in before.items():  # every other key kept as it was
        if key not in ("hooks", "hooksConfig", "statusLine"):
            assert data[key] == value, key
    for event, groups in before.get("hooks", {}).items():  # other hooks first, unchanged
        assert data["hooks"][event][: len(groups)] == groups, event
    ours = our_commands(data)
    assert len(ours) == len(EVENTS[agent]) and all(f"hook agent {agent} " in c for c in ours)
    assert {re.findall(r"hook agent \S+ ([^\s;]+)", c)[0] for c in ours} == set(EVENTS[agent])
    if agent == "gemini":
        assert data["hooksConfig"] == {"notifications": False, "enabled": True}
    assert installed.startswith('{\n\t"') and not installed.endswith("\n")  # its own style
    assert "안녕 ✓" in installed or "검사 중" in installed or agent == "gemini"  # not \uXXXX
    tg(repo, "agent", "install", agent)
    assert path.read_text() == installed  # twice changes nothing
    tg(repo, "agent", "uninstall", agent)
    assert path.read_text() == original  # byte for byte


@pytest.mark.parametrize("agent", list(SETTINGS))
def test_invalid_settings_json_is_left_untouched(repo: Path, agent: str) -> None:
    path = repo / SETTINGS[agent]
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"hooks": {oops\n')
    for action in ("install", "uninstall"):
        proc = tg(repo, "agent", action, agent, check=False)
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
        assert "not valid JSON" in proc.stderr and "left untouched" in proc.stderr
        assert "not valid JSON" not in proc.stdout  # said once
        assert path.read_bytes() == b'{"hooks": {oops\n'
    table = "tg-git" if agent == "antigravity" else "hooks"  # a named entry that is not ours
    first = json.dumps({table: {EVENTS[agent][0]: {} if table == "hooks" else [{"command": "x"}]}})
    for body in ('["a list"]', f'{{"{table}": []}}', first, "\ufeff{}"):
        path.write_text(body)
        assert tg(repo, "agent", "install", agent, check=False).returncode == 1
        assert path.read_text() == body


def test_settings_with_comments_get_a_hint(repo: Path) -> None:
    path = plant(
        repo / ".gemini" / "settings.json", '{\n  // my theme\n  "ui": {"theme": "GitHub"}\n}\n'
    )
    proc = tg(repo, "agent", "install", "gemini", check=False)
    assert proc.returncode == 1 and "take the comments out" in proc.stderr
    assert "// my theme" in path.read_text()


def test_every_failing_agent_is_named_once(repo: Path) -> None:
    for agent in ("claude", "codex"):
        (repo / SETTINGS[agent]).parent.mkdir(parents=True)
        (repo / SETTINGS[agent]).write_text("{")
    proc = tg(repo, "agent", "install", "claude", "codex", "gemini", check=False)
    assert proc.returncode == 1
    assert proc.stderr.count("not valid JSON") == 2 and proc.stderr.count("\n") == 2
    assert "hook agent gemini" in (repo / SETTINGS["gemini"]).read_text()  # the others go on


def test_settings_that_are_not_regular_files(repo: Path) -> None:
    import os

    path = repo / ".claude" / "settings.local.json"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)  # reading it would hang
    proc = subprocess.run([TG, "agent", "install", "claude"], cwd=repo, capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 1 and "not a regular file" in proc.stderr


def test_codex_hooks_also_in_config_toml_are_pointed_out(repo: Path) -> None:
    config = plant(
        repo / ".codex" / "config.toml",
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n',
    )
    proc = tg(repo, "agent", "install", "codex")
    assert "config.toml beside it has [hooks] too" in proc.stdout
    assert config.read_text().endswith('command = "x"\n')  # never edited


def test_gemini_hooks_switched_off_by_the_user_stay_off(repo: Path) -> None:
    path = plant(repo / ".gemini" / "settings.json", '{"hooksConfig": {"enabled": false}}\n')
    proc = tg(repo, "agent", "install", "gemini")
    assert "hooksConfig.enabled is false" in proc.stdout
    assert json.loads(path.read_text())["hooksConfig"] == {"enabled": False}


CREATED = [*SETTINGS.values(), ".claude/skills/token-guard/SKILL.md",
           ".agents/skills/token-guard/SKILL.md", ".cursor/skills/token-guard/SKILL.md",
           ".github/skills/token-guard/SKILL.md"]  # fmt: skip


def test_files_tg_git_created_are_removed_again(repo: Path) -> None:
    tg(repo, "agent", "install", *SETTINGS)
    for name in CREATED:
        assert (repo / name).is_file(), name
    status = json.loads(tg(repo, "agent", "list", "--json").stdout)["agents"]
    assert {r["agent"]: r["repo_hooks"] for r in status} == {**dict.fromkeys(SETTINGS, True),
                                                            "opencode": False}  # fmt: skip
    tg(repo, "agent", "uninstall", "all")
    for name in CREATED:
        assert not (repo / name).exists(), name
    assert not (repo / ".github").exists() and not (repo / ".cursor").exists()


def test_shared_skill_stays_while_another_agent_uses_it(repo: Path) -> None:
    tg(repo, "agent", "install", "codex", "gemini")
    tg(repo, "agent", "uninstall", "codex")
    assert (repo / ".agents/skills/token-guard/SKILL.md").is_file()
    tg(repo, "agent", "uninstall", "gemini")
    assert not (repo / ".agents/skills/token-guard/SKILL.md").exists()


@pytest.mark.parametrize(
    ("agent", "where", "skill"),
    [
        ("claude", ".claude/settings.json", ".claude/skills/token-guard/SKILL.md"),
        ("codex", ".codex/hooks.json", ".agents/skills/token-guard/SKILL.md"),
        ("gemini", ".gemini/settings.json", ".agents/skills/token-guard/SKILL.md"),
    ],
)
def test_user_install_writes_the_users_own_files(
    repo: Path, tmp_path: Path, agent: str, where: str, skill: str, home: Path
) -> None:
    """--user: the file under $HOME (a temp dir here) the agent reads when its own
    variable (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME) is not set."""
    assert home.is_relative_to(tmp_path.parent)  # never the real one
    unset = {"CLAUDE_CONFIG_DIR": "", "CODEX_HOME": "", "GEMINI_CLI_HOME": ""}
    path = home / where
    tg(repo, "agent", "install", agent, "--user", env=unset)
    assert f"hook agent {agent} " in path.read_text()
    assert (home / skill).is_file() and not (repo / where).exists()
    status = json.loads(tg(repo, "agent", "status", "--json", env=unset).stdout)["agents"]
    row = next(r for r in status if r["agent"] == agent)
    assert (row["user_hooks"], row["repo_hooks"], row["user_settings"]) == (True, False, str(path))
    tg(repo, "agent", "uninstall", agent, "--user", env=unset)
    assert not path.exists()  # tg-git had created it
    path.write_text('{\n "model": "x"\n}')  # a file of the user's own comes back byte for byte
    tg(repo, "agent", "install", agent, "--user", env=unset)
    tg(repo, "agent", "install", agent, "--user", env=unset)
    tg(repo, "agent", "uninstall", agent, "--user", env=unset)
    assert path.read_text() == '{\n "model": "x"\n}'


def test_user_install_follows_the_agents_variables(
    repo: Path, agent_homes: dict[str, Path], home: Path
) -> None:
    # --user writes the user's own files: the Codex skill under $HOME/.agents.
    tg(repo, "agent", "install", "claude", "codex", "gemini", "--user")
    assert "hook agent claude" in (agent_homes["CLAUDE_CONFIG_DIR"] / "settings.json").read_text()
    assert "hook agent codex" in (agent_homes["CODEX_HOME"] / "hooks.json").read_text()
    gemini = agent_homes["GEMINI_CLI_HOME"] / ".gemini" / "settings.json"
    assert "hook agent gemini" in gemini.read_text()
    assert (agent_homes["CLAUDE_CONFIG_DIR"] / "skills" / "token-guard" / "SKILL.md").is_file()
    assert not (repo / ".claude").exists()


def test_status_says_where_and_the_last_import(repo: Path, agent_homes: dict[str, Path]) -> None:
    tg(repo, "agent", "install", "claude", "gemini")
    (repo / SETTINGS["codex"]).parent.mkdir()
    (repo / SETTINGS["codex"]).write_text("{")
    transcript = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    transcript.write_text(fill_line(1, 1_000))
    payload = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    silent(hook(repo, "claude", "UserPromptSubmit", payload))
    rows = {
        r["agent"]: r for r in json.loads(tg(repo, "agent", "status", "--json").stdout)["agents"]
    }
    assert rows["claude"]["last_import"] and rows["claude"]["transcripts"] == 1
    assert rows["gemini"]["last_import"] is None and rows["gemini"]["repo_hooks"] is True
    assert rows["codex"]["repo_hooks"] is None  # unreadable
    lines = tg(repo, "agent", "status").stdout.splitlines()
    claude, codex, gemini, antigravity, _cursor, copilot, _opencode = lines
    assert claude.startswith("claude ") and "repo .claude/settings.json" in claude
    assert "skill .claude/skills/token-guard/SKILL.md" in claude
    assert f"last import {rows['claude']['last_import']} (1 transcript(s))" in claude
    assert "repo .codex/hooks.json unreadable" in codex
    assert "repo .gemini/settings.json, user -" in gemini and "last import never" in gemini
    assert "hooks: repo -, user -" in antigravity and "events -" in antigravity
    assert "user -" in copilot and "its prompt hook cannot block" in copilot


def test_unknown_agent_name(repo: Path) -> None:
    proc = tg(repo, "agent", "install", "aider", check=False)
    assert proc.returncode == 1 and "unknown agent" in proc.stderr


# ---- skills -------------------------------------------------------------------------------------
def front_matter(text: str) -> dict[str, Any]:
    import yaml  # PyYAML comes with pre-commit, a test dependency

    match = re.match(r"---\n(.*?)\n---\n", text, re.S)
    assert match, "no front matter"
    fields = yaml.safe_load(match.group(1))
    assert isinstance(fields, dict)
    return fields


def named_commands(text: str) -> list[list[str]]:
    """Every `tg-git ...` the text names, as words (options and placeholders included)."""
    import shlex

    return [shlex.split(m) for m in re.findall(r"`tg-git ([^`]*)`", text)]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_skill_front_matter_and_commands(repo: Path, language: str) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text().replace('language = "en"', f'language = "{language}"'))
    tg(repo, "agent", "install")
    helps: dict[tuple[str, ...], str] = {}
    for folder in (".claude/skills", ".agents/skills"):
        path = repo / folder / "token-guard" / "SKILL.md"
        text = path.read_text()
        fields = front_matter(text)
        # Agent Skills spec (Codex, Gemini CLI, Antigravity) and Claude Code: name 1-64 of
        # [a-z0-9-], no hyphen first, last or doubled, equal to the folder, without the
        # reserved words; description non-empty, <= 1024 characters, no XML tags.
        name = fields["name"]
        assert name == path.parent.name
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", name) and len(name) <= 64
        assert "claude" not in name and "anthropic" not in name
        description = fields["description"]
        assert isinstance(description, str) and 0 < len(description) <= 1024
        assert not re.search(r"<[^>]+>", description)
        assert set(fields) <= {"name", "description", "license", "compatibility", "metadata",
                               "allowed-tools"}  # fmt: skip
        commands = named_commands(text)
        assert len(commands) >= 10
        for words in commands:
            sub = tuple(w for w in words if re.fullmatch(r"[a-z][a-z-]*", w))[:2]
            while sub not in helps:  # the longest prefix that is a command
                proc = tg(repo, *sub, "--help", check=False)
                if proc.returncode == 0:
                    helps[sub] = proc.stdout
                    break
                assert len(sub) > 1, (words, proc.stderr)
                sub = sub[:1]
            for option in (w for w in words if w.startswith("--")):
                assert option in helps[sub], (words, option)
    if language == "ko":
        assert "토큰 가드" in (repo / ".claude/skills/token-guard/SKILL.md").read_text()


def test_skill_follows_a_language_change(repo: Path) -> None:
    tg(repo, "agent", "install", "claude")
    path = repo / ".claude/skills/token-guard/SKILL.md"
    path.write_text(path.read_text() + "\n## Mine\nkeep this\n")
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    tg(repo, "agent", "install", "claude")
    text = path.read_text()
    assert "토큰 가드" in front_matter(text)["description"] and "# 토큰 가드 (tg-git)" in text
    assert "Token Guard" not in text and text.endswith("## Mine\nkeep this\n")


def test_unreadable_skill_file_is_left_untouched(repo: Path) -> None:
    path = repo / ".claude/skills/token-guard/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"---\nname: token-guard\n---\n\xff\xfe mine\n")
    for action in ("install", "uninstall"):
        proc = tg(repo, "agent", action, "claude", check=False)
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
        assert "left untouched" in proc.stderr
        assert path.read_bytes() == b"---\nname: token-guard\n---\n\xff\xfe mine\n"


def test_skill_with_a_deleted_end_marker_loses_nothing(repo: Path) -> None:
    from tg_git.agents.skills import END

    tg(repo, "agent", "install", "claude")
    path = repo / ".claude/skills/token-guard/SKILL.md"
    path.write_text(path.read_text().replace(END, "") + "\n## Mine\nkeep this\n")
    tg(repo, "agent", "install", "claude")
    tg(repo, "agent", "install", "claude")
    assert "## Mine\nkeep this" in path.read_text()


def test_skill_reinstall_keeps_user_edits(repo: Path) -> None:
    tg(repo, "agent", "install", "claude")
    path = repo / ".claude/skills/token-guard/SKILL.md"
    text = path.read_text()
    edited = (
        text.replace("## Levels", "## Levels (stale text)")
        + "\n## My own notes\nAlways run the linter.\n"
    )
    path.write_text(edited)
    tg(repo, "agent", "install", "claude")
    after = path.read_text()
    assert "## My own notes\nAlways run the linter." in after
    assert "(stale text)" not in after and "## Levels" in after
    tg(repo, "agent", "uninstall", "claude")
    assert path.read_text().endswith("## My own notes\nAlways run the linter.\n")
    assert "tg-git:begin" not in path.read_text()


def script_of(command: str) -> str | None:
    """A tool call's shell script (which answers alone when nothing is due), or a portable
    command's (which first looks tg-git up): the command itself, or behind ``exec /bin/sh
    -c``; None for any other command."""
    if command.startswith(("p=;IFS= read -r p;", "command -v tg-git ")):
        return command
    words = shlex.split(command)
    return words[3] if words[:3] == ["exec", "/bin/sh", "-c"] else None


def runs(command: str) -> str:
    """What a hook command starts: its first word, or for a shell script the program it
    hands the call to."""
    script = script_of(command)
    if script is None:
        words = shlex.split(command)
        return words[1] if words[0] == "exec" else words[0]
    found = {a or b for a, b in re.findall(r"\|exec (\S+) |;exec (tg-git) ", script)}
    assert len(found) == 1, command
    return shlex.split(found.pop())[0]


# ---- every hook names this Python by absolute path ---------------------------------------------
@pytest.mark.parametrize("agent", list(SETTINGS))
def test_hook_commands_name_the_interpreter_by_absolute_path(repo: Path, agent: str) -> None:
    """In a file that stays on this machine (Claude Code's local one), or without `tg-git` on
    PATH, the agent runs this Python by absolute path, isolated from the work tree: an agent
    started from a GUI or another shell finds it all the same."""
    tg(repo, "agent", "install", agent, env={"PATH": "/usr/bin:/bin"})
    data = json.loads((repo / SETTINGS[agent]).read_text())
    commands = our_commands(data)
    assert commands
    for command in commands:
        script = script_of(command)
        if script is not None:  # a tool call: the shell, then this Python
            fallback = re.search(r"\|exec (\S+) -E -c ('[^']*') (tg_git [^;]+);", script)
            assert fallback, command
            args = (
                fallback[3]
                if fallback[3] != 'tg_git "$@"'
                else shlex.join(shlex.split(command)[4:])
            )
            words = shlex.split(f"{fallback[1]} -E -c {fallback[2]} {args}")
        else:
            check = re.fullmatch(r"\[ -x (\S+) \]\|\|exit [01];exec (.*)", command, re.S)
            if check:  # Gemini's and Copilot's: the interpreter looked at, then exec'd
                assert shlex.split(check[2])[0] == shlex.split(check[1])[0], command
                command = check[2]
            else:  # exec'd: no shell waits for it
                assert command.startswith("exec "), command
                command = command.removeprefix("exec ")
            words = shlex.split(command)
        assert Path(words[0]).is_absolute() and os.access(words[0], os.X_OK), command
        assert words[1:3] == ["-E", "-c"] and "from tg_git.main import main" in words[3]
        assert words[4:7] == ["tg_git", "hook", "agent"] and words[7] == agent
    # It runs with a PATH that has no tg-git on it: nothing happens outside a session start.
    proc = subprocess.run(["/bin/sh", "-c", commands[-1]], cwd=repo, input="{}", text=True,
                          capture_output=True, env={**os.environ, "PATH": "/usr/bin:/bin"},
                          timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr


# ---- Claude Code's status line ------------------------------------------------------------------
STATUS_JSON = {"session_id": "S1", "cwd": "", "model": {"id": "claude-opus-5-5"},
               "context_window": {"total_input_tokens": 0, "total_output_tokens": 0,
                                  "context_window_size": 1000000, "current_usage": None}}  # fmt: skip


def status_line(repo: Path, command: str) -> subprocess.CompletedProcess[str]:
    """Run a statusLine command as Claude Code does: through a shell, JSON on stdin."""
    payload = json.dumps({**STATUS_JSON, "cwd": str(repo)})
    return subprocess.run(["/bin/sh", "-c", command], cwd=repo, input=payload, text=True,
                          errors="replace", capture_output=True, timeout=60)  # fmt: skip


def test_status_line_is_set_and_removed(repo: Path) -> None:
    path = repo / ".claude" / "settings.local.json"
    tg(repo, "agent", "install", "claude")
    line = json.loads(path.read_text())["statusLine"]
    words = shlex.split(line["command"])
    assert line["type"] == "command" and words[0] == "exec" and Path(words[1]).is_absolute()
    assert words[2:4] == ["-E", "-c"] and words[5:] == ["tg_git", "statusline"]
    assert json.loads(tg(repo, "agent", "list", "--json").stdout)["agents"][0]["status_line"]
    tg(repo, "agent", "uninstall", "claude")
    assert not path.exists()


def test_a_users_status_line_is_wrapped_and_given_back(repo: Path) -> None:
    """Their command runs first with the same stdin, tg-git's gauge after; uninstall gives
    their line back byte for byte, or (after other edits) their own command."""
    path = repo / ".claude" / "settings.local.json"
    path.parent.mkdir()
    theirs = "cat > \"$PWD/got.json\"; echo 'mine ✓'"
    original = json.dumps({"statusLine": {"type": "command", "command": theirs, "padding": 0}},
                          indent=2, ensure_ascii=False) + "\n"  # fmt: skip
    path.write_text(original)
    proc = tg(repo, "agent", "install", "claude")
    assert "your status line is kept" in proc.stdout
    line = json.loads(path.read_text())["statusLine"]
    assert line["padding"] == 0 and theirs not in (None, line["command"])
    shown = status_line(repo, line["command"])
    assert shown.returncode == 0
    first, *rest = shown.stdout.splitlines()
    assert first == "mine ✓" and rest and "tg-git" in rest[0]  # theirs first, then the gauge
    assert json.loads((repo / "got.json").read_text())["session_id"] == "S1"  # same stdin
    tg(repo, "agent", "install", "claude")  # twice: still one wrapper around their command
    assert json.loads(path.read_text())["statusLine"] == line
    tg(repo, "agent", "uninstall", "claude")
    assert path.read_text() == original
    tg(repo, "agent", "install", "claude")
    data = json.loads(path.read_text())
    data["model"] = "opus"  # the user edits the file meanwhile
    path.write_text(json.dumps(data, indent=2))
    tg(repo, "agent", "uninstall", "claude")
    after = json.loads(path.read_text())
    assert after == {"statusLine": {"type": "command", "command": theirs, "padding": 0},
                     "model": "opus"}  # fmt: skip


def test_a_status_line_from_the_users_home_stays_on_screen(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    home_settings = agent_homes["CLAUDE_CONFIG_DIR"] / "settings.json"
    home_settings.write_text(
        json.dumps({"statusLine": {"type": "command", "command": "echo home"}})
    )
    proc = tg(repo, "agent", "install", "claude")
    assert "from your home settings is kept here" in proc.stdout
    line = json.loads((repo / ".claude" / "settings.local.json").read_text())["statusLine"]
    assert status_line(repo, line["command"]).stdout.splitlines()[0] == "home"
    tg(repo, "agent", "uninstall", "claude")
    assert not (repo / ".claude" / "settings.local.json").exists()
    assert json.loads(home_settings.read_text())["statusLine"]["command"] == "echo home"


def test_a_status_line_that_is_not_a_command_is_left_alone(repo: Path) -> None:
    path = plant(repo / ".claude" / "settings.local.json", '{"statusLine": "echo hi"}\n')
    proc = tg(repo, "agent", "install", "claude")
    assert "is not a command" in proc.stdout
    assert json.loads(path.read_text())["statusLine"] == "echo hi"
    tg(repo, "agent", "uninstall", "claude")
    assert path.read_text() == '{"statusLine": "echo hi"}\n'


def test_the_wrapper_survives_a_failing_or_hanging_status_line(repo: Path) -> None:
    from tg_git.agents.formats import status_line_command

    for theirs in ("exit 3", "printf '\\377\\376 not utf-8'; exit 1", "/nonexistent/cmd"):
        proc = status_line(repo, status_line_command(theirs))
        assert proc.returncode == 0 and "tg-git" in proc.stdout.splitlines()[-1], proc


# ---- --align-compaction -------------------------------------------------------------------------
def test_align_compaction_sets_each_agents_threshold_and_uninstall_puts_it_back(
    repo: Path,
) -> None:
    """200,000 budget, force-save 90 %, halt 95 %: compaction at 185,000 (the midpoint).
    Claude compacts ~33K below autoCompactWindow; Gemini's threshold is a share of the window."""
    claude = plant(repo / ".claude" / "settings.local.json", '{"autoCompactWindow": 400000}\n')
    codex_toml = repo / ".codex" / "config.toml"
    codex_toml.parent.mkdir()
    toml_text = (
        '# my Codex settings\nmodel = "gpt-5.5"  # keep\n\n[tui]\nstatus_line = ["context-used"]\n'
    )
    codex_toml.write_text(toml_text)
    plain = tg(repo, "agent", "install", "claude", "codex", "gemini")  # off unless asked
    assert json.loads(claude.read_text())["autoCompactWindow"] == 400000
    assert codex_toml.read_text() == toml_text and "model" not in json.loads(
        (repo / ".gemini" / "settings.json").read_text())  # fmt: skip
    assert "compacts after" not in plain.stdout
    proc = tg(repo, "agent", "install", "claude", "codex", "gemini", "cursor",
              "--align-compaction")  # fmt: skip
    assert json.loads(claude.read_text())["autoCompactWindow"] == 185000 + 33000
    gemini = json.loads((repo / ".gemini" / "settings.json").read_text())
    assert gemini["model"] == {"compressionThreshold": 0.925}
    aligned = tomlkit.parse(codex_toml.read_text()).unwrap()  # as any TOML reader sees it
    assert aligned["model_auto_compact_token_limit"] == 185000 and aligned["model"] == "gpt-5.5"
    assert codex_toml.read_text().startswith("# my Codex settings\n")  # comments kept
    assert "cursor: no compaction threshold setting" in proc.stdout
    rows = {r["agent"]: r for r in json.loads(tg(repo, "agent", "list", "--json").stdout)["agents"]}
    assert rows["claude"]["aligned"] == 218000 and rows["gemini"]["aligned"] == 0.925
    tg(repo, "agent", "uninstall", "claude", "codex", "gemini", "cursor")
    assert claude.read_text() == '{"autoCompactWindow": 400000}\n'
    assert codex_toml.read_text() == toml_text
    assert not (repo / ".gemini").exists()


def test_align_compaction_after_user_edits_restores_only_the_threshold(repo: Path) -> None:
    tg(repo, "agent", "install", "gemini", "codex", "--align-compaction")
    path = repo / ".gemini" / "settings.json"
    data = json.loads(path.read_text())
    data["model"]["name"] = "gemini-3-pro"
    path.write_text(json.dumps(data, indent=2))
    toml = repo / ".codex" / "config.toml"
    toml.write_text(toml.read_text() + 'model = "o5"\n')
    tg(repo, "agent", "uninstall", "gemini", "codex")
    assert json.loads(path.read_text()) == {"model": {"name": "gemini-3-pro"}}
    assert toml.read_text() == 'model = "o5"\n'


# ---- `all`, --user for Copilot, list, doctor ----------------------------------------------------
def test_all_installs_for_the_agents_found_here_or_at_home(
    repo: Path, agent_homes: dict[str, Path], home: Path
) -> None:
    (home / ".cursor").mkdir()
    (repo / ".github" / "hooks").mkdir(parents=True)
    shutil.rmtree(agent_homes["CODEX_HOME"])
    proc = tg(repo, "agent", "install", "all")
    done = {line.split(":")[1].strip() for line in proc.stdout.splitlines()}
    assert done == {"claude", "cursor", "copilot"}  # Claude's config dir exists, Codex's not
    assert not (repo / ".codex").exists() and not (repo / ".gemini").exists()
    rows = json.loads(tg(repo, "agent", "list", "--json").stdout)["agents"]
    assert {r["agent"] for r in rows if r["detected"]} == {"claude", "cursor", "copilot"}


def test_all_with_no_agent_found_says_how_to_name_one(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    for folder in agent_homes.values():
        shutil.rmtree(folder)
    proc = tg(repo, "agent", "install", check=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1
    assert "tg-git agent install claude" in proc.stderr and not (repo / ".claude").exists()


def test_copilot_has_no_user_hooks(repo: Path) -> None:
    proc = tg(repo, "agent", "install", "copilot", "--user", check=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1
    assert "without --user" in proc.stderr


def test_list_shows_events_and_channel(repo: Path) -> None:
    tg(repo, "agent", "install", "cursor")
    rows = {r["agent"]: r for r in json.loads(tg(repo, "agent", "list", "--json").stdout)["agents"]}
    assert rows["cursor"]["events"] == sorted(EVENTS["cursor"])
    assert rows["cursor"]["repo_hooks"] is True and rows["claude"]["events"] == []
    cursor = next(line for line in tg(repo, "agent", "list").stdout.splitlines()
                  if line.startswith("cursor"))  # fmt: skip
    assert "beforeSubmitPrompt" in cursor and "blocks via" in cursor and "measured by" in cursor


def test_doctor_reports_each_wired_agent_and_a_python_that_is_gone(repo: Path) -> None:
    tg(repo, "agent", "install", "claude", "copilot")
    out = tg(repo, "doctor", check=False).stdout
    assert "ok  agent claude: claude: .claude/settings.local.json (" in out and "statusLine" in out
    assert "ok  agent copilot: copilot: .github/hooks/tg-git.json (" in out
    path = repo / ".github" / "hooks" / "tg-git.json"
    checked = re.search(r"\[ -x (\S+) \]", our_commands(json.loads(path.read_text()))[0])
    assert checked, path.read_text()
    python = checked[1]
    path.write_text(path.read_text().replace(python, "/gone/venv/bin/python"))
    proc = tg(repo, "doctor", check=False)
    assert proc.returncode == 1
    assert "FIX agent copilot: copilot: the hooks in .github/hooks/tg-git.json run " \
           "/gone/venv/bin/python, which no longer exists" in proc.stdout  # fmt: skip
    assert "fix: run `tg-git agent install copilot` with the tg-git you use now." in proc.stdout
    path.write_bytes(b"\xff\xfe{")
    assert "FIX agent copilot: copilot: .github/hooks/tg-git.json cannot be read" in tg(
        repo, "doctor", check=False).stdout  # fmt: skip


@pytest.mark.parametrize("agent", list(SETTINGS))
@pytest.mark.parametrize("kind", ["fifo", "not-utf-8", "dangling-link"])
def test_hostile_settings_files_are_left_untouched(repo: Path, agent: str, kind: str) -> None:
    path = repo / SETTINGS[agent]
    path.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "not-utf-8":
        path.write_bytes(b'{"a": "\xff"}')
    else:
        path.symlink_to(repo / "nowhere.json")
    for action in ("install", "uninstall"):
        proc = subprocess.run([TG, "agent", action, agent], cwd=repo, capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
        assert "left untouched" in proc.stderr
    assert os.path.lexists(path) and not (repo / "nowhere.json").exists()
    if kind == "not-utf-8":
        assert path.read_bytes() == b'{"a": "\xff"}'


# ---- the real Claude Code CLI, interactive under tmux (large download; offline once installed) --
@pytest.mark.network
def test_real_claude_code_shows_the_gauge_and_reports_its_window(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path, home: Path
) -> None:
    """`agent install claude`, then the real Claude Code, interactive under tmux, offline: its
    status line shows the user's own line and tg-git's gauge under it, and `tg-git status
    --json` reports the window Claude Code handed the status line (1,000,000 for its default
    model) with no model call: no prompt is ever sent."""
    import time

    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed")
    binary = claude_binary(tmp_path)
    key = "sk-ant-not-a-key-0123456789"
    config = agent_homes["CLAUDE_CONFIG_DIR"]
    for folder in (home, config):  # with CLAUDE_CONFIG_DIR set, its .claude.json is read
        (folder / ".claude.json").write_text(json.dumps({
            "hasCompletedOnboarding": True,
            "projects": {str(repo): {"hasTrustDialogAccepted": True}},
            "customApiKeyResponses": {"approved": [key[-20:]], "rejected": []}}))  # fmt: skip
    (config / "settings.json").write_text(
        json.dumps({"statusLine": {"type": "command", "command": "echo my-own-line"}})
    )
    tg(repo, "agent", "install", "claude")
    socket = f"tg-git-test-{os.getpid()}"
    env = {"ANTHROPIC_API_KEY": key, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1"}  # fmt: skip
    log = tmp_path / "claude.log"
    command = " ".join(["env", *(shlex.quote(f"{k}={v}") for k, v in env.items()),
                        shlex.quote(binary), "2>", shlex.quote(str(log)), "; sleep 30"])  # fmt: skip
    subprocess.run([tmux, "-L", socket, "new-session", "-d", "-s", "cc", "-x", "160", "-y", "40",
                    "-c", str(repo), command], check=True)  # fmt: skip
    try:
        screen = ""
        for _ in range(60):
            time.sleep(1)
            screen = subprocess.run([tmux, "-L", socket, "capture-pane", "-p", "-t", "cc"],
                                    capture_output=True, text=True).stdout  # fmt: skip
            if "tg-git 🔋" in screen:
                break
        lines = screen.splitlines()
        gauge = next((i for i, line in enumerate(lines) if "tg-git 🔋" in line), None)
        assert gauge is not None, (screen, log.read_text() if log.exists() else "")
        assert "my-own-line" in lines[gauge - 1]  # the user's line first, the gauge after
        assert "ctx 0/1M" in lines[gauge]
    finally:
        subprocess.run([tmux, "-L", socket, "kill-server"], capture_output=True)
    context = json.loads(tg(repo, "status", "--json").stdout)["context"]
    assert context["window"] == 1_000_000
    transcripts = list((config / "projects").glob("*/*.jsonl"))
    for transcript in transcripts:  # no model was asked
        assert '"type":"assistant"' not in transcript.read_text()


# ---- links a clone tracks; a team's files ------------------------------------------------------
def _snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*") if p.is_file()}


def test_links_in_the_repository_are_never_written_through(repo: Path, tmp_path: Path) -> None:
    """A clone's links (a settings file, the agent's folder, a skills folder) lead outside
    the repository: each is refused in one sentence with the fix, and the rest goes on."""
    outside = tmp_path / "outside"
    plant(outside / "codex-hooks.json", '{"model": "x"}\n')
    (outside / "skills").mkdir()
    (outside / "claude").mkdir()
    (repo / ".codex").mkdir()
    (repo / ".codex" / "hooks.json").symlink_to(outside / "codex-hooks.json")
    (repo / ".agents").mkdir()
    (repo / ".agents" / "skills").symlink_to(outside / "skills")
    (repo / ".claude").symlink_to(outside / "claude")
    before = _snapshot(outside)
    proc = tg(repo, "agent", "install", "codex", "gemini", "claude", check=False)
    assert proc.returncode == 1
    assert _snapshot(outside) == before
    assert sorted(p.name for p in (outside / "claude").iterdir()) == []
    assert proc.stderr.count("symbolic link") == proc.stderr.count("\n") >= 3, proc.stderr
    assert "--user" in proc.stderr
    assert "hook agent gemini" in (repo / ".gemini" / "settings.json").read_text()
    proc = tg(repo, "agent", "uninstall", "codex", "gemini", "claude", check=False)
    assert _snapshot(outside) == before


def test_a_linked_settings_file_in_the_users_home_is_written_through(
    repo: Path, tmp_path: Path, agent_homes: dict[str, Path], home: Path
) -> None:
    dotfiles = plant(tmp_path / "dotfiles" / "claude-settings.json", '{"model": "opus"}\n')
    link = agent_homes["CLAUDE_CONFIG_DIR"] / "settings.json"
    link.symlink_to(dotfiles)
    tg(repo, "agent", "install", "claude", "--user")
    assert link.is_symlink() and "hook agent claude" in dotfiles.read_text()
    tg(repo, "agent", "uninstall", "claude", "--user")
    assert link.is_symlink() and dotfiles.read_text() == '{"model": "opus"}\n'


def _tracked_text(repo: Path) -> str:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=repo, capture_output=True, text=True,
                           check=True).stdout.split("\0")  # fmt: skip
    return "".join((repo / f).read_text(errors="replace") for f in files if f)


def test_claude_install_leaves_no_absolute_path_in_any_tracked_file(repo: Path) -> None:
    """By default Claude Code's hooks go to its local settings file, which git ignores in
    this clone: `git add -A` after the install tracks no path of this machine."""
    tg(repo, "agent", "install", "claude")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    tracked = _tracked_text(repo)
    for machine in (str(repo), str(Path(TG).parent), os.environ["HOME"], "/usr/", "/tmp/"):
        assert machine not in tracked, machine
    local = json.loads((repo / ".claude" / "settings.local.json").read_text())
    commands = our_commands(local)
    assert commands and all(Path(runs(c)).is_absolute() for c in commands)
    assert not (repo / ".claude" / "settings.json").exists()
    proc = tg(repo, "agent", "uninstall", "claude")
    assert not (repo / ".claude" / "settings.local.json").exists(), proc.stdout


def test_shared_writes_portable_entries_and_says_the_file_is_committed(repo: Path) -> None:
    path_with_tg_git = f"{Path(TG).parent}:/usr/bin:/bin"
    proc = tg(repo, "agent", "install", "claude", "--shared", env={"PATH": path_with_tg_git})
    assert "usually committed" in proc.stdout
    assert "tg-git agent uninstall claude --shared" in proc.stdout
    data = json.loads((repo / ".claude" / "settings.json").read_text())
    commands = our_commands(data)
    assert {runs(c) for c in commands} == {"tg-git"}
    line = data["statusLine"]["command"]
    assert runs(line) == "tg-git" and line.endswith(" statusline"), line
    assert not (repo / ".claude" / "settings.local.json").exists()
    # It runs as the agent runs it: `tg-git` from PATH, in the work tree.
    started = subprocess.run(["/bin/sh", "-c", commands[0]], cwd=repo, input="{}", text=True,
                             capture_output=True, env={**os.environ, "PATH": path_with_tg_git},
                             timeout=60)  # fmt: skip
    assert started.returncode == 0, started.stderr
    tg(repo, "agent", "uninstall", "claude", "--shared")
    assert not (repo / ".claude" / "settings.json").exists()


def test_every_agent_install_line_says_how_to_undo_it(repo: Path) -> None:
    proc = tg(repo, "agent", "install", *SETTINGS)
    for agent in SETTINGS:
        assert f"(undo: `tg-git agent uninstall {agent}`)" in proc.stdout, agent


def test_an_agent_without_a_local_file_gets_the_portable_command_or_a_warning(
    repo: Path,
) -> None:
    """Codex reads only its repository file, usually committed: `tg-git` from PATH when it is
    there; without it, this Python's path (a hook that runs) and a warning not to commit."""
    proc = tg(repo, "agent", "install", "codex", env={"PATH": f"{Path(TG).parent}:/usr/bin:/bin"})
    assert "usually committed" in proc.stdout
    commands = our_commands(json.loads((repo / SETTINGS["codex"]).read_text()))
    assert {runs(c) for c in commands} == {"tg-git"}
    proc = tg(repo, "agent", "install", "codex", env={"PATH": "/usr/bin:/bin"})
    assert "fails on other machines" in proc.stdout
    commands = our_commands(json.loads((repo / SETTINGS["codex"]).read_text()))
    assert all(Path(runs(c)).is_absolute() for c in commands)


def test_local_and_shared_never_both_run_the_hooks(repo: Path) -> None:
    """Claude Code runs the hooks of both files: an install into one leaves tg-git's hooks in
    one of them only."""
    env = {"PATH": f"{Path(TG).parent}:/usr/bin:/bin"}
    local, shared = repo / ".claude" / "settings.local.json", repo / ".claude" / "settings.json"
    tg(repo, "agent", "install", "claude")
    assert our_commands(json.loads(local.read_text()))
    tg(repo, "agent", "install", "claude", "--shared", env=env)
    assert our_commands(json.loads(shared.read_text()))
    assert not local.exists() or not our_commands(json.loads(local.read_text()))
    proc = tg(repo, "agent", "install", "claude", env=env)
    assert "already runs tg-git's hooks" in proc.stdout
    assert not local.exists() or not our_commands(json.loads(local.read_text()))


def test_doctor_says_when_the_portable_command_is_not_on_path(repo: Path) -> None:
    tg(repo, "agent", "install", "codex", env={"PATH": f"{Path(TG).parent}:/usr/bin:/bin"})
    assert "ok  agent codex" in tg(repo, "doctor", check=False,
                                   env={"PATH": f"{Path(TG).parent}:/usr/bin:/bin"}).stdout  # fmt: skip
    proc = subprocess.run([TG, "doctor"], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert proc.returncode == 1
    assert "FIX agent codex: codex: the hooks in .codex/hooks.json run `tg-git` from PATH" in (
        proc.stdout
    )
