"""The Claude reader's fast path (lines found by one search for ``"usage"``, read a block at
a time, a line over a block read on, a line over the limit skipped) gives what ``json.loads``
of every line, one at a time, gives: the same requests, the same totals, the same count of
lines that are not JSON, on the lines a transcript can hold that a fast path could get wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import claude_line
from tests.support.agents import user_line
from tg_git.usage import claude
from tg_git.usage import importer
from tg_git.usage import store
from tg_git.usage.records import BadLine
from tg_git.usage.records import Count

_LIMIT = 1 << 16  # the longest line read, here (64 MB in use): a "huge" line is one over it


def _hostile(tmp: Path) -> list[bytes]:
    """Lines, each with its newline: requests among lines made to mislead."""
    good = [
        claude_line(f"m{i}", f"r{i}", fresh=i, write=10 * i, read=100 * i, out=i + 1)
        for i in range(1, 7)
    ]
    said = json.loads(user_line('he said "usage": {"input_tokens": 99} and "usage" again'))
    in_text = json.dumps(said) + "\n"  # "usage" in text: JSON escapes its quotes
    as_key = json.dumps({"type": "user", "toolUseResult": {"usage": {"input_tokens": 5}}}) + "\n"
    copy = claude_line("m1", "r1", fresh=1, write=10, read=100, out=9)  # a streaming copy
    big_ok = claude_line("m8", "r8", out=8).replace('"the answer', '"' + "x" * (3 * _LIMIT // 4))
    over = "y" * (3 << 20)  # over the limit and over a block
    huge = claude_line("m9", "r9", out=9).replace('"the answer', '"' + over)
    lines: list[str | bytes] = [
        good[0],
        in_text,
        as_key,
        copy,
        good[1],
        b'{"type":"assistant","message":{"usage":{"input_tokens":7}}\xff\xfe}\n',  # not UTF-8
        good[2],
        big_ok,
        huge,
        good[3],
        '{"type":"assistant","message":{"usage":{"input_tokens":1e400}}}\n',  # a float
        '{"usage": {"input_tokens": 3}, "broken": \n',  # "usage", not JSON
        good[4],
        claude_line("m6", "r6", out=60),  # the last line: written cut short first, see below
    ]
    return [line if isinstance(line, bytes) else line.encode() for line in lines]


def _reference(lines: list[bytes]) -> tuple[list[Count], int]:
    """json.loads of each complete line alone, then the Claude parser's maker: a line over
    the limit is one skipped line, whatever it holds; the last line, cut short in the file,
    is not read yet."""
    records: list[Count] = []
    skipped = 0
    for line in lines[:-1]:
        if len(line) > _LIMIT:
            skipped += 1
            continue
        try:
            record = claude._record(json.loads(line), False)
        except (ValueError, RecursionError):  # (BadLine is a ValueError)
            skipped += 1
            continue
        if record is not None:
            records.append(record)
    return records, skipped


def _totals(records: list[Count]) -> dict[str | None, list[int]]:
    """The largest copy of each request, as the importer counts it."""
    out: dict[str | None, list[int]] = {}
    for rec in records:
        seen = out.setdefault(rec.key, [0, 0, 0, 0])
        out[rec.key] = [max(a, b) for a, b in zip(seen, rec.values())]
    return out


@pytest.mark.parametrize("chunk", [1 << 20, 4096, 333])
def test_the_fast_path_gives_the_totals_of_json_loads_on_hostile_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    monkeypatch.setattr(importer, "MAX_LINE", _LIMIT)
    monkeypatch.setattr(importer, "CHUNK", chunk)  # lines across blocks, blocks inside lines
    lines = _hostile(tmp_path)
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines)[:-40])  # the last line still being written
    mark = store.Mark(path=str(path), agent="claude")
    batch = importer._read(path, mark, importer._parser("claude", path, False), path.stat())
    want, skipped = _reference(lines)
    assert batch.skipped == skipped == 4  # not UTF-8, a float count, not JSON, huge
    assert _totals(batch.records) == _totals(want)
    assert sum(sum(v) for v in _totals(want).values()) == sum(
        (i + 10 * i + 100 * i + (9 if i == 1 else i + 1)) for i in range(1, 6)
    ) + (3 + 8)
    assert mark.offset == len(b"".join(lines[:-1]))  # the cut line is read next time
    path.write_bytes(b"".join(lines))  # its end written: it is read, once
    more = importer._read(path, mark, importer._parser("claude", path, False), path.stat())
    assert [(r.key, r.output) for r in more.records] == [("m6:r6", 60)]


def test_a_record_from_a_line_mentioning_usage_only_in_text_is_none() -> None:
    """A Claude line whose text talks about usage holds no count: no record, no skip."""
    line = user_line('the "usage" of tg-git: {"usage": {"output_tokens": 5}}').encode()
    batch = claude.parse(line, {})
    assert (batch.records, batch.skipped) == ([], 0)
    obj: Any = json.loads(line)
    with pytest.raises(BadLine):
        claude._record({"type": "assistant", "message": {"usage": {"input_tokens": "5"}}}, False)
    assert claude._record(obj, False) is None
