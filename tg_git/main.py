"""The command line's entry: the streams, the route, and the one error path (``_failed``).

Every command is in ``tg_git.commands.REGISTRY``. A hot command (`tg-git hook NAME`, `tg-git
hook agent ...`, `tg-git statusline`) skips argparse altogether; any other goes through
``tg_git.cli.dispatch``. Everything printed goes through ``term.CleanStream`` (control characters stripped, Markdown
rendered on a terminal). With ``--json`` an error is one JSON object on stdout,
``{"error": ..., "code": ...}``, and the exit code still says what happened.
"""

from __future__ import annotations

import codecs
import gc
import json
import os
import sys
from collections.abc import Sequence

from tg_git import __version__
from tg_git.domain.errors import ExitCode, TgGitError, os_fix, os_reason

TYPE_CHECKING = False  # `import typing` costs a few ms that `tg-git --version` need not pay
if TYPE_CHECKING:
    from typing import Any


class _Guarded:
    """stderr for hooks off a terminal: text goes out as is unless it holds a character
    Python does not call printable (controls, bidi marks, undecodable bytes, tab and newline
    aside), which ``term.CleanStream``, the one sanitiser, then removes."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        if not text.replace("\n", "").replace("\t", "").isprintable():
            from tg_git.text import term  # lazy: 4.8 ms

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
        codecs.register_error("tg-git-json", _json_escapes)
    import contextlib  # lazy: 0.9 ms

    with contextlib.suppress(ValueError, OSError):  # closed or detached: nothing to write to
        stream.reconfigure(errors="tg-git-json" if as_json else "replace")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from tg_git.commands import resolve, route  # lazy: 0.4 ms

    command, rest = route(args)  # a hot command (a hook, the status line): no argparse
    hot = command.hot if command is not None else ""
    out, err = sys.stdout, sys.stderr
    plain = hot in ("", "plain")  # streams and --json as a command argparse parses
    as_json = hot == "json" or ("--json" in args and plain)
    if hot != "raw":
        _encodable(out, as_json)
        _encodable(err, as_json=False)
    if hot == "guarded" and not (err is not None and err.isatty()):
        # A git hook's output read by a program (an agent, CI, a GUI): no Markdown to render,
        # so the terminal module loads only when a line holds something to strip.
        sys.stderr = _Guarded(err)  # type: ignore[assignment]
    elif plain or hot == "guarded":
        from tg_git.text import term  # lazy: 4.8 ms

        sys.stdout = term.CleanStream(out, render_markdown=not as_json)  # type: ignore[assignment]
        sys.stderr = term.CleanStream(err)  # type: ignore[assignment]
    try:
        if command is not None:
            return int(resolve(command.chosen(rest))(rest))
        if args in (["--version"], ["-V"]):
            print(f"tg-git {__version__}")
            return ExitCode.OK
        from tg_git.cli import dispatch  # lazy: 8.7 ms

        return dispatch(args, entry=main)
    except (Exception, KeyboardInterrupt) as exc:
        if isinstance(exc, BrokenPipeError) and plain:
            return ExitCode.OK  # the reader went away: nothing left to say it to
        return _failed(exc, command.failed if command else "", rest, as_json)
    finally:
        sys.stdout, sys.stderr = out, err
        if argv is None:  # the process's own command: it ends here
            _ending()


def _ending() -> None:
    """The objects made so far moved out of the cyclic collector's sight: the interpreter's
    last full pass as it ends, over the tens of thousands a command loads (modules,
    functions, what it read), finds no garbage (~4 ms of a ``usage import``); what it frees
    it frees by reference counts, as before (every file is written and closed by then)."""
    gc.freeze()


def _failed(exc: BaseException, failed: str, args: list[str], as_json: bool) -> int:
    """The one error path: ``exc`` as a sentence in the repository's language, said by the hot
    command's own ``failed`` handler (a hook never blocks what it runs for: it says so) or as
    one line (``--json``: one object on stdout, ``{"error": ..., "code": ...}``); the exit
    code. ``TG_GIT_DEBUG`` raises a bug after it is said."""
    from tg_git.text import messages  # lazy: 0.3 ms

    language = _language(here=bool(failed))
    kind, code = "error", ExitCode.ERROR
    if isinstance(exc, KeyboardInterrupt):
        kind, code, reason = (
            "interrupted",
            ExitCode.INTERRUPTED,
            messages.text(language, "interrupted"),
        )
    elif isinstance(exc, TgGitError):
        code, reason = exc.code, exc.text(language)
    elif isinstance(exc, OSError):  # a file or folder tg-git could not read or write
        where = f" ({exc.filename})" if exc.filename else ""
        reason = f"{os_reason(exc).text(language)}{where}; {os_fix(exc, language)}"
    else:  # a bug: one line, where to look, and a distinct exit code
        kind, code, reason = "crash", ExitCode.CRASH, f"{type(exc).__name__}: {exc}"
    if failed:
        from tg_git.commands import resolve  # lazy: 0.4 ms

        code = resolve(failed)(args, kind, reason)
    else:
        said = messages.text(language, "crash", error=reason) if kind == "crash" else reason
        said += "." if isinstance(exc, OSError) else ""
        if as_json:
            print(json.dumps({"error": said, "code": int(code)}, ensure_ascii=False))
        else:
            print(f"tg-git: {said}", file=sys.stderr)

    if kind == "crash" and os.environ.get("TG_GIT_DEBUG"):
        raise exc
    return int(code)


def _language(here: bool) -> str:
    """The repository's language for an error (``here``: the config of the current folder,
    which costs no process, as a hook runs at the top of its work tree); English when even
    that cannot be read (the error may be that git itself cannot run)."""
    try:
        if here:
            from pathlib import Path  # lazy: 4.9 ms

            from tg_git.repo.configfile import language_of  # lazy: 7.1 ms

            return language_of(Path.cwd())
        from tg_git.cli import _language as language  # lazy: 8.7 ms

        return language()
    except Exception:
        return "en"


if __name__ == "__main__":
    raise SystemExit(main())
