"""Landing mode: which tool calls pass at a halt, judged from each agent's own tool names and
argument shapes (Claude Code and Cursor ``Bash``/``Shell`` with ``command``, Codex word
lists, Gemini ``run_shell_command``, Antigravity's double-encoded ``CommandLine``, Copilot
CLI ``bash``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tg_git.agents import landing

LANDS = [
    "git status",
    "git status --short",
    "git diff",
    "git diff --cached -- src/a.py",
    "git add -A",
    "git add src/a.py 'odd name.txt'",
    "git commit -m 'parser: tokenizer done'",
    'git commit -m "fix; rm -rf / in the docs"',  # quoted: only a message
    "git commit -am wip",
    "git commit -m -n",  # -n is the message here
    "git add -A && git commit -m 'land'",
    "cd src && git status",
    "git status; git diff",
    "tg-git status --json",
    "tg-git checkpoint -m 'before the halt'",
    "tg-git task done parser",
    "tg-git note 'the lexer needs a rewrite'",
]
REFUSED = [
    "git commit -m x && rm -rf /",
    "git commit -m x || rm -rf /",
    "git commit -m x; rm -rf /",
    "git status | sh",
    "git diff > patch.txt",
    "git diff --output=patch.txt",
    "git status & rm -rf /",
    'git commit -m "$(rm -rf /)"',
    "git commit -m `rm -rf /`",
    "git commit -m $HOME",
    "git status\nrm -rf /",
    "git commit --no-verify -m x",
    "git commit -nm x",
    "git commit -anm x",
    "git -c alias.status='!rm -rf /' status",
    "git -C /tmp status",
    "git push",
    "git reset --hard",
    "git checkout -- .",
    "git stash",
    "git diff --ext-diff",
    "rm -rf /",
    "rm build.log",
    "python -c 'print(1)'",
    "FOO=1 git status",
    "(git status)",
    "git commit -m 'unterminated",
    "tg-git session start",
    "tg-git resume",
    "tg-git",
    "git",
    "",
    "   ",
    "cd a b && git status",
    "/usr/bin/git status",
    "git status\0",
]


@pytest.mark.parametrize("command", LANDS)
def test_commands_that_land_work_are_allowed(command: str) -> None:
    assert landing.command_allowed(command)
    for tool, key in (("Bash", "command"), ("Shell", "command"), ("run_shell_command",
                      "command"), ("run_command", "CommandLine"), ("bash", "command")):  # fmt: skip
        assert landing.allowed(tool, {key: command}), (tool, command)


@pytest.mark.parametrize("command", REFUSED)
def test_anything_else_is_denied(command: str) -> None:
    assert not landing.command_allowed(command)
    assert not landing.allowed("Bash", {"command": command})
    assert not landing.allowed("run_command", {"CommandLine": json.dumps(command)})


@pytest.mark.parametrize(
    "tool",
    ["Read", "Glob", "Grep", "LS", "read_file", "read_many_files", "list_directory",
     "search_file_content", "view_file", "list_dir", "grep_search", "find_by_name", "view"],
)  # fmt: skip
def test_reading_is_allowed(tool: str) -> None:
    assert landing.allowed(tool, {"file_path": "/etc/passwd"})


@pytest.mark.parametrize(
    "tool",
    ["Edit", "Write", "MultiEdit", "NotebookEdit", "StrReplace", "Delete", "write_file",
     "replace", "write_to_file", "replace_file_content", "multi_replace_file_content", "edit",
     "create", "WebFetch", "WebSearch", "Task", "TodoWrite", "mcp__github__create_issue",
     "powershell", "apply_patch", "", "bash ", "B\u0430sh"],
)  # fmt: skip
def test_edits_writes_and_unknown_tools_are_denied(tool: str) -> None:
    assert not landing.allowed(tool, {"command": "git status", "file_path": "a.py"})


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        ({"command": ["bash", "-lc", "git status"]}, True),  # Codex: words
        ({"command": ["git", "commit", "-m", "a b"]}, True),
        ({"command": ["bash", "-lc", "git status && rm -rf /"]}, False),
        ({"command": ["rm", "-rf", "/"]}, False),
        ({"command": ["git", "commit", "-m", "$(rm -rf /)"]}, False),
        ({"CommandLine": '"git status"'}, True),  # Antigravity: double-encoded
        ('{"CommandLine": "git diff"}', True),  # the whole argument object as JSON text
        ({"command": 42}, False),
        ({"command": None}, False),
        ({}, False),
        (None, False),
        ("git status", True),
        ({"command": ["git", 1]}, False),
        ({"command": []}, False),
    ],
)
def test_argument_shapes(args: Any, allowed: bool) -> None:
    assert landing.allowed("Bash", args) is allowed


def test_a_tool_name_that_is_not_text_is_denied() -> None:
    assert not landing.allowed(None, {"command": "git status"})  # type: ignore[arg-type]
