"""GitHub Copilot CLI sessions (``$COPILOT_HOME/session-state/<id>/events.jsonl``, with
``COPILOT_HOME`` at ``~/.copilot`` by default): one JSON event a line, the first the
``session.start`` that names the session and where it ran (``context.cwd``), a resumed
session's ``session.resume`` appended to the same file, and one ``session.usage_record`` a
model request.

A record's ``inputTokens`` is the whole prompt: the tokens read from the cache
(``cacheReadTokens``) and written to it (``cacheWriteTokens``) are part of it (1.0.102: a
prompt of 12,345 tokens of which 5,000 cached is 12,345 in, whichever API it went to; on
Anthropic's, 5,345 fresh + 5,000 read + 2,000 written is 12,345 too), so the fresh input is
what is left of it. ``maxPromptTokens`` is the prompt limit Copilot compacts against: the
window. A conversation's request (``interactionType`` ``conversation-agent``) fills the
context with its prompt and its answer, as Codex's does; any other kind of request spends
but does not fill it. Each record is written once, under the session's running
``accounting.sequence`` and its ``usageId``: both, with the session, are its key.

A compaction (``/compact``, or Copilot's own past its threshold) writes no usage record for
the request that summarises: ``session.compaction_complete`` holds its counts
(``compactionTokensUsed``) and the context left after it (``postCompactionTokens``, against
``tokenLimit``), which becomes the fill until the next request measures it.
"""

from __future__ import annotations

from tg_git.usage.records import (
    BadLine,
    Batch,
    Count,
    count,
    counts,
    ident,
    model_name,
    new_ident,
    timestamp,
)

TYPE_CHECKING = False  # `import typing` costs every usage import ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any

USAGE = "session.usage_record"
START = "session.start"
COMPACTED = "session.compaction_complete"
NEEDLES = (b'"session.usage_record"', b'"session.start"', b'"session.compaction_complete"')
_KEYS = ("inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens")
_CONVERSATION = (None, "conversation-agent")  # the requests that fill the context


def parse(data: bytes, state: dict[str, Any]) -> Batch:
    """The Counts of the usage records among the complete lines of ``data``."""
    return Batch.of_lines(data, NEEDLES, _line, state)


def start_cwd(obj: Any) -> str | None:
    """Where the session a ``session.start`` event opens ran (``context.cwd``, else its
    ``gitRoot``); None for any other value."""
    data = obj.get("data") if isinstance(obj, dict) and obj.get("type") == START else None
    context = data.get("context") if isinstance(data, dict) else None
    if not isinstance(context, dict):
        return None
    for name in ("cwd", "gitRoot"):
        if isinstance(context.get(name), str):
            return str(context[name])
    return None


def _line(obj: Any, state: dict[str, Any]) -> Count | None:
    """A usage record's Count; the session's start only updates ``state``."""
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), dict):
        return None
    kind, data = obj.get("type"), obj["data"]
    if kind == START:
        state["session"] = ident(data.get("sessionId"))
        cwd = start_cwd(obj)
        if cwd is not None:
            state["cwd"] = cwd
        return None
    if kind == COMPACTED:
        return _compaction(obj, data, state)
    if kind != USAGE:
        return None
    usage = data.get("usage")
    if not isinstance(usage, dict):
        raise BadLine("usage")
    prompt, out, read, write = counts(usage, _KEYS)
    read = min(read, prompt)
    write = min(write, prompt - read)
    fresh = prompt - read - write
    session = str(state.get("session", ""))
    accounting = usage.get("accounting")
    accounting = accounting if isinstance(accounting, dict) else {}
    request = new_ident(accounting.get("usageId")) or new_ident(usage.get("apiCallId"))
    sequence = accounting.get("sequence")
    source = ident(accounting.get("sourceSessionId")) or session
    key = None
    if request or type(sequence) is int:
        key = f"{source}:{sequence if type(sequence) is int else ''}:{request}"
    fills = usage.get("interactionType") in _CONVERSATION
    return Count(  # by position (see claude.py)
        "copilot",  # agent
        model_name(usage.get("model")),
        timestamp(obj.get("timestamp")),  # at
        fresh,  # fresh_input
        write,  # cache_write
        read,  # cache_read
        out,  # output
        prompt + out if fills else None,  # fill
        count(usage.get("maxPromptTokens")),  # window
        key,
        session,
    )


def _compaction(obj: dict[str, Any], data: dict[str, Any], state: dict[str, Any]) -> Count | None:
    """A compaction's Count: its summary's request (``compactionTokensUsed``, never a usage
    record of its own), and the context it left (``postCompactionTokens``, Copilot's own
    count) against ``tokenLimit``; None for one that spent nothing and left no count."""
    spent = data.get("compactionTokensUsed")
    prompt, out, read, write = counts(spent, _KEYS) if spent is not None else [0, 0, 0, 0]
    read = min(read, prompt)
    write = min(write, prompt - read)
    after = data.get("postCompactionTokens")
    fill = count(after) if after is not None and data.get("success") is True else None
    if fill is None and not (prompt or out):
        return None
    session = str(state.get("session", ""))
    attempt = new_ident(data.get("compactionAttemptId"))
    return Count(  # by position (see claude.py)
        "copilot",  # agent
        model_name((spent if isinstance(spent, dict) else data).get("model")),
        timestamp(obj.get("timestamp")),  # at
        prompt - read - write,  # fresh_input
        write,  # cache_write
        read,  # cache_read
        out,  # output
        fill,
        count(data.get("tokenLimit")) if fill is not None else 0,  # window
        f"{session}:compaction:{attempt}" if attempt else None,  # key
        session,
    )
