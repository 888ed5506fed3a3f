"""The session memo: an agent turn reads it instead of every event, and it is never trusted
beyond what it was made from. Each test plants a memo whose numbers are doctored, so a read
that (wrongly) uses it shows the doctored figure and a read that (rightly) does not shows the
truth."""

from __future__ import annotations

import json
import marshal
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import MARKER
from tests.conftest import claude_line
from tests.conftest import commit
from tests.conftest import git
from tests.conftest import hook
from tests.conftest import ledger_file
from tests.conftest import project_folder
from tests.conftest import status
from tests.conftest import tg
from tests.conftest import ts
from tg_git.repo import memo
from tg_git.repo.workspace import Workspace
from tg_git.usage.importer import import_usage

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp

DOCTORED = 777_777  # an input total no real step here produces


def memo_path(repo: Path) -> Path:
    return (
        Path(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip())
        / "tg-git"
        / "session.memo"
    )


def doctor(repo: Path) -> None:
    """Make the memo claim DOCTORED input tokens, keeping its key."""
    path = memo_path(repo)
    data = marshal.loads(path.read_bytes())
    data["session"]["input"] = DOCTORED
    path.write_bytes(marshal.dumps(data))


def truth(repo: Path) -> dict[str, Any]:
    """Status from every event (the memo removed first)."""
    memo_path(repo).unlink(missing_ok=True)
    return status(repo)


def remembered(repo: Path) -> dict[str, Any]:
    """Status with the memo as it is, doctored: DOCTORED in `input` means it was used."""
    tg(repo, "status")  # leaves a memo of the current state
    doctor(repo)
    return status(repo)


def test_a_read_with_nothing_changed_uses_the_memo(repo: Path) -> None:
    tg(repo, "record", "--tokens", "500")
    assert remembered(repo)["input"] == DOCTORED
    assert truth(repo)["input"] == 500


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
    path = ledger_file(repo)
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
    commit(repo, "-m", "five hundred")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    tg(repo, "record", "--tokens", "70")
    commit(repo, "-m", "seventy")
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
    [b"", b"\x00\xff garbage", marshal.dumps([1, 2, 3]), marshal.dumps({"format": memo.FORMAT})],
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
    data = marshal.loads(path.read_bytes())
    data["session"]["tasks"] = "not a list"
    path.write_bytes(marshal.dumps(data))
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
