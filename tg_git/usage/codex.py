"""Codex CLI rollouts (``sessions/YYYY/MM/DD/rollout-*.jsonl``): ``token_count`` events.

``total_token_usage`` is cumulative and identical events repeat, so a request's spend is the
delta of the totals since the previous event (kept in the transcript's state across imports);
without totals, or without the previous ones (a lost mark), ``last_token_usage`` is taken as
is. ``input_tokens`` includes the cached
ones and ``output_tokens`` the reasoning; the window is ``model_context_window``.
"""

from __future__ import annotations

from typing import Any

from tg_git.usage.records import BadLine, Batch, Count, count, counts, ident, model_name, timestamp

NEEDLES = (b'"token_count"', b'"session_meta"', b'"turn_context"')
_KEYS = ("input_tokens", "cached_input_tokens", "output_tokens")


def _usage(value: Any) -> list[int] | None:
    """[input, cached, output] of a usage object; None when absent, ``BadLine`` when broken."""
    return None if value is None else counts(value, _KEYS)


def parse(data: bytes, state: dict[str, Any]) -> Batch:
    return Batch.of_lines(data, NEEDLES, _line, state, [None])


def _line(obj: Any, state: dict[str, Any], done: list[Any]) -> Count | None:
    """A token_count event's Count; the session and model lines only update ``state``.
    ``done[0]``: the line just read when reading it again can change nothing (the value of
    an identical line is the same object): Codex writes each event twice, and the second
    copy's totals are those just taken, no delta."""
    if obj is done[0]:
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("payload"), dict):
        return None
    kind, payload = obj.get("type"), obj["payload"]
    if kind == "session_meta":
        state["session"] = ident(payload.get("id"))
        if isinstance(payload.get("cwd"), str):
            state["cwd"] = payload["cwd"]
    elif kind == "turn_context":
        if payload.get("model") is not None:
            state["model"] = model_name(payload.get("model"))
    elif kind == "event_msg" and payload.get("type") == "token_count":
        return _token_count(obj, payload, state, done)
    done[0] = obj
    return None


def _token_count(
    obj: dict[str, Any], payload: dict[str, Any], state: dict[str, Any], done: list[Any]
) -> Count | None:
    info = payload.get("info")
    if info is None:
        return None  # rate-limit-only events carry no counts
    if not isinstance(info, dict):
        raise BadLine("info")
    total, last = _usage(info.get("total_token_usage")), _usage(info.get("last_token_usage"))
    window = count(info.get("model_context_window"))
    if total is not None:
        before = state.get("total")
        if (
            type(before) is list
            and len(before) == 3
            and type(before[0]) is int
            and type(before[1]) is int
            and type(before[2]) is int
        ):
            delta = [total[0] - before[0], total[1] - before[1], total[2] - before[2]]
        else:  # no totals before (the first event, or a mark that was lost): this request's
            delta = [-1]  # own usage, never the whole rollout's so far
        if min(delta) < 0:  # totals went back (a new process) or unknown: afresh
            delta = list(last or total)
        state["total"] = total
        done[0] = obj  # read again, its totals are the ones before: no delta
    elif last is not None:
        delta = last  # (a copy of this line counts again: without totals, no way to tell)
    else:
        return None
    fresh_in, cached, out = delta
    if not (fresh_in or cached or out):
        return None  # the same event again
    cached = min(cached, fresh_in)
    newest = last or delta
    if payload.get("model") is not None:
        state["model"] = model_name(payload.get("model"))
    return Count(  # by position (see claude.py)
        "codex",  # agent
        str(state.get("model") or "unknown"),  # model
        timestamp(obj.get("timestamp")),  # at
        fresh_in - cached,  # fresh_input
        0,  # cache_write
        cached,  # cache_read
        out,  # output
        newest[0] + newest[2],  # fill
        window,
        None,  # key
        str(state.get("session", "")),  # session
    )
