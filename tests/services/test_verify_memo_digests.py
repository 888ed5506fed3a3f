"""A verify in a clone without a journal (a reviewer's, CI's) keeps no digest of the lines in
its memo: only a journal compares them. Where a journal is now, such a memo is not read, and
the journal's check finds what a cold verify finds."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bench.verify import SESSION
from bench.verify import build
from tg_git.domain import eventlog
from tg_git.repo import git
from tg_git.repo import journal
from tg_git.services import verify_memo
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

LEDGER = f".tg-git/ledger/{SESSION}.toml"


def _report(repo: Path, cold: bool = False) -> tuple[dict[str, object], list[str]]:
    if cold:
        for memo in (repo / ".git" / "tg-git" / "verified").glob("*"):
            memo.unlink()
    report = verify_history(open_workspace())
    return report.as_dict(), report.lines()


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An honest history of 20 events, 2 a commit (bench/verify.py's), the current folder."""
    built = tmp_path / "h"
    build(built, 20, 2, os.environ)
    monkeypatch.chdir(built)
    return built


def test_a_memo_made_without_a_journal_is_not_read_where_one_is_now(history: Path) -> None:
    assert _report(history)[0]["ok"]  # cold, no journal: the memo made
    lines = eventlog.event_lines((history / LEDGER).read_text(encoding="utf-8"))
    usage = next(ln for ln in lines if '"usage"' in ln and '"requests" = 1,' in ln)
    other = usage.replace('"requests" = 1,', '"requests" = 2,')
    journal.record(open_workspace().repo, LEDGER, [other if ln == usage else ln for ln in lines])
    found = _report(history)  # the journal recorded one event otherwise: that commit drifts
    assert found == _report(history, cold=True)
    assert len(found[0]["drift"]) == 1  # type: ignore[arg-type]
    assert _report(history) == found  # and the memo made now, with the digests, says the same


def test_a_journal_made_while_a_verify_runs_is_not_compared_with_lines_it_did_not_digest(
    history: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _report(history)[0]["ok"]  # no journal: the memo keeps no digest
    lines = eventlog.event_lines((history / LEDGER).read_text(encoding="utf-8"))
    made = verify_memo.Memo

    def journal_after_the_memo(repo_: git.Repo, journaled: bool = True) -> verify_memo.Memo:
        found = made(repo_, journaled)  # read without a journal: the digests not made
        journal.record(repo_, LEDGER, lines)  # a hook records each line as it is, meanwhile
        return found

    monkeypatch.setattr(verify_memo, "Memo", journal_after_the_memo)
    found = _report(history)
    monkeypatch.setattr(verify_memo, "Memo", made)
    assert found[0]["ok"], found[1]  # the journal holds every line as committed: no drift
    assert _report(history) == _report(history, cold=True) == found


def test_a_memo_made_with_a_journal_keeps_digesting_once_the_journal_is_gone(history: Path) -> None:
    ws = open_workspace()
    journal.record(ws.repo, LEDGER, _lines(history))
    assert _report(history)[0]["ok"]  # the memo made with the digests
    os.unlink(journal.path(ws.repo, LEDGER))  # the journal gone: the memo still read
    assert not journal.names(ws.repo)
    with open(history / LEDGER, "a", encoding="utf-8") as f:  # a commit no hook counted
        f.write(_lines(history)[-1].replace("e", "f", 1) + "\n")
    git = ["git", "-c", "core.hooksPath=/dev/null", "commit", "-qam", "more"]
    subprocess.run(git, cwd=history, check=True, env=os.environ)
    _report(history)  # warm: the new commit's lines digested, as the memo's are
    journal.record(ws.repo, LEDGER, _lines(history))  # a journal again, of each line as it is
    found = _report(history)  # warm, with the journal: compares the new commit's digests
    assert found == _report(history, cold=True)
    assert not any("recorded otherwise" in line for line in found[1]), found[1]


def _lines(repo: Path) -> list[str]:
    return eventlog.event_lines((repo / LEDGER).read_text(encoding="utf-8"))
