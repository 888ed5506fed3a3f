"""Lines a reader of only part of each line (the usage object found by a search, the fields
next to it) would read otherwise than ``json.loads`` of the whole line: the Claude reader
gives the whole line's reading on each, the same requests, counts and skipped lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.agents import claude_line
from tg_git.usage import claude
from tg_git.usage.records import Count

FAKE = {"input_tokens": 10**6, "output_tokens": 10**6}  # counts no request here has
LAST = {"input_tokens": 11, "output_tokens": 12}  # a key's last value: what json.loads keeps


def _line(msg: str, fresh: int = 3, write: int = 0, read: int = 0, out: int = 10) -> str:
    return claude_line(msg, f"r-{msg}", fresh=fresh, write=write, read=read, out=out).rstrip("\n")


def _obj(msg: str, fresh: int = 3, write: int = 0, read: int = 0, out: int = 10) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(_line(msg, fresh, write, read, out))
    return obj


def _with_content(obj: dict[str, Any], *blocks: dict[str, Any]) -> str:
    """``obj`` written compact, its message's content ``blocks``."""
    return _dump({**obj, "message": {**obj["message"], "content": list(blocks)}})


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def _with_members(obj: dict[str, Any], path: tuple[str, ...], *members: str) -> str:
    """``obj`` written compact, with ``members`` (raw ``"key":value`` text, so that a key can
    be written twice) added at the end of the object at ``path``."""
    text = _dump(obj)
    inner = obj
    for key in path:
        inner = inner[key]
    body = _dump(inner)
    assert text.count(body) == 1
    return text.replace(body, body[:-1] + "".join("," + m for m in members) + "}")


def _cut_then_whole() -> str:
    """A request cut inside its text (a crash while writing) and a whole request written on
    after it on the same line: not JSON, one skipped line, neither counted."""
    cut = _line("m-cut", fresh=5, out=50)
    return cut[: cut.index("the answer") + 4] + _line("m-after", fresh=7, out=70)


def _cases() -> dict[str, str]:
    obj = _obj("m-base", fresh=3, write=30, read=300, out=4)
    usage = obj["message"]["usage"]
    fake_usage = '"usage":' + _dump(FAKE)
    return {
        "cut inside the content, then a whole request": _cut_then_whole(),
        "a usage object in a top-level member after the message": _with_members(
            obj, (), '"toolUseResult":{' + fake_usage + "}"
        ),
        "the message written twice, the fake one first": _with_members(
            obj, (), '"message":' + _dump({**obj["message"], "usage": usage})
        ).replace('"message":{', '"message":{' + fake_usage + ",", 1),
        "the message written twice, the last one counts": _with_members(
            obj, (), '"message":' + _dump({**obj["message"], "usage": LAST})
        ),
        "the usage written twice in the message, the last one counts": _with_members(
            obj, ("message",), '"usage":' + _dump(LAST)
        ),
        "a count written twice in the usage": _with_members(
            obj, ("message", "usage"), '"output_tokens":77', '"input_tokens":8'
        ),
        "the type written twice, assistant first": _with_members(obj, (), '"type":"user"'),
        "a usage object inside a tool's input": _with_content(
            obj, {"type": "tool_use", "name": "Edit", "input": {"usage": FAKE, "output_tokens": 1}}
        ),
        "escaped quotes and backslashes before the keys": _with_content(
            obj, {"type": "text", "text": 'a\\", "usage": ' + _dump(FAKE) + ' \\\\"x\\'}
        ),
        "a string that ends in a backslash before the usage": _with_content(
            obj, {"type": "text", "text": "C:\\"}
        ),
        "space, tabs and carriage returns around the tokens": _dump(obj)
        .replace('":', '" :\t')
        .replace(",", " ,\r ")
        .replace("{", "{ "),
        "not UTF-8 inside the content": "",  # (bytes, see _bytes)
        "a raw control character inside the content": _dump(obj).replace(
            "the answer", "the\x01answer"
        ),
        "cut short before its last braces": _dump(obj)[:-2],
        "the content nested 5,000 levels": _dump(obj).replace(
            '"content":[', '"content":[' + "[" * 5000 + "]" * 5000 + ",", 1
        ),
        "no usage in the message, one in its content": _dump(
            {
                **obj,
                "message": {
                    **{k: v for k, v in obj["message"].items() if k != "usage"},
                    "content": [{"type": "text", "usage": usage}],
                },
            }
        ),
    }


def _bytes(name: str, text: str) -> bytes:
    if name == "not UTF-8 inside the content":
        return (
            _dump(_obj("m-base", fresh=3, out=4)).encode().replace(b"the answer", b"the\xffanswer")
        )
    return text.encode()


def _reference(lines: list[bytes]) -> tuple[list[Count], int]:
    """``json.loads`` of each line alone, then the Claude parser's maker."""
    found: list[Count] = []
    skipped = 0
    for line in lines:
        try:
            record = claude._record(json.loads(line), False)
        except (ValueError, RecursionError):  # (BadLine is a ValueError)
            skipped += 1
            continue
        if record is not None:
            found.append(record)
    return found, skipped


def _read(record: Count) -> tuple[str | None, list[int]]:
    return record.key, record.values()


@pytest.mark.parametrize("name", sorted(_cases()))
def test_a_line_a_partial_reader_would_misread_is_read_whole(name: str) -> None:
    """Each misleading line, between two plain requests: the requests and counts ``json.loads``
    of each whole line gives, and its skipped lines; never the fake counts."""
    line = _bytes(name, _cases()[name])
    lines = [_line("m-before", out=5).encode(), line, _line("m-next", out=6).encode()]
    want, skipped = _reference(lines)
    batch = claude.parse(b"\n".join(lines) + b"\n", {})
    assert batch.skipped == skipped, name
    assert [_read(r) for r in batch.records] == [_read(r) for r in want], name
    assert all(10**6 not in r.values() for r in batch.records), name


def test_the_cases_mislead() -> None:
    """The cases hold what they are named for: the broken lines are refused by ``json.loads``,
    a key written twice is read at its last value, and every case holds a usage's counts
    where a search for them finds it."""
    refused = {
        "cut inside the content, then a whole request",
        "not UTF-8 inside the content",
        "a raw control character inside the content",
        "cut short before its last braces",
        "the content nested 5,000 levels",
    }
    for name, text in _cases().items():
        line = _bytes(name, text)
        assert _reference([line])[1] == (name in refused), name
        assert b'"output_tokens"' in line, name
    for name in ("the message written twice, the last one counts",
                 "the usage written twice in the message, the last one counts"):  # fmt: skip
        want, _ = _reference([_cases()[name].encode()])
        assert [r.values() for r in want] == [[11, 0, 0, 12]], name
    want, _ = _reference([_cases()["a count written twice in the usage"].encode()])
    assert [r.values() for r in want] == [[8, 30, 300, 77]]
