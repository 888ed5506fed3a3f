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
    "cd src && git status",  # cd: the next call would run in another folder (a nested repo)
    "/usr/bin/git status",
    "git status\0",
]


@pytest.mark.parametrize("command", LANDS)
def test_commands_that_land_work_are_allowed(command: str) -> None:
    assert landing.command_allowed(command)
    for tool, key in (
        ("Bash", "command"),
        ("Shell", "command"),
        ("run_shell_command", "command"),
        ("run_command", "CommandLine"),
        ("bash", "command"),
    ):
        assert landing.allowed(tool, {key: command}), (tool, command)


@pytest.mark.parametrize("command", REFUSED)
def test_anything_else_is_denied(command: str) -> None:
    assert not landing.command_allowed(command)
    assert not landing.allowed("Bash", {"command": command})
    assert not landing.allowed("run_command", {"CommandLine": json.dumps(command)})


@pytest.mark.parametrize(
    "tool",
    [
        "Read",
        "Glob",
        "Grep",
        "LS",
        "read_file",
        "read_many_files",
        "list_directory",
        "search_file_content",
        "view_file",
        "list_dir",
        "grep_search",
        "find_by_name",
        "view",
    ],
)
def test_reading_is_allowed(tool: str) -> None:
    assert landing.allowed(tool, {"file_path": "/etc/passwd"})


@pytest.mark.parametrize(
    "tool",
    [
        "Edit",
        "Write",
        "MultiEdit",
        "NotebookEdit",
        "StrReplace",
        "Delete",
        "write_file",
        "replace",
        "write_to_file",
        "replace_file_content",
        "multi_replace_file_content",
        "edit",
        "create",
        "WebFetch",
        "WebSearch",
        "Task",
        "TodoWrite",
        "mcp__github__create_issue",
        "powershell",
        "apply_patch",
        "",
        "bash ",
        "B\u0430sh",
    ],
)
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


# ---- each way landing mode once fell to plain bash ------------------------------------------
ESCAPES = {
    "comment inside a word": "git status x#;touch F",
    "comment inside a word, no space": "git status#;touch F",
    "brace expansion to --output": "git diff {--output=/tmp/tg-escape,HEAD}",
    "brace expansion to --no-verify": "git commit {--no-verify,-mx}",
    "abbreviated --no-verify": "git commit --no-verif -m x",
    "abbreviated --no-verify, short": "git commit --no-v -m x",
    "abbreviated --output": "git diff --outp=/tmp/tg-escape",
    "abbreviated --ext-diff": "git diff --ext-d",
    "glob to a file named --output=F": "git diff *",
    "glob after --": "git add -- *",
    "question-mark glob": "git diff ?????????",
    "bracket glob": "git diff [-]*",
    "tilde": "git diff ~/x",
    "tilde after =": "git commit -m a=~",
    "backslash": "git status \\; touch F",
    "escaped newline": "git status \\\ntouch F",
    "process substitution": "git diff <(touch F)",
    "here-string": "git commit -F - <<< x",
    "here-document": "git commit -F - <<EOF",
    "cd": "cd nested && git commit -m x",
    "pushd": "pushd nested && git commit -m x",
    "popd": "popd; git commit -m x",
    "variable prefix": "GIT_EXTERNAL_DIFF=touch git diff",
    "quote glued to a pipe": "git status'|'touch F",
    "history expansion": "git commit -m !!",
    "extglob": "git add @(a|b)",
    "ANSI-C quote": "git commit -m $'x'",
    "double-quoted backslash": 'git commit -m "a\\"',
    "case fallthrough": "git status;; touch F",
    "pipe and background": "git status |& touch F",
}


@pytest.mark.parametrize("command", list(ESCAPES.values()), ids=list(ESCAPES))
def test_no_word_a_shell_would_expand_or_read_otherwise_passes(command: str) -> None:
    for tool, key in (("Bash", "command"), ("exec_command", "cmd"), ("run_command", "CommandLine")):
        assert not landing.allowed(tool, {key: command}), (tool, command)
    assert not landing.allowed("shell", {"command": ["bash", "-lc", command]})
    assert landing.parse(command) is None


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("exec_command", {"command": "git status", "cmd": "touch F"}),  # Codex runs cmd
        ("run_command", {"command": "git status", "CommandLine": "touch F"}),  # Antigravity
        ("run_command", {"CommandLine": "git status", "commandLine": "touch F"}),
        ("Bash", {"command": "git status", "Command": "touch F"}),
        ("shell", {"command": ["git", "status"], "argv": ["touch", "F"]}),
        ("exec_command", {"cmd": "git status", "shell": "/usr/bin/python3"}),
        ("exec_command", {"cmd": "git diff", "env": {"GIT_EXTERNAL_DIFF": "touch F"}}),
        ("run_command", json.dumps({"CommandLine": "git status", "cmd": "touch F"})),
    ],
)
def test_a_call_that_carries_a_second_command_or_another_shell_is_denied(
    tool: str, args: Any
) -> None:
    assert not landing.allowed(tool, args)


def test_a_call_that_names_a_directory_is_judged_by_it() -> None:
    call = {"CommandLine": "git commit -m x", "Cwd": "/repo/nested"}
    assert not landing.allowed("run_command", call)  # nobody to judge it: denied
    assert not landing.allowed("run_command", call, inside=lambda d: d != "/repo/nested")
    assert landing.allowed("run_command", call, inside=lambda d: d == "/repo/nested")
    seen: list[str] = []

    def judge(directory: str) -> bool:
        seen.append(directory)
        return True

    assert landing.allowed("Bash", {"command": "git status"}, inside=judge)
    assert seen == ["."]  # the agent's own directory, when the call names none
    two = {"cmd": "git status", "workdir": "/repo", "cwd": "/elsewhere"}
    assert not landing.allowed("exec_command", two, inside=lambda d: d == "/repo")
    assert not landing.allowed("exec_command", {"cmd": "git status", "workdir": 3}, lambda d: True)
    assert landing.allowed("Shell", {"command": "git status", "cwd": ""}, lambda d: d == ".")
