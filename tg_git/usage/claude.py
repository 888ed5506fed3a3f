"""Claude Code transcripts (``projects/<encoded cwd>/<session>.jsonl``): assistant lines.

Streaming writes several lines per response with the same ``message.id`` + ``requestId``
and growing ``output_tokens``: their ``key`` lets the importer count each once (largest
copy). ``<synthetic>`` lines are not API calls. Sidechain (subagent) requests spend tokens
but do not fill the main context, so their ``fill`` is None.

``parse`` is the hot loop of an import (a transcript of 100 MB holds some 10,000 lines with
counts): a line without ``"output_tokens"`` (see NEEDLE) is never decoded or parsed; one
with it is read by ``json.loads``'s own C scanner (``records.line_value``), and what
``_record`` makes of its value is computed inline: the checks of an id, a model and a
time made once a request, its streaming copies folded into its largest counts, one Count
built a request, not a copy.
``_record`` stays the reference that ``tests/usage/test_fast_path.py`` holds it to.
"""

from __future__ import annotations

import _thread
import contextlib
import sys
from collections.abc import Callable, Iterator
from operator import itemgetter

from tg_git.usage.records import (
    ID,
    MAX_COUNT,
    ODD_FIRST,
    BadLine,
    Batch,
    Count,
    counts,
    ident,
    line_value,
    model_name,
    timestamp,
)

TYPE_CHECKING = False  # `import typing` costs every usage import ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any

# Lines without it hold no request: not decoded at all. Every API response's usage names
# ``output_tokens`` (ccusage's reader requires it too); a usage object without it is no
# request (``_record``). JSON written with spaces holds it as well (the key's quotes are its
# ends). A key written with escapes (``"output\u005ftokens"``, which ``json.loads`` reads as
# ``output_tokens``) is not found: Claude Code never writes one (JSON.stringify escapes no
# letter and no underscore), as ccusage's own search (``"usage":{``) misses a ``"usage"`` key
# so written. Finding it would take a second needle: the end the key shares with
# ``"input_tokens"`` (``put_tokens"``) skips less far, ~10 ms more over 105 MB
# (tests/usage/test_fast_path.py, the escaped key).
NEEDLE = b'"output_tokens"'
_NAMES = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
FAST_FROM = 1 << 18  # a read this large is worth orjson's import (~19 ms), see ``reader``
_LEVELS = 1100  # the nesting a line may have and be read by json.loads here, see ``room``
_ROOM: list[int] = []  # the limit as the first reader found it, then one entry a reader in
_ROOM_LOCK = _thread.allocate_lock()  # its room (``room``)
_LOADS: list[Callable[[memoryview], Any]] = []  # orjson's reader once looked up, or line_value
# The keys ``_parse`` reads, each object's at once (a KeyError or TypeError: ``_fields``).
_TOP = itemgetter("type", "message", "timestamp", "requestId", "sessionId", "isSidechain")
_MESSAGE = itemgetter("usage", "model", "id")
_COUNTS = itemgetter(*_NAMES)
_ID_OK = ID.fullmatch  # ``new_ident``'s check, called here without its call
_NEW = tuple.__new__


def parse(data: bytes, state: dict[str, Any], sidechain: bool = False) -> Batch:
    """Counts of the complete lines in ``data``; ``sidechain`` marks a subagent's file.
    Streaming copies of one request, one after another with the same time, model and
    session, are one Count with the largest of each count: what the importer makes of them
    one at a time (it counts the first and then what each copy grew)."""
    with room():
        return _parse(data, sidechain, reader(len(data)))


@contextlib.contextmanager
def room() -> Iterator[None]:
    """Room for ``json.loads`` to read ``_LEVELS`` of nesting from here: before Python 3.12
    its limit is the interpreter's recursion limit less the caller's frames (some 1,000
    levels, fewer the deeper the call), from 3.12 on it reads 1,025 levels and more, orjson
    (the fast extra) 1,024. With the room, a line is read or refused by its depth alike on
    every Python and by either reading; a far deeper one is still refused. The limit is the
    interpreter's, shared by its threads: raised while any reader is in its room, it is
    given back as it was found when the last one leaves (an error too)."""
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    with _ROOM_LOCK:
        if not _ROOM:
            _ROOM.append(sys.getrecursionlimit())  # the limit as found
        _ROOM.append(depth)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), depth + _LEVELS + 50))
    try:
        yield
    finally:
        with _ROOM_LOCK:
            _ROOM.pop()
            if len(_ROOM) == 1:  # the last reader leaves
                sys.setrecursionlimit(_ROOM.pop())


def _parse(data: bytes, sidechain: bool, value: Callable[[memoryview], Any]) -> Batch:
    """``parse`` of ``data`` with each line read by ``value``. The Count of a request is made
    once, when the line after its last copy (or the end) is read: from its first copy's ids,
    model, time and session as ``_named`` reads them and the largest of each count."""
    batch = Batch()
    out = batch.records
    named: tuple[Any, ...] | None = None  # the request before, as ``_named`` reads its first copy
    top_fresh = top_write = top_read = top_output = 0  # the largest counts of its copies
    raw: tuple[Any, ...] = ()  # its raw ids, model, time, session and sidechain flag
    skipped = 0
    top, inner, counted = _TOP, _MESSAGE, _COUNTS
    view = memoryview(data)  # each line read where it lies, not copied out first
    for start, stop in _lines(data):
        try:
            obj = value(view[start:stop])
        except (ValueError, RecursionError):  # (a UnicodeDecodeError is a ValueError)
            skipped += 1
            continue
        try:  # the keys every request line of Claude Code holds: three lookups, not thirteen
            kind, message, at, req_id, session, flag = top(obj)
            usage, model, msg_id = inner(message)
            fresh, write, read, output = counted(usage)
        except (KeyError, TypeError):  # one missing, or a value that is no object: one by one
            got = _fields(obj)
            if got is None:
                continue
            usage, model, msg_id, at, req_id, session, flag, fresh, write, read, output = got
        else:
            if kind != "assistant":
                continue
        if model == "<synthetic>":
            continue
        if not (
            type(fresh) is type(write) is type(read) is type(output) is int
            and 0 <= fresh <= MAX_COUNT
            and 0 <= write <= MAX_COUNT
            and 0 <= read <= MAX_COUNT
            and 0 <= output <= MAX_COUNT
        ):
            if "output_tokens" not in usage:
                continue  # no request (see NEEDLE)
            try:
                fresh, write, read, output = counts(usage, _NAMES)
            except BadLine:
                skipped += 1
                continue
        side = sidechain or flag is True
        # a UTC time with milliseconds as the second it names
        if type(at) is str and len(at) == 24 and at[19] + at[23] == ".Z" and at[20:23].isdecimal():
            at = at[:19] + "Z"  # (each copy names another millisecond; ``timestamp`` reads both)
        now = (msg_id, req_id, model, at, session, side)
        if now != raw or named is None or named[2] is None:
            this = _named(now, raw, named)
            raw = now
            if _another(this, named):
                if named is not None:  # the request before, with the largest of its copies
                    out.append(_count(named, top_fresh, top_write, top_read, top_output))
                named = this
                top_fresh, top_write, top_read, top_output = fresh, write, read, output
                continue
        # a streaming copy of the request before: the same key, time, model, session
        if fresh > top_fresh:  # (a comparison, not ``max``: no call a copy and count)
            top_fresh = fresh
        if write > top_write:
            top_write = write
        if read > top_read:
            top_read = read
        if output > top_output:
            top_output = output
    if named is not None:
        out.append(_count(named, top_fresh, top_write, top_read, top_output))
    batch.skipped = skipped
    return batch


def _fields(obj: Any) -> tuple[Any, ...] | None:
    """What ``_parse`` reads of a line's value, each key looked up alone (absent: None):
    its usage object, model, message id, time, request id, session, sidechain flag and the
    four counts as written; None for a line that is no assistant's message with a usage."""
    if type(obj) is not dict or obj.get("type") != "assistant":
        return None
    message = obj.get("message")
    if type(message) is not dict:
        return None
    usage = message.get("usage")
    if type(usage) is not dict:
        return None
    get, top = usage.get, obj.get
    return (usage, message.get("model"), message.get("id"), top("timestamp"), top("requestId"),
            top("sessionId"), top("isSidechain"), *map(get, _NAMES))  # fmt: skip


def _lines(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each complete line of ``data`` that may hold a request: it holds
    ``"output_tokens"`` (see NEEDLE). The search stops at the last newline: the line a block
    cuts is searched once, in the next block, where it is whole (a tenth of the bytes of a
    transcript whose tool results are long)."""
    found = []
    find, rfind = data.find, data.rfind
    end = rfind(b"\n")  # (the needle holds no newline: one in a complete line ends before it)
    hit = find(NEEDLE, 0, end) if end > 0 else -1
    while hit >= 0:
        stop = find(b"\n", hit)
        found.append((rfind(b"\n", 0, hit) + 1, stop))
        hit = find(NEEDLE, stop + 1, end)
    return found


def reader(size: int) -> Callable[[memoryview], Any]:
    """How the lines of a read of ``size`` bytes are read: ``line_value`` (``json.loads``'s
    reading), or, with the ``fast`` extra installed (``pip install 'tg-git[fast]'``: orjson)
    and a read large enough to repay its import, the same reading by orjson (``_fast``)."""
    if size < FAST_FROM:
        return line_value
    if not _LOADS:
        try:
            import orjson  # type: ignore[import-not-found, unused-ignore]  # lazy: 19 ms
        except ImportError:
            _LOADS.append(line_value)
        else:
            _LOADS.append(_fast(orjson.loads))
    return _LOADS[0]


def _fast(loads: Callable[[memoryview], Any]) -> Callable[[memoryview], Any]:
    """``line_value`` by orjson's ``loads`` where the two read a line alike, by ``line_value``
    itself where they could differ: a line orjson refuses (not UTF-8, a lone surrogate, NaN,
    a number out of a double's range, a byte-order mark, more than 1,024 levels: ``room``
    gives ``json.loads`` more) and a line ``json.loads`` may read as UTF-16/32. What is left:
    an integer beyond 64 bits is a float to orjson, a number to ``json.loads``: as a count
    it is refused either way (not an integer; over ``MAX_COUNT``), anywhere else ``parse``
    asks only whether a value is a string, an object or true (``tests/usage/test_orjson.py``
    holds the two readings to the same requests and skipped lines)."""

    def value(line: memoryview) -> Any:  # (a view of the line in its block, or its bytes)
        if line[0] in ODD_FIRST or line[1] == 0:
            return line_value(line)
        try:
            return loads(line)
        except ValueError:  # (orjson.JSONDecodeError is one)
            return line_value(line)

    return value


def _named(
    raw: tuple[Any, ...], before: tuple[Any, ...], named: tuple[Any, ...] | None
) -> tuple[Any, ...]:
    """(model, time, key, session, sidechain flag) of a line, as its Count names them, from
    its raw ids, model, time, session and flag: two lines name one request when these are
    equal and the key is not None (copies whose raw time, model or ids differ but read the
    same are one request too). ``before``: the raw fields ``named`` was made of (a line's
    model and session are nearly always those of the line before: taken, not checked again)."""
    msg_id, req_id, model, at, session, side = raw
    key = None  # (a request's ids: checked once, see ``new_ident``)
    if type(msg_id) is str and type(req_id) is str and _ID_OK(msg_id) and _ID_OK(req_id):
        key = f"{msg_id}:{req_id}"
    if named is None:
        return model_name(model), timestamp(at), key, ident(session), side
    model = named[0] if model == before[2] else model_name(model)
    session = named[3] if session == before[4] else ident(session)
    return model, timestamp(at), key, session, side


def _another(this: tuple[Any, ...], named: tuple[Any, ...] | None) -> bool:
    """Whether the line ``_named`` names ``this`` is another request than the one before it
    (``named``), not a streaming copy of it: a line without a key is a request of its own."""
    return this[2] is None or this != named


def _count(named: tuple[Any, ...], fresh: int, write: int, read: int, output: int) -> Count:
    """The Count of a request ``_named`` names, with its counts (made as ``tuple`` makes it:
    ``Count(...)`` would call its Python ``__new__`` first, once a request)."""
    model, at, key, session, side = named
    fill = None if side else fresh + write + read + output
    # agent, model, at, fresh_input, cache_write, cache_read, output, fill, window, key, session
    return _NEW(Count, ("claude", model, at, fresh, write, read, output, fill, 0, key, session))


def _record(obj: Any, sidechain: bool) -> Count | None:
    """A Count, or None for a line that is not an API call; ``BadLine`` for a broken one
    (the reference ``parse`` computes inline)."""
    if not isinstance(obj, dict) or obj.get("type") != "assistant":
        return None
    message = obj.get("message")
    if not isinstance(message, dict):
        return None
    usage = message.get("usage")
    if not isinstance(usage, dict):
        return None
    if message.get("model") == "<synthetic>" or "output_tokens" not in usage:
        return None  # not an API call, or no request's usage (see NEEDLE)
    fresh, write, read, out = counts(usage, _NAMES)
    side = sidechain or obj.get("isSidechain") is True
    msg_id, req_id = ident(message.get("id")), ident(obj.get("requestId"))
    return Count(
        "claude",
        model_name(message.get("model")),
        timestamp(obj.get("timestamp")),
        fresh,
        write,
        read,
        out,
        None if side else fresh + write + read + out,
        0,
        f"{msg_id}:{req_id}" if msg_id and req_id else None,
        ident(obj.get("sessionId")),
    )
