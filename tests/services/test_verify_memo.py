"""``tg-git verify`` keeps what each commit alone gives under the git dir and reads from git
only the commits it has not seen: its verdict with the memo a verify before left is the
verdict without it on every history the verify tests build (a tampered line, a removed event,
a forged estimate, a rebase, an amend, a merge of two clones, a teammate without tg-git); a
damaged, foreign or linked memo is ignored and written anew; the memo stays out of the work
tree and no larger than the history; and after one new commit git diffs that commit alone."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import tg
from tests.support.repos import traced_diff_trees
from tests.support.traces import traced_reads
from tg_git.repo import memo as memo_file
from tg_git.repo.git import find_repo

MEMO = Path(".git") / "tg-git" / "verified" / "commits.memo"
CODE = "def handler(request):\n    return {'status': 'ok', 'items': list(range(10))}\n"
TEAMMATE = {
    "GIT_AUTHOR_NAME": "Teammate",
    "GIT_AUTHOR_EMAIL": "teammate@example.com",
    "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z",
    "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z",
}


def _verdict(repo: Path, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    proc = tg(repo, "verify", "--json", check=False, env=env)
    assert proc.returncode in (0, 6), proc.stdout + proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _work(repo: Path, name: str, *args: str, n: int = 1) -> str:
    """A file of code committed (through the hooks unless ``args`` say otherwise); its id."""
    (repo / name).write_text(CODE.replace("handler", f"handler_{name[:-3]}") * n)
    git(repo, "add", name)
    commit(repo, "-m", f"work: {name}", *args)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def _honest(repo: Path) -> None:
    """Two counted commits, verified: the memo holds them."""
    _work(repo, "a.py")
    _work(repo, "b.py", n=2)
    assert _verdict(repo)[0] == 0
    assert (repo / MEMO).is_file()


def _warm_is_cold(repo: Path) -> tuple[int, dict[str, Any]]:
    """The verdict with the memo of the verify before, then without it: the same."""
    assert (repo / MEMO).is_file()  # the verify before kept one
    warm = _verdict(repo)
    (repo / MEMO).unlink()
    cold = _verdict(repo)
    assert warm == cold
    return cold


def _edit_ledger(repo: Path, edit: Any) -> None:
    ledger = ledger_file(repo)
    ledger.write_text(edit(ledger.read_text()))
    git(repo, "add", str(ledger))


def _last_commit_line(text: str) -> str:
    return [ln for ln in text.splitlines() if '"kind" = "commit"' in ln][-1]


def test_a_tampered_line(repo: Path) -> None:
    _honest(repo)
    line = _last_commit_line(ledger_file(repo).read_text())
    forged = re.sub(r'"tokens" = \d+', '"tokens" = 999999', line)
    _edit_ledger(repo, lambda text: text.replace(line, forged))
    commit(repo, "--no-verify", "-m", "a better figure")
    code, report = _warm_is_cold(repo)
    assert code == 6 and report["drift"], report


def test_a_removed_event_seen_from_another_clone(repo: Path) -> None:
    _honest(repo)
    clone = repo.parent / "elsewhere"  # no journal, no reflog of the first clone
    git(repo.parent, "clone", "-q", str(repo), str(clone))
    assert _verdict(clone)[0] == 0 and (clone / MEMO).is_file()
    line = _last_commit_line(ledger_file(repo).read_text())
    _edit_ledger(repo, lambda text: text.replace(line + "\n", ""))
    commit(repo, "--no-verify", "-m", "shrink the ledger")
    git(clone, "pull", "-q", "--no-rebase")
    code, report = _warm_is_cold(clone)
    assert code == 6 and "removed 1 event line" in json.dumps(report), report


def test_a_forged_estimate(repo: Path) -> None:
    _honest(repo)
    line = _last_commit_line(ledger_file(repo).read_text())
    key = line.split(" ", 1)[0]
    forged = re.sub(r'"tokens" = \d+', '"tokens" = 1', line).replace(key, key[:-4] + "beef", 1)
    (repo / "c.py").write_text(CODE * 40)
    git(repo, "add", "c.py")
    _edit_ledger(repo, lambda text: text + forged + "\n")
    commit(repo, "--no-verify", "-m", "a lot of work, claimed cheap")
    code, report = _warm_is_cold(repo)
    assert code == 6 and report["drift"], report


def test_a_rebase_that_reorders_and_rewrites(repo: Path) -> None:
    _work(repo, "a.py")
    counted = _work(repo, "b.py")
    sneaky = _work(repo, "s.py", "--no-verify", n=3)
    assert _verdict(repo)[0] == 6
    git(repo, "reset", "-q", "--hard", "HEAD~2")
    git(repo, "cherry-pick", sneaky)  # the uncounted work first now, both with new ids
    git(repo, "cherry-pick", counted)
    code, report = _warm_is_cold(repo)
    assert code == 6, report


def test_an_amended_commit(repo: Path) -> None:
    _honest(repo)
    (repo / "more.py").write_text(CODE * 30)
    git(repo, "add", "more.py")
    commit(repo, "--no-verify", "--amend", "-m", "work: b.py, and more")
    code, report = _warm_is_cold(repo)
    assert code == 6 and "claims" in report["drift"][0]["reason"], report


def test_a_merge_of_two_clones(repo: Path, tmp_path: Path) -> None:
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    git(repo, "push", "-q", "-u", "origin", "main")
    other = tmp_path / "other"
    shutil.copytree(repo, other, symlinks=True)  # a second clone of the session, its hooks too
    git(other, "update-index", "-q", "--refresh")
    _honest(repo)
    _work(other, "theirs.py", n=2)
    git(other, "push", "-q", "origin", "main")
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert len(git(repo, "rev-parse", "HEAD^@").stdout.split()) == 2  # a merge
    # Work nobody counted, smaller than the other clone's: the merge brings that clone's
    # events into this side's ledger, and must not be taken to claim them again.
    _work(repo, "sneaky.py", "--no-verify")
    first = _warm_is_cold(repo)
    assert first[0] == 6, first
    _work(repo, "after.py")  # and the commit after it: from the memo, all but that one
    second = _warm_is_cold(repo)
    assert second[0] == 6 and second[1]["checked"] == first[1]["checked"] + 1


def test_a_teammate_without_tg_git(repo: Path, tmp_path: Path) -> None:
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    _honest(repo)
    git(repo, "push", "-q", "-u", "origin", "main")
    other = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(origin), str(other))
    (other / "t.py").write_text(CODE * 5)
    git(other, "add", "t.py")
    commit(other, "-m", "teammate's work", env=TEAMMATE)
    git(other, "push", "-q")
    git(repo, "pull", "-q", "--no-rebase")
    code, report = _warm_is_cold(repo)
    assert code == 0 and len(report["outside"]) == 1, report


def test_a_journal_rewritten_since_the_memo_is_read_again(repo: Path) -> None:
    _honest(repo)  # the memo holds what the journal held then
    (journal_file,) = (repo / ".git" / "tg-git" / "journal").rglob("*.toml")
    line = _last_commit_line(journal_file.read_text())
    tokens = re.search(r'"tokens" = (\d+)', line)
    assert tokens is not None
    figure = tokens.group(1)
    other = figure[:-1] + ("1" if figure[-1] != "1" else "2")  # as long: only a CRC tells
    text = journal_file.read_text()
    journal_file.write_text(text.replace(line, line.replace(f"= {figure},", f"= {other},")))
    assert len(journal_file.read_text()) == len(text)
    code, report = _warm_is_cold(repo)
    assert code == 6 and "changed 1 event" in json.dumps(report), report


def test_a_journal_appended_to_since_the_memo_is_read_from_there(repo: Path) -> None:
    _honest(repo)
    (journal_file,) = (repo / ".git" / "tg-git" / "journal").rglob("*.toml")
    line = _last_commit_line(ledger_file(repo).read_text())
    key = line.split(" ", 1)[0]
    later = re.sub(r'"tokens" = \d+', '"tokens" = 7', line).replace(key, key[:-4] + "cafe", 1)
    with journal_file.open("a") as fh:  # this clone recorded an event the ledger has otherwise
        fh.write(later + "\n")
    forged = later.replace('"tokens" = 7', '"tokens" = 70000')
    _edit_ledger(repo, lambda text: text + forged + "\n")
    commit(repo, "--no-verify", "-m", "the ledger says otherwise")
    code, report = _warm_is_cold(repo)
    assert code == 6 and "changed 1 event" in json.dumps(report), report


def _sneaky_after_memo(repo: Path) -> None:
    _honest(repo)
    _work(repo, "sneaky.py", "--no-verify", n=3)


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "foreign"])
def test_a_damaged_or_foreign_memo_is_ignored_and_written_anew(repo: Path, damage: str) -> None:
    _sneaky_after_memo(repo)
    path = repo / MEMO
    raw = bytearray(path.read_bytes())
    if damage == "flip":
        raw[len(raw) // 2] ^= 0x40
    elif damage == "truncate":
        raw = raw[: len(raw) // 2]
    elif damage == "garbage":
        raw = bytearray(b"not a memo\n" * 10)
    else:  # a sound file of another format, claiming every commit is fine
        data = memo_file.unpack(bytes(raw))
        data["fingerprint"] = "0|0.0.0|"
        raw = bytearray(memo_file.pack(data))
    path.write_bytes(bytes(raw))
    code, report = _verdict(repo)
    assert code == 6 and "not counted" in json.dumps(report), report
    assert memo_file.read_data(find_repo(repo), "tg-git/verified/commits.memo") is not None
    assert _warm_is_cold(repo) == (code, report)


def test_a_linked_memo_is_never_followed(repo: Path, tmp_path: Path) -> None:
    _sneaky_after_memo(repo)
    path = repo / MEMO
    outside = tmp_path / "outside.memo"
    outside.write_bytes(path.read_bytes())
    before = outside.read_bytes()
    path.unlink()
    path.symlink_to(outside)
    code, report = _verdict(repo)
    assert code == 6 and "not counted" in json.dumps(report), report
    assert outside.read_bytes() == before
    assert path.is_file() and not path.is_symlink()  # written anew, in place of the link


def test_a_linked_memo_folder_is_never_written_through(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = (repo / MEMO).parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.symlink_to(elsewhere, target_is_directory=True)
    _work(repo, "a.py")
    assert _verdict(repo)[0] == 0
    assert list(elsewhere.iterdir()) == []
    assert folder.is_dir() and not folder.is_symlink() and (repo / MEMO).is_file()


def _records(repo: Path) -> int:
    data = memo_file.read_data(find_repo(repo), "tg-git/verified/commits.memo")
    return len(data["commits"])


def test_the_memo_stays_out_of_the_work_tree_and_no_larger_than_the_history(repo: Path) -> None:
    for n in range(4):
        _work(repo, f"m{n}.py")
    assert _verdict(repo)[0] == 0
    size, records = (repo / MEMO).stat().st_size, _records(repo)
    commits = int(git(repo, "rev-list", "--count", "HEAD").stdout)
    assert 0 < records <= commits
    for _ in range(3):  # verify again and again: nothing new, nothing written
        assert _verdict(repo)[0] == 0
    assert (repo / MEMO).stat().st_size == size and _records(repo) == records
    for n in range(3):  # the last commit amended (rewritten) three times
        (repo / "m3.py").write_text(CODE * (n + 2))
        git(repo, "add", "m3.py")
        commit(repo, "--amend", "--no-edit")
        _verdict(repo)
    assert _records(repo) <= records + 3
    assert git(repo, "status", "--porcelain", "--ignored").stdout == ""
    assert "verified" not in git(repo, "ls-files").stdout


def test_after_one_new_commit_git_diffs_that_commit_alone(repo: Path, tmp_path: Path) -> None:
    for n in range(6):
        _work(repo, f"m{n}.py")
    trace = tmp_path / "trace"
    assert _verdict(repo, {"GIT_TRACE": str(trace)})[0] == 0
    first = traced_reads(trace)
    assert [r for r in first if "--raw" in r], first  # the first verify lists the whole range
    assert _verdict(repo, {"GIT_TRACE": str(trace)})[0] == 0
    assert traced_diff_trees(trace) == []  # nothing new: no diff at all
    parent = git(repo, "rev-parse", "HEAD").stdout.strip()
    new = _work(repo, "new.py")
    assert _verdict(repo, {"GIT_TRACE": str(trace)})[0] == 0
    (diff,) = traced_diff_trees(trace)
    assert "--stdin" not in diff and diff[-2:] == [parent, new], diff
    assert _warm_is_cold(repo)[0] == 0
