"""argparse for the commands of the registry (``tg_git.commands.REGISTRY``): each parser, its
help in the repository's language, and the dispatch to a command's handler."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tg_git import __version__
from tg_git.commands import REGISTRY, resolve
from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.text.helpformat import Help as _Help


class _Parser(argparse.ArgumentParser):
    """No abbreviations (`--max-token` is a typo, not `--max-tokens`); its help said in the
    repository's language (the texts: messages area ``help``)."""

    language = "en"  # the language its helps are in (``_localise_helps``)

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def add_subparsers(self, **kwargs: object) -> argparse._SubParsersAction[_Parser]:  # type: ignore[override]
        kwargs.setdefault("action", _Commands)
        return super().add_subparsers(**kwargs)  # type: ignore[call-overload, no-any-return]

    def format_help(self) -> str:
        language = _language()
        if language != self.language:  # English is said when the parser is built
            _localise_helps(self, language)
        return super().format_help()

    def _get_formatter(self) -> argparse.HelpFormatter:
        from tg_git.text import messages  # lazy: 0.3 ms

        return _Help(self.prog, messages.text(self.language, "argparse.usage"))

    def error(self, message: str) -> None:  # type: ignore[override]
        from tg_git.text import messages  # lazy: 0.3 ms

        language = _language()
        argparse_text = messages.argparse_message(language, message)
        raise TgGitError(
            messages.text(language, "usage_error", message=argparse_text, prog=self.prog),
            ExitCode.USAGE,
        )


def _language() -> str:
    """The language of this repository's config, for argparse's errors and help (the
    locale's outside one: ``messages.locale_language``)."""
    from tg_git.repo import git  # lazy: 7.5 ms
    from tg_git.repo.configfile import language_of  # lazy: 8.3 ms

    try:
        return language_of(git.find_repo().root)
    except TgGitError:
        from tg_git.text.messages import locale_language  # lazy: 0.3 ms

        return locale_language()


if TYPE_CHECKING:
    from tg_git.demo import Entry

    _SubParsers = argparse._SubParsersAction[_Parser]
else:  # not subscriptable at run time
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """Every subcommand is listed in its parent's help (its line: ``_localise_helps``)."""

    def add_parser(self, name: str, **kwargs: Any) -> _Parser:
        kwargs.setdefault("help", "")
        return super().add_parser(name, **kwargs)


def _localise_helps(parser: _Parser, language: str) -> None:
    """Each help of ``parser`` in ``language``: its description, its subcommands' lines, its
    arguments' helps (with each default not said in words), argparse's section titles.
    Keys: ``help.COMMAND`` and ``help.COMMAND.DEST``, ``*`` for any one command (see
    ``tg_git/text/messages/help.py``); an option no key names keeps its own help."""
    from tg_git.text import messages  # lazy: 0.3 ms

    def help_text(*keys: str) -> str | None:
        found = next((key for key in keys if messages.has(key)), None)
        return messages.text(language, found, keys=CONFIG_KEYS) if found else None

    parts = parser.prog.split()[1:]
    path = ".".join(parts) or "tg-git"
    parser.language = language
    parser.description = help_text(f"help.{path}") or parser.description
    parser._positionals.title = messages.text(language, "argparse.positionals")
    parser._optionals.title = messages.text(language, "argparse.options")
    default = messages.text(language, "argparse.default")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if action.metavar:  # tg-git's own COMMAND
                action.metavar = messages.text(language, "argparse.command")
            for line in action._choices_actions:
                line.help = help_text(f"help.{'.'.join([*parts, line.dest])}") or line.help
            continue
        _say_placeholder(action, language)
        anyone = ".".join([*parts[:-1], "*", action.dest])
        text = help_text(f"help.{path}.{action.dest}", f"help.{anyone}", f"help.*.{action.dest}")
        if text is not None and _says_default(action, text, default):
            text += default
        action.help = text or action.help


def _say_placeholder(action: argparse.Action, language: str) -> None:
    """What the help shows for an argument's value, in ``language`` (``metavar.NAME``, NAME
    as English shows it: ``N``, ``TEXT``, ``title``); choices in braces stay as they are."""
    from tg_git.text import messages  # lazy: 0.3 ms

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


def build(command: str | None = None) -> argparse.ArgumentParser:
    """Every command's parser, or, for ``command`` (a name in ``REGISTRY``), the top one with
    that command's alone: what `tg-git CMD ...` parses with, built in a fraction of the time
    (its help, errors and exit codes are the same; only `tg-git -h` lists the commands)."""
    parser = _Parser(prog="tg-git")
    parser.add_argument("-V", "--version", action="version", version=f"tg-git {__version__}")
    # COMMAND, not the 23 names in braces (one line three terminals wide); the help lists them.
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )
    for name, entry in REGISTRY.items():
        if command in (None, name) and entry.arguments is not None:
            entry.arguments(sub.add_parser(name))
    for each in _walk(parser):
        _localise_helps(each, "en")
    return parser


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
    """Run one command; ``entry`` is the console script's ``main`` (the demo runs it). The
    handler gets the parsed arguments it names (its keywords; ``entry`` too)."""
    known = argv[0] if argv and argv[0] in REGISTRY else None  # else argparse says which are
    args = build(known).parse_args(list(argv))
    command = REGISTRY[args.command]
    handler = resolve(command.chosen(args))
    given: dict[str, object] = {command.renames.get(k, k): v for k, v in vars(args).items()}
    given["entry"] = entry
    code = handler.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    return int(handler(**{name: given[name] for name in names if name in given}))
