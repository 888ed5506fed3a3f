"""``ledgerdiff.read`` of the code files: a file a commit only appended to is read from its
blobs (the newest version past the old one's end, the old one's id checked), any other change
from git's patch; what ``staged.parse_patch`` reads of the first is what it reads of git's
patch, on every shape (names of any byte, modes, line ends, a slidable hunk, a NUL, new and
empty files, a clone's config and attributes, a merge, a submodule or a symlink turned file, a
blob met again at another path or in a ledger file, SHA-256, a random history)."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
from pathlib import Path

import pytest

from tests.support.repos import git
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import parse_patch


def cuts(rest: bytes) -> int:
    """How many of a pair's files were read from their blobs: git's patch of a file's content
    names its blobs (``index``), a cut does not."""
    sections = rest.split(b"diff --git ")[1:]
    return sum(b"\n@@" in s and b"\nindex " not in s.partition(b"\n@@")[0] for s in sections)


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
        assert ledgerdiff.added(rest) == parse_patch(ledgerdiff.split(patch)[0])
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
            ("diff.indentHeuristic", "false"), ("diff.suppressBlankEmpty", "true"),
            ("diff.mnemonicPrefix", "true"), ("diff.relative", "true"),
            ("diff.renames", "copies"), ("diff.srcPrefix", "x/"), ("diff.dstPrefix", "y/"),
            ("diff.interHunkContext", "9"), ("diff.orderFile", "/dev/null"),
            ("diff.x.algorithm", "histogram"), ("core.ignorecase", "true"),
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
    assert [cuts(rest) > 0 for rest in rests[2::2]] == expected[1::2]


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
    assert all(cuts(rest) for rest in rests)


def _repo(tmp_path: Path, *init: str) -> Path:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", "-b", "main", *init, str(repo))
    return repo


def _pairs(shas: list[str]) -> list[tuple[str, str | None]]:
    """The root commit against the empty tree, then each commit against the one before."""
    return [(shas[0], None), *((sha, parent) for parent, sha in itertools.pairwise(shas))]


@pytest.mark.parametrize("quote", ["true", "false"])
def test_a_name_of_any_byte_is_read_as_git_s_patch_names_it(tmp_path: Path, quote: str) -> None:
    repo = _repo(tmp_path)
    git(repo, "config", "core.quotePath", quote)
    names = [bytes([c, *b"x", c]) for c in range(1, 256) if c not in b"/."]
    names += [b"-", b"--", b"x ", b" ", b"x\t", b'"', b'\\"', b"..x", b"a b/c\td"]
    paths = [Path(os.fsdecode(bytes(repo / "d") + b"/" + name)) for name in names]
    shas = [_commit(repo)]
    for text in (b"a\n", b"a\nb\n"):  # new, then appended to
        for path in paths:
            _write(path, text, 0o644)
        shas.append(_commit(repo))
    rests = _compare(repo, _pairs(shas))
    assert [cuts(rest) for rest in rests[1:]] == [len(names)] * 2


def _gitlink(repo: Path, path: str, sha: str) -> str:
    git(repo, "rm", "-rq", "--cached", "--ignore-unmatch", path)
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sha},{path}")
    git(repo, "commit", "-qm", "gitlink")
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def test_a_submodule_or_symlink_turned_file_is_read_as_git_s_patch_reads(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    shas = [_commit(repo)]
    shas.append(_gitlink(repo, "m", shas[0]))  # a submodule (git's patch ignores them all)
    git(repo, "rm", "-q", "--cached", "m")
    for text in (b"a\n", b"a\nb\n"):  # ... a file in its place (git's patch: a new one)
        _write(repo / "m", text, 0o644)
        shas.append(_commit(repo))
    (repo / "m").unlink()
    shas.append(_gitlink(repo, "m", shas[0]))  # a file turned submodule
    (repo / "l").symlink_to("a")
    shas.append(_commit(repo))
    (repo / "l").unlink()
    for text in (b"a\nb\n", b"a\nb\nc\n"):  # a symlink turned file, then appended to
        _write(repo / "l", text, 0o644)
        shas.append(_commit(repo))
    rests = _compare(repo, _pairs(shas))
    assert [cuts(rest) > 0 for rest in rests] == [
        False,
        False,
        False,
        True,
        False,
        False,
        False,
        True,
    ]


def test_a_version_met_again_elsewhere_is_read_as_git_s_patch_reads(tmp_path: Path) -> None:
    # One blob at two paths and in a ledger file, a version that grows and shrinks, an old
    # version that is the newest of another path: each blob's newest version is read once.
    repo = _repo(tmp_path)
    steps: list[dict[str, bytes | None]] = [
        {"a": b"x\n", "b": b"x\n"},
        {"a": b"x\ny\n", "b": b"x\nz\n", ".tg-git/ledger/s.toml": b"x\n"},
        {"a": b"x\n", "b": b"x\nz\nw\n", ".tg-git/ledger/s.toml": b"x\ny\n"},
        {"a": b"x\nz\n", "c": b"x\ny\n"},
        {"c": b"x\ny\nq\n", "b": b"x\nzz\n", "d": b"x\ny\nv\n"},
        {"a": b"x\nz\nw\nq\n", "d": None, "e": b"x\ny\nv\n"},
    ]
    shas = [_commit(repo)]
    for step in steps:
        for name, data in step.items():
            _write(repo / name, data, 0o644)
        shas.append(_commit(repo))
    rests = _compare(repo, _pairs(shas))
    assert [cuts(rest) for rest in rests] == [0, 2, 2, 0, 2, 0, 0]  # a shrink: git's


def test_a_sha256_repository_is_read_as_git_s_patch_reads(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "--object-format=sha256")
    shas = [_commit(repo)]
    for text in (b"x\n", b"x\ny\n", b"x\ny\nz\n"):
        _write(repo / "a.py", text, 0o644)
        shas.append(_commit(repo))
    rests = _compare(repo, _pairs(shas))
    assert [cuts(rest) > 0 for rest in rests] == [False, True, True, True]


@pytest.mark.parametrize("seed", range(3))
def test_a_random_history_is_read_as_git_s_patch_reads(tmp_path: Path, seed: int) -> None:
    # Files appended to, cut short, deleted, given another's bytes or mode, ledger files among
    # them: whatever each step did, both readings agree.
    rnd = random.Random(seed)
    repo = _repo(tmp_path)
    files = [f"f{n}" for n in range(5)] + [".tg-git/ledger/s.toml", ".tg-git/ledger.toml"]
    pieces = [b"a\n", b"b\n", b"\n", b"a", b"\r\n", b"c\r\n", b"\0\n", b"x = 1\n"]
    shas = [_commit(repo)]
    for _ in range(30):
        for name in rnd.sample(files, rnd.randint(1, 4)):
            path, roll = repo / name, rnd.random()
            old = path.read_bytes() if path.exists() else b""
            mode = 0o755 if roll > 0.9 else 0o644
            if roll < 0.55 or not old:
                data: bytes | None = old + b"".join(rnd.choices(pieces, k=rnd.randint(1, 3)))
            elif roll < 0.65:
                data = old[: rnd.randint(0, len(old))]
            elif roll < 0.72:
                data = None
            else:
                other = repo / rnd.choice(files)
                data = other.read_bytes() if other.exists() else old
            _write(path, data, mode)
        shas.append(_commit(repo))
    rests = _compare(repo, _pairs(shas))
    assert any(cuts(rest) for rest in rests)
