"""The report's read of the ledger at scale (`tg-git report` at 100,000 events under
one second): each ledger file is parsed on its own, never the union of every line, and the
report's numbers stay those the union read gave, on a segmented ledger of two sessions on
two branches with a journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.repos import add
from tests.support.repos import git
from tests.support.repos import grow
from tests.support.repos import tg
from tg_git.domain import eventlog
from tg_git.repo import journal
from tg_git.repo.workspace import Workspace
from tg_git.report import data as report_data


@pytest.fixture
def segmented(repo: Path) -> Path:
    """A long session in segments, a second session, a branch with events of its own and
    events that only the journal and the pending file hold."""
    grow(repo, 300)
    add(repo, "a.py", "alpha beta")
    git(repo, "checkout", "-q", "-b", "side")
    add(repo, "side.py", "side work here")
    git(repo, "checkout", "-q", "main")
    tg(repo, "session", "start")
    add(repo, "b.py", "gamma delta epsilon")
    tg(repo, "record", "--tokens", "120")  # pending until the next commit
    return repo


def union_read(ws: Workspace) -> dict[str, eventlog.Event]:
    """``Workspace.events`` as it read before: the union of every file's lines, parsed."""
    texts = [ws.file_text(rel) for rel in ws.all_ledger_files()]
    texts += [journal.read(ws.repo, name) for name in journal.names(ws.repo)]
    return eventlog.parse("\n".join(eventlog.union(*texts)))


def test_the_ledger_is_read_file_by_file_not_as_one_union(
    segmented: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = Workspace.open(segmented)
    assert len(ws.all_ledger_files()) > 3  # segments: the files are many
    expected = list(union_read(ws).items())
    unions: list[int] = []
    real = eventlog.union

    def counted(*texts: str | None) -> list[str]:
        unions.append(len(texts))
        return real(*texts)

    monkeypatch.setattr(eventlog, "union", counted)
    assert list(ws.events().items()) == expected
    assert unions == []


def test_the_reports_numbers_are_those_of_the_union_read(
    segmented: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = Workspace.open(segmented)

    def numbers(all_sessions: bool) -> dict[str, Any]:
        data = report_data.build(Workspace.open(segmented), all_sessions=all_sessions)
        data.pop("generated")
        return data

    now = [numbers(False), numbers(True)]
    assert now[0]["events"] > 300 and len(now[0]["branches"]) == 2
    monkeypatch.setattr(Workspace, "events", union_read)
    assert [numbers(False), numbers(True)] == now
    assert len(ws.events()) == now[0]["events"]


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The texts the whole-file reader is given from now on (their lengths)."""
    calls: list[int] = []
    real = eventlog.read_whole

    def counted(text: str) -> dict[str, object] | None:
        calls.append(len(text))
        return real(text)

    monkeypatch.setattr(eventlog, "read_whole", counted)
    return calls


def _memo(repo: Path) -> Path:
    """The kept parse of the long session (the first: ``grow`` made its segments)."""
    (memo,) = (repo / ".git" / "tg-git" / "parsed").iterdir()
    return memo


def test_a_settled_files_parse_is_kept_in_the_git_dir_and_used_next_time(
    segmented: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's files but its last never change, so their blob ids key their
    parsed events, kept in `.git/tg-git/` (never in the work tree): the next read parses only
    the files that can still grow, and reads the same events in the same order."""
    before = git(segmented, "status", "--porcelain", "--ignored").stdout
    ws = Workspace.open(segmented)
    settled = len(ws.all_ledger_files()) - len(ws.ledger_files())
    assert settled >= 2
    parses = _parses(monkeypatch)
    cold = list(ws.events().items())
    cold_parses = len(parses)
    assert cold == list(union_read(ws).items())
    assert _memo(segmented).stat().st_size > 0
    assert git(segmented, "status", "--porcelain", "--ignored").stdout == before
    assert list(Workspace.open(segmented).events().items()) == cold
    assert len(parses) - cold_parses == cold_parses - settled


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # cut short
        lambda b: b[:-40] + bytes(x ^ 0x5A for x in b[-40:-20]) + b[-20:],  # bytes changed
        lambda b: b"\x00" * len(b),  # garbage
        lambda b: b"",  # empty
        lambda b: b.replace(b"commit", b"cOmmit"),  # a value changed, the length kept
    ],
)
def test_a_damaged_kept_parse_is_ignored_and_written_anew(
    segmented: Path, monkeypatch: pytest.MonkeyPatch, damage: Any
) -> None:
    ws = Workspace.open(segmented)
    expected = list(ws.events().items())
    memo = _memo(segmented)
    sound = memo.read_bytes()
    memo.write_bytes(damage(sound))
    assert list(Workspace.open(segmented).events().items()) == expected
    assert memo.read_bytes() == sound  # rebuilt as it was
    parses = _parses(monkeypatch)
    assert list(Workspace.open(segmented).events().items()) == expected
    settled = len(ws.all_ledger_files()) - len(ws.ledger_files())
    assert len(parses) == len(ws.all_ledger_files()) - settled + len(journal.names(ws.repo))
