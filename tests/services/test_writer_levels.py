"""Every command that adds events acts on the level it reaches, as a commit does: `record`
prints the commit's gauge line (and from the warning level on its warning block), saves a
checkpoint at force-save, and at the halt lands its records, saves, and the next commit is
refused; `task` and `note` do the same when the session stands at a level nothing acted on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.agents import claude_line
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import pending_file
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg

# The repository fixture's budget is 200,000 tokens: warning 160,000, force-save 180,000,
# halt 190,000.


def _record(repo: Path, tokens: int) -> str:
    return tg(repo, "record", "--tokens", str(tokens)).stdout


def _commit_after(repo: Path) -> subprocess.CompletedProcess[str]:
    (repo / "after.py").write_text("print('after the halt')\n")
    git(repo, "add", "after.py")
    return commit(repo, "-m", "after the halt", check=False)


def _levelled(out: str, level: str) -> bool:
    """The gauge line a commit prints, at ``level``."""
    return any(ln.startswith("tg-git 🔋") and f"· {level} ·" in ln for ln in out.splitlines())


def test_record_reports_saves_and_halts_as_a_commit_does(repo: Path) -> None:
    used = int(status(repo)["used"])
    out = _record(repo, 100_000 - used)
    assert _levelled(out, "ok"), out
    out = _record(repo, 65_000)  # 165,000: warning
    assert _levelled(out, "warning") and "Token warning" in out, out
    assert tags(repo) == []
    out = _record(repo, 16_000)  # 181,000: force-save
    assert _levelled(out, "force-save"), out
    assert [t for t in tags(repo) if t.endswith("force-save")], tags(repo)
    head = git(repo, "log", "-1", "--format=%s%n%b").stdout
    assert head.startswith("checkpoint:"), head
    out = _record(repo, 10_000)  # 191,000: halt
    assert _levelled(out, "halt") and "NEXT commit" in out, out
    assert [t for t in tags(repo) if t.endswith("halt")], tags(repo)
    refused = _commit_after(repo)
    assert refused.returncode != 0, refused.stderr
    assert git(repo, "diff", "--cached", "--name-only").stdout == "after.py\n"  # kept staged


def test_a_record_straight_to_the_halt_lands_and_refuses_the_next_commit(repo: Path) -> None:
    used = int(status(repo)["used"])
    out = _record(repo, 193_000 - used)
    assert _levelled(out, "halt"), out
    assert [t for t in tags(repo) if t.endswith("halt")], tags(repo)
    refused = _commit_after(repo)
    assert refused.returncode != 0


def test_a_task_or_a_note_acts_on_a_level_nothing_acted_on(repo: Path) -> None:
    """Records that reached the force-save level without a save (written by hand into the
    pending file, as an older tg-git's `record` left them): the next writer saves."""
    used = int(status(repo)["used"])
    tg(repo, "note", "before")
    pending = pending_file(repo)
    line = pending.read_text().splitlines()[-1]
    session = line.split('"session" = "')[1].split('"')[0]
    at = line.split('"at" = "')[1].split('"')[0]
    pending.write_text(
        pending.read_text()
        + f'e-hand-0001 = {{ "kind" = "input", "at" = "{at}", "session" = "{session}", '
        f'"tokens" = {182_000 - used}, "label" = "by hand" }}\n'
    )
    git(repo, "add", str(pending))
    assert tags(repo) == []
    out = tg(repo, "task", "add", "ship it").stdout
    assert _levelled(out, "force-save"), out
    assert [t for t in tags(repo) if t.endswith("force-save")], tags(repo)
    out = tg(repo, "note", "quiet now").stdout
    assert len([t for t in tags(repo) if t.endswith("force-save")]) == 1  # saved once


@pytest.mark.usefixtures("agent_homes")
def test_usage_import_acts_on_the_level_it_reaches(repo: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "s.jsonl"
    transcript.write_text(claude_line("m1", "r1", fresh=3, write=0, read=182_000, out=10))
    out = tg(repo, "usage", "import", "--agent", "claude", "--transcript", str(transcript)).stdout
    assert _levelled(out, "force-save"), out
    assert [t for t in tags(repo) if t.endswith("force-save")], tags(repo)
