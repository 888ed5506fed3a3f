"""The command line: argparse, dispatch, and the error handler.

Commands are plain functions in ``tg_git.commands`` that take keyword arguments; they never
see the argparse namespace. ``tg-git hook NAME`` skips argparse altogether: it is the hot path.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tg_git import __version__
from tg_git.errors import ExitCode, TgGitError


def _error(message: str) -> None:
    print(f"tg-git: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:2] == ["hook", "agent"]:  # an agent's hook: stdin JSON in, its own output out
        from tg_git.agents.hook import run_agent_hook

        return run_agent_hook(args[2:])
    if args[:1] == ["hook"]:  # hot path: no argparse, no command registry
        from tg_git.hooks_runner import run_hook

        return run_hook(args[1:])
    if args in (["--version"], ["-V"]):
        print(f"tg-git {__version__}")
        return ExitCode.OK
    try:
        from tg_git.cli import dispatch

        return dispatch(args)
    except TgGitError as exc:
        _error(str(exc))
        return int(exc.code)
    except KeyboardInterrupt:
        _error("interrupted.")
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.OK
    except Exception as exc:  # a bug: one line, where to look, and a distinct exit code
        _error(
            f"internal error ({type(exc).__name__}: {exc}); please report it with "
            "`TG_GIT_DEBUG=1` output."
        )
        import os

        if os.environ.get("TG_GIT_DEBUG"):
            raise
        return ExitCode.CRASH


if __name__ == "__main__":
    raise SystemExit(main())
