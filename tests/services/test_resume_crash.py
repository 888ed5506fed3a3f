"""A resume killed part-way: killed once the briefing is out but before the
new session starts, it has started none, and a rerun starts one; killed just after the
session started, there is exactly one new session, and a rerun takes it over rather than
starting a second. Real processes killed with SIGKILL at a failpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.repos import status
from tests.support.repos import tg


def sessions(repo: Path) -> list[str]:
    """The sessions whose ledger files the work tree holds, or whose start waits under the git
    dir for the next commit (a pending file holds a session's records, not a session)."""
    files = [
        *(repo / ".tg-git" / "ledger").glob("*.toml"),
        *(repo / ".git" / "tg-git" / "pending").glob("*.toml"),
    ]  # a start waits there
    return sorted({p.stem for p in files if not p.name.endswith(".pending.toml")})


def crashed_resume(repo: Path, failpoint: str) -> None:
    """A resume killed (SIGKILL) at ``failpoint``, once its briefing was rendered."""
    proc = tg(repo, "resume", check=False, env={"TG_GIT_FAILPOINT": failpoint})
    assert proc.returncode == -9, proc.stderr


@pytest.fixture
def saved(repo: Path) -> Path:
    tg(repo, "task", "add", "lexer")
    tg(repo, "checkpoint")
    return repo


def test_a_resume_killed_before_its_session_started_has_started_none(saved: Path) -> None:
    before, session = sessions(saved), status(saved)["session"]["id"]
    crashed_resume(saved, "resume-briefed")
    assert sessions(saved) == before
    assert status(saved)["session"]["id"] == session
    rerun = json.loads(tg(saved, "resume", "--json").stdout)
    assert not rerun["session"]["reused"]
    assert len(sessions(saved)) == len(before) + 1
    assert status(saved)["session"]["id"] == rerun["session"]["id"] != session


def test_a_resume_killed_after_its_session_started_leaves_exactly_one(saved: Path) -> None:
    before, session = sessions(saved), status(saved)["session"]["id"]
    crashed_resume(saved, "resume-started")
    assert len(sessions(saved)) == len(before) + 1
    started = status(saved)["session"]["id"]
    assert started != session
    rerun = json.loads(tg(saved, "resume", "--json").stdout)
    assert rerun["session"]["reused"] and rerun["session"]["id"] == started
    assert len(sessions(saved)) == len(before) + 1
