"""``ledgerdiff.read`` against ``split`` of each whole patch on the shapes a hostile clone or
an odd history can take: paths that a pathspec of the ledger names and ``is_ledger_file``
does not, type changes, replace refs, attributes and config that steer git's diff."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.support.repos import git
from tg_git.domain.layout import LEDGER_PATH
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import parse_patch

LINE = 'e2026010100000{n}-00000000000{n} = {{ "kind" = "note", "at" = "2026-01-01T00:00:0{n}Z", "text" = "n{n}" }}\n'
SEGMENT = ".tg-git/ledger/s20260101000000-0123456789ab/000/01.toml"


def _lines(*ns: int) -> bytes:
    return "".join(LINE.format(n=n) for n in ns).encode()


def _repo(tmp_path: Path, *init: str) -> Path:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "-b", "main", *init, str(repo))
    (repo / ".tg-git").mkdir()
    return repo


def _commit(repo: Path) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", "step")
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def _same(repo: Path, shas: list[str]) -> None:
    """Each pair of ``shas`` read by ``read`` is what ``split`` of its whole patch gives."""
    pairs: list[tuple[str, str | None]] = [(shas[0], None)]
    pairs += [(sha, parent) for parent, sha in itertools.pairwise(shas)]
    found = find_repo(repo)
    read, _ = ledgerdiff.read(found, pairs)
    patches, _ = ledgerdiff.patches(found, pairs)
    assert len(read) == len(patches)
    for (rest, changes), patch in zip(read, patches):
        more, expected = ledgerdiff.split(patch)
        assert changes == expected
        assert parse_patch(rest) == parse_patch(more)


@pytest.mark.parametrize("odd", [".tg-git/ledger", ".tg-git/ledger.toml/notes.txt"])
def test_a_file_the_ledgers_pathspec_names_but_no_ledger_file_is_still_counted(
    tmp_path: Path, odd: str
) -> None:
    # `.tg-git/ledger.toml` a folder, or `.tg-git/ledger` a file: work like any other, counted
    repo = _repo(tmp_path)
    ledger = repo / (LEDGER_PATH if odd == ".tg-git/ledger" else SEGMENT)
    ledger.parent.mkdir(parents=True, exist_ok=True)
    (repo / odd).parent.mkdir(parents=True, exist_ok=True)
    shas = []
    for n in range(1, 4):  # each commit appends to the ledger and writes the file
        ledger.write_bytes(_lines(*range(1, n + 1)))
        (repo / odd).write_text("".join(f"word{k} " * 5 + "\n" for k in range(n)))
        shas.append(_commit(repo))
    _same(repo, shas)


def test_a_version_replaced_by_a_replace_ref_is_read_as_git_shows_it(tmp_path: Path) -> None:
    # the replacement is as long as the version: its id still checks a cut of the true bytes
    repo = _repo(tmp_path)
    ledger = repo / SEGMENT
    ledger.parent.mkdir(parents=True)
    shas = []
    for n in range(1, 5):
        ledger.write_bytes(_lines(*range(1, n + 1)))
        shas.append(_commit(repo))
    forged = _lines(1, 2).replace(b'"n2"', b'"n9"')
    fake = git(repo, "hash-object", "-w", "--stdin", input=forged.decode()).stdout.strip()
    git(repo, "replace", git(repo, "rev-parse", f"{shas[1]}:{SEGMENT}").stdout.strip(), fake)
    _same(repo, shas)
