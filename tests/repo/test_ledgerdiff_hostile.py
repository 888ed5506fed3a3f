"""``ledgerdiff.read`` against ``split`` of each whole patch on the shapes a hostile clone or
an odd history can take: paths that a pathspec of the ledger names and ``is_ledger_file``
does not, type changes, replace refs, attributes and config that steer git's diff."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import pytest

from tests.support.repos import git
from tg_git.domain.layout import LEDGER_PATH
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import commits_added
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
    for args in (["add", "-A"], ["commit", "-q", "--allow-empty", "-m", "step"]):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)  # bytes
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def _same(repo: Path, shas: list[str], edge: str = "", files: int = 0) -> None:
    """Each pair of ``shas`` read by ``read`` is what ``split`` of its whole patch gives, and
    so is the ledger folder of ``edge`` read whole (``files`` ledger files with lines)."""
    pairs: list[tuple[str, str | None]] = [(shas[0], None)]
    pairs += [(sha, parent) for parent, sha in itertools.pairwise(shas)]
    found = find_repo(repo)
    folders = [git(repo, "rev-parse", f"{edge}:.tg-git/ledger").stdout.strip()] if edge else []
    read, held = ledgerdiff.read(found, pairs, folders)
    patches, whole = ledgerdiff.patches(found, pairs, folders)
    assert held == whole
    assert [len(changes) for changes in held] == ([files] if edge else [])
    assert len(read) == len(patches)
    for (rest, changes), patch in zip(read, patches):
        more, expected = ledgerdiff.split(patch)
        assert changes == expected
        assert parse_patch(rest) == parse_patch(more)


@pytest.mark.parametrize(
    "odd", [".tg-git/ledger", ".tg-git/ledger.toml/notes.txt", ".tg-git/ledgers/notes.txt"]
)
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


@pytest.mark.parametrize("variable", ["GIT_LITERAL_PATHSPECS", "GIT_ICASE_PATHSPECS"])
def test_git_s_pathspec_variables_steer_no_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    # literal: `:(exclude,literal)...` would name a file of that name; icase: `.TG-GIT/LEDGER`
    repo = _repo(tmp_path)
    ledger, code = repo / SEGMENT, repo / ".TG-GIT" / "LEDGER" / "work.py"
    ledger.parent.mkdir(parents=True)
    code.parent.mkdir(parents=True)
    shas = []
    for n in range(1, 4):
        ledger.write_bytes(_lines(*range(1, n + 1)))
        code.write_text("x = 1\n" * n)
        shas.append(_commit(repo))
    monkeypatch.setenv(variable, "1")
    _same(repo, shas)


def test_git_s_context_variable_steers_no_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIT_DIFF_OPTS beats -U0: a hunk with context starts at line 1, and a byte-order mark
    # on an appended line read as the file's own
    repo = _repo(tmp_path)
    ledger = repo / SEGMENT
    ledger.parent.mkdir(parents=True)
    shas = []
    for text in (_lines(1), _lines(1) + "\ufeff".encode() + _lines(2), b"\n"):
        ledger.write_bytes(text)
        shas.append(_commit(repo))
    monkeypatch.setenv("GIT_DIFF_OPTS", "--unified=3")
    found = find_repo(repo)
    pairs: list[tuple[str, str | None]] = [(shas[1], shas[0]), (shas[2], shas[1])]
    assert ledgerdiff.read(found, pairs)[0][0][1] == [
        ledgerdiff.Change(SEGMENT, ["\ufeff" + LINE.format(n=2).strip()], [])
    ]
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


def _stage(repo: Path, mode: str, data: bytes, path: str = SEGMENT) -> None:
    """``path`` staged as ``data`` with ``mode`` (a gitlink: a commit's id), the work tree
    left as it is."""
    if mode == "160000":
        blob = data.decode()
    else:
        blob = git(repo, "hash-object", "-w", "--stdin", input=data.decode()).stdout.strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"{mode},{blob},{path}")


@pytest.mark.parametrize("mode", ["120000", "100755", "160000", "folder"])
def test_a_ledger_file_whose_type_changes_between_appends(tmp_path: Path, mode: str) -> None:
    repo = _repo(tmp_path)
    ledger = repo / SEGMENT
    ledger.parent.mkdir(parents=True)
    (repo / "a.py").write_text("x = 1\n")
    ledger.write_bytes(_lines(1))
    shas = [_commit(repo)]
    git(repo, "rm", "-q", "--cached", SEGMENT)
    if mode == "folder":  # the segment's path a folder holding a segment-like file
        _stage(repo, "100644", _lines(1, 2), f"{SEGMENT}/000/01.toml")
    else:  # the same bytes and one more line, as a link, an executable or a gitlink
        _stage(repo, mode, shas[0].encode() if mode == "160000" else _lines(1, 2))
    git(repo, "commit", "-q", "-m", "odd")
    shas.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    git(repo, "rm", "-q", "-r", "--cached", SEGMENT)
    for n in (3, 4):  # a plain file again, appended to
        _stage(repo, "100644", _lines(*range(1, n + 1)))
        git(repo, "commit", "-q", "-m", "plain")
        shas.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    # its odd entry in a ledger folder read whole: a link's or an executable's lines count
    _same(repo, shas, edge=shas[1], files=int(mode in ("120000", "100755")))


def test_merges_and_one_version_at_two_paths(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    one, two = repo / SEGMENT, repo / SEGMENT.replace("01.toml", "02.toml")
    one.parent.mkdir(parents=True)
    one.write_bytes(_lines(1))
    two.write_bytes(_lines(1))  # the same blob at two paths
    shas = [_commit(repo)]
    one.write_bytes(_lines(1, 2))
    two.write_bytes(_lines(1, 3))
    shas.append(_commit(repo))
    git(repo, "checkout", "-q", "-b", "side", shas[0])
    one.write_bytes(_lines(1, 4))
    two.write_bytes(_lines(1, 2))
    side = _commit(repo)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-s", "ours", "-m", "merge", side)
    one.write_bytes(_lines(1, 2, 4, 5))
    two.write_bytes(_lines(1, 3, 5))
    git(repo, "commit", "-q", "-a", "--amend", "-m", "merge")
    merge = git(repo, "rev-parse", "HEAD").stdout.strip()
    pairs: list[tuple[str, str | None]] = [(shas[0], None), (shas[1], shas[0])]
    pairs += [(side, shas[0]), (merge, shas[1]), (merge, side)]
    found = find_repo(repo)
    read, _ = ledgerdiff.read(found, pairs)
    patches, _ = ledgerdiff.patches(found, pairs)
    assert [changes for _, changes in read] == [ledgerdiff.split(p)[1] for p in patches]


CONFIG = [  # a clone's own config and attributes: git's patch and the cut must not heed them
    ("diff.noprefix", "true"), ("diff.mnemonicPrefix", "true"), ("diff.renames", "copies"),
    ("diff.algorithm", "patience"), ("color.diff", "always"), ("color.ui", "always"),
    ("core.quotePath", "false"), ("diff.relative", "true"), ("diff.context", "5"),
    ("diff.interHunkContext", "9"), ("diff.suppressBlankEmpty", "true"),
    ("core.bigFileThreshold", "1"), ("diff.x.textconv", "tr a-z A-Z"),
    ("diff.x.binary", "true"), ("diff.external", "false"), ("core.autocrlf", "true"),
]  # fmt: skip
ATTRIBUTES = ["*.toml -diff", "*.toml binary", "*.toml diff=x", "* text eol=crlf"]


@pytest.mark.parametrize("attributes", ATTRIBUTES)
def test_a_clones_config_and_attributes_steer_neither_reading(
    tmp_path: Path, attributes: str
) -> None:
    repo = _repo(tmp_path)
    for key, value in CONFIG:
        git(repo, "config", key, value)
    (repo / ".gitattributes").write_text(attributes + "\n")
    ledger, odd = repo / SEGMENT, repo / ".tg-git" / "ledger" / 's é\t"x".toml'
    raw = repo / ".tg-git" / "ledger" / "\udcff.toml"  # a name that is no UTF-8
    ledger.parent.mkdir(parents=True)
    (repo / "a.py").write_text("x = 1\n")
    shas = []
    for lines in ((1,), (1, 2), (1, 2, 3), (2, 1, 3), (2, 1, 3, 4)):  # appends, a rewrite
        ledger.write_bytes(_lines(*lines))
        odd.write_bytes(_lines(*lines).replace(b"\n", b"\r\n"))
        raw.write_bytes(b"\xff" + _lines(*lines))
        (repo / "a.py").write_text("x = 1\n" * len(lines))
        shas.append(_commit(repo))
    _same(repo, shas)


@pytest.mark.parametrize("variable", ["GIT_LITERAL_PATHSPECS", "GIT_DIFF_OPTS"])
def test_a_range_s_counts_are_the_same_under_git_s_reading_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    # recount and the report's history read each commit's change through `:(exclude)`
    # pathspecs; with GIT_LITERAL_PATHSPECS (which magit's `--literal-pathspecs` exports to
    # every command it runs) they named a file of that name and every change read as empty
    repo = _repo(tmp_path)
    shas = []
    for n in range(1, 3):
        (repo / "work.py").write_text("x = 1\n" * n)
        (repo / "notes.md").write_text("y\n" * n)
        shas.append(_commit(repo))
    pairs: list[tuple[str, str | None]] = [(shas[0], None), (shas[1], shas[0])]
    plain = commits_added(find_repo(repo), pairs, exclude=["notes.md"])
    monkeypatch.setenv(variable, "--unified=3" if variable == "GIT_DIFF_OPTS" else "1")
    assert commits_added(find_repo(repo), pairs, exclude=["notes.md"]) == plain
    assert [sorted(added) for added in plain] == [["work.py"], ["work.py"]]


def test_a_reftable_repository_is_read_as_one_with_replace_refs(tmp_path: Path) -> None:
    # git 2.45+ may keep refs, replace refs among them, in `reftable/`, which `replaced`
    # cannot list: such a repository is never cut (nor its memo trusted), as with replace refs
    repo = _repo(tmp_path)
    assert not ledgerdiff.replaced(find_repo(repo))
    (repo / ".git" / "reftable").mkdir()
    assert ledgerdiff.replaced(find_repo(repo))
