"""The Claude reader's fast path (lines found by one search for ``"output_tokens"``, a block
at a time, a line over a block read on, a line over the limit skipped) gives what
``json.loads`` of every line, one at a time, gives: the same requests, the same totals, the
same count of lines that are not JSON, on the lines a transcript can hold that a fast path
could get wrong; but for a request whose ``output_tokens`` key is written with an escape,
which it passes over (the escaped key, below)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import claude_line
from tests.support.agents import user_line
from tg_git.usage import claude
from tg_git.usage import importer
from tg_git.usage import records
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
        # not UTF-8
        b'{"type":"assistant","message":{"usage":{"input_tokens":7,"output_tokens":1}}\xff\xfe}\n',
        good[2],
        big_ok,
        huge,
        good[3],
        '{"type":"assistant","message":{"usage":{"input_tokens":1e400,"output_tokens":1}}}\n',
        '{"usage": {"input_tokens": 3, "output_tokens": 1}, "broken": \n',  # not JSON
        *_bad_counts(),
        *_usage_in_content(),
        good[4],
        claude_line("m6", "r6", out=60),  # the last line: written cut short first, see below
    ]
    return [line if isinstance(line, bytes) else line.encode() for line in lines]


def _bad_counts() -> list[str]:
    """Requests whose usage holds a count that cannot be true: each line is skipped whole."""
    bad = ['"5"', "-3", str(10**11), "NaN", "Infinity", "true", "2.0", "[1]", "null"]
    lines = []
    for n, value in enumerate(bad):
        line = claude_line(f"bad{n}", f"rb{n}", fresh=4242)
        lines.append(line.replace('"input_tokens":4242', f'"input_tokens":{value}'))
    return lines  # (null: an absent count, 0; the others: skipped)


def _usage_in_content() -> list[str]:
    """Requests whose content holds a usage object of its own, before or after the message's
    (a tool's input, a text quoting one): only the message's counts."""
    fake = {"usage": {"input_tokens": 10**6, "output_tokens": 10**6}}
    lines = []
    for n, where in enumerate(("first", "last")):
        obj = json.loads(claude_line(f"c{n}", f"rc{n}", fresh=5, out=6))
        block = {"type": "tool_use", "id": "t", "name": "Edit", "input": fake}
        said = {"type": "text", "text": '"usage":{"input_tokens":777}} "usage"'}
        message = obj["message"]
        message["content"] = [block, said]
        if where == "first":  # the message's usage written before its content
            message = {"usage": message.pop("usage"), **message}
        obj["message"] = message
        obj["toolUseResult"] = fake
        lines.append(json.dumps(obj, separators=(",", ":")) + "\n")
    return lines


def _reference(lines: list[bytes], limit: int = _LIMIT) -> tuple[list[Count], int]:
    """json.loads of each complete line alone, then the Claude parser's maker: a line over
    the limit is one skipped line, whatever it holds; the last line, cut short in the file,
    is not read yet."""
    records: list[Count] = []
    skipped = 0
    for line in lines[:-1]:
        if len(line) > limit:
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
    assert batch.skipped == skipped == 4 + 8  # not UTF-8, a float, not JSON, huge, bad counts
    assert _totals(batch.records) == _totals(want)
    assert sum(sum(v) for v in _totals(want).values()) == sum(
        (i + 10 * i + 100 * i + (9 if i == 1 else i + 1)) for i in range(1, 6)
    ) + (3 + 8) + 10 + 2 * (5 + 6)  # (the null count: 0 input, 10 output)
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
        usage = {"input_tokens": "5", "output_tokens": 1}
        claude._record({"type": "assistant", "message": {"usage": usage}}, False)
    assert claude._record(obj, False) is None


def test_a_line_of_50_mb_is_read_whole_at_the_real_limits(tmp_path: Path) -> None:
    """A request whose line is 50 MB (a long tool input), between two others, at the real
    block size and line limit: read whole across some fifty blocks, its counts taken once,
    as ``json.loads`` of each line takes them."""
    long = claude_line("m2", "r2", fresh=2, read=200, out=20)
    long = long.replace('"the answer', '"' + "z\\n" * (17 << 20))  # 51 MB of text
    lines = [claude_line("m1", "r1", out=10), long, claude_line("m3", "r3", out=30)]
    data = "".join(lines).encode()
    assert len(lines[1]) > 50 << 20 > importer.CHUNK
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    mark = store.Mark(path=str(path), agent="claude")
    batch = importer._read(path, mark, importer._parser("claude", path, False), path.stat())
    want, skipped = _reference([line.encode() for line in lines] + [b""], limit=importer.MAX_LINE)
    assert (batch.skipped, skipped) == (0, 0)
    assert _totals(batch.records) == _totals(want)
    assert [r.key for r in batch.records] == ["m1:r1", "m2:r2", "m3:r3"]
    assert mark.offset == len(data)


def _framed(line: bytes) -> list[bytes]:
    """A request's line as a transcript could hold it: whole, or with what a scanner that
    reads one value from the line's start would take for it and ``json.loads`` would not
    (more after the value, a second value, a broken frame), or would read otherwise (space
    around it, a byte-order mark, a carriage return)."""
    body = line.rstrip(b"\n")
    return [
        body,
        body + b" x",  # more after the value
        body + b"}",
        body + b',{"type":"assistant"}',  # two values: ``1,2``
        body + b"]",
        b"[" + body,  # an array never closed
        b"[" + body + b"]",  # an array holding the request: not an object
        b" " + body,  # space before: json.loads reads it
        body + b" \t",  # space after: read too
        body + b"\r",  # a line ended the Windows way: read too
        b"\xef\xbb\xbf" + body,  # a byte-order mark: json.loads reads it
        b"\t\r " + body + b"\r\r",
        body[:-1],  # cut short
        body + body,  # two requests on one line
    ]


def test_a_line_counts_only_as_json_loads_reads_it_whole() -> None:
    """The Claude reader scans a line's value from its start and counts it only when the
    value is all the line holds, as ``json.loads`` of the line reads it: each framing of a
    request that ``json.loads`` refuses is one skipped line, none counted; each it reads
    (space, a byte-order mark, a carriage return) counts."""
    frames = _framed(claude_line("m1", "r1", fresh=7, write=70, read=700, out=1).encode())
    for n, frame in enumerate(frames):  # each framing alone, between two plain requests
        before = claude_line("m0", "r0", out=5).encode()
        after = claude_line("m2", "r2", out=6).encode()
        data = before + frame.replace(b'"m1"', f'"m1x{n}"'.encode()) + b"\n" + after
        lines = data.split(b"\n")
        want, skipped = _reference([*lines[:-1], b""], limit=1 << 30)
        batch = claude.parse(data, {})
        assert batch.skipped == skipped, frame
        assert _totals(batch.records) == _totals(want), frame
    assert sum(1 for f in frames if isinstance(_loads_or_none(f), dict)) == 6  # (it checks)


def _loads_or_none(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _without_output(line: str) -> str:
    """``line`` (a request's) with its usage naming no ``output_tokens``."""
    obj = json.loads(line)
    del obj["message"]["usage"]["output_tokens"]
    return json.dumps(obj, separators=(",", ":")) + "\n"


def test_a_usage_without_output_tokens_is_no_request() -> None:
    """Every API response's usage names ``output_tokens`` (ccusage's reader requires it too):
    a usage object without it is not a request, neither counted nor skipped, in the fast loop
    and in the reference alike, whatever else it names."""
    lone = _without_output(claude_line("m1", "r1", fresh=5, write=50, read=500))
    bad = _without_output(claude_line("m2", "r2", fresh=5)).replace(
        '"input_tokens":5', '"input_tokens":"5"'
    )
    data = (lone + bad + claude_line("m3", "r3", fresh=1, out=2)).encode()
    batch = claude.parse(data, {})
    assert ([r.key for r in batch.records], batch.skipped) == (["m3:r3"], 0)
    assert claude._record(json.loads(lone), False) is None
    assert claude._record(json.loads(bad), False) is None


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each line the Claude reader decodes (its ``line_value``, counted)."""
    calls: list[int] = []
    real = records.line_value

    def counted(line: bytes) -> Any:
        calls.append(len(line))
        return real(line)

    monkeypatch.setattr(claude, "line_value", counted)
    return calls


def test_a_line_without_output_tokens_is_never_decoded(decoded: list[int]) -> None:
    """A line is read for ``"output_tokens"``: a line holding ``"usage"`` but not it (a tool's
    result, a user's line) is passed over undecoded, and so is one holding escapes (a tool's
    colored output) but no token count's name; only the request is read."""
    calls = decoded
    as_key = json.dumps({"type": "user", "toolUseResult": {"usage": {"input_tokens": 5}}})
    colored = json.dumps({"type": "user", "toolUseResult": {"stdout": "\x1b[31mred\x1b[0m"}})
    assert "\\u001b" in colored
    data = as_key + "\n" + claude_line("m1", "r1", out=7) + as_key + "\n" + colored + "\n"
    batch = claude.parse(data.encode(), {})
    assert [(r.key, r.output) for r in batch.records] == [("m1:r1", 7)]
    assert len(calls) == 1


@pytest.mark.parametrize(
    "spaced",
    [
        lambda s: s.replace('":', '": ').replace(",", ", "),  # json.dumps's default form
        lambda s: s.replace('":', '" :\t'),  # space before and after each colon
        lambda s: s.replace("{", "{\r ").replace("}", " }"),  # space inside each object
    ],
)
def test_a_request_written_with_spaces_is_found(spaced: Any) -> None:
    """JSON written with spaces (after a colon, before one, inside the braces) still holds
    ``"output_tokens"`` as the search looks for it: each such request counts as
    ``json.loads`` reads it."""
    line = spaced(claude_line("m1", "r1", fresh=3, write=30, read=300, out=4).rstrip("\n"))
    data = (line + "\n" + claude_line("m2", "r2", out=6)).encode()
    want, skipped = _reference([*data.split(b"\n")[:-1], b""], limit=1 << 30)
    batch = claude.parse(data, {})
    assert batch.skipped == skipped == 0
    assert (
        _totals(batch.records) == _totals(want) == {"m1:r1": [3, 30, 300, 4], "m2:r2": [3, 0, 0, 6]}
    )


def test_a_request_nested_1010_levels_deep_counts_on_every_python() -> None:
    """``json.loads`` reads some 1,000 levels before Python 3.12, fewer the deeper its
    caller's stack, and 1,025 levels and more from 3.12 on (orjson, the fast extra: 1,024):
    the reader gives itself room for 1,100 levels wherever it is called, so a request that
    deep counts on every Python and by either reading; one far deeper is a skipped line."""
    deep = "[" * 1010 + "]" * 1010
    line = claude_line("m1", "r1", out=7).replace('"the answer', f'"x","deep":{deep},"y":"')
    assert deep in line and '"output_tokens":7' in line
    far = line.replace(deep, "[" * 5000 + "]" * 5000)
    batch = claude.parse((line + far + claude_line("m2", "r2", out=8)).encode(), {})
    assert [(r.key, r.output) for r in batch.records] == [("m1:r1", 7), ("m2:r2", 8)]
    assert batch.skipped == 1


@pytest.mark.parametrize(
    "key",
    [
        "output\\u005ftokens",  # the underscore escaped
        "\\u006Futput_tokens",  # the first letter, in upper-case hex
        "output_token\\u0073",
        "\\u006f\\u0075tput_tokens",
    ],
)
def test_a_request_whose_output_key_is_escaped_is_passed_over(key: str, decoded: list[int]) -> None:
    """The one line the reader reads otherwise than ``json.loads`` does: a request whose
    ``output_tokens`` key is written with an escape (``"output\\u005ftokens"``; Claude Code
    never writes one) does not hold the needle, so it is passed over undecoded, neither
    counted nor skipped, where ``_record`` of ``json.loads`` would count it. The requests
    around it, and lines holding escapes of other characters, count as the reference reads
    them."""
    calls = decoded
    line = claude_line("m1", "r1", fresh=3, write=30, read=300, out=4)
    line = line.replace('"output_tokens"', f'"{key}"')
    assert '"output_tokens"' not in line
    assert claude._record(json.loads(line), False) is not None  # json.loads would count it
    noise = json.dumps({"type": "user", "text": "\x1b[0m\x00 caf\u00e9"}) + "\n"
    data = noise + claude_line("m0", "r0", out=2) + line + noise + claude_line("m2", "r2", out=6)
    batch = claude.parse(data.encode(), {})
    assert batch.skipped == 0
    assert [r.key for r in batch.records] == ["m0:r0", "m2:r2"]
    assert len(calls) == 2  # the two requests only


def _folded(lines: list[str], sidechain: bool = False) -> list[Count]:
    """What the reader's contract says of ``lines`` (each read by ``json.loads`` and
    ``_record``): copies of one request one after another (a key, and the same time, model,
    session and sidechain flag as read) are one Count with the largest of each count and the
    fill of those; any other line that is a request is a Count of its own."""
    out: list[Count] = []
    for line in lines:
        try:
            rec = claude._record(json.loads(line), sidechain)
        except BadLine:  # skipped: the copies around it are still one request
            continue
        if rec is None:
            continue
        last = out[-1] if out else None
        same = ("key", "at", "model", "session")
        if (
            last is not None
            and rec.key is not None
            and all(getattr(rec, f) == getattr(last, f) for f in same)
            and (rec.fill is None) == (last.fill is None)
        ):
            top = [max(a, b) for a, b in zip(last.values(), rec.values())]
            fill = None if rec.fill is None else sum(top)
            out[-1] = last._replace(
                fresh_input=top[0], cache_write=top[1], cache_read=top[2], output=top[3], fill=fill
            )
            continue
        out.append(rec)
    return out


_T = "2026-11-30T10:00:00"
COPIES = {
    "growing and shrinking copies": [
        claude_line("m1", "r1", fresh=3, out=5, at=_T + ".100Z"),
        claude_line("m1", "r1", fresh=2, out=50, at=_T + ".200Z"),
        claude_line("m1", "r1", fresh=4, out=7, read=9, at=_T + ".900Z"),
        claude_line("m2", "r2", out=1, at=_T + ".950Z"),
    ],
    "a copy a second later is another request": [
        claude_line("m1", "r1", out=5, at=_T + ".100Z"),
        claude_line("m1", "r1", out=9, at="2026-11-30T10:00:01.100Z"),
    ],
    "times written otherwise that read the same": [
        claude_line("m1", "r1", out=5, at=_T + "Z"),
        claude_line("m1", "r1", out=9, at=_T + ".5Z"),
        claude_line("m1", "r1", out=7, at=_T + "+00:00"),
    ],
    "no ids, or ids that are no ids: never copies": [
        claude_line("", "", out=5, at=_T + ".100Z"),
        claude_line("", "", out=9, at=_T + ".200Z"),
        claude_line("m 1", "r1", out=5, at=_T + ".100Z"),
        claude_line("m 1", "r1", out=9, at=_T + ".200Z"),
    ],
    "models, sessions, sidechain flags that differ": [
        claude_line("m1", "r1", out=5, at=_T + ".1Z"),
        claude_line("m1", "r1", out=6, at=_T + ".2Z", model="claude-haiku-4-5"),
        claude_line("m1", "r1", out=7, at=_T + ".3Z", model="claude-haiku-4-5", session="s2"),
        claude_line("m1", "r1", out=8, at=_T + ".4Z", model="claude-haiku-4-5", side=True),
        claude_line("m1", "r1", out=9, at=_T + ".5Z", model="claude-haiku-4-5", side=True),
    ],
    "models that are no models read alike: copies": [
        claude_line("m1", "r1", out=5, at=_T + ".1Z", model="not a model"),
        claude_line("m1", "r1", out=9, at=_T + ".2Z", model="nor this one"),
    ],
    "a copy after a line that is no request, or broken": [
        claude_line("m1", "r1", out=5, at=_T + ".1Z"),
        user_line(),
        claude_line("m1", "r1", out=9, at=_T + ".2Z").replace(
            '"output_tokens":9', '"output_tokens":"9"'
        ),
        claude_line("m1", "r1", out=8, at=_T + ".3Z"),
        claude_line("m1", "r1", out=6, at=_T + ".4Z", model="<synthetic>"),
        claude_line("m1", "r1", out=7, at=_T + ".5Z"),
    ],
}


@pytest.mark.parametrize("name", sorted(COPIES))
@pytest.mark.parametrize("sidechain", [False, True])
def test_streaming_copies_are_one_count_with_their_largest_counts(
    name: str, sidechain: bool
) -> None:
    lines = COPIES[name]
    data = "".join(lines).encode()
    batch = claude.parse(data, {}, sidechain)
    bad = sum(1 for line in lines if '"output_tokens":"' in line)
    assert (batch.records, batch.skipped) == (_folded(lines, sidechain), bad)


def _changed(where: str, key: str, value: Any, side: bool) -> str:
    """A request line (``claude_line``, a subagent's with ``side``) with ``key`` of the object
    ``where`` names (the line, its message, its usage) set to ``value``, or taken out
    (``value`` is ``_GONE``)."""
    obj = json.loads(claude_line("m1", "r1", fresh=3, write=30, read=300, out=4, at=_T + ".1Z",
                                 side=side))  # fmt: skip
    target = {"line": obj, "message": obj["message"], "usage": obj["message"]["usage"]}[where]
    if value is _GONE:
        del target[key]
    else:
        target[key] = value
    return json.dumps(obj, separators=(",", ":")) + "\n"


_GONE = object()
_READ_AT_ONCE = [  # each key the reader looks up with the others of its object at once
    *(("line", k) for k in ("type", "message", "timestamp", "requestId", "sessionId",
                            "isSidechain")),
    *(("message", k) for k in ("usage", "model", "id")),
    *(("usage", k) for k in claude._NAMES),
]  # fmt: skip


@pytest.mark.parametrize("value", [_GONE, None, [], "x", 7, {"output_tokens": 1}],
                         ids=["absent", "null", "list", "str", "int", "object"])  # fmt: skip
@pytest.mark.parametrize(("where", "key"), _READ_AT_ONCE)
def test_a_line_without_one_of_the_keys_read_at_once_counts_as_the_reference(
    where: str, key: str, value: Any
) -> None:
    """A line where one key the reader looks up at once with the others of its object is
    absent or of another type (its lookup fails, or gives what no request holds) counts as
    ``_record`` reads it, one key at a time: beside a request before and after it, as a
    copy of the one before or a request of its own, skipped when its counts cannot be."""
    for side, sidechain in [(False, False), (True, False), (False, True)]:
        odd = _changed(where, key, value, side)
        lines = [
            claude_line("m0", "r0", out=2, at=_T + ".0Z"),
            claude_line("m1", "r1", fresh=1, out=1, at=_T + ".05Z", side=side),  # its copy, maybe
            odd,
            claude_line("m2", "r2", out=6, at=_T + ".2Z"),
        ]
        batch = claude.parse("".join(lines).encode(), {}, sidechain)
        try:
            claude._record(json.loads(odd), sidechain)
        except BadLine:
            bad = 1
        else:
            bad = 0
        assert (batch.records, batch.skipped) == (_folded(lines, sidechain), bad)
