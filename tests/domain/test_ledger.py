"""The ledger's own format: every line tg-git writes is TOML that tomlkit and tomllib read the
same way as tg-git's fast reader, whatever the text inside."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
import tomlkit

from tg_git.domain import eventlog
from tg_git.domain import replay
from tg_git.domain.errors import CorruptFile
from tg_git.repo import ledger

TRICKY = [
    "plain",
    "",
    'quote " inside',
    "back\\slash",
    'escaped \\" = then',
    '" = ',
    "a, b = c",
    "{ x = 1 }",
    '= { "',
    "new\nline\ttab",
    "한글 テスト 🙂 é",
    "\x00\x1f control",
    "#not a comment",
    "[[array]]",
    "'single'",
    "trailing\\",
]


def lines_for(texts: list[str]) -> str:
    out = [
        eventlog.event_line(
            "session",
            id="s1",
            max_tokens=100,
            base="",
            pending=texts[:3],
            in_progress=[{"task": t, "stopping_point": t, "blockers": [t]} for t in texts[:2]],
        )[1]
    ]
    out += [eventlog.event_line("note", session="s1", text=t)[1] for t in texts]
    return eventlog.HEADER + "".join(out)


def test_written_lines_read_the_same_everywhere() -> None:
    text = lines_for(TRICKY)
    ours = eventlog.parse(text)
    assert ours == tomlkit.parse(text).unwrap()
    if sys.version_info >= (3, 11):  # Python 3.10 has no tomllib: tomlkit's reading is the check
        import tomllib

        assert ours == tomllib.loads(text)


def test_random_strings_round_trip() -> None:
    rng = random.Random(3)
    alphabet = "ab =,{}[]\"\\\n\t#'한🙂\x01"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(300)]
    text = lines_for(texts)
    parsed = eventlog.parse(text)
    assert parsed == tomlkit.parse(text).unwrap()
    notes = [e["text"] for e in parsed.values() if e["kind"] == "note"]
    assert notes == texts


def test_replay_totals_and_plan() -> None:
    _, start = eventlog.event_line("session", id="s1", max_tokens=1000, base="", pending=["old"])
    events = [start]
    events.append(eventlog.event_line("commit", session="s1", tokens=10, files=1, label="a")[1])
    events.append(eventlog.event_line("input", session="s1", tokens=5, label="req")[1])
    events.append(
        eventlog.event_line("task", session="s1", op="start", title="old", note="half")[1]
    )
    events.append(eventlog.event_line("commit", session="other", tokens=999)[1])
    session = replay.replay(eventlog.parse("".join(events)))
    assert session is not None
    assert (session.output, session.input, session.used, session.commits) == (10, 5, 15, 1)
    assert (
        session.tasks["old"].status == "in_progress"
        and session.tasks["old"].stopping_point == "half"
    )


def test_comments_and_a_union_duplicate_are_fine() -> None:
    _, line = eventlog.event_line("commit", session="s1", tokens=3)
    _, start = eventlog.event_line("session", id="s1", max_tokens=10, base="")
    text = eventlog.HEADER + start + "# a user's comment\n\n" + line + line
    session = replay.replay(eventlog.parse(text))
    assert session is not None and session.output == 3


def test_same_key_different_content_is_corrupt() -> None:
    _, line = eventlog.event_line("commit", session="s1", tokens=3)
    other = line.replace('"tokens" = 3', '"tokens" = 4')
    with pytest.raises(CorruptFile, match="not valid TOML"):
        eventlog.parse(line + other)


def test_hand_written_bare_keys_are_read_too() -> None:
    text = 'e1 = { kind = "note", at = "2026-01-01T00:00:00Z", session = "s", text = "x = 1" }\n'
    event = eventlog.parse(text)["e1"]
    assert event["kind"] == "note" and event["text"] == "x = 1"


@pytest.mark.parametrize("durable", [True, False])
def test_write_atomic_fsyncs_the_new_text_before_it_replaces_the_old(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, durable: bool
) -> None:
    """The real os calls run; the test only watches their order (which inode was synced, which
    one replaced the file)."""
    target = tmp_path / "s1.toml"
    target.write_text("old\n")
    calls: list[tuple[str, int]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append(("fsync", os.fstat(fd).st_ino))
        real_fsync(fd)

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append(("replace", os.stat(src).st_ino))
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    ledger.write_atomic(target, "new\n", durable=durable)
    assert target.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["s1.toml"]  # no temp file left
    (replaced,) = [ino for what, ino in calls if what == "replace"]
    assert replaced == target.stat().st_ino
    if durable:
        assert calls == [("fsync", replaced), ("replace", replaced)]
    else:  # the commit hook: git writes the same bytes into the commit right after
        assert calls == [("replace", replaced)]


def test_a_session_copy_takes_only_its_own_fields() -> None:
    session = replay.Session(id="s1", started="", max_tokens=100, base="", output=5)
    after = session.copy(output=7)
    assert (after.output, session.output, after.id) == (7, 5, "s1")
    assert after != session and after.copy(output=5) == session
    with pytest.raises(TypeError, match="outptu"):
        session.copy(outptu=7)
    with pytest.raises(TypeError, match="outptu"):
        replay.Session(id="s1", started="", max_tokens=100, base="", outptu=7)  # type: ignore[call-arg]
