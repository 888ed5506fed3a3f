"""``python -m tg_git.agents.wrap COMMAND``: Claude Code's status line when the user already
had one. Their command runs first with the same stdin and its output is shown as it was;
tg-git's gauge follows on its own line. Their command's failure or hang never hides the
gauge, and nothing here ever exits non-zero: a status line must not break the agent's UI."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

MAX_STDIN = 1 << 20  # the status-line JSON is a few hundred bytes
THEIR_TIMEOUT = 5.0  # seconds; Claude Code cancels a slow status line anyway


def _stdin() -> bytes:
    if sys.stdin is None or sys.stdin.isatty():
        return b""
    return sys.stdin.buffer.read(MAX_STDIN)


def _theirs(command: str, data: bytes) -> bytes:
    try:
        proc = subprocess.run(
            command, shell=True, input=data, stdout=subprocess.PIPE, timeout=THEIR_TIMEOUT
        )
    except (OSError, subprocess.SubprocessError):
        return b""
    return proc.stdout


def main(argv: list[str]) -> int:
    data = _stdin()
    if argv:
        out = _theirs(argv[0], data).rstrip(b"\n")
        if out:
            sys.stdout.buffer.write(out + b"\n")
            sys.stdout.flush()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    from tg_git.main import main as tg_git_main

    with contextlib.suppress(SystemExit):
        tg_git_main(["statusline"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
