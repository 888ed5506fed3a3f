"""A session whose events run past its file into later segments: verify, repair,
report and resume read every segment, in history and in the work tree, as the session's own.

The repositories here are laid out as tg-git's commit hook lays them out: a session's file
holds its first ``SEGMENT_LINES`` event lines and each later segment
(``layout.segment_file``) the next ones. Each commit goes through the installed hooks; its
ledger lines are then moved into that layout and the commit amended with hooks off, so the
commit adds its events to a segment, as the hook itself does once the session is long."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.repos import add
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import session_id
from tests.support.repos import tg
from tests.support.repos import used
from tg_git.domain import eventlog
from tg_git.domain import layout

FILLED = 300  # input events written before the commits: the file and two segments hold them
EACH = 7  # tokens of each


def _session_paths(repo: Path, rel: str) -> list[Path]:
    """A session's file and its segments in the work tree, in order (zero-padded names)."""
    return [repo / rel, *sorted((repo / rel.removesuffix(".toml")).glob("*/*.toml"))]


def _reshard(repo: Path) -> None:
    """Every session's lines laid out as the hook lays them: ``SEGMENT_LINES`` a file, the
    session's file first, then its segments in order (appended lines never move earlier ones)."""
    for own in sorted((repo / ".tg-git" / "ledger").glob("*.toml")):
        if own.name.endswith(layout.PENDING):
            continue
        rel = own.relative_to(repo).as_posix()
        texts = [p.read_text() for p in _session_paths(repo, rel)]
        lines = list(dict.fromkeys(ln for t in texts for ln in eventlog.event_lines(t)))
        size = layout.SEGMENT_LINES
        for n in range(0, max(1, (len(lines) + size - 1) // size)):
            path = repo / layout.segment_file(rel, n)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(eventlog.render(lines[n * size : (n + 1) * size]))
    git(repo, "add", "-A", ".tg-git/ledger")


def _unhooked_commit(repo: Path, *args: str) -> None:
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--no-verify", *args)


def fill(repo: Path, n: int = FILLED, tokens: int = EACH) -> None:
    """``n`` input events of the current session, committed in the segmented layout."""
    sid = session_id(repo)
    path = ledger_file(repo)
    lines = [
        eventlog.event_line("input", session=sid, tokens=tokens, label=f"turn {i}")[1]
        for i in range(n)
    ]
    path.write_text(path.read_text() + "".join(lines))
    _reshard(repo)
    _unhooked_commit(repo, "-m", f"{n} agent turns")


def hooked(repo: Path, name: str) -> int:
    """A commit through the hooks whose events land in a segment; returns its estimate."""
    spent = add(repo, name, f"value_{name.split('.')[0]} = compute('{name}', 'some words here')")
    _reshard(repo)
    _unhooked_commit(repo, "--amend", "--no-edit")
    return spent


def segmented(repo: Path, commits: int = 3) -> int:
    """A session of ``FILLED`` turns and then ``commits`` hooked commits; returns its tokens."""
    fill(repo)
    spent = sum(hooked(repo, f"f{i}.py") for i in range(commits))
    assert len(_session_paths(repo, _rel(repo))) >= 3, "the session has later segments"
    return FILLED * EACH + spent


def _rel(repo: Path) -> str:
    return ledger_file(repo).relative_to(repo).as_posix()


def keys(repo: Path, rel: str, rev: str | None = None) -> set[str]:
    """The event keys of a session's file and segments: in the work tree, or at ``rev``."""
    if rev is None:
        texts = [p.read_text() for p in _session_paths(repo, rel) if p.is_file()]
    else:
        folder = rel.removesuffix(".toml")
        names = git(repo, "ls-tree", "-r", "--name-only", rev, "--", rel, folder).stdout.split()
        texts = [git(repo, "show", f"{rev}:{n}").stdout for n in names]
    return {eventlog.key_of(ln) for t in texts for ln in eventlog.event_lines(t)}


def verify_json(repo: Path) -> dict[str, Any]:
    proc = tg(repo, "verify", "--json", check=False)
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def _base(repo: Path) -> str:
    start = next(
        e for e in eventlog.parse(ledger_file(repo).read_text()).values() if e["kind"] == "session"
    )
    return str(start["base"])


def _sessions(report: dict[str, Any], branch: str) -> dict[str, dict[str, Any]]:
    row = next(b for b in report["branches"] if b["name"] == branch)
    assert row["error"] == "", row["error"]
    return {s["id"]: s for s in row["sessions"]}


def test_the_commit_hook_writes_the_layout_these_tests_build(repo: Path, tmp_path: Path) -> None:
    """Past its file's ``SEGMENT_LINES`` lines a session goes on in segments through the real
    hook alone; verify (here and in a fresh clone), repair and the report read all of it."""
    rel = _rel(repo)
    start = used(repo)
    turns = layout.SEGMENT_LINES - len(keys(repo, rel)) - 1  # the file is one line short
    fill(repo, turns)
    spent = sum(add(repo, f"h{i}.py", f"hooked_{i} = compute({i}, 'words')") for i in range(3))
    assert (repo / layout.segment_file(rel, 1)).is_file(), "the hook opened a segment"
    before = keys(repo, rel)
    assert keys(repo, rel, "HEAD") == before
    assert verify_json(repo)["ok"]
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    assert verify_json(clone)["ok"]
    data = json.loads(tg(clone, "report", "--json").stdout)
    assert _sessions(data, "main")[session_id(repo)]["used"] == start + turns * EACH + spent
    assert used(repo) == start + turns * EACH + spent
    assert json.loads(tg(repo, "repair", "--json").stdout)["events"] == len(before)
    assert keys(repo, rel) == before


# ---- verify -----------------------------------------------------------------------------------
def test_verify_reads_every_segment_and_counts_every_commit(repo: Path) -> None:
    """Commit events in segments are the commits' claims: no drift, every commit checked."""
    segmented(repo)
    data = verify_json(repo)
    assert data["drift"] == [] and data["ok"], data
    count = int(git(repo, "rev-list", "--count", f"{_base(repo)}..HEAD").stdout)
    assert data["checked"] == count


def test_verify_in_a_fresh_clone_finds_no_event_lost(repo: Path, tmp_path: Path) -> None:
    """A clone has no journal: lines the layout moved into a segment are still there."""
    segmented(repo)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    tg(clone, "install")
    data = verify_json(clone)
    assert data["drift"] == [] and data["ok"], data


def test_verify_names_a_segment_removed_by_hand(repo: Path, tmp_path: Path) -> None:
    """Deleting a segment deletes events: that is drift, as deleting the session file is, in
    a clone whose journal does not hold them (here, the next commit restores them)."""
    segmented(repo)
    segment = _session_paths(repo, _rel(repo))[1]
    segment.unlink()
    git(repo, "add", "-A", ".tg-git/ledger")
    _unhooked_commit(repo, "-m", "drop a segment")
    assert verify_json(repo)["ok"]
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    data = verify_json(clone)
    assert not data["ok"] and len(data["drift"]) == 1, data
    assert data["drift"][0]["subject"] == "drop a segment"


# ---- repair -----------------------------------------------------------------------------------
def test_repair_keeps_and_counts_every_event_of_every_segment(repo: Path) -> None:
    segmented(repo)
    rel = _rel(repo)
    before = keys(repo, rel)
    result = json.loads(tg(repo, "repair", "--json").stdout)
    assert keys(repo, rel) >= before
    assert result["events"] == len(before) and result["restored"] == 0, result
    git(repo, "commit", "-q", "--allow-empty", "-m", "repaired")
    assert keys(repo, rel, "HEAD") >= before
    assert verify_json(repo)["ok"]


def test_repair_restores_a_deleted_segment_from_history(repo: Path) -> None:
    segmented(repo)
    rel = _rel(repo)
    before = keys(repo, rel)
    segment = _session_paths(repo, rel)[1]
    lost = keys(repo, rel) - {
        eventlog.key_of(ln) for ln in eventlog.event_lines(segment.read_text())
    }
    segment.unlink()
    assert keys(repo, rel) == lost
    result = json.loads(tg(repo, "repair", "--json").stdout)
    assert keys(repo, rel) == before
    assert result["restored"] == layout.SEGMENT_LINES, result
    assert git(repo, "diff", "--cached", "--quiet", "HEAD", check=False).returncode == 1
    commit(repo, "-m", "repaired")
    assert keys(repo, rel, "HEAD") == before


def test_repair_drops_junk_in_a_segment_and_keeps_its_events(repo: Path) -> None:
    segmented(repo)
    rel = _rel(repo)
    before = keys(repo, rel)
    segment = _session_paths(repo, rel)[-1]
    segment.write_text(segment.read_text() + "<<<<<<< ours\nprint('smuggled')\n")
    result = json.loads(tg(repo, "repair", "--json").stdout)
    assert result["dropped"] == 2, result
    assert keys(repo, rel) == before
    assert "smuggled" not in segment.read_text()


# ---- report -----------------------------------------------------------------------------------
def test_report_counts_every_event_on_this_branch_and_another(repo: Path) -> None:
    total = segmented(repo)
    sid = session_id(repo)
    git(repo, "checkout", "-q", "-b", "other")
    fill(repo, 200, 3)
    git(repo, "checkout", "-q", "main")
    data = json.loads(tg(repo, "report", "--json").stdout)
    here = _sessions(data, "main")[sid]
    assert here["used"] == total and here["input"] == FILLED * EACH, here
    there = _sessions(data, "other")[sid]
    assert there["used"] == total + 200 * 3, there


def test_report_finds_the_commit_of_an_event_in_a_segment(repo: Path) -> None:
    """The costliest commit is named and split per file, its event read from its segment."""
    segmented(repo)
    (repo / "big.py").write_text("".join(f"big_{n} = {n} * 3\n" for n in range(80)))
    (repo / "small.py").write_text("s = 1\n")
    git(repo, "add", "big.py", "small.py")
    commit(repo, "-m", "two at once")
    _reshard(repo)
    _unhooked_commit(repo, "--amend", "--no-edit")
    top = json.loads(tg(repo, "report", "--json").stdout)["costliest_commits"][0]
    assert top["files"] == 2 and top["commit"] == git(repo, "rev-parse", "HEAD").stdout.strip()


# ---- recount ----------------------------------------------------------------------------------
def test_accepting_a_commit_reads_its_claim_from_its_segment(repo: Path) -> None:
    """`verify --accept` counts what a commit's change estimates beyond its claim: the claim
    in a segment is read, so a counted commit is accepted for 0 more tokens, once."""
    segmented(repo)
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    tg(repo, "verify", "--accept", head)
    _reshard(repo)  # the recount event too goes to a segment
    _unhooked_commit(repo, "--amend", "--no-edit")
    tg(repo, "verify", "--accept", head)
    recounts = [
        e
        for t in (p.read_text() for p in _session_paths(repo, _rel(repo)))
        for e in eventlog.parse(t).values()
        if e.get("recount") == head
    ]
    assert [e.get("tokens") for e in recounts] == [0]


# ---- resume -----------------------------------------------------------------------------------
def test_resume_in_a_fresh_clone_reads_the_whole_session(repo: Path, tmp_path: Path) -> None:
    """The clone's previous session is the segmented one: verify finds no drift in it, the
    plan changed after the save (its events in a segment) is carried over, and the report
    there counts every event of it."""
    tg(repo, "task", "add", "early")  # in the session's file
    tg(repo, "task", "add", "finish me")
    total = hooked(repo, "plan.py") + segmented(repo)
    sid = session_id(repo)
    tg(repo, "checkpoint")
    tg(repo, "task", "add", "late")
    tg(repo, "task", "done", "finish me")
    total += hooked(repo, "after.py")
    assert '"late"' in _session_paths(repo, _rel(repo))[-1].read_text()
    bare = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "push", "-q", str(bare), "main", "--tags")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    result = json.loads(tg(clone, "resume", "--json").stdout)
    assert result["drift"] == [], result["drift"]
    assert result["session"]["id"] != sid
    assert result["pending"] == ["early", "late"], result["pending"]
    data = json.loads(tg(clone, "report", "--json", "--all").stdout)
    assert _sessions(data, "main")[sid]["used"] == total
