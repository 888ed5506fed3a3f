"""The command line: argparse, dispatch, and the error handler.

Commands are plain functions in ``tg_git.commands`` that take keyword arguments; they never
see the argparse namespace. ``tg-git hook NAME`` skips argparse altogether: it is the hot path.
Everything printed goes through ``term.CleanStream`` (control characters stripped, Markdown
rendered on a terminal). With ``--json`` an error is one JSON object on stdout,
``{"error": ..., "code": ...}``, and the exit code still says what happened.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tg_git import __version__
from tg_git.domain.errors import ExitCode, TgGitError

TYPE_CHECKING = False  # `import typing` costs a few ms that `tg-git --version` need not pay
if TYPE_CHECKING:
    from typing import Any


def _error(message: str, code: int, as_json: bool) -> None:
    if as_json:
        import json

        print(json.dumps({"error": message, "code": int(code)}, ensure_ascii=False))
    else:
        print(f"tg-git: {message}", file=sys.stderr)


class _Said:
    """A message in the repository's language, for the errors that reach ``main`` from
    anywhere (looked up only then: the language costs a git process)."""

    def language(self) -> str:
        try:
            from tg_git.cli import _language

            return _language()
        except Exception:  # the error may be that git itself cannot run
            return "en"

    def __call__(self, key: str, **values: object) -> str:
        from tg_git.text import messages

        return messages.text(self.language(), key, **values)


_said = _Said()


class _Guarded:
    """stderr for hooks off a terminal: text goes out as is unless it holds a character
    Python does not call printable (controls, bidi marks, undecodable bytes, tab and newline
    aside), which ``term.CleanStream``, the one sanitiser, then removes."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        if not text.replace("\n", "").replace("\t", "").isprintable():
            from tg_git.text import term

            return term.CleanStream(self.inner).write(text)
        return int(self.inner.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _json_escapes(exc: UnicodeError) -> tuple[str, int]:
    """A codec error handler: what the stream cannot encode, as JSON ``\\uXXXX`` escapes
    (surrogate pairs above U+FFFF), which read back to the same text."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start : exc.end]:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


def _encodable(stream: Any, as_json: bool) -> None:
    """A stream that is not UTF-8 (``PYTHONIOENCODING=ascii``, ``LC_ALL=C``) writes what it
    cannot encode as ``?`` (JSON: as escapes) instead of raising mid-command."""
    encoding = str(getattr(stream, "encoding", "") or "").lower().replace("_", "-")
    if encoding in ("utf-8", "utf8") or not hasattr(stream, "reconfigure"):
        return
    if as_json:
        import codecs

        codecs.register_error("tg-git-json", _json_escapes)
    import contextlib

    with contextlib.suppress(ValueError, OSError):  # closed or detached: nothing to write to
        stream.reconfigure(errors="tg-git-json" if as_json else "replace")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:2] == ["hook", "agent"]:  # an agent's hook: stdin JSON in, its own output out
        from tg_git.agents.hook import run_agent_hook

        _encodable(sys.stdout, as_json=True)
        _encodable(sys.stderr, as_json=False)
        return run_agent_hook(args[2:])
    if args[:1] == ["statusline"]:  # an agent's status line: stdin JSON in, one line out
        from tg_git.agents.statusline import run

        return run(args[1:])
    out, err = sys.stdout, sys.stderr
    as_json = "--json" in args and args[:1] != ["hook"]
    _encodable(out, as_json)
    _encodable(err, as_json=False)
    if args[:1] == ["hook"] and not (err is not None and err.isatty()):
        # A git hook's output read by a program (an agent, CI, a GUI): no Markdown to render,
        # so the terminal module loads only when a line holds something to strip.
        if err is not None:
            sys.stderr = _Guarded(err)  # type: ignore[assignment]
        try:
            return _main(args, as_json)
        finally:
            sys.stderr = err
    from tg_git.text import term

    if out is not None:
        sys.stdout = term.CleanStream(out, render_markdown=not as_json)  # type: ignore[assignment]
    if err is not None:
        sys.stderr = term.CleanStream(err)  # type: ignore[assignment]
    try:
        return _main(args, as_json)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(args: list[str], as_json: bool) -> int:
    if args[:1] == ["hook"]:  # hot path: no argparse, no command registry
        if args[1:2] in (["-h"], ["--help"]):
            from pathlib import Path

            from tg_git.repo.configfile import language_of
            from tg_git.text import messages

            print(messages.text(language_of(Path.cwd()), "help.hook_page"))
            return ExitCode.OK
        from tg_git.githooks.runner import run_hook

        return run_hook(args[1:])
    if args in (["--version"], ["-V"]):
        print(f"tg-git {__version__}")
        return ExitCode.OK
    try:
        from tg_git.cli import dispatch

        return dispatch(args, entry=main)
    except TgGitError as exc:
        _error(exc.text(_said.language()) if exc.key else str(exc), exc.code, as_json)
        return int(exc.code)
    except KeyboardInterrupt:
        _error(_said("interrupted"), ExitCode.INTERRUPTED, as_json)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.OK
    except OSError as exc:  # a file or folder tg-git could not read or write
        from tg_git.domain.errors import os_fix

        where = f" ({exc.filename})" if exc.filename else ""
        fix = os_fix(exc, _said.language())
        _error(f"{exc.strerror or exc}{where}; {fix}.", ExitCode.ERROR, as_json)
        return ExitCode.ERROR
    except Exception as exc:  # a bug: one line, where to look, and a distinct exit code
        _error(_said("crash", error=f"{type(exc).__name__}: {exc}"), ExitCode.CRASH, as_json)
        import os

        if os.environ.get("TG_GIT_DEBUG"):
            raise
        return ExitCode.CRASH


if __name__ == "__main__":
    raise SystemExit(main())
