"""Landing mode: at a halt, which tool calls an agent may still make.

Only what lands the work already done goes through: reading files, ``git status``, ``diff``,
``add`` and ``commit``, and ``tg-git status``, ``checkpoint``, ``task`` and ``note``. Everything
else (edits, writes, web fetches, sub-agents, any other command) is denied.

A shell command is judged without running a shell, so it is allowed only when no word of it
can expand or be read otherwise by bash: each word is plain letters, digits, ``_./:@%+,=-``
and printable characters beyond ASCII (``~`` and ``^`` only right after a letter or digit, as
in ``HEAD~1``; ``=`` never first), or
text in single quotes, or in double quotes without ``$``, backquotes, ``\\`` or ``!``. Parts are
joined only by ``&&``, ``||`` and ``;``. Anything else is refused outright: comments (``#``),
braces, globs (``* ? [ ]``), tildes, backslashes, ``$`` and backquotes outside single quotes,
pipes, redirections, here-strings and here-documents, process substitution, subshells,
background ``&``, line breaks and control characters, variable prefixes (``A=b git ...``),
``cd``/``pushd``/``popd`` and every other program. Aliases are not expanded by a
non-interactive bash, and history expansion (``!``) is off there; ``!`` is refused anyway.

git's options are matched exactly against a list per subcommand: git accepts any unambiguous
abbreviation of a long option (``--no-verif``), so nothing but the listed spelling passes, and
nothing that writes a file or runs a program (``--output``, ``--ext-diff``, ``--no-verify``,
``-n``, an editor) is listed. git's global options (``-c``, ``-C``) are refused.

A shell tool's arguments are read from every key an agent runs a command from (``command``,
``cmd``, ``CommandLine``, ``commandLine``, argument lists); a call that carries more than one is
refused, as is one that sets the environment or a shell other than bash, sh or zsh. The
directories a call names (``cwd``, ``Cwd``, ``workdir``, ...) or, naming none, the agent's own
current directory are judged by the caller (``inside``): a call that runs in a nested
repository or outside the halted one is refused. Pure: no I/O, no git, cheap on every call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

# Tools that only read, by the names each agent gives them (compared in lower case):
# Claude Code, Cursor, Gemini CLI, Antigravity, Copilot CLI.
READ_TOOLS = frozenset(
    {
        "read",
        "glob",
        "grep",
        "ls",
        "notebookread",  # Claude Code, Cursor
        "read_file",
        "read_many_files",
        "list_directory",
        "glob_tool",
        "search_file_content",
        "view_file",
        "list_dir",
        "grep_search",
        "find_by_name",  # Gemini CLI, Antigravity
        "view",  # Copilot CLI
    }
)
# Tools that run a shell command: Claude Code Bash, Cursor Shell, Codex (hook Bash,
# exec_command, shell, shell_command, local_shell), Gemini run_shell_command, Antigravity
# run_command, Copilot CLI bash.
SHELL_TOOLS = frozenset(
    {
        "bash",
        "shell",
        "run_shell_command",
        "run_command",
        "local_shell",
        "exec_command",
        "shell_command",
    }
)
# The keys a shell tool may run a command from (compared in lower case).
COMMAND_KEYS = ("command", "cmd", "commandline", "command_line", "script", "argv")
# The keys that name the directory a call runs in (compared in lower case).
DIRECTORY_KEYS = frozenset(
    {"cwd", "workdir", "working_directory", "workingdirectory", "dir_path", "directory", "dir"}
)
ENV_KEYS = ("env", "environment", "envs", "environment_variables")
SHELLS = ("bash", "sh", "zsh")
MAX_COMMAND = 8192
SEPARATORS = ("&&", "||", ";")

# The tokens of the shell subset allowed: blanks, single-quoted text, double-quoted text
# without what bash still reads there, a separator not glued to another operator character,
# and plain text (`~` and `^` right after a letter or digit, `=` never first in a word, any
# character beyond ASCII; each checked printable after).
_TOKEN = re.compile(
    r"""(?P<blank>[ \t]+)
      | '(?P<single>[^']*)'
      | "(?P<double>[^"$`\\!]*)"
      | (?P<separator>&&|\|\||;)(?![;&|])
      | (?P<plain>(?:[A-Za-z0-9_./:@%+,-]|(?<=[A-Za-z0-9])[~^]|(?<=[^ \t;&|])=|[^\x00-\x7f])+)
    """,
    re.VERBOSE,
)

# Each allowed git subcommand's options: short flags, short options whose value is the rest
# of the word or the next word, short options whose value is only the rest of the word, and
# long options by name: FLAG (no value), VALUE (``--x=v`` or ``--x v``), OPTIONAL (``--x=v``).
FLAG, VALUE, OPTIONAL = 0, 1, 2


class _Options:
    def __init__(self, flags: str, value: str, attached: str, long: dict[str, int]) -> None:
        self.flags, self.value, self.attached, self.long = flags, value, attached, long


def _longs(flags: str, value: str = "", optional: str = "") -> dict[str, int]:
    table = dict.fromkeys(flags.split(), FLAG)
    table.update(dict.fromkeys(value.split(), VALUE))
    table.update(dict.fromkeys(optional.split(), OPTIONAL))
    return table


GIT_OPTIONS = {
    "status": _Options(
        "sbvz",
        "",
        "u",
        _longs(
            "short branch show-stash long verbose ahead-behind no-ahead-behind renames no-renames"
            " no-column null",
            optional="porcelain untracked-files ignored ignore-submodules find-renames column",
        ),
    ),
    "diff": _Options(
        "pusRzwb",
        "",
        "UM",
        _longs(
            "cached staged numstat shortstat name-only name-status summary patch no-patch raw"
            " patch-with-stat check compact-summary no-color minimal patience histogram"
            " ignore-space-change ignore-all-space ignore-space-at-eol ignore-blank-lines"
            " no-renames merge-base exit-code quiet no-relative full-index binary text no-prefix"
            " function-context irreversible-delete",
            value="unified diff-algorithm",
            optional="stat dirstat color word-diff color-words find-renames relative abbrev"
            " submodule ignore-submodules",
        ),
    ),
    "add": _Options(
        "AuNvn",
        "",
        "",
        _longs(
            "all update intent-to-add verbose dry-run no-all ignore-removal ignore-errors"
            " ignore-missing renormalize",
            value="chmod",
        ),
    ),
    "commit": _Options(
        "aqsvio",
        "mFC",
        "u",
        _longs(
            "all quiet signoff no-signoff verbose include only allow-empty allow-empty-message"
            " no-edit amend reset-author dry-run short branch porcelain long status no-status"
            " null verify",
            value="message file author date cleanup trailer reuse-message",
            optional="untracked-files",
        ),
    ),
}
GIT_ALLOWED = frozenset(GIT_OPTIONS)
TG_GIT_ALLOWED = frozenset({"status", "checkpoint", "task", "note"})


def allowed(tool: str, args: Any, inside: Callable[[str], bool] | None = None) -> bool:
    """Whether a tool call may run at a halt: a read, or a shell command that lands work.

    ``inside(directory)`` says whether a directory the call runs in lies in the halted
    repository itself (not in a nested repository, not outside); the agent's own current
    directory is asked as ``"."``. Without it, a call that names a directory is refused."""
    name = tool.lower() if isinstance(tool, str) else ""
    if name in READ_TOOLS:
        return True
    if name not in SHELL_TOOLS:
        return False
    args = _decoded(args)
    parts = shell_parts(args)
    if parts is None:
        return False
    places = directories(args)
    if places is None:
        return False
    if inside is None:
        return not places
    return all(inside(place) for place in places or ["."])


def shell_parts(args: Any) -> list[list[str]] | None:
    """The words of each allowed command a shell tool's arguments run, None when refused."""
    args = _decoded(args)
    if isinstance(args, str):
        return parse(args)
    if not isinstance(args, dict) or not _harmless_keys(args):
        return None
    found = [_decoded(v) for k, v in args.items() if _lower(k) in COMMAND_KEYS]
    if len(found) != 1:
        return None  # none, or a decoy beside the one the agent runs
    value = found[0]
    if isinstance(value, str):
        return parse(value)
    if isinstance(value, list) and value and all(isinstance(w, str) for w in value):
        return _from_words(value)
    return None


def directories(args: Any) -> list[str] | None:
    """The directories a shell call names to run in ([] when none); None when one is not
    text."""
    args = _decoded(args)
    if not isinstance(args, dict):
        return []
    places = []
    for key, value in args.items():
        if _lower(key) in DIRECTORY_KEYS:
            value = _decoded(value)
            if value in (None, ""):
                continue  # the agent's own directory
            if not isinstance(value, str) or "\0" in value:
                return None
            places.append(value)
    return places


def _harmless_keys(args: dict[Any, Any]) -> bool:
    """No environment set for the command, and no shell but bash, sh or zsh."""
    for key, value in args.items():
        lower = _lower(key)
        if lower in ENV_KEYS and value not in (None, {}, []):
            return False
        shell = value.rsplit("/", 1)[-1] if isinstance(value, str) else value
        if lower == "shell" and value is not None and shell not in SHELLS:
            return False
    return True


def _lower(key: Any) -> str:
    return key.lower() if isinstance(key, str) else ""


def _decoded(value: Any) -> Any:
    """A value that is itself JSON text (a quoted string, an object) decoded once."""
    if isinstance(value, str) and value[:1] in ('"', "{", "["):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def _from_words(words: list[str]) -> list[list[str]] | None:
    """A command given as words: ``bash -lc "..."`` is its script; else the words are run
    as they are, without a shell."""
    if words[0].rsplit("/", 1)[-1] in SHELLS:
        if len(words) == 3 and words[1] in ("-c", "-lc"):
            return parse(words[2])
        return None
    if any(not w.isprintable() or "$" in w or "`" in w for w in words):
        return None
    return [words] if _part_allowed(words) else None


def command_allowed(command: str) -> bool:
    """Whether every part of a shell command line is an allowed command (see the module)."""
    return parse(command) is not None


def parse(command: str) -> list[list[str]] | None:
    """The words of each part of ``command`` exactly as bash would pass them, when every
    word is one no shell can expand and every part is an allowed command; else None."""
    parts = chain(command)
    return None if parts is None else [words for _, words in parts]


def chain(command: str) -> list[tuple[str, list[str]]] | None:
    """``parse`` with the separator before each part (``""`` before the first)."""
    if not isinstance(command, str) or len(command) > MAX_COMMAND:
        return None
    split = _split(command)
    if split is None or not all(_part_allowed(words) for _, words in split):
        return None
    return split


def _split(command: str) -> list[tuple[str, list[str]]] | None:
    """Words and parts, by bash's rules for the subset allowed (see the module)."""
    parts: list[list[str]] = [[]]
    operators = [""]
    word: str | None = None  # None: no word started (an empty '' is a word)
    at = 0
    while at < len(command):
        token = _TOKEN.match(command, at)
        if token is None:
            return None  # a character or an operator bash reads otherwise
        at, kind = token.end(), token.lastgroup
        if kind in ("blank", "separator") and word is not None:
            parts[-1].append(word)
            word = None
        if kind == "separator":
            if not parts[-1]:
                return None
            parts.append([])
            operators.append(token["separator"])
        elif kind != "blank":
            text = token[str(kind)]
            if not text.isprintable():
                return None
            word = (word or "") + text
    if word is not None:
        parts[-1].append(word)
    return list(zip(operators, parts)) if parts[-1] else None


def _part_allowed(words: list[str]) -> bool:
    if len(words) < 2:
        return False
    program, sub, rest = words[0], words[1], words[2:]
    if program == "git":
        options = GIT_OPTIONS.get(sub)
        return options is not None and _git_options_safe(options, rest)
    return program == "tg-git" and sub in TG_GIT_ALLOWED


def _git_options_safe(options: _Options, words: list[str]) -> bool:
    """Every option before ``--`` one of the subcommand's, spelled in full."""
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "--":
            return True  # pathspecs only from here
        elif word.startswith("--"):
            name, eq, _ = word[2:].partition("=")
            kind = options.long.get(name)
            if kind is None or (kind == FLAG and eq):
                return False
            skip = kind == VALUE and not eq
        elif word.startswith("-") and len(word) > 1:
            verdict = _short_cluster(options, word[1:])
            if verdict is None:
                return False
            skip = verdict
    return not skip  # an option's value missing at the end


def _short_cluster(options: _Options, cluster: str) -> bool | None:
    """Whether the next word is this cluster's value; None when a letter is not allowed."""
    for at, char in enumerate(cluster):
        if char in options.value:
            return at == len(cluster) - 1  # the rest of the word, or the next word
        if char in options.attached:
            return False
        if char not in options.flags:
            return None
    return False
