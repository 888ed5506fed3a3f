"""The config's memo (``configfile.MEMO``) against a hostile user or an odd machine, through
real commits: the hook never acts on a stale config, and a memo it cannot use (a FIFO, a
device, garbage, another format, a git dir it cannot write) costs only a parse, never a hang
or a crash."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import git
from tests.support.repos import status
from tests.support.sandbox import read_only
from tests.support.sandbox import restricted
from tg_git.repo.configfile import MEMO
from tg_git.repo.memo import pack
from tg_git.repo.memo import unpack


def _memo(repo: Path) -> Path:
    return Path(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip()) / MEMO


def _change(repo: Path, round_: int) -> None:
    (repo / "work.py").write_text(f"value = compute({round_})\n" * 20)
    git(repo, "add", "work.py")


def _commit(repo: Path, message: str) -> subprocess.CompletedProcess[str]:
    """A real commit, bounded in time: a hook that hangs fails the test instead of the run."""
    return subprocess.run(
        ["git", "commit", "-q", "-m", message],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _counted_commit(repo: Path, round_: int) -> subprocess.CompletedProcess[str]:
    """A commit that must go through and be counted (the hook ran with the config)."""
    before = int(status(repo)["output"])
    _change(repo, round_)
    proc = _commit(repo, f"round {round_}")
    assert proc.returncode == 0, proc.stderr
    assert int(status(repo)["output"]) > before
    return proc


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_memo_that_is_no_file_neither_hangs_nor_floods_the_hook(repo: Path, kind: str) -> None:
    """The hook's own read of the config, in a process of its own (killed if it hangs)."""
    _counted_commit(repo, 1)
    memo = _memo(repo)
    memo.unlink()
    if kind == "fifo":
        os.mkfifo(memo)
    else:
        memo.symlink_to("/dev/zero")  # an endless read
    code = (
        "import sys; from pathlib import Path; from tg_git.repo.configfile import load; "
        "print(load(Path(sys.argv[1]), Path(sys.argv[2])).language)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(repo), str(memo)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.stdout == "en\n", proc.stderr
    assert memo.is_file() and not memo.is_symlink()  # rewritten as a memo


def test_a_memo_of_another_format_is_ignored_and_rewritten(repo: Path) -> None:
    _counted_commit(repo, 1)
    memo = _memo(repo)
    text = (repo / ".tg-git" / "config.toml").read_text()
    memo.write_bytes(pack((99, text, {"language": "ko"})))  # a newer tg-git's
    proc = _counted_commit(repo, 2)
    assert "토큰" not in proc.stderr
    assert unpack(memo.read_bytes())[0] == 1


def test_a_memo_lying_about_its_text_is_not_used(repo: Path) -> None:
    """Same size, same second: only the text decides (a checkout or pull of another config)."""
    config = repo / ".tg-git" / "config.toml"
    _counted_commit(repo, 1)
    text = config.read_text()
    stamp = config.stat().st_mtime_ns
    config.write_text(text.replace('language = "en"', 'language = "ko"'))
    os.utime(config, ns=(stamp, stamp))
    proc = _counted_commit(repo, 2)
    assert "토큰" in proc.stderr


def test_a_config_changed_by_checkout_is_read_afresh(repo: Path) -> None:
    config = repo / ".tg-git" / "config.toml"
    _counted_commit(repo, 1)
    git(repo, "checkout", "-q", "-b", "korean")
    config.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    git(repo, "add", str(config))
    git(repo, "commit", "-q", "-m", "ko")
    assert "토큰" in _counted_commit(repo, 2).stderr
    git(repo, "checkout", "-q", "-")
    assert "토큰" not in _counted_commit(repo, 3).stderr


def test_an_unwritable_memo_folder_costs_only_a_parse(repo: Path) -> None:
    _counted_commit(repo, 1)
    memo = _memo(repo)
    memo.unlink()
    _change(repo, 2)
    with read_only(memo.parent):  # modes bind even for root (restricted)
        proc = restricted(repo, "git", "commit", "-q", "-m", "no memo can be written")
    assert proc.returncode == 0, proc.stderr  # tg-git's state folder is unwritable as well:
    assert "Traceback" not in proc.stderr  # what it cannot keep is said, never a crash
    assert not memo.exists()


def test_two_worktrees_with_different_configs_each_get_their_own(
    repo: Path, tmp_path: Path
) -> None:
    config = repo / ".tg-git" / "config.toml"
    _counted_commit(repo, 1)
    other = tmp_path / "other wörktree"
    git(repo, "worktree", "add", "-q", "-b", "other", str(other))
    theirs = other / ".tg-git" / "config.toml"
    theirs.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    for round_ in (2, 3):
        assert "토큰" in _counted_commit(other, round_).stderr
        assert "토큰" not in _counted_commit(repo, round_).stderr


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_config_that_is_no_file_is_said_and_the_commit_goes_through(
    repo: Path, kind: str
) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.unlink()
    if kind == "fifo":
        os.mkfifo(config)
    else:
        config.symlink_to("/dev/zero")
    _change(repo, 1)
    proc = _commit(repo, "a config that cannot be read")
    assert proc.returncode == 0, proc.stderr
    assert "config.toml" in proc.stderr and "git checkout" in proc.stderr
