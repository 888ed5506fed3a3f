"""The search for the lines that may hold a count stops at a block's last newline: the line
the block cuts (a tool result of hundreds of KB, often) is searched once, in the next block,
where it is whole, and what each search finds is what a search of the whole block finds."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.agents import claude_line
from tg_git.usage import claude
from tg_git.usage import records


class _Watched(bytes):
    """Bytes whose ``find`` and ``rfind`` note how far each search may read."""

    def __new__(cls, data: bytes) -> _Watched:
        watched = super().__new__(cls, data)
        watched.reach = []
        return watched

    reach: list[int]

    def find(self, sub: Any, start: Any = None, end: Any = None) -> int:
        if sub != b"\n":  # (finding a line's end from a hit reads only that line)
            self.reach.append(len(self) if end is None else end)
        return bytes.find(self, sub, start, end)


def _block() -> tuple[bytes, int]:
    """Two requests, then the first part of a long line the block cuts; where the last
    complete line ends."""
    whole = claude_line("m1", "r1", out=5) + claude_line("m2", "r2", out=6)
    cut = claude_line("m3", "r3", out=7).replace('"the answer', '"' + "x" * 5000)[:4000]
    return (whole + cut).encode(), len(whole) - 1


def test_the_claude_search_stops_at_the_last_newline() -> None:
    data, last = _block()
    watched = _Watched(data)
    assert [data[a:b] for a, b in claude._lines(watched)] == data[: last + 1].splitlines()
    assert watched.reach and max(watched.reach) <= last


@pytest.mark.parametrize("needles", [(b'"output_tokens"',), (b'"sessionId"', b'"input_tokens"')])
def test_the_shared_search_stops_at_the_last_newline(needles: tuple[bytes, ...]) -> None:
    data, last = _block()
    watched = _Watched(data)
    assert [data[a:b] for a, b in records.spans(watched, needles)] == data[: last + 1].splitlines()
    if len(needles) == 1:  # (a regex reads the data itself: the bound is its ``endpos``)
        assert watched.reach and max(watched.reach) <= last
