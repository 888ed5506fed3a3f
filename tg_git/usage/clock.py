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
import math
import os
import re
import time
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
    begun = epoch(started)
    if not offset or begun is None:
        return started
    return utc(begun - offset)


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
    moment = epoch(at) if at else None
    if moment is None:
        return 0.0
    offset = info.st_mtime - moment
    return offset if abs(offset) > TOLERANCE else 0.0


def epoch(at: str) -> int | None:
    """Seconds since the epoch of the ledger's "%Y-%m-%dT%H:%M:%SZ"; None for anything else,
    or a time that names no moment (hour 25, the 30th of February). Counted by hand: the
    ``datetime`` and ``strptime`` modules cost an import ~2 and ~5 ms."""
    if len(at) != 20 or at[4] + at[7] + at[10] + at[13] + at[16] + at[19] != "--T::Z":
        return None
    digits = at[:4] + at[5:7] + at[8:10] + at[11:13] + at[14:16] + at[17:19]
    if not (digits.isascii() and digits.isdigit()):
        return None
    year, month, day = int(digits[:4]), int(digits[4:6]), int(digits[6:8])
    hour, minute, second = int(digits[8:10]), int(digits[10:12]), int(digits[12:14])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not (1 <= month <= 12 and 1 <= day <= _DAYS[month] + (month == 2 and leap)):
        return None
    if year < 1 or hour > 23 or minute > 59 or second > 59:
        return None
    shifted = year - (month <= 2)  # days from the civil date, years starting in March
    era = shifted // 400
    of_era = shifted - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = era * 146097 + of_era * 365 + of_era // 4 - of_era // 100 + of_year - 719468
    return days * 86400 + hour * 3600 + minute * 60 + second


_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def utc(seconds: float) -> str:
    """Seconds since the epoch in the ledger's format, as ``datetime.fromtimestamp`` (to the
    nearest microsecond, half to even) and ``strftime`` write them."""
    fraction, whole = math.modf(seconds)
    micro = round(fraction * 1e6)
    whole += (micro >= 1_000_000) - (micro < 0)
    return time.strftime(_FORMAT, time.gmtime(whole))


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
