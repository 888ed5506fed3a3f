"""argparse for every command but ``hook``; each command is a plain function in ``commands``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from tg_git import __version__
from tg_git.errors import ExitCode, TgGitError
from tg_git.ledger import TASK_OPS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise TgGitError(f"{message}; see `{self.prog} --help`.", ExitCode.USAGE)


def build() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tg-git",
        description="Token Guard for Git: a token budget for agent sessions, kept in git.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"tg-git {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("init", help="write config, ledger and .gitattributes; start a session")
    p.add_argument("--max-tokens", type=int)
    p.add_argument("--language", choices=("en", "ko"))

    sub.add_parser("install", help="install the native git hooks (existing hooks are kept)")
    sub.add_parser("uninstall", help="remove tg-git's hooks and restore the ones it kept")

    p = sub.add_parser("hook", help="what the git hooks run")
    p.add_argument("name")

    p = sub.add_parser("status", help="the token gauge and the level")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("estimate", help="estimate the tokens of files, stdin or the staged change")
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--staged", action="store_true")
    p.add_argument("--profile")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("record", help="record input tokens")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--input", metavar="TEXT")
    group.add_argument("--input-file", metavar="FILE")
    group.add_argument("--tokens", type=int)
    p.add_argument("--label", default="")

    p = sub.add_parser("session", help="sessions")
    ss = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    start = ss.add_parser("start", help="start a new session (the plan carries over)")
    start.add_argument("--max-tokens", type=int)

    p = sub.add_parser("task", help="the plan: add, start, done, block")
    ts = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    for action in TASK_OPS:
        t = ts.add_parser(action)
        t.add_argument("title")
        if action == "start":
            t.add_argument("--at", default="", help="stopping point: where the work stands")
        if action == "block":
            t.add_argument("--why", default="", help="the blocker")

    p = sub.add_parser("checkpoint", help="save a checkpoint commit and tag now")
    p.add_argument("--message", "-m", default="")

    p = sub.add_parser("log", help="list checkpoints, newest first")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("resume", help="restore from the newest checkpoint and start a new session")
    p.add_argument("--json", action="store_true")
    p.add_argument("--from", dest="from_tag", metavar="TAG")
    p.add_argument("--commit", action="store_true", help="commit the ledger afterwards")
    p.add_argument("--max-tokens", type=int)

    p = sub.add_parser("verify", help="recompute the ledger from history; exit 6 on drift")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("note", help="critical context for the next session")
    p.add_argument("text")
    p = sub.add_parser("next", help="a next step")
    p.add_argument("text", nargs="?")
    p.add_argument("--clear", action="store_true")

    p = sub.add_parser("usage", help="measured usage from agent logs: spend per model and turn")
    p.add_argument("--json", action="store_true")
    us = p.add_subparsers(dest="action", parser_class=_Parser)
    imp = us.add_parser("import", help="import what is new in this work tree's agent transcripts")
    imp.add_argument("--agent", choices=("claude", "codex", "gemini"))
    imp.add_argument("--transcript", metavar="PATH")
    imp.add_argument("--session", metavar="ID", help="only the agent session with this id")
    imp.add_argument("--json", action="store_true")

    p = sub.add_parser("agent", help="wire tg-git into Claude Code, Codex, Gemini CLI, Antigravity")
    ag = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    for action in ("install", "uninstall"):
        a = ag.add_parser(action, help=f"{action} tg-git's agent hooks and skill files")
        a.add_argument("agents", nargs="*", metavar="AGENT",
                       help="claude, codex, gemini, antigravity or all (default: all)")
        a.add_argument("--user", action="store_true", help="the user's settings, not the repo's")
    a = ag.add_parser("status", help="which agents are wired where; the last import per agent")
    a.add_argument("--json", action="store_true")
    return parser


def dispatch(argv: Sequence[str]) -> int:
    args = build().parse_args(list(argv))
    from tg_git import commands

    command = args.command
    if command == "init":
        return commands.init(max_tokens=args.max_tokens, language=args.language)
    if command == "install":
        return commands.install()
    if command == "uninstall":
        return commands.uninstall()
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
        )
    if command == "verify":
        return commands.verify(as_json=args.json)
    if command == "note":
        return commands.note(text=args.text)
    if command == "next":
        return commands.next_step(text=args.text, clear=args.clear)
    if command == "usage":
        if args.action == "import":
            return commands.usage_import(
                agent=args.agent, transcript=args.transcript, session=args.session,
                as_json=args.json,
            )  # fmt: skip
        return commands.usage(as_json=args.json)
    if command == "agent":
        if args.action == "status":
            return commands.agent_status(as_json=args.json)
        return commands.agent_setup(action=args.action, agents=args.agents, user=args.user)
    raise TgGitError(f"unknown command {command!r}", ExitCode.USAGE)
