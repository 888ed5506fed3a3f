"""Each agent's settings format: where its file is (in the repository and in the user's home),
which of the three shapes holds its hooks, the entry tg-git writes for each event, and how
tg-git's own entries are found in a file's data and taken out again.

Three shapes hold the hooks (``FORMATS``): Claude Code, Codex and Gemini CLI nest handlers in
matcher groups (``hooks.EVENT = [{matcher, hooks: [...]}]``); Cursor and Copilot CLI list
them flat (``{"version": 1, "hooks": {EVENT: [{command | bash}]}}``); Antigravity keeps one
named entry per tool (``{"tg-git": {EVENT: [...]}}``). A command names this Python by
absolute path, as the git hooks do, so an agent finds tg-git without it on PATH, in a file
that stays on this machine; a file a team shares gets the portable ``tg-git`` command. tg-git's
entries are recognised by their command (``... hook agent ...``). No file is read or written
here: ``tg_git.agents.settings`` does that.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tg_git.agents.protocol import CHANNELS as HOOK_CHANNELS
from tg_git.agents.protocol import EVENTS as HOOK_EVENTS
from tg_git.agents.protocol import GOES_ON as GOES_ON  # its comment: below
from tg_git.domain.errors import TgGitError
from tg_git.repo import hotstate
from tg_git.text import messages
from tg_git.usage import discover


@dataclass(frozen=True)
class Format:
    """Where an agent reads its hooks, in which shape, and what measures its usage."""

    repo_file: str  # relative to the work tree
    shape: str  # "groups" | "flat" | "named"
    measures: str  # the messages key: where the real token figures come from (`agent list`)


FORMATS = {
    "claude": Format(".claude/settings.json", "groups", "agent.measures.claude"),
    "codex": Format(".codex/hooks.json", "groups", "agent.measures.codex"),
    "gemini": Format(".gemini/settings.json", "groups", "agent.measures.gemini"),
    "antigravity": Format(".agents/hooks.json", "named", "agent.measures.antigravity"),
    "cursor": Format(".cursor/hooks.json", "flat", "agent.measures.cursor"),
    "copilot": Format(".github/hooks/tg-git.json", "flat", "agent.measures.copilot"),
}


AGENTS = tuple(FORMATS)
# The hook runtime's own table decides which events are installed and where a halt blocks.
EVENTS = {agent: tuple(HOOK_EVENTS[agent]) for agent in AGENTS}
CHANNELS = HOOK_CHANNELS
REPO_FILES = {agent: f.repo_file for agent, f in FORMATS.items()}
NAMED_KEY = "tg-git"  # Antigravity: tg-git's own entry in .agents/hooks.json
WRAPPER = "tg_git.agents.wrap"  # runs the user's status line, then tg-git's gauge
_OURS = re.compile(r"(?:^|[\s/\"'])(?:tg-git|tg_git)\b.*\bhook agent\b")


def user_file(agent: str) -> Path:
    """The agent's settings under the user's home (each agent's own variable first)."""
    home = Path.home()
    if agent == "claude":
        configured = os.environ.get("CLAUDE_CONFIG_DIR", "")
        base = discover.claude_dirs()[0] if configured.strip() else home / ".claude"
        return base / "settings.json"
    if agent == "codex":
        return discover.codex_home() / "hooks.json"
    if agent == "gemini":
        return discover.gemini_dir() / "settings.json"
    if agent == "antigravity":  # the IDE's global hooks file (a peer's docs, unverified)
        return discover.gemini_dir() / "config" / "hooks.json"
    if agent == "cursor":
        return home / ".cursor" / "hooks.json"
    raise TgGitError(messages.text("en", "agent.no_user_hooks", agent=agent))


def settings_file(agent: str, root: Path, user: bool) -> Path:
    return user_file(agent) if user else root / REPO_FILES[agent]


# ---- where an install writes: a local file, the shared one, or the user's ------------------
# An agent's own untracked settings file in the repository (personal, never committed):
# `agent install` writes there by default, naming this Python by absolute path. Only Claude
# Code has one; the others read their repository file only (usually committed), which gets
# the portable `tg-git` command.
LOCAL_FILES = {"claude": ".claude/settings.local.json"}


def local_file(agent: str, root: Path) -> Path | None:
    rel = LOCAL_FILES.get(agent)
    return root / rel if rel else None


def target_file(agent: str, root: Path, user: bool, shared: bool) -> Path:
    """The file an install or uninstall works on: the user's, the agent's local one (by
    default, where it has one), or the repository's shared one."""
    local = None if user or shared else local_file(agent, root)
    return local or settings_file(agent, root, user)


# Every command an agent runs starts Python in the work tree, a clone's files around it.
# `-E` ignores PYTHONPATH and the other PYTHON* variables (a `.` there would bring the work
# tree back) and the code drops the '' that `-c` puts first on sys.path before its first
# import: nothing is imported from the current folder, on every supported Python (`-P` needs
# 3.11; `-I` also drops the user's site-packages, where `pip install --user` puts tg-git).
# The shim of the git hooks does the same. A portable entry runs the `tg-git` command found
# on PATH: a console script's sys.path starts at its own folder, never the current one.
# The code reads its arguments from the second on: the first, `tg_git`, names tg-git in
# the command as `-m tg_git` did (`... tg_git hook agent AGENT EVENT`), for whoever looks.
ISOLATED = "import sys; sys.path[:] = [p for p in sys.path if p]; "
PORTABLE = "tg-git"
STATUS_LINE_CODE = "from tg_git.agents.statusline import run; sys.exit(run(sys.argv[3:]))"


def _isolated(code: str, gone: str = "agent_hook_not_found", out: str = "stderr") -> str:
    python = shlex.quote(os.path.abspath(sys.executable))
    return f"{python} -E -c {shlex.quote(ISOLATED + _when_gone(code, gone, out))} tg_git"


def _when_gone(code: str, key: str, out: str) -> str:
    """``code`` (``from ... import ...; RUN``) that, when tg-git was removed after the install,
    prints the sentence ``key`` says on ``sys.<out>`` in the locale's language (no config can
    be read without the package) and exits 0, which blocks nothing. One line with no single
    quote and no backslash, as every shell takes it in single quotes (fish reads escapes
    there): the ``try`` goes through ``exec``, the sentences as UTF-8 in hex."""
    imports, run = code.split("; ", 1)
    said = {lang: (messages.text(lang, key) + "\n").encode().hex() for lang in ("en", "ko")}
    pick = 'next((e[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if e.get(k)), "")'
    lang = f'"{said["ko"]}" if {pick}.lower().startswith("ko") else "{said["en"]}"'
    said_it = f"sys.{out}.buffer.write(bytes.fromhex({lang}))"  # UTF-8, whatever the locale
    block = ("try:", f" {imports}", "except ImportError:", " gone()")
    joined = " + chr(10) + ".join(f'"{line}"' for line in block)
    gone = f'(e := __import__("os").environ, {said_it}, sys.exit(0))'
    return f"gone = lambda: {gone}; exec({joined}); {run}"


def python_command(portable: bool = False) -> str:
    """This Python by absolute path, isolated from the work tree (what the git hooks run
    too), or the portable ``tg-git`` command."""
    if portable:
        return PORTABLE
    return _isolated("from tg_git.main import main; sys.exit(main(sys.argv[2:]))")


# The portable command where ``tg-git`` is not on PATH (removed since, or never installed on a
# teammate's machine): the shell's ``command -v`` (a built-in: no process) finds it missing,
# and the sentence the absolute-path commands print goes out instead of the shell's "not
# found" (status 127), in the locale's language, and the command exits 0, which blocks
# nothing. Octal escapes in double quotes: no quote, no ``$``, no backslash before a quote,
# as every shell takes the command in single quotes (``exec /bin/sh -c '...'``).
GUARD = f"command -v {PORTABLE} >/dev/null 2>&1||"


def _octal(text: str) -> str:
    return "".join(
        chr(b) if chr(b).isascii() and (chr(b).isalnum() or b == 32) else f"\\{b:03o}"
        for b in text.encode("utf-8")
    )


def _guard(key: str, out: str) -> str:
    """The sentence ``key`` says, in the language of the first of LC_ALL, LC_MESSAGES and LANG
    that is set and not empty (as tg-git picks where no config names one): Korean where it
    starts with ``ko``. One ``case`` over the three joined by ``/`` (no ``${X:-...}``, which
    an agent's loader may expand: ``EXPANDS``)."""
    said = {lang: _octal(messages.text(lang, key) + "\n") for lang in ("en", "ko")}
    to = ">&2" if out == "stderr" else ""
    ko = "[Kk][Oo]*|/[Kk][Oo]*|//[Kk][Oo]*"
    return (
        f'{GUARD}{{ case $LC_ALL/$LC_MESSAGES/$LANG in {ko})printf "{said["ko"]}"{to};;'
        f'*)printf "{said["en"]}"{to};;esac;exit 0;}}'
    )


# Gemini CLI (0.61.0) expands environment variables in every string of its settings files as it
# loads them (``$NAME``, ``${NAME}``, ``${NAME:-default}``, from its own environment), hook
# commands included: ``$PWD`` in the tool call's script became the folder Gemini was started
# in, and one whose name holds an apostrophe broke the script's single quotes; bash exited 2 on
# the syntax error, which Gemini takes for a block: every tool call was refused. In the commands
# of such an agent each variable is spelled ``${NAME#}`` (the value less an empty prefix, the
# same in every POSIX shell), which that pattern leaves alone.
EXPANDS = ("gemini",)
_VARIABLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def _unexpanded(script: str) -> str:
    """``script`` with each ``$NAME`` spelled ``${NAME#}``: no loader of ``EXPANDS`` changes it."""
    return _VARIABLE.sub(r"${\1#}", script)


# What an agent does with a hook's exit status other than its block code, as its CLI was seen
# doing it: Claude Code (2.1.332) and Codex CLI (0.171.0) block on 2 only; Gemini CLI (0.61.0)
# goes on at 0 and 1 and blocks on any other status (2 is its block code; the shell's 127, an
# interpreter removed since, refused every prompt); Copilot CLI (1.0.102) refuses the tool call
# on any status but 0 (tg-git's error, exit 1, refused every tool call; it is told "deny" on
# stdout). Their commands end in a filter that keeps what tg-git means and turns any other
# status into one they go on at (no ``$NAME`` in it: ``EXPANDS``).
STATUS_FILTER = {
    "gemini": "||{ case $? in 2)exit 2;;esac;exit 1;}",
    "copilot": "||exit 0",
}
# Every other command starts Python with ``exec``: no shell waits for it, so whatever an
# agent's timeout signals reaches tg-git. Gemini CLI signals the process it started (SIGTERM to
# its shell, then it waits for the pipes to close), as tg-git's own OpenCode plugin does
# (``child.kill()``); dash, Debian's /bin/sh, waits for the one command of ``sh -c`` rather than
# exec it, and a signal to it alone left Python running. Claude Code (2.1.332) and Codex CLI
# (0.171.0) were seen reaching a waiting shell's child too: Claude Code SIGTERM to every
# process of the hook's tree, SIGKILL about 1.5 s on; Codex SIGKILL to its process group.
# Gemini's and Copilot's commands cannot filter a status after ``exec``: the one the shell
# would give instead, 127 for an interpreter removed since, is answered first with the status
# each goes on at (``GOES_ON``, in ``protocol``). The others go on at any status but 2, and ``exec`` of a
# missing interpreter gives 127 in dash and bash as the bare command did ("not found").


def _portable(
    args: str,
    gone: str = "agent_hook_not_found",
    out: str = "stderr",
    sh: bool = False,
    agent: str = "",
) -> str:
    """``tg-git ARGS`` behind the guard: the script itself where the agent runs ``/bin/sh -c``
    (``sh``), else behind ``exec /bin/sh -c`` (the agent's shell may be any); for ``agent``
    with its loader's spelling (``EXPANDS``). ``exec`` throughout: the agent's timeout reaches
    tg-git."""
    guard = _unexpanded(_guard(gone, out)) if agent in EXPANDS else _guard(gone, out)
    if sh:
        return f"{guard};exec {PORTABLE} {args}"
    run = f'exec {PORTABLE} "$@"'
    return f"exec /bin/sh -c {shlex.quote(f'{guard};{run}')} tg_git {args}"


def command(agent: str, event: str, portable: bool = False) -> str:
    """What the agent runs for ``event``: a tool call (before every one) asks the shell
    first (``hot_command``); every other event starts Python."""
    if HOOK_EVENTS[agent].get(event) == "tool":
        return hot_command(agent, event, portable)
    args = f"hook agent {agent} {event}"
    if portable:
        sh = HOOK_SHELL.get(agent) == SCRIPT_SHELL
        return _portable(args, sh=sh, agent=agent)
    if agent in GOES_ON:  # Gemini's and Copilot's shell is bash; exec: their timeout reaches it
        python = shlex.quote(os.path.abspath(sys.executable))
        return f"[ -x {python} ]||exit {GOES_ON[agent]};exec {python_command()} {args}"
    return f"exec {python_command()} {args}"  # exec: no shell waits (``GOES_ON``)


# ---- the tool call without Python when nothing is due ----------------------------------------
# A POSIX shell script answers "allow" (exit 0, nothing printed: what each agent takes for it
# and what Python prints there) when the state ``tg_git.repo.hotstate`` left says the session
# is not at the halt and nothing it was computed from changed; any doubt runs Python with the
# payload as it came (the rest of stdin through ``/bin/cat``). Builtins only: ``read`` (the
# payload's first line: the agents send one line of JSON), ``case``, ``test``, ``cd -P`` and a
# redirection that touches ``now`` (on ``true``: one that fails on ``:``, a special built-in,
# ends the shell with status 2, which Claude Code takes for a block). Only regular files are
# opened (a FIFO would hang the read or the redirection). The
# payload's top-level ``cwd`` (a key of the outer object, every key before it plain) must be
# the shell's own directory, logical or physical, as Python reads the event's directory from
# it; the repository is the nearest ``.git`` above it, its state names that work tree.
HOT_SCRIPT = r"""p=;IFS= read -r p;r=$?;o=$PWD
h(){
case $p in *'"cwd":"'*);;*)return 1;;esac
a=${p%%'"cwd":"'*};b=${p#*'"cwd":"'}
case $a in '{'|'{'*[,{]);;*)return 1;;esac
case ${a#?} in *[[{]*)return 1;;esac
[ -z "${GIT_DIR+x}${GIT_WORK_TREE+x}${GIT_COMMON_DIR+x}${GIT_CEILING_DIRECTORIES+x}${GIT_DISCOVERY_ACROSS_FILESYSTEM+x}" ]||return 1
case $b in "$PWD\""*);;*)cd -P .||return 1;case $b in "$PWD\""*);;*)return 1;;esac;;esac
cd -P .||return 1;d=$PWD
until [ -e "$d/.git" ]||[ -L "$d/.git" ];do [ -n "$d" ]||return 1;d=${d%/*};done
[ -L "$d/.git" ]&&return 1
if [ -d "$d/.git" ];then g=$d/.git;else [ -f "$d/.git" ]||return 1;g=;IFS= read -r g <"$d/.git";case $g in 'gitdir: '?*)g=${g#gitdir: };;*)return 1;;esac;case $g in /*);;*)g=$d/$g;;esac;fi
s=$g/tg-git/hot/state;n=$g/tg-git/hot/now
[ -L "$g/tg-git" ]||[ -L "$g/tg-git/hot" ]||[ -L "$s" ]||[ -L "$n" ]&&return 1
[ -f "$s" ]||return 1
[ -f "$n" ]||[ ! -e "$n" ]||return 1
true >"$n"||return 1
[ "$n" -nt "$s" ]||return 1
{
IFS= read -r l&&[ "$l" = 'MAGIC' ]||return 1
IFS= read -r t&&[ "$t" = "$d" ]&&IFS= read -r c&&IFS= read -r l||return 1
e=;IFS= read -r e <"$g/HEAD";[ -n "$e" ]&&[ "$e" = "$l" ]||return 1
IFS= read -r l&&IFS= read -r i&&IFS= read -r f||return 1
case $l in LEVELS);;*)return 1;;esac
for e in FIXED;do
case $e in g*)x=$g;;c*)x=$c;;*)x=$t;;esac
x=$x/${e#?}
case $f in +*)[ -e "$x" ]&&[ ! "$x" -nt "$s" ]||return 1;;=*)[ -e "$x" ]||return 1;;-*)[ -e "$x" ]||[ -L "$x" ]&&return 1;;*)return 1;;esac
f=${f#?}
done
[ -z "$f" ]||return 1
z=
while IFS= read -r e;do
case $e in .)return 0;;g?*)x=$g;;c?*)x=$c;;t?*)x=$t;;'>'?*)[ -n "$z" ]||return 1;x=$z;;*)return 1;;esac
y=${e#??};case $y in *@*)y=${y%%@*}$i${y#*@};;esac;x=$x/$y
case $e in '>'*);;*)z=$x;;esac
case $e in ?+*)[ -e "$x" ]&&[ ! "$x" -nt "$s" ]||return 1;;?-*)[ -e "$x" ]||[ -L "$x" ]&&return 1;;*)return 1;;esac
done
return 1
} <"$s"
}
h 2>/dev/null&&exit 0
cd "$o" 2>/dev/null
if [ $r = 0 ];then { printf '%s\n' "$p";exec /bin/cat;}|exec PYTHON;else printf %s "$p"|exec PYTHON;fi"""
HOT_LEVELS = ("none", "ok", "warning", "force-save")  # not the halt: a tool call goes on
# The shell each agent runs a hook command with (its argv before the command), as its CLI was
# seen doing it: Claude Code (2.1.332) ``/bin/sh -c``; Gemini CLI (0.61.0) ``bash -c``, bash
# found on PATH; Copilot CLI (1.0.102) ``/bin/bash --norc --noprofile -c``; tg-git's own
# OpenCode plugin ``/bin/sh -c``. Codex CLI (0.171.0) runs the user's login shell (the
# password database's, not ``$SHELL``) with ``-c``: any shell, as Cursor and Antigravity may.
HOOK_SHELL = {
    "claude": ("/bin/sh", "-c"),
    "opencode": ("/bin/sh", "-c"),
    "gemini": ("bash", "-c"),
    "copilot": ("/bin/bash", "--norc", "--noprofile", "-c"),
}
SCRIPT_SHELL = ("/bin/sh", "-c")  # where the script is the command itself


def hot_command(agent: str, event: str, portable: bool = False) -> str:
    """The script itself where the agent runs its hooks with ``/bin/sh -c`` (one shell), else
    ``exec /bin/sh -c SCRIPT tg_git hook agent AGENT EVENT`` (``exec``: the agent's own shell,
    which may be any, does not wait for it; bash, which takes functions and options from the
    environment, runs nothing of the script). The script runs Python (isolated, or the
    portable ``tg-git``) with the same arguments whenever it cannot answer itself."""
    args = ("hook", "agent", agent, event)
    direct = HOOK_SHELL.get(agent) == SCRIPT_SHELL
    rest = shlex.join(args) if direct else '"$@"'
    script = (
        HOT_SCRIPT.replace("MAGIC", hotstate.MAGIC)
        .replace("LEVELS", "|".join(HOT_LEVELS))
        .replace("FIXED", hotstate.FIXED_WORDS)
    )
    if portable:  # where Python would start: first that tg-git is there at all
        ran = "\nh 2>/dev/null&&exit 0\n"
        script = script.replace(ran, f"{ran}{_guard('agent_hook_not_found', 'stderr')}\n")
    if agent in EXPANDS:  # the script's own variables (not the interpreter's path, quoted)
        script = _unexpanded(script)
    script = script.replace("PYTHON", f"{python_command(portable)} {rest}")
    script += STATUS_FILTER.get(agent, "")  # after ``fi``: the status of what ran last
    if direct:
        return script
    return f"exec /bin/sh -c {shlex.quote(_one_line(script))} tg_git {shlex.join(args)}"


def _one_line(script: str) -> str:
    """``script`` on one line, as every shell can take it in single quotes (csh and tcsh, a
    login shell Codex CLI may run, end a quoted word at a line break: the command failed, and
    at the halt allowed the call)."""
    lines = script.split("\n")
    joined = lines[0]
    for before, line in itertools.pairwise(lines):
        joined += " " if before.endswith(("{", "do", "then", "else")) else ";"
        joined += line
    return joined


# What today's script holds that an earlier one of the same state format lacked (it opened a
# FIFO at ``now`` or named ``.git``, and waited forever; a clock file it could not write ended
# it with status 2): such a command is older too.
SCRIPT_GUARDS = (
    '[ -f "$d/.git" ]||return 1',
    '[ -f "$n" ]||[ ! -e "$n" ]||return 1',
    'true >"$n"||return 1',
)


EXECS = ("exec ", "[ -x ")  # how a command that starts Python by path begins today


def is_older(agent: str, event: str, command_text: str) -> bool:
    """A command written by an older tg-git. Any other event's: one that starts this Python
    without ``exec`` (a shell waits for it: ``GOES_ON``). A tool call's: the shell state it
    reads is not today's (its script names another format), so every call starts Python; or
    its script lacks a guard of today's (``SCRIPT_GUARDS``), or spans several lines behind
    ``exec /bin/sh -c``, or holds a variable the agent's loader expands (``EXPANDS``), or lacks
    the agent's status filter (``STATUS_FILTER``). `agent install` replaces it."""
    if HOOK_EVENTS[agent].get(event) != "tool":
        return interpreter(command_text) != PORTABLE and not command_text.startswith(EXECS)
    if HOOK_SHELL.get(agent) != SCRIPT_SHELL and "\n" in command_text:
        return True  # behind ``exec /bin/sh -c`` over several lines: csh and tcsh fail on it
    if STATUS_FILTER.get(agent, "") not in command_text:
        return True  # a status the agent blocks on goes through
    guards: tuple[str, ...] = SCRIPT_GUARDS
    if agent in EXPANDS:  # a variable its loader would expand (``$PWD``)
        if _VARIABLE.search(command_text):
            return True
        guards = tuple(_unexpanded(guard) for guard in SCRIPT_GUARDS)
    return hotstate.MAGIC not in command_text or not all(guard in command_text for guard in guards)


_FALLBACK = re.compile(r"\|exec ('[^']*'|\S+) ")


def hot_fallback(command_text: str) -> str | None:
    """The interpreter a tool-call command falls back to (its script's ``|exec PYTHON``), for
    the script itself or behind ``exec /bin/sh -c``; None for any other command."""
    try:
        words = shlex.split(command_text) if command_text.startswith("exec /bin/sh -c ") else []
    except ValueError:
        return None
    script = words[3] if len(words) > 3 else command_text
    if not script.startswith(HOT_SCRIPT[:20]):
        return None
    found = _FALLBACK.search(script)
    return shlex.split(found.group(1))[0] if found else ""


def interpreter(command_text: str) -> str:
    """What a command of tg-git's runs: for the tool calls' shell script, the one it falls
    back to (``hot_fallback``); ``tg-git`` for a portable command behind its guard; else the
    program the command execs (after its ``[ -x PY ]`` check, if any)."""
    fallback = hot_fallback(command_text)
    if fallback is not None:
        return fallback
    if command_text.startswith(GUARD):
        return PORTABLE
    try:
        words = shlex.split(command_text)
    except ValueError:
        return ""
    if words[:3] == ["exec", "/bin/sh", "-c"] and words[3:4] and words[3].startswith(GUARD):
        return PORTABLE
    if words[:2] == ["[", "-x"] and len(words) > 2:  # ``[ -x PY ]||exit N;exec PY ...``
        return words[2]
    if words[:1] == ["exec"] and len(words) > 1:
        return words[1]
    return words[0] if words else ""


LINE_GONE = ("status_line_not_found", "stdout")  # where the gauge would be: the agent shows it


def status_line_command(theirs: str | None = None, portable: bool = False) -> str:
    """tg-git's gauge, or a wrapper that prints the user's own status line first. ``exec``, as
    every other command that starts Python by path (``command``): no shell waits for it, and
    what ends the shell Claude Code started (a refresh that cancels the one in flight) ends
    tg-git."""
    if theirs is None and portable:
        return _portable("statusline", *LINE_GONE)
    if theirs is None:  # straight to the gauge: a refresh needs nothing of the command line
        return f"exec {_isolated(STATUS_LINE_CODE, *LINE_GONE)} statusline"
    code = f"from {WRAPPER} import main; sys.exit(main(sys.argv[2:]))"
    return f"exec {_isolated(code, *LINE_GONE)} {shlex.quote(theirs)}"


_LINE_IMPORTS = (STATUS_LINE_CODE.split("; ")[0], f"from {WRAPPER} import main")


def line_is_older(command_text: str) -> bool:
    """A status-line command an older tg-git wrote: the gauge or the wrapper, in the form
    ``status_line_command`` writes (an interpreter by path, ``-E -c`` and tg-git's code), but
    without ``exec`` (a shell waits for it). `agent install` replaces it; a line the user
    wrote (``uvx tg-git statusline``, a path to the `tg-git` command) is not tg-git's form."""
    try:
        words = shlex.split(command_text)
    except ValueError:
        return False
    return (
        len(words) > 3
        and os.path.isabs(words[0])
        and words[1:3] == ["-E", "-c"]
        and any(f" {code}" in words[3] for code in _LINE_IMPORTS)
    )


def command_of(entry: Any) -> str:
    if not isinstance(entry, dict):
        return ""
    for key in ("command", "bash"):  # Copilot CLI names the Unix command `bash`
        if isinstance(entry.get(key), str):
            return str(entry[key])
    return ""


def is_ours(entry: Any) -> bool:
    return bool(_OURS.search(command_of(entry)))


def _handler(agent: str, event: str, portable: bool = False) -> dict[str, Any]:
    """One command entry in the agent's own field names and timeout unit."""
    run = command(agent, event, portable)
    if agent == "gemini":
        return {"name": "tg-git", "type": "command", "command": run, "timeout": 30000}  # ms
    if agent == "copilot":
        return {"type": "command", "bash": run, "timeoutSec": 30}
    if agent == "cursor":
        return {"command": run, "timeout": 30}
    if agent == "antigravity":
        return {"type": "command", "command": run}
    return {"type": "command", "command": run, "timeout": 30}


def hook_entry(agent: str, event: str, portable: bool = False) -> dict[str, Any]:
    hook = _handler(agent, event, portable)
    if agent == "gemini":
        return {"matcher": "*", "hooks": [hook]}
    if agent == "codex":
        return {"hooks": [hook]}
    if agent == "claude" or (agent == "antigravity" and event == "PreToolUse"):
        return {"matcher": "" if agent == "claude" else "*", "hooks": [hook]}
    return hook


def without_ours_in(hooks: dict[str, Any]) -> dict[str, Any]:
    """The event table without tg-git's handlers (groups emptied by it go too)."""
    kept: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            kept[event] = groups
            continue
        new_groups = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                inner = [h for h in group["hooks"] if not is_ours(h)]
                if inner:
                    new_groups.append({**group, "hooks": inner})
                elif not any(is_ours(h) for h in group["hooks"]):
                    new_groups.append(group)
            elif not is_ours(group):
                new_groups.append(group)
        if new_groups:
            kept[event] = new_groups
    return kept


def holds_ours(value: Any) -> bool:
    return isinstance(value, dict) and without_ours_in(value) != value


def without_ours(data: dict[str, Any]) -> dict[str, Any]:
    result = dict(data)
    if holds_ours(result.get(NAMED_KEY)):  # Antigravity's named entry
        result.pop(NAMED_KEY)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return result
    kept = without_ours_in(hooks)
    if kept or not hooks:
        result["hooks"] = kept
    else:
        result.pop("hooks")
    return result


def ours_in(data: dict[str, Any]) -> list[str]:
    """The events whose handlers in ``data`` are tg-git's."""
    found = []
    named = data.get(NAMED_KEY)
    tables = [t for t in (data.get("hooks"), named if holds_ours(named) else None) if t]
    for table in tables:
        if not isinstance(table, dict):
            continue
        for event, groups in table.items():
            for group in groups if isinstance(groups, list) else []:
                inner = group.get("hooks") if isinstance(group, dict) else None
                handlers = inner if isinstance(inner, list) else [group]
                if any(is_ours(h) for h in handlers):
                    found.append(str(event))
    return list(dict.fromkeys(found))
