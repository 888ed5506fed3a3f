"""Property tests: any ledger text or checkpoint JSON gives a clear error or a correct parse,
never a crash, and within a fixed memory bound."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from typing import TypeVar

from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tg_git.domain import eventlog
from tg_git.domain.errors import BadCheckpoint
from tg_git.domain.errors import CorruptFile
from tg_git.services.resume import Found
from tg_git.services.resume import load

GOOD = eventlog.event_line("commit", key="e1", session="s", tokens=3, files=1, label="a.py")[1]
T = TypeVar("T")
R = TypeVar("R")
MEMORY_BOUND = 64 << 20  # bytes of peak allocation for an input of at most ~2 MB

pieces = st.one_of(
    st.just(GOOD),
    st.just("\r\n"),
    st.just("\ufeff"),
    st.just("<<<<<<< HEAD\n"),
    st.just('k = { "kind" = "commit", "tokens" = -1 }\n'),
    st.just("[" * 200),
    st.just("{" * 500),
    st.just('x = "' + "y" * 70_000 + '"\n'),
    st.just("# comment\n"),
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("utf-8", "replace")),
)


def bounded(func: Callable[[T], R], arg: T) -> R:
    """``func(arg)``, failing the test if it takes more than MEMORY_BOUND bytes at its peak."""
    tracemalloc.start()
    try:
        return func(arg)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < MEMORY_BOUND, f"{peak:,} bytes"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pieces, max_size=30))
def test_any_ledger_text_parses_or_says_corrupt(parts: list[str]) -> None:
    text = "".join(parts)
    try:
        events = bounded(eventlog.parse, text)
    except CorruptFile as exc:
        assert str(exc) and "\n" not in str(exc)
        kept, _dropped = eventlog.salvage(text)  # what a repair would keep reads back
        assert len(eventlog.parse("\n".join(kept))) == len(eventlog.union("\n".join(kept)))
        return
    assert all(isinstance(e, dict) and e["kind"] in eventlog.KINDS for e in events.values())
    # The good line is an event when it stands on a line of its own ("0" + GOOD is key "0e1").
    if GOOD.strip() in text.removeprefix("\ufeff").split("\n") and "\r" not in text:
        assert "e1" in events


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        json_values.map(json.dumps).map(str.encode),
        st.binary(max_size=300),
        st.integers(0, 3000).map(lambda n: ("[" * n + "]" * n).encode()),
    )
)
def test_any_checkpoint_bytes_load_or_say_bad(raw: bytes) -> None:
    try:
        data = bounded(load, Found("worktree", None, None, raw))
    except BadCheckpoint as exc:
        assert str(exc)
        return
    assert isinstance(data, dict) and "schema_version" in data
