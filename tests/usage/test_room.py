"""The room the Claude reader gives ``json.loads`` (a raised recursion limit) is the
interpreter's, shared by every thread: it is given back as it was found once the last reader
is done, on an error too, and a reader never loses its room while another ends its own."""

from __future__ import annotations

import sys
import threading

import pytest

from tg_git.usage import claude
from tg_git.usage.records import line_value


def test_the_limit_is_given_back_after_an_error() -> None:
    before = sys.getrecursionlimit()
    with pytest.raises(KeyError), claude.room():
        assert sys.getrecursionlimit() > before
        raise KeyError("x")
    assert sys.getrecursionlimit() == before


def test_two_threads_keep_their_room_and_give_the_limit_back() -> None:
    """One reader ends while another still reads: the other keeps its room, and once both
    are done the limit is what it was before either began."""
    before = sys.getrecursionlimit()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[int] = []

    def first() -> None:
        with claude.room():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second() -> None:
        first_in.wait(10)
        with claude.room():
            second_in.set()
            first_out.wait(10)
            seen.append(sys.getrecursionlimit())  # the first reader is done: still room?

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert seen and seen[0] > before
    assert sys.getrecursionlimit() == before


def test_a_deep_request_counts_while_another_thread_ends_its_read() -> None:
    """A request 1,010 levels deep, read in one thread while another thread's read ends,
    counts as it does alone."""
    deep = "[" * 1010 + "]" * 1010
    line = (
        '{"type":"assistant","message":{"id":"m1","model":"claude-x","usage":'
        '{"input_tokens":1,"output_tokens":7},"deep":' + deep + '},"requestId":"r1"}\n'
    ).encode()
    before = sys.getrecursionlimit()
    inside, leave, ended = threading.Event(), threading.Event(), threading.Event()

    def other() -> None:
        with claude.room():  # the other read began first
            inside.set()
            leave.wait(10)
        ended.set()

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait(10)
    with claude.room():
        leave.set()
        ended.wait(10)  # it ended while this read goes on
        batch = claude._parse(line, False, line_value)
    thread.join(20)
    assert [(r.key, r.output) for r in batch.records] == [("m1:r1", 7)]
    assert sys.getrecursionlimit() == before
