"""The status line's memo (``tg_git.repo.gaugememo``): a refresh after a turn folds the turn's
new lines into the kept figures without the workspace or a git process, and every other change
(a commit, a checkout, a config edit, a new session, a compaction, a damaged or linked memo,
another work tree) shows exactly as a full read of the session gives it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import fill_line
from tests.support.agents import hook
from tests.support.agents import project_folder
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import grow
from tests.support.repos import session_id
from tests.support.repos import tg
from tests.support.statusline import claude_status
from tests.support.statusline import land
from tests.support.statusline import statusline
from tg_git.domain import eventlog
from tg_git.repo import gaugememo

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp
ROOT = Path(__file__).resolve().parents[2]
MEMO = Path(".git") / "tg-git" / "gauge.memo"
# What a refresh after a turn does without: the workspace, git, the ledger's parsers.
NOT_NEEDED = {"re", "json", "typing", "pathlib", "contextlib", "enum", "subprocess",
              "tg_git.services.startup", "tg_git.repo.workspace", "tg_git.repo.git",
              "tg_git.domain.eventlog", "tg_git.domain.errors"}  # fmt: skip


def next_second() -> None:
    """Wait for the next whole second: the ledger's times are seconds, and a line of the
    second the kept figures end at is read in full (it may be one of theirs)."""
    time.sleep(1.02 - time.time() % 1)


def full(repo: Path, payload: dict[str, Any], memo: Path = MEMO) -> str:
    """The gauge as a full read of the session gives it (the memo taken away first)."""
    (repo / memo).unlink(missing_ok=True)
    return statusline(repo, payload)


def without_git(repo: Path, payload: dict[str, Any]) -> tuple[str, set[str]]:
    """A refresh with no ``git`` on PATH, from this checkout: its line and the modules it
    loaded (a refresh that needed the workspace or git prints no figures)."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); before = set(sys.modules); "
        "from tg_git.agents.statusline import run; run([]); "
        "sys.stderr.write(' '.join(sorted(set(sys.modules) - before)))"
    )
    env = {**os.environ, "NO_COLOR": "1", "PATH": str(repo / "no-such-folder")}
    proc = subprocess.run([sys.executable, "-E", "-S", "-c", code, "tg_git", "statusline"],
                          cwd=repo, input=json.dumps(payload), capture_output=True, text=True,
                          check=False, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, set(proc.stderr.split())


def test_a_refresh_after_a_turn_reads_neither_the_workspace_nor_git(repo: Path) -> None:
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    assert "ctx 0/200k" in statusline(repo, payload)  # the full read: the memo is written
    for tokens, total in ((10_000, "10k"), (20_000, "30k"), (30_000, "60k")):
        next_second()
        tg(repo, "record", "--tokens", str(tokens))  # a turn: journal and waiting lines
        line, loaded = without_git(repo, payload)
        assert line == full(repo, payload), loaded
        assert f"ctx {total}/200k" in line, line
        assert loaded & NOT_NEEDED == set(), loaded & NOT_NEEDED
        statusline(repo, payload)  # the memo again, after the full read above


def test_a_turn_that_reaches_the_halt_shows_it(repo: Path) -> None:
    """A turn that crosses the halt writes the session's file in the work tree (so the next
    commit carries it): the refresh reads in full and shows the halt."""
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    statusline(repo, payload)
    next_second()
    tg(repo, "record", "--tokens", "195000")
    line = statusline(repo, payload)
    assert "ctx 195k/200k (97%)" in line and "halt" in line, line
    assert line == full(repo, payload)


def test_the_folded_figures_are_the_full_reads_after_real_turns(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    """Claude Code turns (UserPromptSubmit, Stop: usage imported from the transcript) and a
    compaction (a lower fill): each refresh, folded, is what the full read shows; then the
    force-save and the halt (a checkpoint commit: read in full), the halt shown."""
    tg(repo, "agent", "install", "claude")
    transcript = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "A.jsonl"
    base = {"session_id": "A", "transcript_path": str(transcript), "cwd": str(repo)}
    payload = claude_status(repo, fill=None, window=0, session="A")
    transcript.write_text(fill_line(1, 50_000))
    statusline(repo, payload)

    def turn(n: int, fill: int) -> None:
        next_second()
        with transcript.open("a") as fh:
            fh.write(fill_line(n, fill))
        for event in ("UserPromptSubmit", "Stop"):
            hook(repo, "claude", event, {**base, "hook_event_name": event})

    for n, fill in enumerate((120_000, 165_000, 40_000, 150_000), start=2):
        turn(n, fill)
        folded, loaded = without_git(repo, payload)
        assert folded == full(repo, payload)
        assert f"ctx {fill // 1000}k/200k" in folded
        assert loaded & NOT_NEEDED == set(), loaded & NOT_NEEDED
        assert ("warning" in folded) == (fill == 165_000)
    for n, fill in ((6, 185_000), (7, 194_000)):
        turn(n, fill)
        shown = statusline(repo, payload)
        assert shown == full(repo, payload) and f"ctx {fill // 1000}k/200k" in shown
    assert "halt" in shown


def test_a_commit_a_checkout_a_config_edit_and_a_new_session_show_at_once(repo: Path) -> None:
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    statusline(repo, payload)
    tg(repo, "record", "--tokens", "150000")
    assert statusline(repo, payload) == full(repo, payload)
    statusline(repo, payload)
    (repo / "a.txt").write_text("word " * 3000)
    git(repo, "add", "a.txt")
    commit(repo, "-m", "a")  # the ledger file, the HEAD, the waiting lines folded
    assert statusline(repo, payload) == full(repo, payload)
    git(repo, "checkout", "-q", "-b", "side", "HEAD~1")  # a line of work without that commit
    assert statusline(repo, payload) == full(repo, payload)
    git(repo, "checkout", "-q", "-")
    assert statusline(repo, payload) == full(repo, payload)
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text().replace("max_tokens", "# max_tokens") + "\n")
    tg(repo, "config", "set", "thresholds.warning", "50")
    shown = statusline(repo, payload)
    assert shown == full(repo, payload) and "warning" in shown
    tg(repo, "session", "start")
    shown = statusline(repo, payload)
    assert shown == full(repo, payload) and "ctx 0/" in shown


def test_a_rewritten_journal_or_an_old_line_is_read_in_full(repo: Path) -> None:
    """A turn's files that were not only appended to, or a new line no newer than the kept
    figures, are never folded: the full read decides."""
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    statusline(repo, payload)
    next_second()
    tg(repo, "record", "--tokens", "50000")
    statusline(repo, payload)
    held = next((repo / ".git" / "tg-git" / "pending").glob("*.toml"))
    last = held.read_text().splitlines(keepends=True)[-1]
    with held.open("a") as fh:
        fh.write(last)  # a line the figures hold, again (a restored line): counted once
    assert statusline(repo, payload) == full(repo, payload)
    statusline(repo, payload)
    journal = next((repo / ".git" / "tg-git" / "journal").glob("*/*.toml"))
    text = journal.read_text()
    journal.write_text(text.replace('"tokens" = 50000', '"tokens" = 70000'))  # same length
    shown = statusline(repo, payload)
    assert shown == full(repo, payload) and "ctx 70k/200k" in shown


def test_a_damaged_or_linked_memo_is_read_in_full_and_never_written_through(
    repo: Path, tmp_path: Path
) -> None:
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    tg(repo, "record", "--tokens", "40000")
    right = statusline(repo, payload)
    memo = repo / MEMO
    data = bytearray(memo.read_bytes())
    data[len(data) // 2] ^= 0xFF
    memo.write_bytes(bytes(data))
    assert statusline(repo, payload) == right
    assert memo.read_bytes() != bytes(data)  # written anew
    outside = tmp_path / "elsewhere"
    outside.write_bytes(memo.read_bytes())
    memo.unlink()
    memo.symlink_to(outside)
    before = outside.read_bytes()
    next_second()
    tg(repo, "record", "--tokens", "1000")
    assert statusline(repo, payload) == full(repo, payload)
    assert outside.read_bytes() == before  # the link is replaced, never followed


def test_a_save_under_way_is_left_to_the_full_read(repo: Path) -> None:
    """A checkpoint save under way (or killed) is finished by opening the workspace: the
    memo is not read while its marker is there."""
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    statusline(repo, payload)
    (repo / ".git" / "tg-git" / "saving.json").write_text("{}")
    proc = subprocess.run(
        [sys.executable, "-E", "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
         "from tg_git.agents.statusline import run; run([]); "
         "sys.stderr.write(str('tg_git.services.startup' in sys.modules))", str(ROOT)],
        cwd=repo, input=json.dumps(payload), capture_output=True, text=True, check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )  # fmt: skip
    assert proc.stderr.endswith("True"), proc.stderr


def test_two_worktrees_keep_their_own_figures(repo: Path, tmp_path: Path) -> None:
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", "-b", "second", str(other))
    there = {**payload, "cwd": str(other),
             "workspace": {"current_dir": str(other), "project_dir": str(other)}}  # fmt: skip
    statusline(repo, payload)
    statusline(other, there)
    next_second()
    tg(other, "record", "--tokens", "60000")
    tg(repo, "record", "--tokens", "30000")
    here, away = statusline(repo, payload), statusline(other, there)
    memo = Path(git(other, "rev-parse", "--git-dir").stdout.strip()) / "tg-git" / "gauge.memo"
    assert here == full(repo, payload)
    assert away == full(other, there, memo=memo)


@pytest.mark.parametrize("hooked", [False, True])
def test_a_long_sessions_files_edited_in_the_work_tree_show_as_the_full_read_gives_them(
    repo: Path, hooked: bool
) -> None:
    """A session of several files: its last file edited in place (a hand edit keeps the
    inode), then a settled one, then a file taken away; each refresh is the full read's.
    Read from the work tree's files (no base of the settled files: every file keyed), or,
    after a commit through the hook made the base, from HEAD's (their folders keyed)."""
    files = grow(repo, 700)
    if hooked:
        land(repo, "x.txt", "hello\n")
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    for _ in range(3):  # the base is made, then read from; the memo then keys the folders
        statusline(repo, payload)
    for rel, tokens in ((files[-1], 40_000), (files[1], 30_000)):
        line = eventlog.event_line("input", session=session_id(repo), tokens=tokens)[1]
        with (repo / rel).open("a") as fh:  # in place: the file keeps its inode
            fh.write(line)
        assert statusline(repo, payload) == full(repo, payload)
        statusline(repo, payload)
    (repo / files[2]).unlink()
    assert statusline(repo, payload) == full(repo, payload)


def test_lines_the_memo_cannot_be_sure_of_are_not_folded(tmp_path: Path) -> None:
    """``new_events`` takes lines exactly as tg-git writes them; ``fold`` only this session's
    events newer than the figures, and no commit or start; ``added`` only appended bytes."""
    line = ('e20261203150130-2317174d7865 = { "kind" = "usage", "at" = "2026-12-03T15:01:30Z", '
            '"session" = "s1", "model" = "m", "fill" = 5 }')  # fmt: skip
    ((key, event),) = gaugememo.new_events([line + "\n"]).items()  # type: ignore[union-attr]
    assert key.startswith("e2026") and event["fill"] == 5
    for bad in (line.replace(" = {", "={"), line.replace('"fill" = 5', '"fill" = -5'),
                line.replace('"m"', '"a\\" = b"'), line + "\r", "  " + line, "x" + line[1:-1]):  # fmt: skip
        assert gaugememo.new_events([bad + "\n"]) is None, bad
    assert gaugememo.new_events([line + "\n", line.replace("5 }", "6 }") + "\n"]) is None
    from tg_git.domain.replay import Session

    session = Session(id="s1", started="2026-12-03T15:00:00Z", max_tokens=100, base="")
    events = gaugememo.new_events([line + "\n"])
    assert events is not None
    assert gaugememo.fold(session, "2026-12-03T15:01:29Z", events) is not None
    assert gaugememo.fold(session, "2026-12-03T15:01:30Z", events) is None  # not newer
    for changed in ({"session": "s2"}, {"kind": "commit"}, {"kind": "session"}):
        assert gaugememo.fold(session, "", {key: {**event, **changed}}) is None
    path = tmp_path / "journal"
    path.write_text("a\nb\n")
    where = gaugememo.mark(str(path))
    with path.open("a") as fh:
        fh.write("c\n")
    assert gaugememo.added(where) == ("c\n", gaugememo.mark(str(path)))
    path.write_text("x\nb\nc\nd\n")  # rewritten, then longer
    assert gaugememo.added(where) is None
    path.write_text("a\nb\nc")  # a line under way
    assert gaugememo.added(where) is None
    path.write_text("x" * 99 + "\n" * (3 << 20))  # a long journal: its end, not a cap
    where = gaugememo.mark(str(path))
    assert where[1] == path.stat().st_size
    with path.open("a") as fh:
        fh.write("d\n")
    assert gaugememo.added(where) == ("d\n", gaugememo.mark(str(path)))
