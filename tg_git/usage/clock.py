"""The clock of the agent that wrote a transcript, against the machine's.

The session's start is stamped by this machine's clock; a transcript's lines by the agent's,
which may be off by hours (a container or VM whose clock drifted, a remote host writing to
a shared folder, a local time written without its zone). The file's modification time is
the machine's clock again, and it is the moment the last line was written: the difference
between the two is the writer's offset, and a line is the session's when its time, moved
by that offset, is not before the start. It is only needed for lines no import of this
session has read yet (those past its offset are new whatever they say), and only an
offset past ``TOLERANCE`` is taken: a few minutes are an agent's own delay (a Gemini
message keeps the time it began at), not a wrong clock.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

from tg_git.usage.records import timestamp

TAIL = 256 << 10  # the last lines of a transcript: where its last stamp is
TOLERANCE = 600  # seconds
_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_STAMP = re.compile(rb'"timestamp"\s*:\s*"([^"\\]{1,40})"')


def session_start(path: Path, info: os.stat_result, started: str, document: bool) -> str:
    """``started`` (the ledger's UTC format) on the clock of whoever wrote ``path``: the
    time before which its lines are from before the session."""
    offset = _offset(path, info, document)
    if not offset:
        return started
    return datetime.fromtimestamp(_epoch(started) - offset, timezone.utc).strftime(_FORMAT)


def _offset(path: Path, info: os.stat_result, document: bool) -> float:
    """Seconds the machine's clock is ahead of the writer's (0: within the tolerance, or
    nothing to tell by)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(max(0, info.st_size - TAIL))
            tail = fh.read(TAIL)
    except OSError:
        return 0.0
    cut = info.st_size > TAIL  # the tail's first line may be part of one
    at = _last_document_stamp(tail) if document else _last_line_stamp(tail, cut)
    if not at:
        return 0.0
    offset = info.st_mtime - _epoch(at)
    return offset if abs(offset) > TOLERANCE else 0.0


def _epoch(at: str) -> float:
    return datetime.strptime(at, _FORMAT).replace(tzinfo=timezone.utc).timestamp()


def _last_line_stamp(tail: bytes, cut: bool) -> str:
    """The time of the last complete JSON line of ``tail`` that has one of its own (the
    writer's clock when it wrote the file last); "" when none does. ``cut``: the first
    line is not whole."""
    lines = tail.split(b"\n")
    for line in reversed(lines[1:] if cut else lines):
        if b'"timestamp"' not in line:
            continue
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            continue  # a half-written last line
        at = timestamp(obj.get("timestamp")) if isinstance(obj, dict) else ""
        if at:
            return at
    return ""


def _last_document_stamp(tail: bytes) -> str:
    """The last time written in a whole-document chat (messages in order: its newest)."""
    found = _STAMP.findall(tail)
    return timestamp(found[-1].decode("ascii", "replace")) if found else ""
