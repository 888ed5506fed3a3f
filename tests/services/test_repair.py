"""`tg-git repair`: a ledger file it cannot read (not UTF-8) is mended, keeping every event it can."""

from __future__ import annotations

from pathlib import Path

from tests.support.repos import add
from tests.support.repos import clean
from tests.support.repos import ledger_file
from tests.support.repos import tg
from tests.support.repos import used


def test_repair_mends_a_ledger_file_that_is_not_utf8(repo: Path) -> None:
    """Every command names `tg-git repair` for a ledger file that is not UTF-8 text: repair
    itself must then read past the bad bytes (not fail with the same sentence, a loop), keep
    every event, and leave a ledger the next commit counts on."""
    spent = add(repo, "one.py", "first_value = compute('some', 'words')")
    assert spent > 0
    before = used(repo)
    path = ledger_file(repo)
    path.write_bytes(path.read_bytes() + b"\xff\xfe not text\n")
    assert tg(repo, "status", check=False).returncode != 0  # the reader says: run repair
    proc = tg(repo, "repair", check=False)
    assert proc.returncode == 0, proc.stderr
    assert used(repo) == before
    later = add(repo, "two.py", "second_value = compute('other', 'words')")
    assert used(repo) == before + later
    clean(repo)
