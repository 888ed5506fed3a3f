"""argparse for every command but ``hook``; each command is a plain function in ``commands``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tg_git import __version__
from tg_git.errors import ExitCode, TgGitError
from tg_git.ledger import TASK_OPS


class _Help(argparse.HelpFormatter):
    """Each option's help says its default, unless the default is "off" or comes from the
    config (those helps say so in words)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default:" in text or "%(default)" in text:
            return text  # the help says its default in words already
        if action.default in (None, False, "", argparse.SUPPRESS):
            return text
        if action.option_strings or action.nargs in ("?", "*"):
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    """No abbreviations (`--max-token` is a typo, not `--max-tokens`) and tg-git's help format."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _Help)
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def add_subparsers(self, **kwargs: object) -> argparse._SubParsersAction[_Parser]:  # type: ignore[override]
        kwargs.setdefault("action", _Commands)
        return super().add_subparsers(**kwargs)  # type: ignore[call-overload, no-any-return]

    def error(self, message: str) -> None:  # type: ignore[override]
        from tg_git import messages

        language = _language()
        said = messages.argparse_message(language, message)
        raise TgGitError(
            messages.text(language, "usage_error", message=said, prog=self.prog), ExitCode.USAGE
        )


def _language() -> str:
    """The language of this repository's config, for argparse's errors (English outside one)."""
    from tg_git import git
    from tg_git.config import language_of

    try:
        return language_of(git.find_repo().root)
    except TgGitError:
        return "en"


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[_Parser]
else:  # not subscriptable at run time
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """A subcommand's one-line help is also the description its own `--help` shows."""

    def add_parser(self, name: str, **kwargs: Any) -> _Parser:
        if "help" in kwargs:
            kwargs.setdefault("description", kwargs["help"])
        return super().add_parser(name, **kwargs)


def build() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tg-git",
        description="Token Guard for Git: a token budget for agent sessions, kept in git.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"tg-git {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("init", help="write config, ledger and .gitattributes; start a session")
    p.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="tokens per session (default: 200000, or the config's when set up; "
        "given on a set-up repository, it is written to the config)",
    )
    p.add_argument(
        "--language",
        choices=("en", "ko"),
        help="language of messages and checkpoints (default: en, or the config's)",
    )
    p.add_argument(
        "--new-session",
        action="store_true",
        help="on a set-up repository, also start a new session (default: keep the current one)",
    )

    p = sub.add_parser(
        "install", help="install the native git hooks (existing hooks are kept); push.followTags"
    )
    p.add_argument(
        "--pre-commit",
        action="store_true",
        help="through the pre-commit framework instead: add tg-git's `repo: local` hooks to "
        ".pre-commit-config.yaml (your lines kept) and remove tg-git's native hooks",
    )
    p = sub.add_parser("uninstall", help="remove tg-git's hooks and restore the ones it kept")
    p.add_argument(
        "--purge",
        action="store_true",
        help="also remove .tg-git/ (config, ledger) and the .gitattributes line; never history",
    )

    p = sub.add_parser("hook", help="what the git hooks run (`tg-git hook --help`)")
    p.add_argument("name", help="pre-commit, pre-merge-commit, post-commit, post-merge or pre-push")

    p = sub.add_parser("status", help="the token gauge and the level")
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = sub.add_parser("estimate", help="estimate the tokens of files, stdin or the staged change")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories; - for stdin")
    p.add_argument(
        "--staged",
        action="store_true",
        help="estimate the index against HEAD, exactly as the commit hook counts",
    )
    p.add_argument(
        "--profile",
        help="estimator profile: o200k, cl100k, claude, llama3, qwen3, "
        "seed (default: the config's profile, o200k)",
    )
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = sub.add_parser("record", help="record input tokens")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--input", metavar="TEXT", help="text the agent read (it is estimated, never stored)"
    )
    group.add_argument("--input-file", metavar="FILE", help="a file the agent read (estimated)")
    group.add_argument("--tokens", type=int, metavar="N", help="a count you already know")
    p.add_argument(
        "--label",
        default="",
        help="a short label for the ledger (default: none; the file name with --input-file)",
    )

    p = sub.add_parser("session", help="sessions")
    ss = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    start = ss.add_parser("start", help="start a new session (the plan carries over)")
    start.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="this session's budget (default: the config's max_tokens)",
    )

    p = sub.add_parser("task", help="the plan: add, start, done, block, list")
    ts = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    task_help = {
        "add": "add a pending task",
        "start": "start a task (it must have been added)",
        "done": "mark a task done",
        "block": "mark a task blocked, with its blocker",
    }
    for action in TASK_OPS:
        t = ts.add_parser(action, help=task_help.get(action))
        t.add_argument("title", help="the task's title, one line")
        if action == "start":
            t.add_argument(
                "--at", default="", help="stopping point: where the work stands (default: none)"
            )
        if action == "block":
            t.add_argument("--why", default="", help="the blocker (default: none)")
    t = ts.add_parser("list", help="the plan: tasks by status, next steps")
    t.add_argument("--json", action="store_true", help=JSON_HELP)

    p = sub.add_parser("checkpoint", help="save a checkpoint commit and tag now")
    p.add_argument(
        "--message", "-m", default="", help="a message kept in the checkpoint (default: none)"
    )

    p = sub.add_parser("log", help="list checkpoints, newest first")
    p.add_argument("--json", action="store_true", help=JSON_HELP)

    p = sub.add_parser("resume", help="restore from the newest checkpoint and start a new session")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument(
        "--from",
        dest="from_tag",
        metavar="TAG",
        help="resume from this checkpoint tag (default: the newest that loads)",
    )
    p.add_argument("--commit", action="store_true", help="commit the ledger afterwards")
    p.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="the new session's budget (default: the config's max_tokens)",
    )
    p.add_argument("--install", action="store_true", help="install this clone's hooks first")
    p.add_argument(
        "--agent",
        choices=("claude", "codex", "gemini", "antigravity", "cursor", "copilot"),
        metavar="NAME",
        help="hand the work to this agent (claude, codex, gemini, antigravity, cursor, copilot): "
        "its skill and start command are printed, and its next session start is briefed from "
        "the same checkpoint (default: none)",
    )

    p = sub.add_parser("verify", help="recompute the ledger from history; exit 6 on drift")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument(
        "--accept",
        nargs="+",
        metavar="COMMIT",
        help="record these commits as counted (the tokens their change estimates), in a commit "
        "of the ledger alone; for a commit that passed uncounted",
    )

    p = sub.add_parser(
        "repair", help="rebuild the ledger from every version in history and this clone's journal"
    )
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")

    p = sub.add_parser("note", help="critical context for the next session")
    p.add_argument("text", help="what the next session must know, one line")
    p = sub.add_parser("next", help="a next step")
    p.add_argument("text", nargs="?", help="the step (default: none; then give --clear)")
    p.add_argument("--clear", action="store_true", help="clear the next steps first")

    sub.add_parser(
        "doctor", help="check hooks, pre-commit wiring, config, ledger, tags on the remote"
    )

    p = sub.add_parser(
        "demo", help="the whole job on a built-in session, in a temporary repository"
    )
    p.add_argument("--keep", action="store_true", help="keep the demo repositories")
    p.add_argument(
        "--language",
        choices=("en", "ko"),
        default="en",
        help="language of the demo's story and messages (default: en)",
    )
    p = sub.add_parser(
        "report", help="one self-contained HTML page: burn-down, costliest, sessions"
    )
    p.add_argument("-o", "--output", metavar="FILE", help="where to write it (- for stdout)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--session", metavar="ID", help="draw this session (default: the current)")
    which.add_argument("--all", action="store_true", help="draw every session")
    p.add_argument("--json", action="store_true", help="print the numbers instead")
    p.add_argument("--open", action="store_true", help="open the page in a browser")

    p = sub.add_parser("config", help="read or change .tg-git/config.toml (validated)")
    cs = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    g = cs.add_parser("get", help="print a value (the default when unset)")
    g.add_argument("key", help=f"one of: {CONFIG_KEYS}")
    g.add_argument("--json", action="store_true", help=JSON_HELP)
    g = cs.add_parser("set", help="change a value, keeping the file's comments")
    g.add_argument("key", help=f"one of: {CONFIG_KEYS}")
    g.add_argument("value", help="the new value")

    p = sub.add_parser("usage", help="measured usage from agent logs: spend per model and turn")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    us = p.add_subparsers(dest="action", parser_class=_Parser)
    imp = us.add_parser("import", help="import what is new in this work tree's agent transcripts")
    imp.add_argument(
        "--agent",
        choices=("claude", "codex", "gemini"),
        help="only this agent's transcripts (default: every agent found)",
    )
    imp.add_argument(
        "--transcript",
        metavar="PATH",
        help="read this transcript (default: the ones of this work tree)",
    )
    imp.add_argument(
        "--session", metavar="ID", help="only the agent session with this id (default: all)"
    )
    imp.add_argument("--json", action="store_true", help=JSON_HELP)

    p = sub.add_parser(
        "agent",
        help="wire tg-git into Claude Code, Codex, Gemini CLI, Antigravity, Cursor, Copilot CLI",
    )
    ag = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    for action in ("install", "uninstall"):
        a = ag.add_parser(action, help=f"{action} tg-git's agent hooks and skill files")
        a.add_argument(
            "agents",
            nargs="*",
            metavar="AGENT",
            help="claude, codex, gemini, antigravity, cursor, copilot or all (default: all: "
            "every agent whose folder or settings are here or in your home)",
        )
        a.add_argument(
            "--user",
            action="store_true",
            help="the user's settings, not the repository's (default: the repository's)",
        )
        if action == "install":
            a.add_argument(
                "--align-compaction",
                action="store_true",
                help="also set the agent's own compaction threshold (Claude autoCompactWindow, "
                "Codex model_auto_compact_token_limit, Gemini model.compressionThreshold) "
                "between tg-git's force-save and halt; uninstall puts it back (default: off)",
            )
    for name in ("list", "status"):
        a = ag.add_parser(
            name, help="each agent: where it is wired, events, block channel, last import"
        )
        a.add_argument("--json", action="store_true", help=JSON_HELP)

    p = sub.add_parser(
        "statusline", help="an agent's status line: its JSON on stdin, both budgets in one line"
    )
    p.add_argument("--agent", choices=("claude", "antigravity", "copilot"), default="claude",
                   help="whose JSON is on stdin (default: claude)")  # fmt: skip
    p.add_argument("--no-color", action="store_true", help="no colour (NO_COLOR does the same)")
    return parser


JSON_HELP = "one JSON object on stdout (errors too: {error, code})"
CONFIG_KEYS = (
    "max_tokens, language, profile, project_name, thresholds.warning, "
    "thresholds.force_save, thresholds.halt, budget.context, budget.spend_tokens, "
    "budget.spend_usd"
)


def dispatch(argv: Sequence[str]) -> int:
    args = build().parse_args(list(argv))
    from tg_git import commands

    command = args.command
    if command == "init":
        return commands.init(
            max_tokens=args.max_tokens, language=args.language, new_session=args.new_session
        )
    if command == "install":
        return commands.install(pre_commit=args.pre_commit)
    if command == "uninstall":
        return commands.uninstall(purge=args.purge)
    if command == "hook":
        from tg_git.hooks_runner import run_hook

        return run_hook([args.name])
    if command == "status":
        return commands.status(as_json=args.json)
    if command == "estimate":
        return commands.estimate(
            paths=args.paths, staged=args.staged, profile=args.profile, as_json=args.json
        )
    if command == "record":
        return commands.record(
            text=args.input, file=args.input_file, tokens=args.tokens, label=args.label
        )
    if command == "session":
        return commands.session_start(max_tokens=args.max_tokens)
    if command == "task" and args.action == "list":
        return commands.task_list(as_json=args.json)
    if command == "task":
        note = getattr(args, "at", "") or getattr(args, "why", "")
        return commands.task(op=args.action, title=args.title, note=note)
    if command == "checkpoint":
        return commands.checkpoint(message=args.message)
    if command == "log":
        return commands.log(as_json=args.json)
    if command == "resume":
        return commands.resume(
            as_json=args.json,
            from_tag=args.from_tag,
            commit=args.commit,
            max_tokens=args.max_tokens,
            install=args.install,
            agent=args.agent,
        )
    if command == "verify" and args.accept:
        from tg_git.commands.accept import accept

        return accept(commits=args.accept, as_json=args.json)
    if command == "verify":
        return commands.verify(as_json=args.json)
    if command == "repair":
        from tg_git.commands.repair import repair

        return repair(as_json=args.json)
    if command == "note":
        return commands.note(text=args.text)
    if command == "next":
        return commands.next_step(text=args.text, clear=args.clear)
    if command == "doctor":
        return commands.doctor()
    if command == "demo":
        return commands.demo(keep=args.keep, language=args.language)
    if command == "report":
        return commands.report(
            output=args.output,
            session=args.session,
            all_sessions=args.all,
            as_json=args.json,
            open_browser=args.open,
        )
    if command == "config":
        return commands.config(
            action=args.action, key=args.key, value=getattr(args, "value", None),
            as_json=getattr(args, "json", False),
        )  # fmt: skip
    if command == "usage":
        if args.action == "import":
            return commands.usage_import(
                agent=args.agent, transcript=args.transcript, session=args.session,
                as_json=args.json,
            )  # fmt: skip
        return commands.usage(as_json=args.json)
    if command == "agent":
        if args.action in ("list", "status"):
            return commands.agent_status(as_json=args.json)
        return commands.agent_setup(action=args.action, agents=args.agents, user=args.user,
                                    align=getattr(args, "align_compaction", False))  # fmt: skip
    if command == "statusline":  # `main` runs it before argparse; here for `tg-git --help`
        from tg_git.statusline import run

        return run(["--agent", args.agent] + (["--no-color"] if args.no_color else []))
    error = TgGitError.said("unknown_command", command=command)
    error.code = ExitCode.USAGE
    raise error
