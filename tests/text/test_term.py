"""The terminal's columns: a wide (Hangul, CJK) character takes two, and lines wrap by columns."""

from __future__ import annotations

from tg_git.text import term


def test_width_counts_wide_characters_twice() -> None:
    assert term.width("tg-git") == 6
    assert term.width("사용법: ") == 8
    assert term.width("🔋") == 2


def test_wrap_fills_lines_by_columns_not_characters() -> None:
    text = "스테이징된 변경을 원장에 셉니다;  중단 단계에서는\n거부합니다"
    lines = term.wrap(text, 20)
    assert lines == ["스테이징된 변경을", "원장에 셉니다; 중단", "단계에서는", "거부합니다"]
    assert all(term.width(line) <= 20 for line in lines)
    assert " ".join(lines) == " ".join(text.split())  # nothing lost but runs of white space


def test_wrap_cuts_only_a_word_wider_than_a_line() -> None:
    assert term.wrap("a --max-tokens b", 5) == ["a", "--max", "-toke", "ns b"]
    assert term.wrap("가나다라마", 4) == ["가나", "다라", "마"]
    assert term.wrap("", 10) == []
