"""The JSON an agent writes on a hook's or the status line's stdin: one object, read once,
bounded ({} for none, too much, or not a JSON object). Light on purpose: the status line and
every hook start here, so it loads no more than the JSON accelerator."""

from __future__ import annotations

import sys

from tg_git.domain import jsonfast

MAX_STDIN = 4 << 20


def read_payload() -> dict[str, object]:
    if sys.stdin is None or sys.stdin.isatty():
        return {}
    raw = sys.stdin.buffer.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        return {}
    try:
        data = jsonfast.loads(raw.decode("utf-8", "replace")) if raw.strip() else {}
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}
