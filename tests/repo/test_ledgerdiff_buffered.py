"""A range's reads leave git's output buffered: ``diff-tree --stdin`` runs with
``GIT_FLUSH=0`` and ``cat-file --batch`` with ``--buffer``, so git writes its output in full
pipe buffers, not one write (and one wake-up of the reader) a commit or an object. Neither
changes what git writes: the read is compared with git's own patches."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from bench.verify import build
from tests.support.repos import git
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import parse_patch


def _shim(folder: Path, log: Path) -> None:
    """A ``git`` first on the PATH that notes each call's ``GIT_FLUSH`` and arguments."""
    real = shutil.which("git")
    assert real
    folder.mkdir()
    shim = folder / "git"
    shim.write_text(
        f'#!/bin/sh\nprintf "%s|%s\\n" "${{GIT_FLUSH-unset}}" "$*" >> "{log}"\nexec "{real}" "$@"\n'
    )
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)


def test_a_range_is_read_with_git_output_buffered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "r"
    build(repo, 300, 10, os.environ)
    log = git(repo, "log", "--reverse", "--format=%H %P").stdout.split("\n")
    pairs = [(sha, parents or None) for sha, _, parents in (ln.partition(" ") for ln in log if ln)]
    found = find_repo(repo)
    calls = tmp_path / "calls"
    _shim(tmp_path / "bin", calls)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(repo)
    read, _ = ledgerdiff.read(found, pairs)
    seen = [ln.split("|", 1) for ln in calls.read_text().splitlines()]
    monkeypatch.undo()
    patches, _ = ledgerdiff.patches(found, pairs)
    whole = [ledgerdiff.split(p) for p in patches]
    assert [(parse_patch(r), c) for r, c in read] == [(parse_patch(r), c) for r, c in whole]
    streamed = [args for flush, args in seen if args.startswith("diff-tree --stdin")]
    assert streamed and all(
        flush == "0" for flush, args in seen if args.startswith("diff-tree --stdin")
    )
    batches = [args.split() for _, args in seen if args.startswith("cat-file --batch")]
    batches += [a.split() for _, a in seen if a.startswith("cat-file --buffer")]
    assert any("--batch" in a for a in batches)
    assert all("--buffer" in a for a in batches if "--batch" in a), batches
