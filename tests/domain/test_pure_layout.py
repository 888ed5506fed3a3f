"""Where a session's segments live: the name rule is one table, read back exactly as written."""

from __future__ import annotations

import pytest

from tg_git.domain import layout

REL = f"{layout.LEDGER_DIR}/s20261201101010-0123456789ab.toml"


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 127, 4095, 4096, 63_999])
def test_a_segment_s_path_reads_back_as_its_number(n: int) -> None:
    path = layout.segment_file(REL, n)
    assert layout.segment_number(path) == (REL, n)
    high, name = path.split("/")[-2:]
    assert layout.segment_in(high, name) == n
    assert layout.segments_in(high, [name]) == [(n, name)]


@pytest.mark.parametrize(
    ("high", "name"),
    [
        ("000", "00.toml"),  # segment 0 is the session's own file, never a segment
        ("000", "64.toml"),  # past the folder's 64
        ("000", "1.toml"),
        ("000", "001.toml"),
        ("000", "01.TOML"),
        ("000", "01.toml.bak"),
        ("00", "01.toml"),
        ("0000", "01.toml"),
        ("00a", "01.toml"),
        ("٠٠١", "01.toml"),  # digits, but not ASCII ones
        ("001", "٠١.toml"),
        ("-01", "01.toml"),
    ],
)
def test_a_name_of_another_shape_is_no_segment(high: str, name: str) -> None:
    assert layout.segment_in(high, name) is None
    assert layout.segments_in(high, [name]) == []


def test_a_folder_s_names_come_back_in_the_order_given_without_the_others() -> None:
    names = ["03.toml", "notes.txt", "01.toml", "64.toml", "02.toml"]
    assert layout.segments_in("002", names) == [
        (131, "03.toml"),
        (129, "01.toml"),
        (130, "02.toml"),
    ]
    assert [n for n, _ in layout.segments_in("000", ["00.toml", "01.toml"])] == [1]
