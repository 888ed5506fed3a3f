"""The common record type of every log parser, and the checks that keep hostile logs out.

A parser gets bytes (complete lines, or one whole JSON document) and a small per-transcript
state dict it may update (Codex's running totals, the model of the turn); it returns a
``Batch``. Anything malformed is counted in ``Batch.skipped``, never raised.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import re
from collections.abc import Callable, Iterable, Iterator

from tg_git.domain.typed import NamedTuple

TYPE_CHECKING = False  # `import typing` costs every usage import ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any

MAX_COUNT = 10**10  # more tokens than any one request can have: a corrupt or hostile line
FIELDS = ("fresh_input", "cache_write", "cache_read", "output")
_MODEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+\[\]-]{0,79}")
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")  # an id (``new_ident``)
_DECODER = json.JSONDecoder()
_DECODE = _DECODER.decode  # json.loads of a str, without its type checks
# The C scanner under it: one value from a position, and where it ends.
SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_SPACE = " \t\n\r"  # JSON's whitespace
ODD_FIRST = frozenset(b"\x00\xef\xfe\xff")  # a NUL, or the first byte of a byte-order mark:
# json.loads may read such a line as UTF-16/32 (a NUL second byte too)
_REMEMBER = 4096  # distinct strings a checker keeps its answers for
_ISO = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$")


class BadLine(ValueError):
    """A line that parses as JSON but holds counts that cannot be true."""


class Count(NamedTuple):
    """One request's tokens. ``fill`` is the context it filled (None for a subagent's
    request, which spends but does not fill the main context); ``key`` dedups copies."""

    agent: str
    model: str
    at: str  # UTC, "%Y-%m-%dT%H:%M:%SZ" (the ledger's format), "" when unknown
    fresh_input: int = 0
    cache_write: int = 0
    cache_read: int = 0
    output: int = 0
    fill: int | None = None
    window: int = 0
    key: str | None = None
    session: str = ""

    @property
    def total(self) -> int:
        return self.fresh_input + self.cache_write + self.cache_read + self.output

    def values(self) -> list[int]:
        return [self.fresh_input, self.cache_write, self.cache_read, self.output]


if TYPE_CHECKING:  # (type aliases mypy reads; annotations name them as text)
    Maker = Callable[..., "Count | None"]  # a parser's obj -> Count, None for a line to pass over
    Quick = Callable[[str], Any]  # a line's text -> what its parser makes of it at once, or None


class Batch:
    """What a parser found in one read (a plain class: the hooks import no dataclasses)."""

    def __init__(self) -> None:
        self.records: list[Count] = []
        self.skipped = 0  # lines that were not JSON, or held counts that cannot be true

    @classmethod
    def of_lines(
        cls,
        data: bytes,
        needles: tuple[bytes, ...],
        make: Maker,
        *args: Any,
        quick: Quick | None = None,
    ) -> Batch:
        """The batch of the JSON lines of ``data`` that hold one of ``needles``, each made a
        Count by ``make(obj, *args)`` (see ``collect``; ``quick``: see ``json_lines``)."""
        batch = cls()
        return batch.collect(json_lines(data, batch, *needles, quick=quick), make, *args)

    def collect(self, objs: Iterable[Any], make: Maker, *args: Any) -> Batch:
        """This batch with the Count ``make(obj, *args)`` gives for each of ``objs``: the one
        loop of every parser, so that a ``BadLine`` is counted as skipped the same way
        everywhere and a None (not a request: a session or model line) is passed over."""
        for obj in objs:
            try:
                record = make(obj, *args)
            except BadLine:
                self.skipped += 1
                continue
            if record is not None:
                self.records.append(record)
        return self


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while transcripts are parsed: each line's JSON is
    dozens of fresh dicts and lists, freed as soon as it is read (no cycles), and the
    collections their allocations set off find nothing (~6 % of a Claude import's time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def json_lines(
    data: bytes, batch: Batch, *needles: bytes, quick: Quick | None = None
) -> Iterator[Any]:
    """The JSON value of each complete line of ``data`` holding one of ``needles`` (the
    others cannot hold what a parser wants, so they are not parsed at all; a last line
    without its newline is left for the next read); a line that is not JSON is counted in
    ``batch.skipped``. Each value is what ``json.loads`` of the line gives, faster: the lines
    are found by one search for the needles (no split of every line), and the encoding guess
    is made only for a line it could read otherwise than as UTF-8, and a line that starts
    with its value is scanned at once (``decode`` around the scanner costs two regex
    matches and a frame a line). ``quick``, when given, is asked first: a parser's reading of
    the lines it knows the exact form of (not JSON's value, but what its maker takes for
    it), None for any other line."""
    last, value = None, None
    for start, stop in spans(data, needles):
        line = data[start:stop]
        if line == last:  # the same line again (Codex writes each token count twice)
            yield value
            continue
        last = None
        try:
            if line[0] in ODD_FIRST or line[1] == 0:  # (a line holds a needle: 2 bytes or more)
                value = json.loads(line)
            else:
                text = line.decode("utf-8", "surrogatepass")
                value = quick and quick(text)
                if value is None:
                    value = _value(text)
        except (ValueError, RecursionError):  # (a UnicodeDecodeError is a ValueError)
            batch.skipped += 1
            continue
        last = line
        yield value


def line_value(line: bytes | memoryview) -> Any:
    """``json.loads(line)`` of a line of two bytes or more (or a view of one: no copy of its
    bytes): a ValueError (or RecursionError) for one it refuses. A line that starts with its
    value is scanned at once by the C scanner and taken when the value is all it holds; only
    a line read otherwise (space around it, a byte-order mark, another encoding, more after
    the value) goes through ``json.loads``'s own steps (two regex matches and a frame a line)."""
    if line[0] in ODD_FIRST or line[1] == 0:  # json.loads may read it as UTF-16/32
        return json.loads(bytes(line))
    text = str(line, "utf-8", "surrogatepass")
    try:
        value, end = SCAN(text, 0)
    except StopIteration:  # no value at the start (a space): decode's reading
        return _DECODE(text)
    return value if end == len(text) else _DECODE(text)  # more after it: a space, or an error


def _value(text: str) -> Any:
    """``_DECODE(text)``: the value ``text`` holds alone, whitespace around it allowed."""
    if text[0] in _SPACE:
        return _DECODE(text)
    try:
        value, end = SCAN(text, 0)
    except StopIteration:  # no value at the start: what decode says of it
        return _DECODE(text)
    if end != len(text) and text[end:].strip(_SPACE):
        return _DECODE(text)  # more after the value: decode's error
    return value


_LONG = 12  # a needle this long is found by ``bytes.find`` (see ``_first``)
_SEARCHES: dict[tuple[bytes, ...], Callable[[bytes, int, int], re.Match[bytes] | None]] = {}


def _first(data: bytes, needles: tuple[bytes, ...]) -> Callable[[int, int], int]:
    """Where the next needle in ``data`` between two positions is (-1: none): one regex
    for all (one pass over the data, not one a needle), compiled once. Also for one needle:
    over a Claude transcript ``re``'s literal search takes three quarters of the time of
    ``bytes.find`` for ``"usage"``, whose common letters keep the skips short; a needle of
    ``_LONG`` bytes or more skips so far that ``bytes.find`` takes half of ``re``'s time)."""
    if len(needles) == 1 and len(needles[0]) >= _LONG:  # ``bytes.find`` skips on: C's own call
        return functools.partial(data.find, needles[0])
    search = _SEARCHES.get(needles)
    if search is None:
        search = _SEARCHES[needles] = re.compile(b"|".join(map(re.escape, needles))).search

    def first(pos: int, end: int) -> int:
        match = search(data, pos, end)
        return -1 if match is None else match.start()

    return first


def spans(data: bytes, needles: tuple[bytes, ...]) -> list[tuple[int, int]]:
    """(start, end) of each complete line of ``data`` holding one of ``needles``, in order.
    The search stops at the last newline (a needle holds none): the line a block cuts is
    searched once, in the next block, where it is whole."""
    found: list[tuple[int, int]] = []
    find, rfind = data.find, data.rfind
    end = rfind(b"\n")
    if end <= 0:
        return found
    first = _first(data, needles)
    hit = first(0, end)
    while hit >= 0:
        stop = find(b"\n", hit)
        found.append((rfind(b"\n", 0, hit) + 1, stop))
        hit = first(stop + 1, end)
    return found


def count(value: Any) -> int:
    """A token count (absent = 0); ``BadLine`` when it cannot be one (string, bool, float,
    negative, huge)."""
    if value is None:
        return 0
    if type(value) is not int or value < 0 or value > MAX_COUNT:
        raise BadLine(repr(value)[:40])
    return value


def counts(value: Any, names: tuple[str, ...]) -> list[int]:
    """The token counts ``names`` of a usage object (see ``count``); ``BadLine`` when it is
    not an object."""
    if not isinstance(value, dict):
        raise BadLine("usage")
    got: list[Any] = [value.get(name) for name in names]
    for number in got:  # whole numbers in range, as they nearly always are: taken as they are
        if type(number) is not int or number < 0 or number > MAX_COUNT:
            return [count(number) for number in got]
    return got


def _remembered(check: Callable[[Any], str]) -> Callable[[Any], str]:
    """``check`` with its answer kept for each string it was given: a transcript names the
    same session, model and request (its streaming copies) line after line, and a dict
    lookup costs a fraction of a regex match. At most ``_REMEMBER`` short strings are kept
    (a longer one is never an id, a model or a time)."""
    seen: dict[str, str] = {}

    def remembered(value: Any) -> str:
        if type(value) is not str or len(value) > 128:
            return check(value)
        answer = seen.get(value)
        if answer is None:
            if len(seen) >= _REMEMBER:
                seen.clear()
            answer = seen[value] = check(value)
        return answer

    remembered.__doc__ = check.__doc__
    return remembered


@_remembered
def model_name(value: Any) -> str:
    """A model id as the log names it, if it looks like one; never free text."""
    return value if isinstance(value, str) and _MODEL.fullmatch(value) else "unknown"


def new_ident(value: Any) -> str:
    """An id as the log names it, if it looks like one; "" else (never free text). Checked
    each time: for an id named once (a request's), whose remembered answer would not serve."""
    return value if isinstance(value, str) and ID.fullmatch(value) else ""


ident = _remembered(new_ident)  # for an id named again and again (a session's)


@_remembered
def timestamp(value: Any) -> str:
    """ISO-8601 -> the ledger's UTC seconds format; "" when it is not a time."""
    if not isinstance(value, str) or len(value) > 40:
        return ""
    match = _ISO.match(value)
    if match is None:
        return ""
    day, clock, _frac, zone = match.groups()
    if zone in (None, "Z", "+00:00", "+0000", "-00:00"):
        return f"{day}T{clock}Z"
    from datetime import datetime, timezone  # lazy: 2 ms; a time with another zone is rare

    try:
        parsed = datetime.fromisoformat(f"{day}T{clock}{zone[:3]}:{zone[-2:]}")
    except ValueError:
        return ""
    return parsed.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
