"""Landing mode: at a halt, which tool calls an agent may still make.

Only what lands the work already done goes through: reading files, ``git status``, ``diff``,
``add`` and ``commit``, and ``tg-git status``, ``checkpoint``, ``task`` and ``note``. Everything
else (edits, writes, web fetches, sub-agents, any other command) is denied.

A shell command is judged without running a shell, so the parse is conservative: it is split
into words the way a POSIX shell would (quotes respected), and it is allowed only when every
part between ``&&``, ``||`` and ``;`` is an allowed command. Anything a shell could turn into
another command or a write is refused outright: pipes, redirections, background ``&``,
subshells, ``$`` (variables, ``$(...)``), backquotes, line breaks, git's global options
(``-c`` can define an alias that runs a program) and ``git commit --no-verify`` (it would
skip tg-git's own commit hook). Pure: no I/O, no git, cheap on every tool call.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

# Tools that only read, by the names each agent gives them (compared in lower case):
# Claude Code, Cursor, Gemini CLI, Antigravity, Copilot CLI.
READ_TOOLS = frozenset(
    {
        "read", "glob", "grep", "ls", "notebookread",  # Claude Code, Cursor
        "read_file", "read_many_files", "list_directory", "glob_tool", "search_file_content",
        "view_file", "list_dir", "grep_search", "find_by_name",  # Gemini CLI, Antigravity
        "view",  # Copilot CLI
    }
)  # fmt: skip
# Tools that run a shell command, and the argument that holds it.
SHELL_TOOLS = frozenset(
    {"bash", "shell", "run_shell_command", "run_command", "local_shell", "exec_command"}
)
COMMAND_KEYS = ("command", "CommandLine", "commandLine", "cmd")
GIT_ALLOWED = frozenset({"status", "diff", "add", "commit"})
TG_GIT_ALLOWED = frozenset({"status", "checkpoint", "task", "note"})
SEPARATORS = frozenset({"&&", "||", ";"})
_UNSAFE_CHARS = frozenset("$`\n\r\0")
# Options that write a file or run a program although the subcommand only reads or commits.
_UNSAFE_OPTIONS = ("--output", "--ext-diff", "--no-verify", "--exec", "--upload-pack")
# git commit's short options that take a value: the rest of a cluster is that value.
_COMMIT_VALUE_FLAGS = frozenset("mFCct")
# git commit's options whose value is the next word.
_COMMIT_VALUE_OPTIONS = frozenset(
    {"-m", "-F", "-C", "-c", "-t", "--message", "--file", "--author", "--date", "--template",
     "--fixup", "--squash", "--cleanup", "--trailer", "--reuse-message", "--reedit-message"}
)  # fmt: skip


def allowed(tool: str, args: Any) -> bool:
    """Whether a tool call may run at a halt: a read, or a shell command that lands work."""
    name = tool.lower() if isinstance(tool, str) else ""
    if name in READ_TOOLS:
        return True
    if name in SHELL_TOOLS:
        command = shell_command(args)
        return command is not None and command_allowed(command)
    return False


def shell_command(args: Any) -> str | None:
    """The command line of a shell tool's arguments; None when there is no single one.

    Arguments may come as a JSON string (Antigravity double-encodes them) and a command as a
    list of words (Codex: ``["bash", "-lc", "git status"]``)."""
    args = _decoded(args)
    if isinstance(args, str):
        return args
    if not isinstance(args, dict):
        return None
    for key in COMMAND_KEYS:
        value = _decoded(args.get(key))
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(w, str) for w in value):
            return _from_words(value)
    return None


def _decoded(value: Any) -> Any:
    """A value that is itself JSON text (a quoted string, an object) decoded once."""
    if isinstance(value, str) and value[:1] in ('"', "{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _from_words(words: list[str]) -> str | None:
    """A command given as words: ``bash -lc "..."`` is its script; else the words quoted."""
    if (
        len(words) == 3
        and words[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh")
        and words[1] in ("-c", "-lc")
    ):
        return words[2]
    return shlex.join(words) if words else None


def command_allowed(command: str) -> bool:
    """Whether every part of a shell command line is an allowed command (see the module)."""
    if not command.strip() or _UNSAFE_CHARS & set(command):
        return False
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:  # an unterminated quote
        return False
    parts: list[list[str]] = [[]]
    for word in words:
        if word in SEPARATORS:
            parts.append([])
        elif word and set(word) <= set("();<>|&"):
            return False  # a pipe, redirection, background job or subshell
        else:
            parts[-1].append(word)
    return all(part and _part_allowed(part) for part in parts)


def _part_allowed(words: list[str]) -> bool:
    program, rest = words[0], words[1:]
    if program == "cd":
        return len(rest) <= 1
    if program == "git":
        return bool(rest) and rest[0] in GIT_ALLOWED and _git_options_safe(rest[0], rest[1:])
    if program == "tg-git":
        return bool(rest) and rest[0] in TG_GIT_ALLOWED
    return False


def _git_options_safe(subcommand: str, words: list[str]) -> bool:
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word == "--":
            return True  # pathspecs only from here
        if word.startswith(_UNSAFE_OPTIONS):
            return False
        if subcommand != "commit" or not word.startswith("-"):
            continue
        if word in _COMMIT_VALUE_OPTIONS:
            skip = True
        elif not word.startswith("--") and not _short_cluster_safe(word[1:]):
            return False
    return True


def _short_cluster_safe(cluster: str) -> bool:
    """A ``git commit`` short-option cluster (``-am``) without ``-n`` (``--no-verify``)."""
    for char in cluster:
        if char == "n":
            return False
        if char in _COMMIT_VALUE_FLAGS:
            return True  # the rest is the option's value
    return True
