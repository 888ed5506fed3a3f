"""Codex names its session folders by local date (``sessions/YYYY/MM/DD``): the folders an
import looks in must include every calendar day of its span, also across a change of the
clocks, when a local day has 23 hours."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tg_git.usage.discover import _recent_rollouts


@pytest.fixture
def new_york() -> Iterator[None]:
    before = os.environ.get("TZ")
    os.environ["TZ"] = "America/New_York"
    time.tzset()
    try:
        if time.tzname[0] != "EST":
            pytest.skip("the time zone database (America/New_York) is not installed")
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def test_no_day_folder_is_skipped_where_the_clocks_go_forward(
    new_york: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path))
    # 8 March 2026 had 23 hours in New York: a walk a day at a time from 23:30 the day
    # before lands on the 9th and never names the 8th.
    since = time.mktime((2026, 3, 9, 0, 30, 0, 0, 0, -1))
    assert time.strftime("%Y/%m/%d %H:%M", time.localtime(since - 86400)) == "2026/03/07 23:30"
    rollouts = []
    for day in ("2026/03/07", "2026/03/08", "2026/03/09"):
        folder = tmp_path / "sessions" / day
        folder.mkdir(parents=True)
        rollouts.append(folder / "rollout-a.jsonl")
        rollouts[-1].write_text("")
    found = _recent_rollouts(since)
    assert all(path in found for path in rollouts), found
