"""Every command once (``REGISTRY``): its name, its arguments, its handler, whether it is a hot
path. The argument parser (``tg_git.cli.build``), the dispatch (``tg_git.cli.dispatch``) and
the hot routes (``route``, which ``tg_git.main`` runs before anything else) all come from it.

One thin module per command below; each handler takes keyword arguments and returns an exit
code. A handler is named as ``"module:function"`` under ``tg_git`` and imported only when it
runs: `tg-git CMD` imports CMD's module alone, and this file (imported on every hook, since
it routes them) imports nothing. A hot command skips argparse: its handler takes the raw
arguments after its name, and its ``failed`` handler says an error its own way.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Arguments = Callable[[Any], None]  # adds a command's arguments to its argparse parser


class Command:
    """One command. ``handler``: one ``"module:function"``, or one per value ``pick`` finds in
    the parsed arguments (``""``: none of the others); ``renames``: an argument's dest to the
    handler's keyword (``--json`` is ``as_json`` everywhere). ``hot``: how a hot path's
    streams are set (``"guarded"``, ``"json"``, ``"raw"``, ``"plain"``: as a command argparse
    parses: ``tg_git.main``), ``""`` for a command argparse parses."""

    __slots__ = ("arguments", "failed", "handler", "hot", "pick", "renames")

    def __init__(
        self,
        arguments: Arguments | None,
        handler: str | dict[str, str],
        *,
        hot: str = "",
        failed: str = "",
        pick: Callable[[Any], str] | None = None,
        **renames: str,
    ) -> None:
        self.arguments, self.handler, self.hot, self.failed = arguments, handler, hot, failed
        self.pick = pick or (lambda args: getattr(args, "action", None) or "")
        self.renames = {"json": "as_json", **renames}

    def chosen(self, args: Any) -> str:
        """The handler for the parsed ``args``."""
        if isinstance(self.handler, str):
            return self.handler
        found = self.pick(args)
        return self.handler.get(found, self.handler.get("", ""))


def resolve(dotted: str) -> Any:
    """The function ``"module:function"`` names, ``module`` under ``tg_git``."""
    module, _, name = dotted.partition(":")
    return getattr(__import__(f"tg_git.{module}", fromlist=[name]), name)


def handlers(name: str) -> list[str]:
    """Every handler command ``name`` may run."""
    handler = REGISTRY[name].handler
    return [handler] if isinstance(handler, str) else sorted(set(handler.values()))


def route(args: list[str]) -> tuple[Command | None, list[str]]:
    """The hot command ``args`` start with (the longest name), and the arguments after its
    name; ``(None, args)`` for a command argparse parses."""
    for words in HOT:
        if args[: len(words)] == words:
            return REGISTRY[" ".join(words)], args[len(words) :]
    return None, args


def _switches(*flags: str) -> Arguments:
    """The arguments of a command whose options are on/off ``flags`` alone."""

    def arguments(p: Any) -> None:
        for flag in flags:
            p.add_argument(flag, action="store_true")

    return arguments


def _one(*names: str, **kwargs: Any) -> Arguments:
    """The arguments of a command that takes one: ``add_argument(*names, **kwargs)``."""
    return lambda p: p.add_argument(*names, **kwargs)


def _init(p: Any) -> None:
    p.add_argument("--max-tokens", type=int, metavar="N")
    p.add_argument("--language", choices=("en", "ko"))
    p.add_argument("--new-session", action="store_true")


def _estimate(p: Any) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH")
    p.add_argument("--staged", action="store_true")
    p.add_argument("--profile")
    p.add_argument("--json", action="store_true")


def _record(p: Any) -> None:
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--input", metavar="TEXT")
    group.add_argument("--input-file", metavar="FILE")
    group.add_argument("--tokens", type=int, metavar="N")
    p.add_argument("--label", default="")


def _session(p: Any) -> None:
    ss = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    ss.add_parser("start").add_argument("--max-tokens", type=int, metavar="N")


def _task(p: Any) -> None:
    from tg_git.domain.eventlog import TASK_OPS  # lazy: 2.1 ms

    ts = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    for action in TASK_OPS:
        t = ts.add_parser(action)
        t.add_argument("title")
        if action == "start":
            t.add_argument("--at", default="")
        if action == "block":
            t.add_argument("--why", default="")
    ts.add_parser("list").add_argument("--json", action="store_true")


def _resume(p: Any) -> None:
    _switches("--json")(p)
    p.add_argument("--from", dest="from_tag", metavar="TAG")
    _switches("--commit")(p)
    p.add_argument("--max-tokens", type=int, metavar="N")
    _switches("--install")(p)
    agents = ("claude", "codex", "gemini", "antigravity", "cursor", "copilot")
    p.add_argument("--agent", choices=agents, metavar="NAME")


def _verify(p: Any) -> None:
    p.add_argument("--json", action="store_true")
    p.add_argument("--accept", nargs="+", metavar="COMMIT")
    p.add_argument("--range", metavar="A..B")
    p.add_argument("--max-tokens", type=int, metavar="N")
    p.add_argument("--max-usd", type=float, metavar="X")


def _verify_pick(args: Any) -> str:
    """`verify --accept`, `verify` with a range or a limit (the CI gate), or plain `verify`."""
    if args.accept:
        return "accept"
    return "range" if (args.range, args.max_tokens, args.max_usd) != (None,) * 3 else ""


def _next(p: Any) -> None:
    p.add_argument("text", nargs="?")
    p.add_argument("--clear", action="store_true")


def _demo(p: Any) -> None:
    p.add_argument("--keep", action="store_true")
    p.add_argument("--language", choices=("en", "ko"), default="en")


def _report(p: Any) -> None:
    p.add_argument("-o", "--output", metavar="FILE")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--session", metavar="ID")
    which.add_argument("--all", action="store_true")
    _switches("--json", "--open")(p)
    p.add_argument("--range", metavar="A..B")
    p.add_argument("--format", choices=("html", "markdown"), default=None)


def _metrics(p: Any) -> None:
    p.add_argument("--push", metavar="URL")
    p.add_argument("--otlp", metavar="URL")
    p.add_argument("--hook", choices=("on", "off"))


def _config(p: Any) -> None:
    cs = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    g = cs.add_parser("get")
    g.add_argument("key")
    g.add_argument("--json", action="store_true")
    g.set_defaults(value=None)
    g = cs.add_parser("set")
    g.add_argument("key")
    g.add_argument("value")
    g.set_defaults(json=False)


def _usage(p: Any) -> None:
    p.add_argument("--json", action="store_true")
    imp = p.add_subparsers(dest="action", parser_class=type(p)).add_parser("import")
    imp.add_argument("--agent", choices=("claude", "codex", "gemini", "opencode"))
    imp.add_argument("--transcript", metavar="PATH")
    imp.add_argument("--session", metavar="ID")
    imp.add_argument("--json", action="store_true")


def _agent(p: Any) -> None:
    ag = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    for action in ("install", "uninstall"):
        a = ag.add_parser(action)
        a.add_argument("agents", nargs="*", metavar="AGENT")
        _switches("--user", "--shared", *(["--align-compaction"] * (action == "install")))(a)
    for name in ("list", "status"):
        ag.add_parser(name).add_argument("--json", action="store_true")


def _statusline(p: Any) -> None:
    p.add_argument("--agent", choices=("claude", "antigravity", "copilot"), default="claude")
    p.add_argument("--no-color", action="store_true")


_C = Command
_PLAN = "commands.plan:"
# Every command, in the order `tg-git --help` lists them; a name of two words is a hot route
# below the first (argparse never sees it).
REGISTRY: dict[str, Command] = {
    "init": _C(_init, "commands.init:init"),
    "install": _C(_switches("--pre-commit"), "commands.install:install"),
    "uninstall": _C(_switches("--purge"), "commands.install:uninstall"),
    "hook": _C(
        _one("name"), "githooks.runner:run_hook", hot="guarded", failed="githooks.runner:failed"
    ),
    "hook agent": _C(None, "agents.hook:run_agent_hook", hot="json", failed="agents.hook:failed"),
    "status": _C(_switches("--json"), "commands.status:status"),
    "estimate": _C(_estimate, "commands.estimate:estimate"),
    "record": _C(_record, _PLAN + "record", input="text", input_file="file"),
    "session": _C(_session, _PLAN + "session_start"),
    "task": _C(
        _task, {"list": _PLAN + "task_list", "": _PLAN + "task"}, action="op", at="note", why="note"
    ),
    "checkpoint": _C(_one("--message", "-m", default=""), "commands.checkpoint:checkpoint"),
    "log": _C(_switches("--json"), "commands.checkpoint:log"),
    "resume": _C(_resume, "commands.resume:resume"),
    "verify": _C(
        _verify,
        {
            "accept": "commands.accept:accept",
            "range": "commands.gate:verify_range",
            "": "commands.resume:verify",
        },
        pick=_verify_pick,
        accept="commits",
        range="spec",
    ),
    "repair": _C(_switches("--json"), "commands.repair:repair"),
    "note": _C(_one("text"), _PLAN + "note"),
    "next": _C(_next, _PLAN + "next_step"),
    "doctor": _C(_switches(), "commands.doctor:doctor"),
    "demo": _C(_demo, "commands.demo:demo"),
    "report": _C(
        _report,
        "commands.report:report",
        all="all_sessions",
        open="open_browser",
        range="range_spec",
        format="fmt",
    ),
    "metrics": _C(_metrics, "commands.metrics:metrics"),
    "config": _C(_config, "commands.config:config"),
    "usage": _C(_usage, {"import": "commands.usage:usage_import", "": "commands.usage:usage"}),
    "usage import": _C(None, "commands.usage:usage_import_args", hot="plain"),
    "agent": _C(
        _agent,
        {
            "list": "commands.agent:agent_status",
            "status": "commands.agent:agent_status",
            "": "commands.agent:agent_setup",
        },
        align_compaction="align",
    ),
    "statusline": _C(
        _statusline, "agents.statusline:run", hot="raw", failed="agents.statusline:failed"
    ),
}

# The hot routes, longest first: `tg-git hook agent ...` before `tg-git hook ...`.
HOT = sorted((name.split() for name, c in REGISTRY.items() if c.hot), key=len, reverse=True)
