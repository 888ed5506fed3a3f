"""Agent installation: each agent's settings file in its own format (Claude Code, Codex, Gemini
CLI, Antigravity, Cursor, Copilot CLI), other tools' entries kept byte for byte, uninstall
restoring the file, hostile files left untouched with one line, Claude Code's status line
(wrapped when the user has one), --align-compaction, `agent list`, doctor, and the skill."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TG_GIT as TG
from tests.conftest import tg
from tests.test_agents import fill_line, hook, silent
from tests.test_usage import agent_homes, project_folder
from tg_git.agents.settings import EVENTS

__all__ = ["agent_homes"]  # the autouse fixture keeps every agent home in tmp


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
OTHER_TOOL = {
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
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    original = json.dumps(OTHER_TOOL, indent=4) + "\n"
    path.write_text(original)
    tg(repo, "agent", "install", "claude")
    installed = path.read_text()
    data = json.loads(installed)
    assert data["permissions"] == OTHER_TOOL["permissions"]
    line = data["statusLine"]["command"]  # theirs is wrapped: run first, then tg-git's gauge
    assert "-m tg_git.agents.wrap 'ccusage statusline'" in line
    assert data["hooks"]["PreToolUse"][:1] == OTHER_TOOL["hooks"]["PreToolUse"]  # theirs first
    stop = [h["command"] for g in data["hooks"]["Stop"] for h in g["hooks"]]
    assert stop[0] == "entire hooks claude-code stop" and stop[1].endswith("hook agent claude Stop")
    assert installed.startswith('{\n    "permissions"')  # the file's own indent
    tg(repo, "agent", "install", "claude")
    assert path.read_text() == installed  # twice changes nothing
    tg(repo, "agent", "uninstall", "claude")
    assert path.read_text() == original


def test_uninstall_after_user_edits_removes_only_ours(repo: Path) -> None:
    path = repo / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(OTHER_TOOL, indent=2) + "\n")
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


SETTINGS = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json",
            "gemini": ".gemini/settings.json", "antigravity": ".agents/hooks.json",
            "cursor": ".cursor/hooks.json", "copilot": ".github/hooks/tg-git.json"}  # fmt: skip
# Each agent's settings as another tool (Entire CLI, a user's own guard) left them, in the
# agent's own format, with a tab indent, non-ASCII text and no final newline.
OTHER_TOOLS = {
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
    assert {c.split()[-1] for c in ours} == set(EVENTS[agent])
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
    path = repo / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{\n  // my theme\n  "ui": {"theme": "GitHub"}\n}\n')
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

    path = repo / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)  # reading it would hang
    proc = subprocess.run([TG, "agent", "install", "claude"], cwd=repo, capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 1 and "not a regular file" in proc.stderr


def test_symlinked_settings_stay_a_link(repo: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{"model": "opus"}\n')
    link = repo / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    tg(repo, "agent", "install", "claude")
    assert link.is_symlink() and "hook agent claude" in dotfiles.read_text()
    tg(repo, "agent", "uninstall", "claude")
    assert link.is_symlink() and dotfiles.read_text() == '{"model": "opus"}\n'


def test_codex_hooks_also_in_config_toml_are_pointed_out(repo: Path) -> None:
    config = repo / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n')
    proc = tg(repo, "agent", "install", "codex")
    assert "config.toml beside it has [hooks] too" in proc.stdout
    assert config.read_text().endswith('command = "x"\n')  # never edited


def test_gemini_hooks_switched_off_by_the_user_stay_off(repo: Path) -> None:
    path = repo / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"hooksConfig": {"enabled": false}}\n')
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
    assert {r["agent"]: r["repo_hooks"] for r in status} == dict.fromkeys(SETTINGS, True)
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
    repo: Path, tmp_path: Path, agent: str, where: str, skill: str
) -> None:
    """--user: the file under $HOME (a temp dir here) the agent reads when its own
    variable (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME) is not set."""
    import os

    home = Path(os.environ["HOME"])
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
    repo: Path, agent_homes: dict[str, Path]
) -> None:
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
    claude, codex, gemini, antigravity, cursor, copilot = lines
    assert claude.startswith("claude ") and "repo .claude/settings.json" in claude
    assert "skill .claude/skills/token-guard/SKILL.md" in claude
    assert f"last import {rows['claude']['last_import']} (1 transcript(s))" in claude
    assert "repo .codex/hooks.json unreadable" in codex
    assert "repo .gemini/settings.json, user -" in gemini and "last import never" in gemini
    assert "hooks: repo -, user -" in antigravity and "events -" in antigravity
    assert "user -" in copilot and "blocks via preToolUse deny" in copilot


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


