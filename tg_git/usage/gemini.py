"""Gemini CLI chats (``tmp/<project>/chats/session-*.jsonl``, older ones one ``.json``).

A message line is written again with the same ``id`` once its tokens arrive: the ``key``
lets the importer keep one copy. ``input`` includes ``cached``; ``total`` is input + output
+ thoughts + tool, which is also the request's context fill.
"""

from __future__ import annotations

import json
from typing import Any

from tg_git.usage.records import (
    BadLine,
    Batch,
    Count,
    count,
    ident,
    json_lines,
    model_name,
    timestamp,
)

NEEDLE = b'"tokens"'


def parse(data: bytes, state: dict[str, Any]) -> Batch:
    """JSONL lines."""
    batch = Batch()
    for obj in json_lines(data, batch, NEEDLE, b'"sessionId"'):
        if isinstance(obj, dict) and "sessionId" in obj and "tokens" not in obj:
            state["session"] = ident(obj.get("sessionId"))
            continue
        _add(batch, obj, state)
    return batch


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
    for message in doc["messages"]:
        _add(batch, message, state)
    return batch


def _add(batch: Batch, obj: Any, state: dict[str, Any]) -> None:
    if not isinstance(obj, dict) or obj.get("type") != "gemini":
        return
    tokens = obj.get("tokens")
    if tokens is None:
        return  # the first copy, before its tokens arrived
    if not isinstance(tokens, dict):
        batch.skipped += 1
        return
    try:
        values = [count(tokens.get(k)) for k in ("input", "cached", "output", "thoughts", "tool")]
    except BadLine:
        batch.skipped += 1
        return
    total_in, cached, out, thoughts, tool = values
    cached = min(cached, total_in)
    fresh = total_in - cached + tool
    batch.records.append(
        Count(
            agent="gemini",
            model=model_name(obj.get("model")),
            at=timestamp(obj.get("timestamp")),
            fresh_input=fresh,
            cache_read=cached,
            output=out + thoughts,
            fill=total_in + tool + out + thoughts,
            key=ident(obj.get("id")) or None,
            session=str(state.get("session", "")),
        )
    )
