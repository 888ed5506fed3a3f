"""The session memo: an agent turn reads it instead of every event, and it is never trusted
beyond what it was made from. Each test plants a memo whose numbers are doctored, so a read
that (wrongly) uses it shows the doctored figure and a read that (rightly) does not shows the
truth; the others race imports and hooks, replace or move HEAD, and plant a memo that is a FIFO,
a folder or from another version, against the slow truth (``status --json`` without the memo)."""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import MARKER
from tests.support.agents import claude_line
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.agents import ts
from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import memo_path
from tests.support.repos import pending_file
from tests.support.repos import status
from tests.support.repos import tg
from tests.support.repos import truth
from tg_git.repo import memo
from tg_git.repo.workspace import Workspace
from tg_git.usage.importer import import_usage

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp

DOCTORED = 777_777  # an input total no real step here produces


def doctor(repo: Path) -> None:
    """Make the memo claim DOCTORED input tokens, keeping its key."""
    path = memo_path(repo)
    data = memo.unpack(path.read_bytes())
    data["session"]["input"] = DOCTORED
    path.write_bytes(memo.pack(data))


def remembered(repo: Path) -> dict[str, Any]:
    """Status with the memo as it is, doctored: DOCTORED in `input` means it was used."""
    tg(repo, "status")  # leaves a memo of the current state
    doctor(repo)
    return status(repo)


def test_a_read_with_nothing_changed_uses_the_memo(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    assert remembered(repo)["input"] == DOCTORED
    assert truth(repo)["input"] == 500


def test_a_memo_whose_check_sum_is_not_its_data_s_is_read_past(repo: Path) -> None:
    """A flipped bit in a sum is still a well-typed number: the memo's CRC-32 catches it,
    in the session memo, the settled files' base and the config's memo alike."""
    tg(repo, "record", "--tokens", "500")
    tg(repo, "status")
    path = memo_path(repo)
    data = memo.unpack(path.read_bytes())
    assert isinstance(data, dict)
    data["session"]["input"] = DOCTORED
    packed = memo.pack(data)
    path.write_bytes(packed[:-4] + bytes(4))  # the data as doctor() writes it, a wrong sum
    assert status(repo)["input"] == 500
    path.write_bytes(packed)  # the right sum: believed (so the check is what refused it)
    assert status(repo)["input"] == DOCTORED
    assert memo.unpack(packed[:-1]) is None and memo.unpack(b"") is None


def first_turn(repo: Path, homes: dict[str, Path]) -> tuple[Path, dict[str, str]]:
    """A Claude transcript with one request (20,110 tokens of context) and its hook payload."""
    transcript = project_folder(repo, homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    transcript.write_text(claude_line("m1", "r1", fresh=10, read=20_000, out=100, session="A"))
    return transcript, {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}


def test_an_agent_turn_leaves_a_memo_the_next_turn_can_use(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    transcript, payload = first_turn(repo, agent_homes)
    tg(repo, "record", "--tokens", "300")
    assert hook(repo, "claude", "Stop", {**payload, "hook_event_name": "Stop"}).returncode == 0
    doctor(repo)
    with transcript.open("a") as fh:
        later = ts(3)  # a later second than the first turn (a tie would read in full)
        fh.write(claude_line("m2", "r2", fresh=10, read=30_000, out=100, session="A", at=later))
    assert hook(repo, "claude", "Stop", {**payload, "hook_event_name": "Stop"}).returncode == 0
    # The second turn read the doctored memo, folded its import on and memoised that.
    assert status(repo)["input"] == DOCTORED
    real = truth(repo)
    assert real["input"] == 300
    assert real["measured"]["fill"] == 30_110


def test_a_same_size_hand_edit_of_the_ledger_is_seen(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    tg(repo, "status")
    doctor(repo)
    path = pending_file(repo)  # where the record went
    lines = path.read_text().splitlines(keepends=True)
    (line,) = [ln for ln in lines if '"tokens" = 500' in ln]
    key = line.split(" = ", 1)[0]
    twin = key[:-1] + ("0" if key[-1] != "0" else "1")  # a second event, same length
    path.write_text("".join(lines).replace(line, line.replace(key, twin, 1)))
    assert path.stat().st_size == len("".join(lines).encode())
    assert status(repo)["input"] == 1000  # the journal's event and the edited twin


def test_another_worktree_spending_on_the_session_is_seen(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    other = repo.parent / "other"
    git(repo, "worktree", "add", "-q", "-b", "other", str(other))
    tg(repo, "status")
    doctor(repo)
    tg(other, "record", "--tokens", "40")  # its own branch's journal and work tree file
    assert status(repo)["input"] == 540


def clone_behind(repo: Path, tmp_path: Path) -> Path:
    """A clone with 500 input tokens committed that has fetched (not merged) 70 more."""
    tg(repo, "record", "--tokens", "500")
    commit(repo, "--allow-empty", "-m", "five hundred")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    tg(repo, "record", "--tokens", "70")
    commit(repo, "--allow-empty", "-m", "seventy")
    git(clone, "fetch", "-q", "origin")
    return clone


def test_head_moving_to_a_commit_with_more_events_is_seen(repo: Path, tmp_path: Path) -> None:
    clone = clone_behind(repo, tmp_path)
    assert status(clone)["input"] == 500
    doctor(clone)
    git(clone, "reset", "-q", "--soft", "origin/main")  # HEAD moves; work tree file does not
    assert status(clone)["input"] == 570


def test_a_new_session_and_the_budget_source_are_seen(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    tg(repo, "status")
    doctor(repo)
    with (repo / ".tg-git" / "config.toml").open("a") as fh:
        fh.write('\n[budget]\nsource = "estimate"\n')
    assert status(repo)["input"] == DOCTORED  # the memo holds events, not config
    assert status(repo)["source"] == "estimated"
    tg(repo, "session", "start")
    assert status(repo)["input"] == 0


@pytest.mark.parametrize(
    "content",
    [b"", b"\x00\xff garbage", memo.pack([1, 2, 3]), memo.pack({"format": memo.FORMAT})],
    ids=["empty", "garbage", "a list", "no fields"],
)
def test_a_broken_memo_is_read_past(repo: Path, content: bytes) -> None:
    tg(repo, "record", "--tokens", "500")
    tg(repo, "status")
    memo_path(repo).write_bytes(content)
    proc = tg(repo, "status", "--json")
    assert json.loads(proc.stdout)["input"] == 500
    assert proc.stderr == ""


def test_a_memo_with_the_right_key_but_wrong_shapes_is_read_past(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    tg(repo, "status")
    path = memo_path(repo)
    data = memo.unpack(path.read_bytes())
    data["session"]["tasks"] = "not a list"
    path.write_bytes(memo.pack(data))
    assert status(repo)["input"] == 500


def test_an_import_racing_another_write_does_not_memoise_a_stale_sum(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    transcript, _ = first_turn(repo, agent_homes)
    os.chdir(repo)
    ws = Workspace.open(repo)
    state = ws.session_state()  # what this import read ...
    tg(repo, "record", "--tokens", "45")  # ... before another command wrote an event
    outcome = import_usage(ws, agent="claude", transcript=str(transcript), state=state)
    assert outcome.requests == 1
    assert status(repo)["input"] == 45  # not the import's stale view, memoised
    assert truth(repo)["input"] == 45


def test_the_memo_holds_no_transcript_text(repo: Path, agent_homes: dict[str, Path]) -> None:
    transcript, payload = first_turn(repo, agent_homes)
    assert hook(repo, "claude", "Stop", {**payload, "hook_event_name": "Stop"}).returncode == 0
    assert MARKER in transcript.read_text()
    assert status(repo)["measured"] is not None  # the import happened and was memoised
    assert MARKER.encode() not in memo_path(repo).read_bytes()


def stop(repo: Path, transcript: Path) -> subprocess.CompletedProcess[str]:
    payload = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    return hook(repo, "claude", "Stop", {**payload, "hook_event_name": "Stop"})


def transcript_of(repo: Path, homes: dict[str, Path], name: str = "A") -> Path:
    return project_folder(repo, homes["CLAUDE_CONFIG_DIR"]) / f"{name}.jsonl"


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
    commit(repo, "--allow-empty", "-m", "five hundred")
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
    # A linked worktree's waiting events live under its own git dir (its .git is a file).
    waiting = git(other, "rev-parse", "--git-path", "tg-git/pending").stdout.strip()
    pending = other / waiting / ledger_file(other).name
    line = next(ln for ln in pending.read_text().splitlines() if "4000" in ln)
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
    data = memo.unpack(path.read_bytes())
    data["session"]["input"] = "500"
    path.write_bytes(memo.pack(data))
    proc = tg(repo, "status", "--json", check=False)
    assert json.loads(proc.stdout).get("input") == 500, proc.stdout


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
    data = memo.unpack(path.read_bytes())
    assert f"|{__version__}|" in data["fingerprint"]
    data["fingerprint"] = data["fingerprint"].replace(f"|{__version__}|", "|0.0.1|")
    path.write_bytes(memo.pack(data))
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
