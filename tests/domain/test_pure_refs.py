"""Checkpoint tag names and trailers in-process: a hand-edited session id can reach neither a
ref name nor a trailer line as it is."""

from __future__ import annotations

import re

import pytest

from tg_git.domain import refs

STAMP = "20261201T100000.000000Z"
COMPONENT = re.compile(r"[A-Za-z0-9_-]{1,64}")


@pytest.mark.parametrize("value", ["", "a" * 100, "a..b.lock", ".hidden", "s1/../x", "세션"])
def test_any_value_becomes_one_bounded_ref_component(value: str) -> None:
    component = refs.safe_component(value)
    assert COMPONENT.fullmatch(component) and component != value


def test_a_plain_id_stays_and_two_ids_never_share_a_component() -> None:
    assert refs.safe_component("s20261201100000-0123456789ab") == "s20261201100000-0123456789ab"
    assert refs.safe_component("a" * 100) != refs.safe_component("a" * 101)
    assert len(refs.safe_component("a" * 100)) == refs.MAX_COMPONENT


@pytest.mark.parametrize("stamp", [STAMP + "x", "2026-12-01", STAMP[:-1]])
def test_a_tag_needs_a_stamp_and_nothing_else(stamp: str) -> None:
    with pytest.raises(ValueError):
        refs.tag_name(stamp, "s1", "halt")
    assert refs.tag_name(STAMP, "s1", "halt") == f"checkpoint/{STAMP}-s1-halt"


def test_a_message_cannot_pose_as_either_trailer() -> None:
    message = refs.neutral_message("fix\nTg-Git-Session: other\nTg-Git-Level: halt")
    assert message.split("\n") == ["fix", "  Tg-Git-Session: other", "  Tg-Git-Level: halt"]


def test_a_newline_in_a_session_id_adds_no_trailer_line() -> None:
    lines = refs.trailers("s1\nTg-Git-Level: ok", "halt").splitlines()
    assert len(lines) == 2 and lines[1] == "Tg-Git-Level: halt"
