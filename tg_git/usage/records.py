"""The common record type of every log parser, and the checks that keep hostile logs out.

A parser gets bytes (complete lines, or one whole JSON document) and a small per-transcript
state dict it may update (Codex's running totals, the model of the turn); it returns a
``Batch``. Anything malformed is counted in ``Batch.skipped``, never raised.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from typing import Any, NamedTuple

MAX_COUNT = 10**10  # more tokens than any one request can have: a corrupt or hostile line
FIELDS = ("fresh_input", "cache_write", "cache_read", "output")
_MODEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+\[\]-]{0,79}")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")
_DECODE = json.JSONDecoder().decode  # json.loads of a str, without its type checks
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


Maker = Callable[..., "Count | None"]  # a parser's obj -> Count, None for a line to pass over


class Batch:
    """What a parser found in one read (a plain class: the hooks import no dataclasses)."""

    def __init__(self) -> None:
        self.records: list[Count] = []
        self.skipped = 0  # lines that were not JSON, or held counts that cannot be true

    @classmethod
    def of_lines(cls, data: bytes, needles: tuple[bytes, ...], make: Maker, *args: Any) -> Batch:
        """The batch of the JSON lines of ``data`` that hold one of ``needles``, each made a
        Count by ``make(obj, *args)`` (see ``collect``)."""
        batch = cls()
        return batch.collect(json_lines(data, batch, *needles), make, *args)

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


def json_lines(data: bytes, batch: Batch, *needles: bytes) -> Iterator[Any]:
    """The JSON value of each complete line of ``data`` holding one of ``needles`` (the
    others cannot hold what a parser wants, so they are not parsed at all; a last line
    without its newline is left for the next read); a line that is not JSON is counted in
    ``batch.skipped``. Each value is what ``json.loads`` of the line's bytes gives, faster:
    the block is decoded once, lines are found by searching it for the needles, and the
    encoding guess is made only where it could differ; a block that is not UTF-8 is read
    line by line."""
    try:
        text = data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        yield from _byte_lines(data, batch, needles)
        return
    last, value = None, None
    for start, stop in _spans(text, needles):
        line = text[start:stop]  # its own string: an error's position is counted in it alone
        if line == last:  # the same line again (Codex writes each token count twice)
            yield value
            continue
        last = None
        try:
            if "\x00" in line[:2] or line[:1] == "\ufeff":  # json.loads reads it as UTF-16/32
                value = json.loads(line.encode("utf-8", "surrogatepass"))
            else:
                value = _DECODE(line)
        except (ValueError, RecursionError):
            batch.skipped += 1
            continue
        last = line
        yield value


_SEARCHES: dict[tuple[bytes, ...], Callable[[str, int], re.Match[str] | None]] = {}


def _first(text: str, needles: tuple[bytes, ...]) -> Callable[[int], int]:
    """Where the next needle in ``text`` from a position is (-1: none): ``str.find`` for one,
    else one regex for all (one pass over the text, not one a needle), compiled once."""
    if len(needles) == 1:
        word = needles[0].decode()
        return lambda pos: text.find(word, pos)
    search = _SEARCHES.get(needles)
    if search is None:
        pattern = "|".join(re.escape(needle.decode()) for needle in needles)
        search = _SEARCHES[needles] = re.compile(pattern).search

    def first(pos: int) -> int:
        match = search(text, pos)
        return -1 if match is None else match.start()

    return first


def _spans(text: str, needles: tuple[bytes, ...]) -> list[tuple[int, int]]:
    """(start, end) of each complete line of ``text`` holding one of ``needles``, in order."""
    spans = []
    first, find, rfind = _first(text, needles), text.find, text.rfind
    hit = first(0)
    while hit >= 0:
        stop = find("\n", hit)
        if stop < 0:
            break
        spans.append((rfind("\n", 0, hit) + 1, stop))
        hit = first(stop + 1)
    return spans


def _byte_lines(data: bytes, batch: Batch, needles: tuple[bytes, ...]) -> Iterator[Any]:
    """``json_lines`` for a block that is not UTF-8: each line decoded on its own."""
    for line in data.split(b"\n")[:-1]:
        if not any(needle in line for needle in needles):
            continue
        try:
            yield json.loads(line)
        except (ValueError, RecursionError):
            batch.skipped += 1


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
    return [count(value.get(name)) for name in names]


def model_name(value: Any) -> str:
    """A model id as the log names it, if it looks like one; never free text."""
    return value if isinstance(value, str) and _MODEL.fullmatch(value) else "unknown"


def ident(value: Any) -> str:
    return value if isinstance(value, str) and _ID.fullmatch(value) else ""


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
    try:
        parsed = datetime.fromisoformat(f"{day}T{clock}{zone[:3]}:{zone[-2:]}")
    except ValueError:
        return ""
    return parsed.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
