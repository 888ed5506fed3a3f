"""``ledgerdiff.read``: a range's ledger lines cut from the newest versions where a commit only
appended, and git's patch everywhere else, give exactly what ``split`` of each whole patch
gives: the same event lines added and taken away, the same change left to count."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.support.repos import git
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import parse_patch

LINE = 'e2026010100000{n}-00000000000{n} = {{ "kind" = "note", "at" = "2026-01-01T00:00:0{n}Z", "text" = "n{n}" }}'
SEGMENT = ".tg-git/ledger/s20260101000000-0123456789ab/000/01.toml"
GONE = None  # the file is absent


def _text(shape: str) -> bytes:
    for n in range(1, 6):
        shape = shape.replace(f"{{{n}}}", LINE.format(n=n))
    return shape.encode()


APPENDS = [  # every version of the range appends to the one before: no patch of the ledger
    ("# head\n{1}\n{2}\n", "# head\n{1}\n{2}\n{3}\n"),  # appended
    ("\ufeff{1}\n", "\ufeff{1}\n{2}\n"),  # a byte-order mark on line 1, kept
    ("{1}\n", "{1}\n\ufeff{2}\n"),  # one on an appended line is part of the line
    ("{1}\r\n", "{1}\r\n{2}\r\n"),  # CRLF
    (GONE, "{1}\n{2}\n"),  # a new file
    (GONE, "\ufeff{1}\n"),  # a new file with a byte-order mark
    ("{1}\n", "{1}\n{2}\n\0\n"),  # a NUL appended
]
SHAPES = [
    *APPENDS,
    ("{1}\n{2}", "{1}\n{2}\n{3}\n"),  # the old version's last line had no line end
    ("{1}\n", "{1}\n{2}"),  # the new one's has none
    ("{1}\n{2}\n", "{1}\n{2}\n{3}\n{2}\n"),  # git's hunk could slide: the patch decides
    ("{1}\n{2}\n", "{2}\n{1}\n"),  # rewritten
    ("{1}\n{2}\n", "{1}\n"),  # a line taken away
    (GONE, ""),  # a new empty file: a section without hunks
    ("", "{1}\n"),  # an empty file written to
    ("{1}\n", GONE),  # deleted
]


def _ledger_patches(trace: Path) -> int:
    """How many ``diff-tree`` processes of a GIT_TRACE file asked for the ledger's patches."""
    found = [ln for ln in trace.read_text().splitlines() if "built-in: git diff-tree" in ln]
    return sum(1 for ln in found if "':(literal).tg-git/ledger'" in ln)


@pytest.mark.parametrize("odd", [True, False])
@pytest.mark.parametrize("where", [SEGMENT, ".tg-git/ledger/s20260101000000-0123456789ab.toml"])
@pytest.mark.parametrize("before, after", SHAPES)
def test_a_range_read_from_blob_ids_is_what_each_patch_says(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    before: str | None,
    after: str | None,
    odd: bool,
) -> None:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    path, notes, code = repo / where, repo / ".tg-git" / "ledger" / "notes.txt", repo / "a.py"
    path.parent.mkdir(parents=True)
    steps = [
        (before, "x = 1\n", None),
        (after, "x = 1\ny = 2\n", "kept\n" if odd else None),  # one in the ledger's folder
        (
            None if after is None else after + "{4}\n",
            "x = 1\ny = 2\nz = 3\n",
            "kept\n" if odd else None,
        ),
        (None if after is None else after + "{4}\n{5}\n", "x = 3\n", "changed\n" if odd else None),
        (None if after is None else after + "{4}\n{5}\n", "x = 3\n", "changed\n" if odd else None),
    ]
    shas: list[str] = []
    for ledger, source, note in steps:
        for file, text in ((path, ledger), (code, source), (notes, note)):
            if text is None:
                file.unlink(missing_ok=True)
            else:
                file.write_bytes(_text(text))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", "step")
        shas.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    pairs: list[tuple[str, str | None]] = [(shas[0], None)]
    pairs += [(sha, parent) for parent, sha in itertools.pairwise(shas)]
    found = find_repo(repo)
    tree = git(repo, "rev-parse", "-q", "--verify", f"{shas[2]}:.tg-git/ledger", check=False)
    folders = (
        [tree.stdout.strip()] if tree.returncode == 0 else []
    )  # an edge's ledger folder, read whole
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    read, held = ledgerdiff.read(found, pairs, folders)
    monkeypatch.delenv("GIT_TRACE")
    assert _ledger_patches(trace) == (0 if (before, after) in APPENDS and not odd else 1)
    patches, whole = ledgerdiff.patches(found, pairs, folders)
    assert held == whole
    assert len(read) == len(patches)
    for (rest, changes), patch in zip(read, patches):
        more, expected = ledgerdiff.split(patch)
        assert changes == expected
        assert parse_patch(rest) == parse_patch(more)


def test_an_append_is_cut_in_a_sha256_repository_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "--object-format=sha256", "-b", "main", str(repo))
    path = repo / SEGMENT
    path.parent.mkdir(parents=True)
    shas = []
    for n in range(1, 4):
        path.write_bytes(_text("".join(f"{{{k}}}\n" for k in range(1, n + 1))))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "step")
        shas.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    pairs: list[tuple[str, str | None]] = [(b, a) for a, b in itertools.pairwise(shas)]
    found = find_repo(repo)
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    read, _ = ledgerdiff.read(found, pairs)
    monkeypatch.delenv("GIT_TRACE")
    assert _ledger_patches(trace) == 0  # git's sha256 id of the old version's bytes matched
    assert [changes for _, changes in read] == [
        ledgerdiff.split(patch)[1] for patch in ledgerdiff.patches(found, pairs)[0]
    ]
