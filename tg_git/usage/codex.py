"""Codex CLI rollouts (``sessions/YYYY/MM/DD/rollout-*.jsonl``): ``token_count`` events.

``total_token_usage`` is cumulative and identical events repeat, so a request's spend is the
delta of the totals since the previous event (kept in the transcript's state across imports);
without totals, or without the previous ones (a lost mark), ``last_token_usage`` is taken as
is. ``input_tokens`` includes the cached
ones and ``output_tokens`` the reasoning; the window is ``model_context_window``.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from tg_git.usage import planwindows
from tg_git.usage.records import (
    SCAN,
    BadLine,
    Batch,
    Count,
    count,
    counts,
    ident,
    model_name,
    timestamp,
)

NEEDLES = (b'"token_count"', b'"session_meta"', b'"turn_context"')
_KEYS = ("input_tokens", "cached_input_tokens", "output_tokens")
_WHOLE = r"(?:0|[1-9][0-9]{0,9})"  # a count as JSON writes it, under MAX_COUNT (ten digits)
_USAGE = (
    rf'\{{"input_tokens":({_WHOLE}),"cached_input_tokens":({_WHOLE}),"output_tokens":({_WHOLE}),'
    rf'"reasoning_output_tokens":{_WHOLE},"total_tokens":{_WHOLE}\}}'
)
_AS_WRITTEN = (  # a token count event as Codex writes it, up to its rate limits
    r'\{"timestamp":"([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}:[0-9]{2}:[0-9]{2})(?:\.[0-9]{1,19})?Z",'
    r'"type":"event_msg","payload":\{"type":"token_count",'
    rf'"info":\{{"total_token_usage":{_USAGE},"last_token_usage":{_USAGE}'
    rf'(?:,"model_context_window":(null|{_WHOLE}))?\}}'  # (an Option: may be left out)
)
_RATE_LIMITS = ',"rate_limits":'
_QUICK_FROM = 256 << 10  # bytes read at once from which the regex is worth its compiling
_compiled: list[re.Pattern[str]] = []  # _AS_WRITTEN, compiled at its first use (~1.4 ms)


class _Written(NamedTuple):
    """What a token count event as Codex writes it holds (see ``_as_written``)."""

    at: str  # its time, as ``timestamp`` gives it (a UTC time in seconds)
    total: list[int]
    last: list[int]
    window: int
    limits: Any = None  # its rate limits (the plan's windows), as JSON reads them


def _as_written(text: str) -> _Written | None:
    """The counts of a token count line in the exact form Codex writes (compact JSON, its
    keys in its order, whole numbers, a UTC time with a Z, rate limits or none after), read by one
    regex instead of building its five objects; None for any other line, which is decoded.
    The form admits no escape, space, sign, fraction or second key, so what it reads is what
    JSON reads (and its time, what ``timestamp`` makes of it); the rate limits, which vary
    by version, are scanned as JSON."""
    if not _compiled:
        _compiled.append(re.compile(_AS_WRITTEN))
    match = _compiled[0].match(text)
    if match is None:
        return None
    end, limits = match.end(), None
    if text.startswith(_RATE_LIMITS, end):
        try:
            limits, end = SCAN(text, end + len(_RATE_LIMITS))
        except (StopIteration, ValueError, RecursionError):
            return None
    if len(text) != end + 2 or not text.endswith("}}"):
        return None
    day, clock, *numbers, window = match.groups()
    a, b, c, d, e, f = map(int, numbers)
    at = f"{day}T{clock}Z"
    return _Written(
        at, [a, b, c], [d, e, f], int(window) if window and window != "null" else 0, limits
    )


def _usage(value: Any) -> list[int] | None:
    """[input, cached, output] of a usage object; None when absent, ``BadLine`` when broken."""
    return None if value is None else counts(value, _KEYS)


def parse(data: bytes, state: dict[str, Any]) -> Batch:
    """The Counts of the complete lines of ``data`` (a large read takes ``_as_written``'s
    reading of the token count lines as Codex writes them; an agent turn's few new lines
    are decoded and the regex is never compiled)."""
    quick = _as_written if len(data) >= _QUICK_FROM else None
    return Batch.of_lines(data, NEEDLES, _line, state, [None], quick=quick)


def _line(obj: Any, state: dict[str, Any], done: list[Any]) -> Count | None:
    """A token_count event's Count; the session and model lines only update ``state``.
    ``done[0]``: the line just read when reading it again can change nothing (the value of
    an identical line is the same object): Codex writes each event twice, and the second
    copy's totals are those just taken, no delta."""
    if obj is done[0]:
        return None
    if type(obj) is _Written:
        planwindows.keep_codex(state, obj.limits, obj.at)
        return _request(obj, obj.total, obj.last, obj.window, None, obj.at, state, done)
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
    planwindows.keep_codex(state, payload.get("rate_limits"), timestamp(obj.get("timestamp")))
    info = payload.get("info")
    if info is None:
        return None  # rate-limit-only events carry no counts
    if not isinstance(info, dict):
        raise BadLine("info")
    total, last = _usage(info.get("total_token_usage")), _usage(info.get("last_token_usage"))
    window = count(info.get("model_context_window"))
    at = timestamp(obj.get("timestamp"))
    return _request(obj, total, last, window, payload.get("model"), at, state, done)


def _request(
    obj: object,
    total: list[int] | None,
    last: list[int] | None,
    window: int,
    model: Any,
    at: str,
    state: dict[str, Any],
    done: list[Any],
) -> Count | None:
    """The Count of one token count event (``obj``, for ``done``), from its usage objects,
    window, model and time (``at``, as ``timestamp`` gives it)."""
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
    if model is not None:
        state["model"] = model_name(model)
    return Count(  # by position (see claude.py)
        "codex",  # agent
        str(state.get("model") or "unknown"),  # model
        at,
        fresh_in - cached,  # fresh_input
        0,  # cache_write
        cached,  # cache_read
        out,  # output
        newest[0] + newest[2],  # fill
        window,
        None,  # key
        str(state.get("session", "")),  # session
    )
