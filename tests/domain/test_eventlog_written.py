"""``eventlog.written``: the lines exactly as tg-git writes them read without a parse, and
every line it takes gives the event ``parse`` gives that line alone; a line a little off
(near misses of the writer's form) is either read the same or left to ``parse`` (None)."""

from __future__ import annotations

import re
import sys

import pytest

from tg_git.domain import eventlog
from tg_git.domain.errors import CorruptFile

AT = '"at" = "2026-01-01T00:00:00Z"'
USAGE = f'e1 = {{ "kind" = "usage", {AT}, "requests" = 1, "output" = 430, "model" = "m" }}'
COMMIT = f'e2 = {{ "kind" = "commit", {AT}, "tokens" = 46, "files" = 1, "label" = "a.py" }}'

NEAR_MISSES = [
    USAGE,
    COMMIT,
    'e3 = { "kind" = "usage", "kind" = "commit", "tokens" = 500 }',  # a kind twice: the last
    'e3 = { "kind" = "commit", "kind" = "usage", "tokens" = 500 }',
    'e3 = { "kind" = "usage", "tokens" = 500, "kind" = "commit" }',
    'e3 = { "kind" = "spend", "tokens" = 5 }',  # no such kind
    'e3 = { "kind" = "Usage" }',
    'e3 = { "kind" = "usage" }',
    'e3 = { "kind" = "commit" }',
    'e3 = { "kind" = "usage", "note" = "a\\xb" }',  # no such escape
    'e3 = { "kind" = "usage", "note" = "a\\/b\\u00e9\\"" }',  # JSON's escapes
    'e3 = { "kind" = "usage", "note" = "\\ud800" }',  # a lone surrogate, escaped
    'e3 = { "kind" = "usage", "note" = "\\u12" }',
    'e3 = { "kind" = "usage", "note" = "a\tb" }',  # a raw tab: TOML only
    'e3 = { "kind" = "usage", "note" = "a\x01b" }',
    'e3 = { "kind" = "usage", "note" = "a\x7f\x85\u2028b" }',
    'e3 = { "kind" = "usage", "note" = "x\\" = 5, \\"kind\\" = \\"commit" }',
    'e3 = { "kind" = "commit", "note" = "x\\" = 5", "tokens" = 7 }',
    'e3 = { "kind" = "commit", "label" = " = { ", "tokens" = 7 }',
    'e3 = { "kind" = "usage", "note" = "unterminated }',
    'e3 = { "kind" = "usage", "note" = \'literal\' }',
    'e3 = { "kind" = "commit", "tokens" = 012 }',  # leading zero
    'e3 = { "kind" = "commit", "tokens" = 1_000 }',
    'e3 = { "kind" = "commit", "tokens" = -0 }',
    'e3 = { "kind" = "commit", "tokens" = +5 }',
    'e3 = { "kind" = "commit", "tokens" = 1.5 }',
    'e3 = { "kind" = "commit", "tokens" = 1e3 }',
    'e3 = { "kind" = "commit", "tokens" = 0x10 }',
    'e3 = { "kind" = "commit", "tokens" = 123456789012345678 }',
    'e3 = { "kind" = "commit", "tokens" = ' + "9" * 5000 + " }",
    'e3 = { "kind" = "commit", "recount" = true, "tokens" = 3 }',
    'e3 = { "kind" = "commit", "recount" = True }',
    'e3 = { "kind" = "commit", "files" = [1, 2] }',
    'e3 = { "kind" = "commit", "x" = { "a" = 1 } }',
    'e3 = { "kind" = "commit", "tokens" = 5 } # a comment',
    'e3 = { "kind" = "commit", "tokens" = 5 } ',
    ' e3 = { "kind" = "commit", "tokens" = 5 }',
    '\ufeffe3 = { "kind" = "commit", "tokens" = 5 }',
    'e3 = { "kind" = "commit", "tokens" = 5, }',
    'e3 = { "kind" = "commit",  "tokens" = 5 }',
    'e3 = {"kind" = "commit", "tokens" = 5 }',
    'e3 = { kind = "commit", tokens = 5 }',  # bare keys: TOML reads them
    'e3 = { "kind" = "commit", "Tokens" = 5 }',
    'e3 = { "kind" = "commit", "to\\u006bens" = 5 }',
    'e.3 = { "kind" = "commit", "tokens" = 5 }',
    '"e3" = { "kind" = "commit", "tokens" = 5 }',
    'é3 = { "kind" = "commit", "tokens" = 5 }',
    'e3 = { "kind" = "commit", "tokens" = 5 } }',
    'e3 = { "kind" = "commit", "tokens" = 5',
    'e3 = { "kind" = "commit", "tokens" = """5""" }',
    'e3 = { "kind" = "commit", "note" = "a" "b" }',
    'e3 = { "kind" = "commit", "tokens" = 1, "tokens" = 900 }',  # a field twice: the last
    'e3 = { "kind" = "commit", "tokens" = 1, "kinds" = "usage", "kind_" = 2 }',
    'e3 = { "kind" = "commit", "label" = "\\u0000\\udc00\\ud83d\\ude00", "tokens" = 2 }',
    'e3 = { "kind" = "commit", "label" = "\x85\u2028\u2029\ufeff", "tokens" = 2 }',
    'e3 = { "kind" = "commit", "label" = "a\rb", "tokens" = 2 }',  # a raw CR
    'e3 = { "kind" = "commit", "tokens" = 2 }\r',
    'e3 = { "kind" = "commit", "tokens" = -123456789012345678 }',
    'e3 = { "kind" = "commit", "tokens" = 1234567890123456789 }',
    "e3 = 5",
    "e3 = {}",
    "",
    "<<<<<<< HEAD",
]


def _alone(line: str) -> dict[str, object] | str:
    """What ``parse`` makes of ``line`` alone: its one event, or the error."""
    try:
        events = eventlog.parse(line)
    except (CorruptFile, ValueError) as exc:
        return f"error: {type(exc).__name__}"
    assert len(events) == 1, events
    return dict(next(iter(events.values())))


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_a_line_it_takes_reads_as_parse_reads_it_alone(line: str) -> None:
    got = eventlog.written([USAGE, line, COMMIT])
    if got is None:
        return  # left to the parse
    alone = _alone(line)
    assert isinstance(alone, dict), f"taken, but parse says {alone}: {line!r}"
    if alone["kind"] == "commit":
        assert got.get(line) == alone  # each claim with its values
    else:
        assert line not in got  # claims nothing
    assert got[COMMIT] == _alone(COMMIT)


def test_the_lines_tg_git_writes_are_taken() -> None:
    lines = [
        eventlog.event_line("usage", output=430, model="claude-sonnet-4")[1].rstrip("\n"),
        eventlog.event_line("commit", tokens=46, files=1, label='a "b" = c.py')[1].rstrip("\n"),
        eventlog.event_line("commit", tokens=3, label="é\u2028\x7f\\", recount="abc")[1][:-1],
        eventlog.event_line("note", text="line\nbreak\ttab")[1].rstrip("\n"),
    ]
    got = eventlog.written(lines)
    assert got is not None
    assert got == {ln: _alone(ln) for ln in lines if '"commit"' in ln}
    assert eventlog.written(["e1 = 5", *lines]) is None


def _repeats(parsed: object) -> list[str]:
    """The repeat operators of a parsed expression (``re._parser``), nested ones too."""
    found: list[str] = []
    for op, arg in parsed:  # type: ignore[attr-defined]
        if str(op) in {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}:
            found.append(str(op))
        items = arg if isinstance(arg, (list, tuple)) else [arg]
        for item in items:
            if type(item).__name__ == "SubPattern":
                found += _repeats(item)
            elif isinstance(item, (list, tuple)):
                found += [
                    r for sub in item if type(sub).__name__ == "SubPattern" for r in _repeats(sub)
                ]
    return found


@pytest.mark.skipif(sys.version_info < (3, 11), reason="possessive repeats came in 3.11")
def test_the_written_form_keeps_no_place_to_return_to() -> None:
    # each line is matched once and either taken or not: a repeat the engine may backtrack
    # into costs a saved place at every field and character class of every line
    for form in (eventlog._CLAIMLESS, eventlog._WRITTEN):
        repeats = _repeats(re._parser.parse(form))  # type: ignore[attr-defined]
        assert repeats and all(r == "POSSESSIVE_REPEAT" for r in repeats), repeats


def _mutations(line: str) -> list[str]:
    """``line`` with one character taken away, doubled or swapped for a near one."""
    near = '"\\ ,=}{-0a\x01\t'
    found = [line[:n] + line[n + 1 :] for n in range(len(line))]
    found += [line[:n] + line[n] + line[n:] for n in range(len(line))]
    found += [line[:n] + c + line[n + 1 :] for n in range(len(line)) for c in near]
    return found


@pytest.mark.skipif(sys.version_info < (3, 11), reason="possessive repeats came in 3.11")
def test_the_possessive_form_takes_the_lines_the_plain_one_takes() -> None:
    lines = [m for line in NEAR_MISSES for m in (line, *_mutations(line))]
    for kinds in (eventlog.KINDS, [k for k in eventlog.KINDS if k != "commit"]):
        plain = re.compile(eventlog._written_form(kinds, possessive=False)).fullmatch
        possessive = re.compile(eventlog._written_form(kinds, possessive=True)).fullmatch
        differ = [ln for ln in lines if (plain(ln) is None) != (possessive(ln) is None)]
        assert not differ, differ[:3]


def _one_at_a_time(lines: list[str]) -> dict[str, object] | None:
    """``written`` with each line matched alone against the written form (no text-wide
    shortcut): what every shortcut of ``written`` must answer too."""
    form = re.compile(eventlog._WRITTEN).fullmatch
    if not all(map(form, lines)):
        return None
    commits = [ln for ln in lines if re.match(r'[^=]*= \{ "kind" = "commit"', ln)]
    return {ln: _alone(ln) for ln in commits}


def test_the_whole_text_shortcut_answers_as_each_line_alone() -> None:
    # every near miss and each one-character change of it, among lines of the written form:
    # with a backslash or a control character anywhere the text is matched a line at a time
    lines = [m for line in NEAR_MISSES for m in (line, *_mutations(line))]
    for line in lines:
        for text in ([USAGE, line, COMMIT], [line], [COMMIT, line]):
            expected = _one_at_a_time(text)
            got = eventlog.written(text)
            assert (got is None) == (expected is None), text
            if got is not None:
                assert got == expected, text
