"""The ledger's line format in-process: one line an event whatever its text, what every reader
parses, and the line sets that merges, journals and repairs work on."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tg_git.domain import eventlog
from tg_git.domain.errors import CorruptFile

AT = "2026-12-01T10:00:00Z"
HAND = 'h1 = { kind = "note", text = "by hand" }'  # bare keys: read line by line


def commit(key: str = "k1", **fields: object) -> str:
    values: dict[str, object] = {"at": AT, "session": "s1", "tokens": 1, "files": 1, **fields}
    return eventlog.event_line("commit", key=key, **values)[1].rstrip("\n")


@pytest.mark.parametrize("label", ["a\u2028b", "a\u2029b", "a\x85b", "a\x7fb", "a\nb\r"])
def test_a_label_with_any_line_break_stays_on_one_line(label: str) -> None:
    line = commit(label=label)
    assert len(line.splitlines()) == 1
    assert eventlog.parse(line)["k1"].get("label") == label


def test_an_undecodable_byte_in_a_path_becomes_a_replacement_character() -> None:
    line = commit(label="caf\udce9.txt")
    line.encode("utf-8")  # a lone surrogate would raise here
    assert eventlog.parse(line)["k1"].get("label") == "caf\ufffd.txt"


def test_values_read_back_as_written() -> None:
    line = commit(override=True, label="x", at="2020-02-02T02:02:02Z")
    event = eventlog.parse(line)["k1"]
    assert event.get("override") is True and event["at"] == "2020-02-02T02:02:02Z"
    assert " override = true" in line.replace('"', "")


def test_a_key_twice_with_two_bodies_is_a_clear_error() -> None:
    with pytest.raises(CorruptFile):
        eventlog.parse(eventlog.render([commit(tokens=1), commit(tokens=2)]))
    with pytest.raises(CorruptFile):  # a hand-written line sends it the careful way
        eventlog.parse(eventlog.render([HAND, commit(tokens=1), commit(tokens=2)]))


def test_the_same_event_twice_reads_once() -> None:
    assert list(eventlog.parse(eventlog.render([commit(), commit()]))) == ["k1"]
    assert list(eventlog.parse(eventlog.render([HAND, commit(), commit()]))) == ["h1", "k1"]


def test_a_byte_order_mark_and_crlf_line_ends_read_the_same() -> None:
    text = eventlog.render([commit("k1"), commit("k2")])
    assert eventlog.parse("\ufeff" + text) == eventlog.parse(text)
    crlf = text.replace("\n", "\r\n")
    assert eventlog.parse(crlf) == eventlog.parse(text)
    assert eventlog.event_lines(crlf) == eventlog.event_lines(text)


def test_an_event_of_an_unknown_kind_is_a_clear_error() -> None:
    with pytest.raises(CorruptFile, match="k9"):
        eventlog.parse('k9 = { "kind" = "bogus", "at" = "x" }\n')


def test_comments_indented_or_not_are_not_event_lines() -> None:
    assert eventlog.event_lines(f"# c\n  # indented\n\t# tab\n\n{commit()}\n") == [commit()]


def test_union_keeps_the_first_version_of_a_key() -> None:
    first, edited = commit(tokens=5), commit(tokens=1)
    assert eventlog.union(first, edited) == [first]
    assert eventlog.union(edited, first) == [edited]


def test_salvage_keeps_one_version_of_each_key_and_counts_the_junk() -> None:
    text = "\n".join([commit(tokens=5), "<<<<<<< HEAD", commit(tokens=1), commit("k2")])
    assert eventlog.salvage(text) == ([commit(tokens=5), commit("k2")], 1)


def test_rewrite_keeps_the_lines_it_has_once_and_appends_the_new() -> None:
    text = eventlog.render([commit("k1")])
    assert eventlog.rewrite(text, [commit("k1")]) == text
    assert eventlog.rewrite(text + "\n\n", [commit("k1"), commit("k2")]) == eventlog.render(
        [commit("k1"), commit("k2")]
    )


def _via_union(texts: Sequence[str | None]) -> list[tuple[str, object]]:
    """What every reader got before ``parse_union``: the union's lines parsed as one text."""
    return list(eventlog.parse("\n".join(eventlog.union(*texts))).items())


NESTED = eventlog.event_line(
    "session", key="n1", at=AT, id="s1", in_progress=[{"task": "t = { x", "blockers": []}]
)[1].rstrip("\n")  # a nested table, and ` = { ` inside a string: the per-line split
QUOTED = commit("q1", label='say " = x and " = { y')  # `" = ` inside a string


@pytest.mark.parametrize(
    "texts",
    [
        [eventlog.render([commit("k1"), commit("k2")]), eventlog.render([commit("k3")])],
        [eventlog.render([commit("k1", tokens=5)]), eventlog.render([commit("k1", tokens=1)])],
        [eventlog.render([commit("k2"), commit("k1")]), eventlog.render([commit("k1")]), None],
        [eventlog.render([NESTED, QUOTED]), f"{commit('k4')}\r\n# c\n\n{commit('k5')}", ""],
        ["\ufeff" + eventlog.render([commit("k1")]), eventlog.render([HAND, commit("k2")])],
        [eventlog.render([commit("k1"), commit("k1")]), eventlog.render([commit("k7")])],
        [eventlog.render([f"  {commit('k1')}"]), eventlog.render([commit("k2")])],
        [f"{commit('k1')}\n{commit('k2')}", eventlog.render([commit("k2", tokens=9)])],
        [eventlog.render([commit("k1"), commit("k2", tokens=1), commit("k2", tokens=2)])],
    ],
)
def test_parse_union_reads_what_the_union_of_the_texts_reads(texts: list[str | None]) -> None:
    """Each text parsed on its own gives the events, their values and their order
    that parsing the union of all lines gave (a key in two texts: its first version)."""
    assert list(eventlog.parse_union(texts).items()) == _via_union(texts)


@pytest.mark.parametrize(
    "second",
    [
        'k9 = { "kind" = "bogus", "at" = "x" }\n',
        'k9 = { "kind" = ["commit"], "at" = "x" }\n',
        "k9 = 5\n",
    ],
)
def test_parse_union_words_a_broken_text_as_the_union_did(second: str) -> None:
    texts = [eventlog.render([commit("k1")]), second]
    with pytest.raises(CorruptFile) as union_error:
        _via_union(texts)
    with pytest.raises(CorruptFile) as error:
        eventlog.parse_union(texts)
    assert str(error.value) == str(union_error.value)


def test_keys_made_in_one_second_sort_in_the_order_they_were_made() -> None:
    keys = [eventlog.new_key() for _ in range(2000)]
    seconds = {key[:15] for key in keys}
    assert len(seconds) <= 2  # a second's boundary at most: the test spans a few milliseconds
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    assert all(eventlog.is_session_id("s" + key[1:]) for key in keys)


def test_lines_that_each_read_alone_are_kept_together() -> None:
    # one line only the per-line reading takes (a key twice), one that sends a file to the
    # TOML parser (a raw tab): kept by salvage, they must not fail when read together
    twice = 'e20260101000001-000000000001 = { "kind" = "note", "kind" = "note", "at" = "2026-01-01T00:00:01Z", "text" = "a" }'
    tab = 'e20260101000002-000000000002 = { "kind" = "note", "at" = "2026-01-01T00:00:02Z", "text" = "b\tc" }'
    text = f"{twice}\n{tab}\n"
    kept, events, dropped = eventlog.clean_events(text)
    assert (kept, dropped) == (eventlog.salvage(text)[0], eventlog.salvage(text)[1])
    assert list(events) == [eventlog.key_of(line) for line in kept]
    assert events == {**eventlog.parse(twice), **eventlog.parse(tab)}
