"""``ledgerdiff.read`` of the code files: a file a commit only appended to is read from its
blobs (the newest version past the old one's end, the old one's id checked), any other change
from git's patch; what ``staged.parse_patch`` reads of the first is what it reads of git's
patch, on every shape (names that git quotes, modes, line ends, a slidable hunk, a NUL, new
and empty files, a clone's config and attributes, a merge)."""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.repos import git
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import parse_patch

CUT = b"@@ -0,0 +1 @@\n"  # how the cut heads a file's added lines (git never writes `+1 @@` so)
GONE = None
APPENDS = [  # (before, after): read from the blobs
    (b"x = 1\n", b"x = 1\ny = 2\n"),
    (GONE, b"x = 1\ny = 2\n"),  # a new file
    (GONE, b"x = 1\ny = 2"),  # ... without a last line end
    (b"x = 1\n", b"x = 1\ny = 2"),  # the new last line has no end
    (b"", b"x = 1\n"),  # an empty file written to
    (b"x = 1\r\n", b"x = 1\r\ny = 2\r\n"),  # CRLF
    (b"x = 1\n", b"x = 1\n\0\n"),  # a NUL appended: binary, as git's patch reads
    (b"\0\n", b"\0\ny = 2\n"),  # a NUL before: only the new line is added
    (b"\xff\xfe\n", b"\xff\xfe\n\xfe\xff\n"),  # no UTF-8
    (b"a\nb\n", b"a\nb\nc\n\n\nd\n"),
]
SHAPES = [  # (before, after): git's patch decides
    *APPENDS,
    (b"x = 1", b"x = 1\ny = 2\n"),  # the old last line had no end: git changes it
    (b"a\nb\n", b"a\nb\nc\nb\n"),  # git's hunk could slide up
    (b"a\nb\n", b"b\na\n"),  # rewritten
    (b"a\nb\n", b"a\n"),  # a line taken away
    (b"a\n", GONE),  # deleted
    (GONE, b""),  # a new empty file
    (b"a\n", b"a\n"),  # the same (a mode change only, below)
]
NAMES = ["a.py", 'd/s é\t"x".py', "\udcff.py", "n\nl.py"]


def _write(path: Path, data: bytes | None, mode: int) -> None:
    if data is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    path.chmod(mode)


def _commit(repo: Path) -> str:
    for args in (["add", "-A"], ["commit", "-q", "--allow-empty", "-m", "step"]):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def _compare(repo: Path, pairs: list[tuple[str, str | None]]) -> list[bytes]:
    """Each pair's rest, read and compared with git's patch of the pair."""
    found = find_repo(repo)
    read, _ = ledgerdiff.read(found, pairs)
    patches, _ = ledgerdiff.patches(found, pairs)
    assert len(read) == len(patches)
    for (rest, _changes), patch in zip(read, patches):
        assert parse_patch(rest) == parse_patch(ledgerdiff.split(patch)[0])
    return [rest for rest, _ in read]


@pytest.mark.parametrize("config", [False, True])
def test_a_code_file_appended_to_is_read_as_git_s_patch_reads(tmp_path: Path, config: bool) -> None:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    if config:  # a clone's config and attributes: neither reading heeds them
        for key, value in [
            ("diff.noprefix", "true"), ("diff.algorithm", "patience"), ("color.diff", "always"),
            ("core.quotePath", "false"), ("diff.context", "5"), ("core.bigFileThreshold", "1"),
            ("diff.x.textconv", "tr a-z A-Z"), ("core.autocrlf", "true"),
            ("diff.indentHeuristic", "false"),
        ]:  # fmt: skip
            git(repo, "config", key, value)
        (repo / ".gitattributes").write_text("*.py diff=x\n*.py -diff\n")
    shas = [_commit(repo)]
    expected = []  # whether each pair after the first is cut
    for (before, after), name, mode in itertools.product(SHAPES, NAMES, (0o644, 0o755)):
        path = repo / "src" / name
        for data, step_mode in (
            (before, mode),
            (after, 0o755 if (before, after) == SHAPES[-1] else mode),
        ):
            _write(path, data, step_mode)
            shas.append(_commit(repo))
        expected += [False, (before, after) in APPENDS]
        _write(path, None, mode)
    pairs: list[tuple[str, str | None]] = [(shas[0], None)]
    pairs += [(sha, parent) for parent, sha in itertools.pairwise(shas)]
    rests = _compare(repo, pairs)
    assert [CUT in rest for rest in rests[2::2]] == expected[1::2]


def test_a_merge_and_a_root_commit_are_read_as_git_s_patch_reads(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    (repo / "a.py").write_bytes(b"a = 1\n")
    root = _commit(repo)
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "b.py").write_bytes(b"b = 1\n")
    side = _commit(repo)
    git(repo, "checkout", "-q", "main")
    (repo / "a.py").write_bytes(b"a = 1\na = 2\n")
    main = _commit(repo)
    git(repo, "merge", "-q", "--no-ff", "-m", "merge", "side")
    (repo / "a.py").write_bytes(b"a = 1\na = 2\na = 3\n")
    git(repo, "commit", "-q", "-a", "--amend", "-m", "merge", env={**os.environ})
    merge = git(repo, "rev-parse", "HEAD").stdout.strip()
    pairs: list[tuple[str, str | None]] = [(root, None), (side, root), (main, root)]
    pairs += [(merge, main), (merge, side)]
    rests = _compare(repo, pairs)
    assert all(CUT in rest for rest in rests)
