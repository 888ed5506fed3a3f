"""SHA-256 repositories (``git init --object-format=sha256``): everything that reads trees or
hashes blobs works with 64-digit object ids, on real git."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import commit_file
from tests.support.repos import git
from tests.support.repos import set_up
from tests.support.repos import tg


@pytest.fixture
def sha256_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo256"
    repo.mkdir()
    git(repo, "init", "-q", "--object-format=sha256")
    set_up(repo)
    assert len(git(repo, "rev-parse", "HEAD").stdout.strip()) == 64
    return repo


def test_blob_ids_of_both_object_formats_match_git(tmp_path: Path) -> None:
    from tg_git.domain import gitobjects
    from tg_git.repo import git as tg_git_git

    for fmt in ("sha1", "sha256"):
        repo = tmp_path / fmt
        repo.mkdir()
        git(repo, "init", "-q", f"--object-format={fmt}")
        found = tg_git_git.find_repo(repo)
        assert found.object_format == fmt
        for text in ("", "a\n", "한국어 é\n" * 1000):
            want = git(repo, "hash-object", "--stdin", input=text).stdout.strip()
            assert gitobjects.hash_text(text, fmt) == want
        tree = git(repo, "hash-object", "-t", "tree", "--stdin", input="").stdout.strip()
        assert found.empty_tree == tree


def test_verify_counts_and_flags_on_sha256(sha256_repo: Path) -> None:
    repo = sha256_repo
    (repo / "a.py").write_text("def counted():\n    return 1\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")
    proc = tg(repo, "verify", check=False)
    assert proc.returncode == 0 and "matches history" in proc.stdout, proc.stdout + proc.stderr
    (repo / "b.py").write_text("def sneaky():\n    return 'uncounted'\n")
    git(repo, "add", "b.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    sneaky = git(repo, "rev-parse", "HEAD").stdout.strip()
    proc = tg(repo, "verify", check=False)
    assert proc.returncode == 6, proc.stdout + proc.stderr
    assert sneaky[:12] in proc.stdout and "not counted" in proc.stdout


def test_repair_restores_on_sha256(sha256_repo: Path) -> None:
    repo = sha256_repo
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")
    files = sorted((repo / ".tg-git" / "ledger").glob("*.toml"))
    lines = files[-1].read_text().splitlines(keepends=True)
    event = next(ln for ln in lines if '"kind" = "commit"' in ln)
    files[-1].write_text("".join(ln for ln in lines if ln != event))
    proc = tg(repo, "repair", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert event in files[-1].read_text()


def test_pre_push_refuses_an_uncounted_commit_on_sha256(sha256_repo: Path, tmp_path: Path) -> None:
    repo = sha256_repo
    hooks = repo / ".git" / "hooks"
    (hooks / "pre-push").write_text(f"#!/bin/sh\nexec {sys.executable} -m tg_git hook pre-push\n")
    (hooks / "pre-push").chmod(0o755)
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "--object-format=sha256", str(bare))
    git(repo, "push", "-q", str(bare), "main")
    (repo / "b.py").write_text("def sneaky():\n    return 1\n")
    git(repo, "add", "b.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    proc = git(repo, "push", "-q", str(bare), "main", check=False)
    assert proc.returncode != 0 and "not counted" in proc.stderr, proc.stderr


def test_crossing_force_save_saves_on_sha256(sha256_repo: Path) -> None:
    """post-commit finds pre-commit's note by the ledger's blob id: a SHA-256 one here."""
    repo = sha256_repo
    tg(repo, "session", "start", "--max-tokens", "1000")
    commit(repo, "--allow-empty", "-m", "new session")
    tg(repo, "record", "--tokens", "898")
    proc = commit_file(repo, "a.txt", "a few more words here\n")
    assert "saved checkpoint/" in proc.stderr, proc.stderr
    assert git(repo, "tag", "-l", "checkpoint/*").stdout.strip()
