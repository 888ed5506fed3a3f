"""argparse for every command but ``hook``; each command is a plain function in ``commands``."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tg_git import __version__
from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.domain.eventlog import TASK_OPS


class _Help(argparse.HelpFormatter):
    """tg-git's help format: the usage line's prefix in the language of the page, and every
    line wrapped by terminal columns, not characters (a Hangul syllable takes two)."""

    def __init__(self, prog: str, usage: str) -> None:
        super().__init__(prog)
        self._usage = usage

    def add_usage(
        self,
        usage: str | None,
        actions: Any,
        groups: Any,
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, self._usage if prefix is None else prefix)

    def _format_usage(self, usage: str | None, actions: Any, groups: Any, prefix: Any) -> str:
        """argparse lays the usage out by ``len``: it lays it out with a stand-in prefix as
        wide as the real one ("사용법: " takes eight columns, five characters), then puts the
        real one back."""
        from tg_git.text import term

        real = "usage: " if prefix is None else str(prefix)
        stand_in = "u" * term.width(real)
        return real + super()._format_usage(usage, actions, groups, stand_in)[len(stand_in) :]

    def add_argument(self, action: argparse.Action) -> None:
        """The names' column as wide as its widest name in columns (see ``_format_action``)."""
        from tg_git.text import term

        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            invocation = self._format_action_invocation(action)
            wide = term.width(invocation) + self._current_indent
            self._action_max_length = max(self._action_max_length, wide)

    def _format_action(self, action: argparse.Action) -> str:
        """argparse pads an argument's name by ``len``: a Korean placeholder ("에이전트", four
        characters, eight columns) takes its extra columns back from the padding."""
        from tg_git.text import term

        text = super()._format_action(action)
        invocation = self._format_action_invocation(action)
        extra = term.width(invocation) - len(invocation)
        padded = invocation + " " * (extra + 2)
        if extra > 0 and padded in text.split("\n", 1)[0]:
            text = text.replace(padded, invocation + "  ", 1)
        return text

    def _split_lines(self, text: str, width: int) -> list[str]:
        from tg_git.text import term

        return term.wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        from tg_git.text import term

        return "\n".join(indent + line for line in term.wrap(text, width - len(indent)))


class _Parser(argparse.ArgumentParser):
    """No abbreviations (`--max-token` is a typo, not `--max-tokens`); its help said in the
    repository's language (the texts: messages area ``help``)."""

    language = "en"  # the language its helps are in (``_say_helps``)

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def add_subparsers(self, **kwargs: object) -> argparse._SubParsersAction[_Parser]:  # type: ignore[override]
        kwargs.setdefault("action", _Commands)
        return super().add_subparsers(**kwargs)  # type: ignore[call-overload, no-any-return]

    def format_help(self) -> str:
        language = _language()
        if language != self.language:  # English is said when the parser is built
            _say_helps(self, language)
        return super().format_help()

    def _get_formatter(self) -> argparse.HelpFormatter:
        from tg_git.text import messages

        return _Help(self.prog, messages.text(self.language, "argparse.usage"))

    def error(self, message: str) -> None:  # type: ignore[override]
        from tg_git.text import messages

        language = _language()
        said = messages.argparse_message(language, message)
        raise TgGitError(
            messages.text(language, "usage_error", message=said, prog=self.prog), ExitCode.USAGE
        )


def _language() -> str:
    """The language of this repository's config, for argparse's errors and help (the
    locale's outside one: ``messages.locale_language``)."""
    from tg_git.repo import git
    from tg_git.repo.configfile import language_of

    try:
        return language_of(git.find_repo().root)
    except TgGitError:
        from tg_git.text.messages import locale_language

        return locale_language()


if TYPE_CHECKING:
    from tg_git.demo import Entry

    _SubParsers = argparse._SubParsersAction[_Parser]
else:  # not subscriptable at run time
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """Every subcommand is listed in its parent's help (its line: ``_say_helps``)."""

    def add_parser(self, name: str, **kwargs: Any) -> _Parser:
        kwargs.setdefault("help", "")
        return super().add_parser(name, **kwargs)


def _say_helps(parser: _Parser, language: str) -> None:
    """Each help of ``parser`` in ``language``: its description, its subcommands' lines, its
    arguments' helps (with each default not said in words), argparse's section titles.
    Keys: ``help.COMMAND`` and ``help.COMMAND.DEST``, ``*`` for any one command (see
    ``tg_git/text/messages/help.py``); an option no key names keeps its own help."""
    from tg_git.text import messages

    def said(*keys: str) -> str | None:
        found = next((key for key in keys if messages.has(key)), None)
        return messages.text(language, found, keys=CONFIG_KEYS) if found else None

    parts = parser.prog.split()[1:]
    path = ".".join(parts) or "tg-git"
    parser.language = language
    parser.description = said(f"help.{path}") or parser.description
    parser._positionals.title = messages.text(language, "argparse.positionals")
    parser._optionals.title = messages.text(language, "argparse.options")
    default = messages.text(language, "argparse.default")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if action.metavar:  # tg-git's own COMMAND
                action.metavar = messages.text(language, "argparse.command")
            for line in action._choices_actions:
                line.help = said(f"help.{'.'.join([*parts, line.dest])}") or line.help
            continue
        _say_placeholder(action, language)
        anyone = ".".join([*parts[:-1], "*", action.dest])
        text = said(f"help.{path}.{action.dest}", f"help.{anyone}", f"help.*.{action.dest}")
        if text is not None and _says_default(action, text, default):
            text += default
        action.help = text or action.help


def _say_placeholder(action: argparse.Action, language: str) -> None:
    """What the help shows for an argument's value, in ``language`` (``metavar.NAME``, NAME
    as English shows it: ``N``, ``TEXT``, ``title``); choices in braces stay as they are."""
    from tg_git.text import messages

    if action.nargs == 0 or action.choices is not None:
        return
    english = (
        getattr(action, "english_metavar", None)
        or action.metavar
        or (action.dest.upper() if action.option_strings else action.dest)
    )
    action.english_metavar = english  # type: ignore[attr-defined]
    if isinstance(english, str) and messages.has(f"metavar.{english}"):
        action.metavar = messages.text(language, f"metavar.{english}")


def _says_default(action: argparse.Action, text: str, default: str) -> bool:
    """Whether ``text`` needs its default said: an option's, or an optional positional's,
    unless it is "off" or the text says it in words (``(default: ...)``)."""
    if default.split(":")[0] in text or action.default in (None, False, "", argparse.SUPPRESS):
        return False
    return bool(action.option_strings) or action.nargs in ("?", "*")


def _switches(parser: _Parser, *flags: str) -> None:
    """Gives ``parser`` the on/off ``flags``: the whole of many commands' options."""
    for flag in flags:
        parser.add_argument(flag, action="store_true")


def build(command: str | None = None) -> argparse.ArgumentParser:
    """Every command's parser, or, for ``command`` (one of ``COMMANDS``), the top one with
    that command's alone: what `tg-git CMD ...` parses with, built in a fraction of the time
    (its help, errors and exit codes are the same; only `tg-git -h` lists the commands)."""
    parser = _Parser(prog="tg-git")
    parser.add_argument("-V", "--version", action="version", version=f"tg-git {__version__}")
    # COMMAND, not the 23 names in braces (one line three terminals wide); the help lists them.
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )
    for name, arguments in COMMANDS.items():
        if command in (None, name):
            arguments(sub.add_parser(name))
    for each in _walk(parser):
        _say_helps(each, "en")
    return parser


def _init(p: _Parser) -> None:
    p.add_argument("--max-tokens", type=int, metavar="N")
    p.add_argument("--language", choices=("en", "ko"))
    p.add_argument("--new-session", action="store_true")


def _estimate(p: _Parser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--staged", action="store_true")
    p.add_argument("--profile")
    p.add_argument("--json", action="store_true")


def _record(p: _Parser) -> None:
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--input", metavar="TEXT")
    group.add_argument("--input-file", metavar="FILE")
    group.add_argument("--tokens", type=int, metavar="N")
    p.add_argument("--label", default="")


def _session(p: _Parser) -> None:
    ss = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    start = ss.add_parser("start")
    start.add_argument("--max-tokens", type=int, metavar="N")


def _task(p: _Parser) -> None:
    ts = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    for action in TASK_OPS:
        t = ts.add_parser(action)
        t.add_argument("title")
        if action == "start":
            t.add_argument("--at", default="")
        if action == "block":
            t.add_argument("--why", default="")
    t = ts.add_parser("list")
    t.add_argument("--json", action="store_true")


def _resume(p: _Parser) -> None:
    p.add_argument("--json", action="store_true")
    p.add_argument("--from", dest="from_tag", metavar="TAG")
    p.add_argument("--commit", action="store_true")
    p.add_argument("--max-tokens", type=int, metavar="N")
    p.add_argument("--install", action="store_true")
    p.add_argument(
        "--agent",
        choices=("claude", "codex", "gemini", "antigravity", "cursor", "copilot"),
        metavar="NAME",
    )


def _verify(p: _Parser) -> None:
    p.add_argument("--json", action="store_true")
    p.add_argument("--accept", nargs="+", metavar="COMMIT")
    p.add_argument("--range", metavar="A..B")
    p.add_argument("--max-tokens", type=int, metavar="N")
    p.add_argument("--max-usd", type=float, metavar="X")


def _next(p: _Parser) -> None:
    p.add_argument("text", nargs="?")
    p.add_argument("--clear", action="store_true")


def _demo(p: _Parser) -> None:
    p.add_argument("--keep", action="store_true")
    p.add_argument("--language", choices=("en", "ko"), default="en")


def _report(p: _Parser) -> None:
    p.add_argument("-o", "--output", metavar="FILE")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--session", metavar="ID")
    which.add_argument("--all", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--open", action="store_true")
    p.add_argument("--range", metavar="A..B")
    p.add_argument("--format", choices=("html", "markdown"), default=None)


def _metrics(p: _Parser) -> None:
    p.add_argument("--push", metavar="URL")
    p.add_argument("--otlp", metavar="URL")
    p.add_argument("--hook", choices=("on", "off"))


def _config(p: _Parser) -> None:
    cs = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    g = cs.add_parser("get")
    g.add_argument("key")
    g.add_argument("--json", action="store_true")
    g = cs.add_parser("set")
    g.add_argument("key")
    g.add_argument("value")


def _usage(p: _Parser) -> None:
    p.add_argument("--json", action="store_true")
    us = p.add_subparsers(dest="action", parser_class=_Parser)
    imp = us.add_parser("import")
    imp.add_argument("--agent", choices=("claude", "codex", "gemini"))
    imp.add_argument("--transcript", metavar="PATH")
    imp.add_argument("--session", metavar="ID")
    imp.add_argument("--json", action="store_true")


def _agent(p: _Parser) -> None:
    ag = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    for action in ("install", "uninstall"):
        a = ag.add_parser(action)
        a.add_argument("agents", nargs="*", metavar="AGENT")
        a.add_argument("--user", action="store_true")
        a.add_argument("--shared", action="store_true")
        if action == "install":
            a.add_argument("--align-compaction", action="store_true")
    for name in ("list", "status"):
        a = ag.add_parser(name)
        a.add_argument("--json", action="store_true")


def _statusline(p: _Parser) -> None:
    p.add_argument("--agent", choices=("claude", "antigravity", "copilot"), default="claude")  # fmt: skip
    p.add_argument("--no-color", action="store_true")


def _one(*names: str, **kwargs: Any) -> Callable[[_Parser], None]:
    """The arguments of a command that takes one: ``add_argument(*names, **kwargs)``."""

    def arguments(p: _Parser) -> None:
        p.add_argument(*names, **kwargs)

    return arguments


def _flags(*flags: str) -> Callable[[_Parser], None]:
    """The arguments of a command whose options are on/off ``flags`` alone (``_switches``)."""
    return lambda p: _switches(p, *flags)


# Each command's name and what adds its arguments, in the order `tg-git --help` lists them.
COMMANDS: dict[str, Callable[[_Parser], None]] = {
    "init": _init, "install": _flags("--pre-commit"), "uninstall": _flags("--purge"),
    "hook": _one("name"), "status": _flags("--json"), "estimate": _estimate,
    "record": _record, "session": _session, "task": _task,
    "checkpoint": _one("--message", "-m", default=""),
    "log": _flags("--json"), "resume": _resume, "verify": _verify, "repair": _flags("--json"),
    "note": _one("text"), "next": _next, "doctor": _flags(), "demo": _demo,
    "report": _report, "metrics": _metrics, "config": _config, "usage": _usage, "agent": _agent,
    "statusline": _statusline,
}  # fmt: skip


def _walk(parser: _Parser) -> list[_Parser]:
    """``parser`` and every subcommand's parser below it."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += _walk(sub)
    return found


CONFIG_KEYS = (
    "max_tokens, language, profile, project_name, thresholds.warning, "
    "thresholds.force_save, thresholds.halt, budget.context, budget.spend_tokens, "
    "budget.spend_usd"
)


def dispatch(argv: Sequence[str], entry: Entry) -> int:
    """Run one command; ``entry`` is the console script's ``main`` (the demo runs it)."""
    known = argv[0] if argv and argv[0] in COMMANDS else None  # else argparse says which are
    args = build(known).parse_args(list(argv))
    command = args.command
    if command == "init":
        from tg_git.commands.init import init

        return init(
            max_tokens=args.max_tokens, language=args.language, new_session=args.new_session
        )
    if command == "install":
        from tg_git.commands.install import install

        return install(pre_commit=args.pre_commit)
    if command == "uninstall":
        from tg_git.commands.install import uninstall

        return uninstall(purge=args.purge)
    if command == "hook":
        from tg_git.githooks.runner import run_hook

        return run_hook([args.name])
    if command == "status":
        from tg_git.commands.status import status

        return status(as_json=args.json)
    if command == "estimate":
        from tg_git.commands.estimate import estimate

        return estimate(
            paths=args.paths, staged=args.staged, profile=args.profile, as_json=args.json
        )
    if command == "record":
        from tg_git.commands.plan import record

        return record(text=args.input, file=args.input_file, tokens=args.tokens, label=args.label)
    if command == "session":
        from tg_git.commands.plan import session_start

        return session_start(max_tokens=args.max_tokens)
    if command == "task" and args.action == "list":
        from tg_git.commands.plan import task_list

        return task_list(as_json=args.json)
    if command == "task":
        aside = getattr(args, "at", "") or getattr(args, "why", "")
        from tg_git.commands.plan import task

        return task(op=args.action, title=args.title, note=aside)
    if command == "checkpoint":
        from tg_git.commands.checkpoint import checkpoint

        return checkpoint(message=args.message)
    if command == "log":
        from tg_git.commands.checkpoint import log

        return log(as_json=args.json)
    if command == "resume":
        from tg_git.commands.resume import resume

        return resume(
            as_json=args.json, from_tag=args.from_tag, commit=args.commit,
            max_tokens=args.max_tokens, install=args.install, agent=args.agent,
        )  # fmt: skip
    if command == "verify" and args.accept:
        from tg_git.commands.accept import accept

        return accept(commits=args.accept, as_json=args.json)
    if command == "verify" and (args.range, args.max_tokens, args.max_usd) != (None,) * 3:
        from tg_git.commands.gate import verify_range

        return verify_range(spec=args.range, max_tokens=args.max_tokens, max_usd=args.max_usd,
                            as_json=args.json)  # fmt: skip
    if command == "verify":
        from tg_git.commands.resume import verify

        return verify(as_json=args.json)
    if command == "repair":
        from tg_git.commands.repair import repair

        return repair(as_json=args.json)
    if command == "note":
        from tg_git.commands.plan import note

        return note(text=args.text)
    if command == "next":
        from tg_git.commands.plan import next_step

        return next_step(text=args.text, clear=args.clear)
    if command == "doctor":
        from tg_git.commands.doctor import doctor

        return doctor()
    if command == "demo":
        from tg_git.commands.demo import demo

        return demo(keep=args.keep, language=args.language, entry=entry)
    if command == "report":
        from tg_git.commands.report import report

        return report(
            output=args.output, session=args.session, all_sessions=args.all,
            as_json=args.json, open_browser=args.open, range_spec=args.range, fmt=args.format,
        )  # fmt: skip
    if command == "metrics":
        from tg_git.commands.metrics import metrics

        return metrics(push=args.push, otlp=args.otlp, hook=args.hook)
    if command == "config":
        from tg_git.commands.config import config

        return config(
            action=args.action, key=args.key, value=getattr(args, "value", None),
            as_json=getattr(args, "json", False),
        )  # fmt: skip
    if command == "usage":
        if args.action == "import":
            from tg_git.commands.usage import usage_import

            return usage_import(
                agent=args.agent, transcript=args.transcript, session=args.session,
                as_json=args.json,
            )  # fmt: skip
        from tg_git.commands.usage import usage

        return usage(as_json=args.json)
    if command == "agent":
        if args.action in ("list", "status"):
            from tg_git.commands.agent import agent_status

            return agent_status(as_json=args.json)
        from tg_git.commands.agent import agent_setup

        return agent_setup(action=args.action, agents=args.agents, user=args.user,
                                    align=getattr(args, "align_compaction", False),
                                    shared=args.shared)  # fmt: skip
    if command == "statusline":  # `main` runs it before argparse; here for `tg-git --help`
        from tg_git.agents.statusline import run

        return run(["--agent", args.agent] + (["--no-color"] if args.no_color else []))
    error = TgGitError.said("unknown_command", command=command)
    error.code = ExitCode.USAGE
    raise error
