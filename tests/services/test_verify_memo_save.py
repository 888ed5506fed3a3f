"""The memo a verify writes: what this verify found is written as found, and only records
kept from before are checked again (each is checked when read, ``Memo.get``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.verify import build
from tg_git.services import verify_memo
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

COMMITS = 8


def test_a_cold_verify_writes_what_it_found_without_checking_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "h"
    build(repo, COMMITS * 5, 5, os.environ)
    monkeypatch.chdir(repo)
    checked: list[object] = []
    real_fits, real_save = verify_memo._fits, verify_memo.Memo.save

    def fits(record: object) -> bool:
        checked.append(record)
        return real_fits(record)

    def save(self: verify_memo.Memo, *args: object) -> None:
        monkeypatch.setattr(verify_memo, "_fits", fits)
        real_save(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(verify_memo.Memo, "save", save)
    report = verify_history(open_workspace())
    assert report.ok and report.checked == COMMITS + 1, report.lines()
    assert checked == []
    monkeypatch.setattr(verify_memo, "_fits", real_fits)
    memo = verify_memo.Memo(open_workspace().repo, False)
    assert len(memo.commits) == COMMITS + 1  # each one written, and each reads back
    for sha, record in memo.commits.items():
        assert verify_memo._fits(record), sha
