"""The journal-due file has one definition (``tg_git.githooks.markers``): the shim's text is
rendered from it at install and Python reads it from it, so a change of its place or of the
order of its head lines changes both."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.support.repos import git
from tests.support.repos import run_post_commit_shim
from tg_git.githooks import install
from tg_git.githooks import markers


def _committed(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose HEAD holds ``ledger.txt``, and that file's blob id."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    (repo / "ledger.txt").write_text("one\n")
    git(repo, "add", "ledger.txt")
    git(repo, "commit", "-q", "-m", "ledger")
    return repo, git(repo, "rev-parse", "HEAD:ledger.txt").stdout.strip()


def _moved(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another place and another order of the head: what both sides must follow."""
    monkeypatch.setattr(markers, "JOURNAL_DUE", "tg-git/due-moved")
    monkeypatch.setattr(markers, "JOURNAL_DUE_HEAD", ("target", "blob", "rel"))


def test_the_shim_template_spells_out_no_part_of_the_format() -> None:
    template = install.shim_template()
    assert "journal-due" not in template and "tail -n +4" not in template
    assert "read -r blob" not in template
    shim = install.render_shim(template, "post-commit")
    assert "@" not in shim.replace('"$@"', "")  # every placeholder written in
    assert f"/{markers.JOURNAL_DUE}" in shim


def test_the_shim_journals_what_python_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _moved(monkeypatch)
    repo, blob = _committed(tmp_path)
    git_dir = repo / ".git"
    journal = tmp_path / "journal.txt"
    due = git_dir / markers.JOURNAL_DUE
    markers.write_journal_due(
        due, ["line a", "line b"], blob=blob, rel="ledger.txt", target=str(journal)
    )
    run_post_commit_shim(repo, tmp_path)
    assert journal.read_text() == "line a\nline b\n"
    assert due.read_bytes() == b""  # ended: nothing is due any more


def test_python_journals_what_it_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _moved(monkeypatch)
    repo, blob = _committed(tmp_path)
    journal = tmp_path / "journal.txt"
    due = repo / ".git" / markers.JOURNAL_DUE
    markers.write_journal_due(
        due, ["line a", "line b"], blob=blob, rel="ledger.txt", target=str(journal)
    )
    monkeypatch.chdir(repo)
    markers.journal_due(repo / ".git")
    assert journal.read_text() == "line a\nline b\n"
    assert not due.exists()


def test_the_shim_journals_with_no_process_but_git(tmp_path: Path) -> None:
    """After a commit the shim copies the lines itself (the shell's `read` and `printf`) and
    empties the file (a redirection): a PATH that holds only git still journals every line
    byte for byte (blank, indented, backslashes, non-ASCII), and nothing is due after."""
    repo, blob = _committed(tmp_path)
    journal = tmp_path / "journal.txt"
    due = repo / ".git" / markers.JOURNAL_DUE
    lines = ["", "  indented \\n not an escape  ", 'e1 = { "label" = "라벨 \\\\ x" }', "last"]
    markers.write_journal_due(due, lines, blob=blob, rel="ledger.txt", target=str(journal))
    only = tmp_path / "bin"
    only.mkdir()
    found = shutil.which("git")
    assert found is not None
    (only / "git").symlink_to(found)
    run_post_commit_shim(repo, tmp_path, path=str(only))
    assert journal.read_bytes() == "".join(f"{ln}\n" for ln in lines).encode()
    assert due.read_bytes() == b""


@pytest.mark.parametrize("entry", ["", ".", "bin"])
def test_the_shim_runs_no_program_of_the_work_tree(tmp_path: Path, entry: str) -> None:
    """An empty or relative PATH entry names the work tree (the shim's current folder), where
    a clone can track an executable `rm`: the shim looks in PATH's absolute folders only."""
    repo, blob = _committed(tmp_path)
    journal, ran = tmp_path / "journal.txt", tmp_path / "ran"
    due = repo / ".git" / markers.JOURNAL_DUE
    markers.write_journal_due(due, ["e1"], blob=blob, rel="ledger.txt", target=str(journal))
    for folder in (repo, repo / "bin"):
        folder.mkdir(exist_ok=True)
        (folder / "rm").write_text(f"#!/bin/sh\necho ran >> {ran}\n")
        (folder / "rm").chmod(0o755)
    run_post_commit_shim(repo, tmp_path, path=f"{entry}{os.pathsep}{os.environ['PATH']}")
    assert journal.read_text() == "e1\n"
    assert due.read_bytes() == b""  # ended by the shell itself
    assert not ran.exists()
