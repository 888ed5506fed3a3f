"""A long session's commit writes one small file (cost that does not grow).

A session's file holds its first ``SEGMENT_LINES`` event lines; later events go into segments
``.tg-git/ledger/<session>/<n // 64>/<n % 64>.toml``. A commit reads and writes only the
session's last file (the settled ones are replayed once and kept, keyed by their blob ids),
so the object store grows by about the new event however long the session is, and every
history guarantee holds across segments: a reset or a hand edit is undone by the next commit,
two branches merge by ``merge=union``, a damaged memo only costs a full read. Each test drives
real ``git commit`` through the installed hooks.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.repos import add
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import grow
from tests.support.repos import ledger_at
from tests.support.repos import status
from tests.support.repos import tg
from tests.support.repos import truth
from tg_git.domain import eventlog
from tg_git.domain import layout
from tg_git.repo import memo


def changed_ledger_files(repo: Path, rev: str = "HEAD") -> list[str]:
    """The ledger files commit ``rev`` changed."""
    out = git(
        repo,
        "diff-tree",
        "-r",
        "--name-only",
        "--no-commit-id",
        f"{rev}~1",
        rev,
        "--",
        ".tg-git/ledger",
    ).stdout
    return out.split()


def committed_tokens(repo: Path, rev: str = "HEAD") -> int:
    """The tokens of every commit event the ledger files of ``rev`` hold."""
    events = eventlog.parse("\n".join(eventlog.union(ledger_at(repo, rev))))
    return sum(int(e.get("tokens", 0)) for e in events.values() if e["kind"] == "commit")


def test_a_long_session_goes_on_in_a_segment_and_its_file_stays_as_it_was(repo: Path) -> None:
    files = grow(repo, 200)
    before = git(repo, "rev-parse", f"HEAD:{files[0]}").stdout
    add(repo, "work.py", "print('work')")
    assert git(repo, "rev-parse", f"HEAD:{files[0]}").stdout == before
    assert changed_ledger_files(repo) == [files[-1]]
    assert '"label" = "work.py"' in (repo / files[-1]).read_text()
    assert status(repo)["output"] == committed_tokens(repo)
    assert git(repo, "status", "--porcelain").stdout == ""


def test_a_full_file_starts_the_next_segment(repo: Path) -> None:
    files = grow(repo, layout.SEGMENT_LINES - 1)  # the session's file is full now
    assert files == [files[0]]
    add(repo, "one.py", "one = 1")
    segment = layout.segment_file(files[0], 1)
    assert changed_ledger_files(repo) == [segment]
    assert len(eventlog.event_lines((repo / segment).read_text())) == 1
    attributes = (repo / ".gitattributes").read_text().splitlines()
    assert f"{layout.LEDGER_DIR}/*/*/*.toml merge=union {layout.QUIET}" in attributes


def test_each_commit_stores_one_small_file_however_long_the_session(repo: Path) -> None:
    grow(repo, 3000)
    for n in range(3):
        add(repo, f"w{n}.py", f"value_{n} = {n}")
        (changed,) = changed_ledger_files(repo)
        size = int(git(repo, "cat-file", "-s", f"HEAD:{changed}").stdout)
        assert size < 200 * layout.SEGMENT_LINES  # one segment, not the 3,000-line session
    assert status(repo)["output"] == committed_tokens(repo)


def test_commits_read_only_the_last_file_and_count_what_a_full_read_counts(repo: Path) -> None:
    grow(repo, 1000)
    for n in range(4):
        add(repo, f"c{n}.py", f"counted_{n} = {n}")
    fast = status(repo)
    assert fast["output"] == committed_tokens(repo)
    base = Path(git(repo, "rev-parse", "--git-path", "tg-git/base.memo").stdout.strip())
    assert (repo / base).is_file()  # the settled files' replay was kept
    (repo / base).unlink()
    add(repo, "full.py", "full = 1")  # without it: every file read again
    assert status(repo)["output"] == committed_tokens(repo) == truth(repo)["output"]
    assert fast["session"]["commits"] + 1 == status(repo)["session"]["commits"]


def test_a_reset_is_undone_by_the_next_commit_in_a_long_session(repo: Path) -> None:
    grow(repo, 1000)
    add(repo, "a.py", "a = 1")
    add(repo, "b.py", "b = 2")
    spent = committed_tokens(repo)
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    assert committed_tokens(repo) < spent  # b's event left HEAD with its commit
    add(repo, "c.py", "c = 3")
    assert committed_tokens(repo) > spent  # b's event is back, and c's is added
    assert '"label" = "b.py"' in ledger_at(repo)


def test_two_resets_lose_no_event_in_a_long_session(repo: Path) -> None:
    grow(repo, 1000)
    for name in ("a", "b", "c"):
        add(repo, f"{name}.py", f"{name} = 1")
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    git(repo, "reset", "-q", "--hard", "HEAD~1")  # c's event is now in no commit the hook reads
    add(repo, "d.py", "d = 1")
    text = ledger_at(repo)
    assert all(f'"label" = "{name}.py"' in text for name in "abcd")


def test_a_reset_across_a_new_segment_keeps_every_event(repo: Path) -> None:
    files = grow(repo, layout.SEGMENT_LINES + 120)  # the first segment has 8 lines of room
    for n in range(12):  # the last four go into the second segment
        add(repo, f"r{n}.py", f"r_{n} = {n}")
    assert layout.segment_file(files[0], 2) in changed_ledger_files(repo)
    spent = committed_tokens(repo)
    git(repo, "reset", "-q", "--hard", "HEAD~6")
    add(repo, "after.py", "after = 1")
    assert committed_tokens(repo) > spent
    labels = ledger_at(repo)
    assert all(f'"label" = "r{n}.py"' in labels for n in range(12))


def test_a_settled_segment_edited_by_hand_is_repaired(repo: Path) -> None:
    files = grow(repo, 600)
    add(repo, "x.py", "x = 1")
    spent = committed_tokens(repo)
    settled = repo / files[1]
    lines = settled.read_text().splitlines(keepends=True)
    settled.write_text("".join(ln for ln in lines if '"label" = "g200.py"' not in ln))
    git(repo, "add", files[1])
    add(repo, "y.py", "y = 2")
    assert '"label" = "g200.py"' in ledger_at(repo)
    assert committed_tokens(repo) > spent


def test_two_branches_of_a_long_session_merge_without_conflict(repo: Path) -> None:
    grow(repo, 500)
    git(repo, "checkout", "-q", "-b", "side")
    add(repo, "side.py", "side = 1")
    git(repo, "checkout", "-q", "main")
    add(repo, "main.py", "main = 1")
    git(repo, "merge", "-q", "--no-edit", "side")
    text = ledger_at(repo)
    assert '"label" = "side.py"' in text and '"label" = "main.py"' in text
    assert "<<<<<<<" not in text
    add(repo, "after.py", "after = 1")
    assert status(repo)["output"] == committed_tokens(repo)


def test_a_damaged_memo_of_the_settled_files_costs_a_full_read_only(repo: Path) -> None:
    grow(repo, 400)
    add(repo, "m.py", "m = 1")
    base = repo / git(repo, "rev-parse", "--git-path", "tg-git/base.memo").stdout.strip()
    for junk in (b"\x00garbage", b"\xfb" * 100, b""):
        base.write_bytes(junk)
        add(repo, f"j{len(junk)}.py", "j = 1")
        assert status(repo)["output"] == committed_tokens(repo)
    commit(repo, "--allow-empty", "-m", "empty")
    assert status(repo)["output"] == committed_tokens(repo)


def test_a_base_of_the_right_key_but_hostile_values_is_not_trusted(repo: Path) -> None:
    grow(repo, 400)
    add(repo, "k.py", "k = 1")
    base = repo / git(repo, "rev-parse", "--git-path", "tg-git/base.memo").stdout.strip()
    kept = memo.unpack(base.read_bytes())
    assert isinstance(kept, dict)
    hostile: list[dict[str, object]] = [
        {**kept, "journal": ("0", 0)},
        {**kept, "session": {**kept["session"], "output": "\x1b[2J"}},
        {**kept, "journaled": [1, 2]},
        {**kept, "usage_keys": None},
    ]
    for n, data in enumerate(hostile):
        base.write_bytes(memo.pack(data))
        add(repo, f"h{n}.py", f"h = {n}")
        assert status(repo)["output"] == committed_tokens(repo)


def test_records_and_status_of_a_long_session_match_a_full_read(repo: Path) -> None:
    grow(repo, 700)
    add(repo, "first.py", "first = 1")
    for n in range(3):
        tg(repo, "record", "--tokens", str(100 + n))
    add(repo, "second.py", "second = 2")
    tg(repo, "record", "--tokens", "7")
    quick = status(repo)  # the settled files' base and the last file
    git_dir = repo / git(repo, "rev-parse", "--git-dir").stdout.strip()
    (git_dir / "tg-git" / "base.memo").unlink()
    full = truth(repo)  # every file read again
    assert {k: quick[k] for k in ("used", "input", "output")} == {
        k: full[k] for k in ("used", "input", "output")
    }
    assert quick["session"] == full["session"]
    assert quick["input"] == 100 + 101 + 102 + 7


def test_a_fresh_clone_of_a_long_session_reads_it_fast_after_once(
    repo: Path, tmp_path: Path
) -> None:
    grow(repo, 900)
    add(repo, "one.py", "one = 1")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    first = status(clone)  # every file read, the settled files' base kept
    base = clone / ".git" / "tg-git" / "base.memo"
    assert base.is_file()
    tg(clone, "record", "--tokens", "50")
    after = status(clone)  # the base and the last file
    assert after["input"] == first["input"] + 50
    assert after["output"] == first["output"] == committed_tokens(repo)
    base.unlink()
    assert truth(clone)["used"] == after["used"]


def test_a_staged_deletion_of_a_settled_file_never_lands_without_its_events(repo: Path) -> None:
    files = grow(repo, 400)
    add(repo, "a.py", "a = 1")
    spent = committed_tokens(repo)
    for gone in (files[1], files[0]):  # a segment, then the session's own file
        git(repo, "rm", "-q", "--cached", gone)
        (repo / "x.py").write_text(f"x = {gone!r}\n")
        git(repo, "add", "x.py")
        proc = commit(repo, "-m", "x", check=False)
        assert committed_tokens(repo) >= spent  # refused, or landed with every event
        if proc.returncode:  # refused: the message names the file to stage
            assert gone in proc.stderr
            git(repo, "add", gone)
            commit(repo, "-m", "x")
        assert committed_tokens(repo) >= spent
        spent = committed_tokens(repo)
