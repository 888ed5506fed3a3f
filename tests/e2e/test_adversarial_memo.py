"""Adversarial review of this session's fast paths: the session memo (``memo.py``,
``Workspace.session_state``, ``importer._after``), the in-place ledger append
(``Workspace._add_lines``) and repository discovery without git (``git._find_fast``).

Each test compares a fast path with the slow truth: ``tg-git status --json`` with the memo
removed (a full read), or ``git rev-parse``. Tests marked ``xfail(strict=True)`` expose a bug
named in their reason (remove the mark with the fix); the others guard what held.
"""

from __future__ import annotations

import concurrent.futures
import json
import marshal
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import TG_GIT
from tests.conftest import claude_line
from tests.conftest import commit
from tests.conftest import git
from tests.conftest import hook
from tests.conftest import ledger_file
from tests.conftest import project_folder
from tests.conftest import status
from tests.conftest import tg
from tests.conftest import ts
from tests.repo.test_memo import DOCTORED
from tests.repo.test_memo import clone_behind
from tests.repo.test_memo import doctor
from tests.repo.test_memo import memo_path
from tests.repo.test_memo import truth
from tg_git.domain.errors import NotReady
from tg_git.repo import git as gitmod
from tg_git.repo import journal
from tg_git.repo.workspace import Workspace
from tg_git.usage.importer import import_usage

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp


def stop(repo: Path, transcript: Path) -> subprocess.CompletedProcess[str]:
    payload = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    return hook(repo, "claude", "Stop", {**payload, "hook_event_name": "Stop"})


def transcript_of(repo: Path, homes: dict[str, Path], name: str = "A") -> Path:
    return project_folder(repo, homes["CLAUDE_CONFIG_DIR"]) / f"{name}.jsonl"


# ---- the memo: findings ----------------------------------------------------------------------
def test_an_import_racing_another_import_returns_both(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    mine, theirs = transcript_of(repo, agent_homes, "A"), transcript_of(repo, agent_homes, "B")
    mine.write_text(claude_line("m1", "r1", fresh=10, read=20_000, out=100, session="A"))
    theirs.write_text(claude_line("m2", "r2", fresh=10, read=50_000, out=100, session="B"))
    os.chdir(repo)
    ws = Workspace.open(repo)
    state = ws.session_state()  # this hook read the session ...
    tg(repo, "usage", "import", "--agent", "claude", "--transcript", str(theirs))  # ... a 2nd hook
    outcome = import_usage(ws, agent="claude", transcript=str(mine), state=state)
    real = truth(repo)["spend"]
    assert real["requests"] == 2
    assert outcome.session is not None
    assert (outcome.session.spend_requests, outcome.session.spend) == (
        real["requests"],
        real["total"],
    )


def test_git_replace_of_head_is_seen(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    commit(repo, "-m", "five hundred")
    path = ledger_file(repo)
    rel = path.relative_to(repo).as_posix()
    extra = (
        f'e20991231000000-aaaaaaaaaaaa = {{ "kind" = "input", "at" = "2099-12-31T00:00:00Z", '
        f'"session" = "{path.stem}", "tokens" = 9000 }}\n'
    )
    blob = git(repo, "hash-object", "-w", "--stdin", input=path.read_text() + extra).stdout
    index = {**os.environ, "GIT_INDEX_FILE": str(repo.parent / "replacement.index")}
    git(repo, "read-tree", "HEAD", env=index)  # a side index: no ref, reflog or file moves
    git(repo, "update-index", "--cacheinfo", f"100644,{blob.strip()},{rel}", env=index)
    tree = git(repo, "write-tree", env=index).stdout.strip()
    replacement = git(repo, "commit-tree", tree, "-p", "HEAD~1", "-m", "r").stdout.strip()
    assert status(repo)["input"] == 500  # memoised
    git(repo, "replace", "HEAD", replacement)
    assert git(repo, "show", f"HEAD:{rel}").stdout.endswith(extra)
    memoised = status(repo)["input"]
    assert memoised == truth(repo)["input"] == 9500


def test_a_same_second_event_of_another_worktree_reads_as_in_full(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    other = repo.parent / "other"
    git(repo, "worktree", "add", "-q", "-b", "other", str(other))
    tg(other, "record", "--tokens", "4000")
    line = next(ln for ln in ledger_file(other).read_text().splitlines() if "4000" in ln)
    at = line.split('"at" = "', 1)[1][:20]  # ...T04:47:17Z
    status(repo)  # memo: its newest event is the other worktree's
    transcript = transcript_of(repo, agent_homes)
    transcript.write_text(
        claude_line("m1", "r1", fresh=10, read=20_000, out=100, session="A", at=at[:-1] + ".0Z")
    )
    assert stop(repo, transcript).returncode == 0
    memoised = status(repo)["used"]
    assert memoised == truth(repo)["used"]


def test_a_fifo_memo_does_not_hang(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    status(repo)
    path = memo_path(repo)
    path.unlink()
    os.mkfifo(path)
    proc = subprocess.run(
        [TG_GIT, "status", "--json"], cwd=repo, capture_output=True, text=True, timeout=5
    )
    assert json.loads(proc.stdout)["input"] == 500


def test_a_memo_with_a_wrongly_typed_count_costs_only_a_full_read(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    status(repo)
    path = memo_path(repo)
    data = marshal.loads(path.read_bytes())
    data["session"]["input"] = "500"
    path.write_bytes(marshal.dumps(data))
    proc = tg(repo, "status", "--json", check=False)
    assert json.loads(proc.stdout).get("input") == 500, proc.stdout


# ---- the memo: what held ---------------------------------------------------------------------
def test_ten_parallel_stop_hooks_count_each_request_once(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    transcript = transcript_of(repo, agent_homes)
    transcript.write_text(claude_line("m0", "r0", fresh=1, read=1000, out=1, session="A"))

    def turn(i: int) -> int:
        with transcript.open("a") as fh:  # the transcript grows while hooks run
            fh.write(claude_line(f"m{i + 1}", f"r{i + 1}", fresh=1, read=1001 + i, session="A"))
        return stop(repo, transcript).returncode

    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        assert list(pool.map(turn, range(10))) == [0] * 10
    assert stop(repo, transcript).returncode == 0  # reads what the last hooks missed
    memoised = status(repo)
    real = truth(repo)
    assert memoised == real
    assert real["spend"]["requests"] == 11
    assert real["spend"]["fresh_input"] == 11
    keys = [ln.split(" = ", 1)[0] for ln in ledger_file(repo).read_text().splitlines()]
    assert len(keys) == len(set(keys))


def test_a_measurement_older_than_the_memo_replays_in_order(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    transcript = transcript_of(repo, agent_homes)
    time.sleep(1.1)  # the session started a second before the measurement
    early = ts()
    time.sleep(1.1)
    tg(repo, "record", "--tokens", "3000")  # newer than the measurement
    status(repo)
    transcript.write_text(
        claude_line("m1", "r1", fresh=10, read=20_000, out=100, session="A", at=early)
    )
    assert stop(repo, transcript).returncode == 0
    memoised = status(repo)
    assert memoised == truth(repo)
    assert memoised["used"] == 20_110 + 3000  # the estimate after the measurement adds on


def test_a_branch_moved_by_update_ref_with_packed_refs_and_no_reflog_is_seen(
    repo: Path, tmp_path: Path
) -> None:
    clone = clone_behind(repo, tmp_path)
    git(clone, "config", "core.logAllRefUpdates", "false")
    git(clone, "pack-refs", "--all")
    assert not (clone / ".git" / "refs" / "heads" / "main").exists()
    assert status(clone)["input"] == 500
    doctor(clone)
    git(clone, "update-ref", "refs/heads/main", "origin/main")  # no reflog, work tree as is
    assert status(clone)["input"] == 570


def test_a_memo_from_another_tg_git_version_or_format_is_not_used(repo: Path) -> None:
    from tg_git import __version__

    tg(repo, "record", "--tokens", "500")
    status(repo)
    doctor(repo)
    assert status(repo)["input"] == DOCTORED
    path = memo_path(repo)
    data = marshal.loads(path.read_bytes())
    assert f"|{__version__}|" in data["fingerprint"]
    data["fingerprint"] = data["fingerprint"].replace(f"|{__version__}|", "|0.0.1|")
    path.write_bytes(marshal.dumps(data))
    assert status(repo)["input"] == 500


def test_a_memo_that_is_a_folder_costs_only_a_full_read(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    path = memo_path(repo)
    path.unlink(missing_ok=True)
    path.mkdir()
    tg(repo, "record", "--tokens", "70")
    proc = tg(repo, "status", "--json")
    assert json.loads(proc.stdout)["input"] == 570
    assert proc.stderr == ""


# ---- the ledger append in place -----------------------------------------------------------
def test_a_torn_append_does_not_block_the_next_write(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    with ledger_file(repo).open("a") as fh:  # the crash: part of a line, no line end
        fh.write('e20261130000000-abcdef123456 = { "kind" = "inp')
    tg(repo, "record", "--tokens", "70")
    assert truth(repo)["input"] == 570


def test_a_symlinked_ledger_file_is_not_written_through(repo: Path, tmp_path: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    commit(repo, "-m", "five hundred")
    path = ledger_file(repo)
    outside = tmp_path / "outside.toml"
    outside.write_bytes(path.read_bytes())
    before = outside.read_bytes()
    path.unlink()
    path.symlink_to(outside)
    git(repo, "add", "-A")
    tg(repo, "record", "--tokens", "70", check=False)
    assert outside.read_bytes() == before


@pytest.mark.parametrize("shape", ["crlf", "bom", "no final newline"])
def test_a_ledger_file_that_is_not_plain_lf_is_rewritten(repo: Path, shape: str) -> None:
    tg(repo, "record", "--tokens", "500")
    path = ledger_file(repo)
    data = path.read_bytes()
    if shape == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif shape == "bom":
        data = b"\xef\xbb\xbf" + data
    else:
        data = data.rstrip(b"\n")
    path.write_bytes(data)
    git(repo, "add", "-A")
    proc = tg(repo, "record", "--tokens", "70")
    assert proc.stderr == ""
    after = path.read_bytes()
    assert b"\r" not in after and not after.startswith(b"\xef\xbb\xbf") and after.endswith(b"\n")
    assert status(repo)["input"] == 570 == truth(repo)["input"]


def test_a_torn_journal_line_does_not_swallow_the_next_event(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    os.chdir(repo)
    ws = Workspace.open(repo)
    with journal.path(ws.repo, ledger_file(repo).relative_to(repo).as_posix()).open("a") as fh:
        fh.write('e20261130000000-abcdef123456 = { "kind" = "inp')
    tg(repo, "record", "--tokens", "70")
    git(repo, "reset", "-q", "--hard")  # the staged ledger edit goes; the journal keeps it
    assert truth(repo)["input"] == 570


# ---- discovery without git ------------------------------------------------------------------
def by_git(start: Path) -> tuple[str, str, str] | None:
    proc = subprocess.run(
        ["git", "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"],
        cwd=start,
        capture_output=True,
    )
    if proc.returncode != 0:
        return None
    root, git_dir, common = proc.stdout.decode("utf-8", "surrogateescape").splitlines()
    common_path = Path(common) if os.path.isabs(common) else (start / common).resolve()
    return root, git_dir, str(common_path)


def by_tg_git(start: Path) -> tuple[str, str, str] | None:
    try:
        repo = gitmod.find_repo(start)
    except NotReady:
        return None
    return str(repo.root), str(repo.git_dir), str(repo.common_dir)


def _stray_head_only(top: Path) -> Path:
    (top / "sub" / ".git").mkdir(parents=True)  # a half-copied git dir: no objects, no refs
    (top / "sub" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (top / "sub" / ".git" / "config").write_text("")
    return top / "sub"


def _garbage_head(top: Path) -> Path:
    git(top, "init", "-q", "sub")
    (top / "sub" / ".git" / "HEAD").write_text("not a ref\n")
    return top / "sub"


def _bare_yes(top: Path) -> Path:
    git(top, "config", "core.bare", "yes")
    return top


@pytest.mark.parametrize("layout", [_stray_head_only, _garbage_head, _bare_yes])
def test_discovery_rejects_what_git_rejects(plain_repo: Path, layout: object) -> None:
    start = layout(plain_repo)  # type: ignore[operator]
    assert by_tg_git(start) == by_git(start)


def test_a_stray_git_folder_in_a_subfolder_does_not_hide_the_repository(repo: Path) -> None:
    sub = _stray_head_only(repo / "vendor")
    tg(repo, "record", "--tokens", "500")
    assert by_git(sub) is not None and by_git(sub)[0] == str(repo)  # type: ignore[index]
    assert json.loads(tg(sub, "status", "--json", check=False).stdout).get("input") == 500


def _linked_worktree(top: Path) -> Path:
    git(top, "commit", "-q", "--allow-empty", "-m", "x")
    git(top, "worktree", "add", "-q", "-b", "wt", str(top.parent / "linked"))
    (top.parent / "linked" / "deep").mkdir()
    return top.parent / "linked" / "deep"


def _symlinked_git_dir(top: Path) -> Path:
    (top.parent / "elsewhere").mkdir()
    os.symlink(top / ".git", top.parent / "elsewhere" / ".git")
    return top.parent / "elsewhere"


def _symlinked_work_dir(top: Path) -> Path:
    (top / "a b").mkdir()
    os.symlink(top / "a b", top.parent / "link")
    return top.parent / "link"


def _nested(top: Path) -> Path:
    git(top, "init", "-q", "inner")
    (top / "inner" / "x").mkdir()
    return top / "inner" / "x"


def _submodule(top: Path) -> Path:
    src = top.parent / "src"
    git(top.parent, "init", "-q", "src")
    git(src, "commit", "-q", "--allow-empty", "-m", "x")
    git(top, "-c", "protocol.file.allow=always", "submodule", "-q", "add", str(src), "mod")
    return top / "mod"


def _relative_gitfile(top: Path) -> Path:
    (top.parent / "w").mkdir()
    (top.parent / "w" / ".git").write_text("gitdir: ../repo/.git\n")
    return top.parent / "w"


def _odd_names(top: Path) -> Path:
    name = os.fsdecode(b"sp ace \xff")
    git(top, "init", "-q", name)
    return top / name


def _inside_git_dir(top: Path) -> Path:
    return top / ".git" / "refs"


def _core_worktree(top: Path) -> Path:
    (top.parent / "tree").mkdir()
    git(top, "config", "core.worktree", str(top.parent / "tree"))
    return top  # git: the work tree is ../tree, not the folder holding .git


@pytest.mark.parametrize(
    "layout",
    [_linked_worktree, _symlinked_git_dir, _symlinked_work_dir, _nested, _submodule,
     _relative_gitfile, _odd_names, _inside_git_dir, _core_worktree],
)  # fmt: skip
def test_discovery_agrees_with_git(plain_repo: Path, layout: object) -> None:
    start = layout(plain_repo)  # type: ignore[operator]
    assert by_tg_git(start) == by_git(start)


def test_discovery_defers_to_git_dir_set_by_a_hook(
    plain_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", "other")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    expected = by_git(plain_repo)
    assert expected is not None and expected[1] == str(other / ".git")
    assert by_tg_git(plain_repo) == expected
