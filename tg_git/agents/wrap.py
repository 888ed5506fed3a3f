"""Claude Code's status line when the user already had one: ``PYTHON -E -c '... from
tg_git.agents.wrap import main ...' tg_git COMMAND`` (isolated from the work tree as every
hook command is; ``tg_git.agents.formats``). Their command runs first with the same stdin
and its output is shown as it was; tg-git's gauge follows on its own line. Their command's
failure or hang never hides the gauge, and nothing here ever exits non-zero: a status line
must not break the agent's UI."""

from __future__ import annotations

import contextlib
import io
import sys

from tg_git.repo import git

MAX_STDIN = 1 << 20  # the status-line JSON is a few hundred bytes
THEIR_TIMEOUT = 5.0  # seconds; Claude Code cancels a slow status line anyway


def _stdin() -> bytes:
    if sys.stdin is None or sys.stdin.isatty():
        return b""
    return sys.stdin.buffer.read(MAX_STDIN)


def main(argv: list[str]) -> int:
    data = _stdin()
    if argv:
        out = git.run_command(argv[0], data, THEIR_TIMEOUT).rstrip(b"\n")
        if out:
            sys.stdout.buffer.write(out + b"\n")
            sys.stdout.flush()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    from tg_git.agents.statusline import failed, run  # lazy: 0.9 ms; as `tg-git statusline` runs it

    with contextlib.suppress(SystemExit):
        try:
            run([])
        except Exception as exc:  # this process's own entry: the status line's error path
            failed([], "crash", str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
