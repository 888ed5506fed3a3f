"""``tg-git verify``'s work grows linearly with the history: the same number of git processes
at 4x the events, and the Python it runs (function calls and loop steps of tg-git's own code,
counted by the interpreter's trace hook, nothing patched) at most ~4x too.

The histories are written with ``git fast-import`` (``bench/verify.py``'s builder: one
session, a commit every few events, each commit's event claiming what its change counts), so
that a few thousand events take a second to make, not a few hundred commits through hooks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tg_git
from bench.verify import build
from tests.support.repos import git
from tests.support.repos import tg
from tests.support.repos import traced_diff_trees
from tests.support.repos import traced_verify
from tests.support.traces import traced_reads

PACKAGE = str(Path(tg_git.__file__).parent)
SMALL, LARGE = 1_000, 4_000  # events
PER_COMMIT = 2  # events a commit: many commits, each adding to a ledger of many segments


def _history(root: Path, events: int, salt: str) -> tuple[Path, int]:
    """A repository of ``events`` events (the session id salted, so that no two share a
    blob or a tree) and its number of commits."""
    repo = root / f"h{events}{salt}"
    commits = build(repo, events, PER_COMMIT, os.environ, f"s20260101000000-0000000000{salt}")
    return repo, commits


def _steps(repo: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Verify ``repo`` in this process: the calls and lines of tg-git's code it ran, and how
    many commits it checked."""
    monkeypatch.chdir(repo)
    steps, report = traced_verify(repo, lambda name: name.startswith(PACKAGE))
    assert report.ok, report.lines()
    return steps, report.checked


def test_verify_runs_linear_python_over_a_growing_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warm, _ = _history(tmp_path, 20, "aa")  # what is loaded once (the estimator's tables)
    _steps(warm, monkeypatch)
    small, small_commits = _history(tmp_path, SMALL, "bb")
    large, large_commits = _history(tmp_path, LARGE, "cc")
    small_steps, small_checked = _steps(small, monkeypatch)
    large_steps, large_checked = _steps(large, monkeypatch)
    assert (small_checked, large_checked) == (small_commits, large_commits)
    ratio = large_steps / small_steps
    # 4x the events and commits: linear work is ~4x (a little less: fixed costs); the scan
    # that looked through every ledger file of a parent for each new line made it ~6x.
    assert ratio <= 4.4, (small_steps, large_steps, ratio)


def _git_processes(repo: Path, trace: Path) -> list[str]:
    """The git commands ``tg-git verify`` started in ``repo``, from a ``GIT_TRACE`` file."""
    proc = tg(repo, "verify", env={"GIT_TRACE": str(trace)})
    assert "matches history" in proc.stdout, proc.stdout + proc.stderr
    found = [
        ln.split("git ", 1)[1].split()[0]
        for ln in trace.read_text().splitlines()
        if "built-in: git " in ln
    ]
    trace.unlink()
    return sorted(found)


def test_verify_starts_as_many_git_processes_at_any_size(tmp_path: Path) -> None:
    small, _ = _history(tmp_path, SMALL // 4, "dd")
    large, _ = _history(tmp_path, LARGE, "ee")
    few = _git_processes(small, tmp_path / "trace")
    assert few == _git_processes(large, tmp_path / "trace")
    # rev-parse, cat-file -e, log, the configs (2 cat-file), the changed paths (diff-tree
    # --raw), the ledger's sizes and newest versions (2 cat-file), the code's patches
    # (diff-tree), the files a line is looked for in (cat-file)
    assert len(few) <= 10, few


LINE = 'e2026010100000{n}-00000000000{n} = {{ "kind" = "note", "at" = "2026-01-01T00:00:0{n}Z", "text" = "n{n}" }}'


@pytest.mark.parametrize(
    "before, after",
    [
        ("# head\n{1}\n{2}\n", "# head\n{1}\n{2}\n{3}\n"),  # appended
        ("\ufeff{1}\n{2}\n", "\ufeff{1}\n{3}\n"),  # a byte-order mark on line 1
        ("{1}\n\ufeff{2}\n", "{1}\n\ufeff{2}\n{3}\n"),  # one further down is part of the line
        ("{1}\r\n{2}\r\n", "{2}\r\n{1}\r\n{3}\r"),  # CRLF; a last line with no line end
        ("{1}\n{2}", "{1}\n{3}\n{2}"),  # no line end at the end, before and after
    ],
)
def test_a_patch_adds_and_removes_the_event_lines_the_files_differ_by(
    tmp_path: Path, before: str, after: str
) -> None:
    from tests.support.repos import git
    from tg_git.domain import eventlog
    from tg_git.repo import ledgerdiff
    from tg_git.repo.git import find_repo

    lines = {f"{{{n}}}": LINE.format(n=n) for n in range(1, 4)}

    def text(shape: str) -> str:
        for name, line in lines.items():
            shape = shape.replace(name, line)
        return shape

    repo = tmp_path / "r"
    path = repo / ".tg-git" / "ledger" / "s20260101000000-0123456789ab.toml"
    path.parent.mkdir(parents=True)
    git(tmp_path, "init", "-q", str(repo))
    shas = []
    for shape in (before, after):
        path.write_bytes(text(shape).encode())
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "ledger")
        shas.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    (patch,), _ = ledgerdiff.patches(find_repo(repo), [(shas[1], shas[0])])
    rest, (change,) = ledgerdiff.split(patch)
    old, new = (set(eventlog.event_lines(text(shape))) for shape in (before, after))
    # A line moved within the file is taken away and added again: verify's look-up keeps it
    assert new - old <= set(change.added) <= new, change.added
    assert old - new <= set(change.removed) <= old, change.removed
    assert rest == b""


def test_a_cold_verify_diffs_no_file_a_commit_only_appended_to(tmp_path: Path) -> None:
    # Each commit appends its events to the session's newest segment and a few lines to a
    # code file: what it added is the new version past the old one's end (the old one's id
    # checks that), so git is asked for no patch at all, only the blob ids.
    repo, _ = _history(tmp_path, 300, "ff")
    proc = tg(repo, "verify", env={"GIT_TRACE": str(tmp_path / "trace")})
    assert "matches history" in proc.stdout, proc.stdout + proc.stderr
    reads = traced_reads(tmp_path / "trace")
    assert [r for r in reads if "--raw" in r], reads  # what each commit changed: listed
    assert not [r for r in reads if "-p" in r], reads  # and no patch asked for
    # A code file rewritten, not appended to: git's patch of the code alone says what it adds.
    source = repo / "src" / "module_01.py"
    source.write_text("def rewritten():\n    return 1\n")
    git(repo, "commit", "-qam", "rewritten")
    (repo / ".git" / "tg-git" / "verified").rename(tmp_path / "memo")  # a cold verify again
    tg(repo, "verify", check=False, env={"GIT_TRACE": str(tmp_path / "trace")})
    (patch,) = [d for d in traced_diff_trees(tmp_path / "trace") if "-p" in d]
    assert "':(exclude,literal).tg-git/ledger'" in patch, patch  # GIT_TRACE quotes each one
    assert "':(exclude,literal).tg-git/ledger.toml'" in patch, patch
