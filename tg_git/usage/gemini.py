"""Gemini CLI chats (``tmp/<project>/chats/session-*.jsonl``, older ones one ``.json``).

A message line is written again with the same ``id`` once its tokens arrive: the ``key``
lets the importer keep one copy. ``input`` includes ``cached``; ``total`` is input + output
+ thoughts + tool, which is also the request's context fill.
"""

from __future__ import annotations

import json
from typing import Any

from tg_git.usage.records import Batch, Count, counts, ident, model_name, timestamp

NEEDLE = b'"tokens"'
_NAMES = ("input", "cached", "output", "thoughts", "tool")


def parse(data: bytes, state: dict[str, Any]) -> Batch:
    """JSONL lines."""
    return Batch.of_lines(data, (NEEDLE, b'"sessionId"'), _line, state)


def parse_document(data: bytes, state: dict[str, Any]) -> Batch:
    """The older form: one JSON document ``{"sessionId": ..., "messages": [...]}``."""
    batch = Batch()
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        batch.skipped += 1
        return batch
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        batch.skipped += 1
        return batch
    state["session"] = ident(doc.get("sessionId"))
    return batch.collect(doc["messages"], _record, state)


def _line(obj: Any, state: dict[str, Any]) -> Count | None:
    """A message line's Count; the session's first line only updates ``state``."""
    if isinstance(obj, dict) and "sessionId" in obj and "tokens" not in obj:
        state["session"] = ident(obj.get("sessionId"))
        return None
    return _record(obj, state)


def _record(obj: Any, state: dict[str, Any]) -> Count | None:
    """A Count, or None for a message that is not (yet) a counted reply; ``BadLine`` for a
    broken one."""
    if not isinstance(obj, dict) or obj.get("type") != "gemini":
        return None
    tokens = obj.get("tokens")
    if tokens is None:
        return None  # the first copy, before its tokens arrived
    total_in, cached, out, thoughts, tool = counts(tokens, _NAMES)
    cached = min(cached, total_in)
    fresh = total_in - cached + tool
    return Count(  # by position (see claude.py)
        "gemini",  # agent
        model_name(obj.get("model")),
        timestamp(obj.get("timestamp")),  # at
        fresh,  # fresh_input
        0,  # cache_write
        cached,  # cache_read
        out + thoughts,  # output
        total_in + tool + out + thoughts,  # fill
        0,  # window
        ident(obj.get("id")) or None,  # key
        str(state.get("session", "")),  # session
    )
