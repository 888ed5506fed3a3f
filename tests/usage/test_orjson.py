"""The ``fast`` extra (orjson) reads a Claude transcript as ``json.loads`` does: the same value
of each line (an integer beyond 64 bits aside, a float to orjson), the same requests, the same
lines skipped, on lines made to tell the two apart. Skipped without orjson: the reader is
then ``line_value`` itself."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

from tests.support.agents import claude_line
from tg_git.usage import claude
from tg_git.usage.records import line_value

orjson = pytest.importorskip("orjson")
FAST = claude._fast(orjson.loads)

_ODD_VALUES = [
    "99999999999999999999",  # beyond 64 bits: a float to orjson
    "18446744073709551615",
    "-9223372036854775809",
    "NaN",
    "-Infinity",
    "1e400",
    "2.5e-324",
    "-0",
    "1E2",
    '"\\ud800"',  # a lone surrogate, escaped
    '"\\udc00x"',
    '"\\ud83d\\ude00"',
    '"\udced\udca0\udc80"',  # a lone surrogate, raw bytes (json.loads reads it, orjson not)
    '"\udcff"',  # a byte that is not UTF-8
    '"\x01"',  # a raw control character
    '"\x7f"',
    '"\\u0000"',
    "01",
    "1.",
    "true",
    "null",
    "[]",
    "{}",
    '"claude-opus-4-6"',
    '"2026-01-01T00:00:00.000Z"',
    "[" * 1010 + "]" * 1010,  # deeper than json.loads reads before Python 3.12 (no room)
    "[" * 1030 + "]" * 1030,  # deeper than orjson reads
    "[" * 990 + "]" * 990,
]
_FIELDS = ["input_tokens", "output_tokens", "id", "model", "requestId", "timestamp", "sessionId"]
_FIELDS += ["isSidechain", "type", "usage", "message", "text"]


def _inject(line: str, field: str, value: str) -> str:
    """``line`` with the value of its first ``field`` written as ``value``, raw (``line``
    itself when it holds no such field)."""
    key = f'"{field}":'
    if key not in line:  # (an earlier value replaced the object that held it)
        return line
    at = line.index(key) + len(key)
    end = at
    depth = 0
    while True:  # the end of the value: a comma or closing bracket at depth 0
        ch = line[end]
        if ch == '"':
            end = line.index('"', end + 1) + 1
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
        end += 1
    return line[:at] + value + line[end:]


_FRAMES: list[Callable[[str], str]] = [
    lambda s: s,
    lambda s: " " + s + " \r",
    lambda s: "\ufeff" + s,  # a byte-order mark
    lambda s: s + " x",
    lambda s: s.replace('"type":"assistant"', '"type":"user","type":"assistant"'),  # duplicates
    lambda s: s.replace('"usage":{', '"usage":{"output_tokens":1},"usage":{'),
    lambda s: s.replace('":', '" : '),
    lambda s: s[:-1],
]


@st.composite
def _lines(draw: st.DrawFn) -> bytes:
    n = draw(st.integers(0, 3))
    line = claude_line(
        draw(st.sampled_from(["m1", "m2"])),
        draw(st.sampled_from(["r1", "r2"])),
        fresh=draw(st.integers(0, 5)),
        out=draw(st.integers(0, 5)),
        at=draw(st.sampled_from(["2026-01-01T00:00:00.120Z", "2026-01-01T00:00:00.450Z"])),
    ).rstrip("\n")
    for _ in range(n):
        line = _inject(line, draw(st.sampled_from(_FIELDS)), draw(st.sampled_from(_ODD_VALUES)))
    return draw(st.sampled_from(_FRAMES))(line).encode("utf-8", "surrogateescape")


def _norm(value: Any) -> Any:
    """A value comparable with ``==``: NaN named, an integer beyond 64 bits a float (as orjson
    reads it)."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if type(value) is int and not -(2**63) <= value < 2**64:
        return float(value)
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    return value


def _read(value: Callable[[memoryview], Any], line: bytes) -> Any:
    """``value`` of a view of ``line`` (as ``parse`` reads one) normalised (``_norm``), or
    the kind of error it raised."""
    try:
        got = value(memoryview(line))
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__ if isinstance(exc, RecursionError) else "ValueError"
    return got


def _same(line: bytes) -> bool:
    """Both readings of ``line`` alike: each read as ``parse`` reads it, at CPython's own
    recursion limit (1,000; hypothesis raises it while a test runs) with the reader's
    ``room``, compared with room for the 1,030 levels of the deepest (a comparison recurses
    too)."""
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(1000)
        with claude.room():
            fast, plain = _read(FAST, line), _read(line_value, line)
        sys.setrecursionlimit(limit + 4000)
        return bool(_norm(fast) == _norm(plain))
    finally:
        sys.setrecursionlimit(limit)


def _parse(data: bytes, value: Callable[[memoryview], Any]) -> tuple[list[Any], int]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(claude, "reader", lambda size: value)
        limit = sys.getrecursionlimit()
        try:
            sys.setrecursionlimit(1000)  # (CPython's own, see ``_same``)
            batch = claude.parse(data, {})
        finally:
            sys.setrecursionlimit(limit)
    return list(batch.records), batch.skipped


@hypothesis.settings(max_examples=600, deadline=None)
@hypothesis.given(st.lists(_lines(), min_size=1, max_size=6))
def test_orjson_reads_every_line_as_json_loads_does(lines: list[bytes]) -> None:
    """Each line's value by the fast reader is ``line_value``'s (``json.loads``'s), or both
    refuse it; a block of them gives the same requests and the same skipped lines."""
    for line in lines:
        assert _same(line), line[:80]
    data = b"\n".join(lines) + b"\n"
    assert _parse(data, FAST) == _parse(data, line_value)


def test_a_large_read_is_read_by_orjson_a_small_one_never_loads_it() -> None:
    """A read of ``FAST_FROM`` bytes or more is read by orjson when it is installed; a small
    one (an agent turn's import) does not pay for its import."""
    small = claude_line("m1", "r1", out=5)
    script = (
        "import sys\n"
        "from tg_git.usage import claude\n"
        f"claude.parse({small.encode()!r}, {{}})\n"
        "print('orjson' in sys.modules)\n"
        f"claude.parse({small.encode()!r} * {claude.FAST_FROM // len(small) + 1}, {{}})\n"
        "print('orjson' in sys.modules, claude.reader(claude.FAST_FROM) is not claude.line_value)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]


def test_the_fast_reader_counts_a_transcript_as_json_loads() -> None:
    """A transcript of a few hundred kilobytes (streaming copies, odd lines between) gives
    the same totals read by orjson as by ``json.loads``."""
    lines = []
    for n in range(600):
        for out in (1, 5, 40):  # streaming copies of one request, in one second (``ts()``
            at = f"2026-11-30T10:00:00.{out:03d}Z"  # could cross one between two copies)
            lines.append(claude_line(f"m{n}", f"r{n}", fresh=n, read=10 * n, out=out + n, at=at))
        lines.append(json.dumps({"type": "user", "text": '"output_tokens"'}) + "\n")
        if n % 50 == 0:
            lines.append('{"output_tokens":NaN,"usage":"\ud800"}\n')
    data = "".join(lines).encode("utf-8", "surrogatepass")
    assert len(data) >= claude.FAST_FROM
    assert claude.reader(len(data)) is not line_value
    fast, plain = claude.parse(data, {}), _parse(data, line_value)
    assert (list(fast.records), fast.skipped) == plain
    assert sum(r.total for r in fast.records) == sum(n + 10 * n + 40 + n for n in range(600))


@pytest.mark.parametrize("frame", ["crlf", "bom", "both"])
def test_a_request_ending_in_crlf_or_starting_with_a_bom_reads_alike(frame: str) -> None:
    """A line ending in ``\\r\\n`` or starting with a byte-order mark: ``json.loads`` reads
    both, orjson only the first (the second goes to ``json.loads``): the same requests by
    either reading, in a read above and below the size orjson is used from."""
    line = claude_line("m1", "r1", fresh=3, out=4).encode()
    if frame in ("crlf", "both"):
        line = line.replace(b"\n", b"\r\n")
    if frame in ("bom", "both"):
        line = b"\xef\xbb\xbf" + line
    other = claude_line("m2", "r2", out=6).encode()
    small = line + other
    large = small + b" " * claude.FAST_FROM + b"\n"
    for data in (small, large):
        by_loads = claude._parse(data, False, line_value)
        by_orjson = claude._parse(data, False, FAST)
        got = [(r.key, r.values()) for r in by_orjson.records]
        assert got == [(r.key, r.values()) for r in by_loads.records]
        assert got == [("m1:r1", [3, 0, 0, 4]), ("m2:r2", [3, 0, 0, 6])]
        assert claude.parse(data, {}).records == by_loads.records
