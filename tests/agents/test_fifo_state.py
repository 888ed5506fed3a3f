"""A FIFO where tg-git keeps a file of its own under ``.git/tg-git`` (a clone cannot put one
there; a crashed process or a user's mistake can): a tool call, a prompt, a status line refresh
and a commit each end, say one sentence at most and block nothing. Opening a FIFO waits for the
other end: a hook that read or wrote one hung until the agent's timeout, a commit for ever."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.agents import age
from tests.support.agents import hook
from tests.support.repos import TG_GIT
from tests.support.repos import commit_file
from tests.support.repos import ended
from tests.support.repos import git
from tests.support.repos import tg

pytestmark = pytest.mark.usefixtures("agent_homes")

JOURNAL = "journal/*/*.toml"  # the journal of the session's ledger file on this branch
# Every file a session, a tool call, a refresh and a commit leave under .git/tg-git, but the
# one the commit hooks' shim reads (tg_git.githooks.markers: another layer's own).
STATE_FILES = [
    "session", JOURNAL, "written.json", "agents.json", "agents/claude.local.json",
    "config.memo", "gauge.memo", "session.memo", "live.json", "hot/state", "hot/now",
    "ledger.lock", "session-start.lock",
]  # fmt: skip
NOT_HERE = {"journal-due"}


def _one_sentence_at_most(proc: subprocess.CompletedProcess[str], but: str = "") -> None:
    """At most one line on stderr (``but``: besides the gauge a commit prints)."""
    said = [
        ln for ln in proc.stderr.splitlines() if ln.strip() and not (but and ln.startswith(but))
    ]
    assert len(said) <= 1 and "Traceback" not in proc.stderr, proc.stderr


class Session:
    """Claude Code's session in ``repo``: its tool-call command as `agent install` wrote it
    (the state its shell answers from left), a status line refreshed, a commit made."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        tg(repo, "agent", "install", "claude")
        data = json.loads((repo / ".claude" / "settings.local.json").read_text())
        self.command = data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        self.base = {"session_id": "A", "cwd": str(repo), "transcript_path": "/nowhere/A.jsonl"}
        hook(repo, "claude", "SessionStart", {**self.base, "source": "startup"})
        commit_file(repo, "a.py", "print(1)\n")
        self.refresh()
        age(repo)
        for _ in range(2):
            self.tool_call()

    def tool_call(self) -> subprocess.CompletedProcess[str]:
        call = {**self.base, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "ls"}}  # fmt: skip
        return ended(
            ["/bin/sh", "-c", self.command], self.repo, json.dumps(call, separators=(",", ":"))
        )

    def prompt(self) -> subprocess.CompletedProcess[str]:
        """The next prompt (every event but the tool call starts Python)."""
        data = json.loads((self.repo / ".claude" / "settings.local.json").read_text())
        command = data["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
        said = {**self.base, "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
        return ended(["/bin/sh", "-c", command], self.repo, json.dumps(said))

    def refresh(self) -> subprocess.CompletedProcess[str]:
        window = {"context_window_size": 200_000, "used_percentage": 10}
        line = {"session_id": "A", "cwd": str(self.repo), "context_window": window}
        return ended([TG_GIT, "statusline"], self.repo, json.dumps(line))

    def files(self) -> set[str]:
        folder = self.repo / ".git" / "tg-git"
        found = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
        return {JOURNAL if name.startswith("journal/") else name for name in found}


def test_the_files_checked_are_every_file_a_session_leaves(repo: Path) -> None:
    """A new file of tg-git's own under .git/tg-git is checked below too."""
    assert Session(repo).files() - NOT_HERE == set(STATE_FILES)


@pytest.mark.parametrize("name", STATE_FILES)
def test_a_fifo_in_place_of_a_state_file_hangs_nothing(repo: Path, name: str) -> None:
    session = Session(repo)
    folder = repo / ".git" / "tg-git"
    path = next(folder.glob(name))
    path.unlink()
    os.mkfifo(path)
    call = session.tool_call()
    assert call.returncode in (0, 1) and call.stdout == "", call  # allowed (1 blocks nothing)
    _one_sentence_at_most(call)
    prompted = session.prompt()
    assert prompted.returncode in (0, 1), prompted  # 2 would refuse the prompt
    _one_sentence_at_most(prompted)
    refreshed = session.refresh()
    assert refreshed.returncode == 0 and refreshed.stdout.startswith("tg-git"), refreshed
    before = git(repo, "rev-parse", "HEAD").stdout
    (repo / "b.py").write_text("print(2)\n")
    git(repo, "add", "b.py")
    made = ended(["git", "commit", "-q", "-m", "b"], repo, "")
    assert made.returncode == 0 and git(repo, "rev-parse", "HEAD").stdout != before, made
    _one_sentence_at_most(made, but="tg-git 🔋")


def test_a_fifo_at_git_s_orig_head_hangs_nothing(repo: Path) -> None:
    """Git's own commit never reads ORIG_HEAD, but it waits for ever on a FIFO there when
    asked for it (`git rev-parse ORIG_HEAD`): tg-git asks for it on every commit, tool call and
    refresh, and all four hung. Now such a ref is no object to tg-git."""
    session = Session(repo)
    path = repo / ".git" / "ORIG_HEAD"
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    call = session.tool_call()
    assert call.returncode in (0, 1) and call.stdout == "", call
    assert session.prompt().returncode in (0, 1)
    assert session.refresh().stdout.startswith("tg-git")
    (repo / "b.py").write_text("print(2)\n")
    git(repo, "add", "b.py")
    made = ended(["git", "commit", "-q", "-m", "b"], repo, "")
    assert made.returncode == 0 and "b.py" in git(repo, "show", "--name-only", "HEAD").stdout
    _one_sentence_at_most(made, but="tg-git 🔋")


@pytest.mark.parametrize("kind", ["fifo", "device", "large"])
def test_gemini_settings_that_are_no_regular_file_are_not_read(repo: Path, kind: str) -> None:
    """Gemini's PreCompress reads ``.gemini/settings.json`` for its compression threshold. A
    clone can track a link there: to ``/dev/zero`` it grew memory without end, to a FIFO it
    hung the hook. Such a file now reads as no setting (the default threshold)."""
    folder = repo / ".gemini"
    folder.mkdir()
    path = folder / "settings.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:  # valid JSON that sets a threshold, but longer than any settings file
        path.write_text(
            '{"model": {"compressionThreshold": 0.7}, "pad": "' + "x" * (2 << 20) + '"}'
        )
    code = "from pathlib import Path; from tg_git.agents import compaction; "
    code += f"print(compaction.gemini_threshold(Path({str(repo)!r})))"
    read = ended([sys.executable, "-c", code], repo)
    assert read.returncode == 0 and read.stdout.strip() == "0.5", read
