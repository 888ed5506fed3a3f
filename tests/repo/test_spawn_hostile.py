"""``git.spawn`` as a hostile user or an odd machine meets it, on a real git: no git on the
PATH, a relative PATH entry, both pipes full at once, signals arriving mid-read, a git killed
by a signal, bytes that are not UTF-8, a current directory that was deleted. Each failure is
one sentence that says the fix."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tg_git.domain.errors import GitError
from tg_git.domain.errors import NotReady
from tg_git.repo import git as gateway


@pytest.fixture
def here(plain_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(plain_repo)
    return plain_repo


def _alias(script: str) -> list[str]:
    """git arguments that run ``script`` as a shell alias (a git process that does it)."""
    return ["-c", f"alias.hostile=!{script}", "hostile"]


@pytest.mark.parametrize("path", ["", "/nonexistent", ":"])
def test_no_git_on_the_path_is_one_sentence_with_the_fix(here: Path, path: str) -> None:
    with pytest.raises(GitError) as caught:
        gateway.spawn(["--version"], env={"PATH": path})
    assert str(caught.value) == gateway.NO_GIT


@pytest.mark.parametrize("path", ["bin", "", "."])
def test_a_relative_path_entry_is_never_searched(here: Path, path: str) -> None:
    # the current folder is where a hook runs: the work tree, a clone's files
    for folder in (here / "bin", here):
        folder.mkdir(exist_ok=True)
        (folder / "git").write_text("#!/bin/sh\necho relative $*\n")
        (folder / "git").chmod(0o755)
    with pytest.raises(GitError) as caught:
        gateway.spawn(["--version"], env={"PATH": path})
    assert str(caught.value) == gateway.NO_GIT


def test_stdout_and_stderr_both_past_their_buffers(here: Path) -> None:
    size = 3 << 20
    proc = gateway.spawn(_alias(f"head -c {size} /dev/zero; head -c {size} /dev/zero >&2"))
    assert proc.returncode == 0
    assert (len(proc.stdout), len(proc.stderr)) == (size, size)


@pytest.fixture
def ticking() -> Iterator[list[int]]:
    """A signal every millisecond while the test runs (each one interrupts a poll or read)."""
    seen: list[int] = []
    old = signal.signal(signal.SIGALRM, lambda signum, frame: seen.append(signum))
    signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
    try:
        yield seen
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
        signal.signal(signal.SIGALRM, old)


def test_signals_mid_read_lose_nothing(here: Path, ticking: list[int]) -> None:
    data = os.urandom(1 << 20)
    proc = gateway.spawn(_alias("cat; sleep 0.2"), input=data)
    assert ticking  # the signals did arrive
    assert proc.stdout == data


def test_a_git_killed_by_a_signal_is_said_with_the_signal(here: Path) -> None:
    with pytest.raises(GitError) as caught:
        gateway.run(_alias("kill -KILL $PPID"))
    assert "SIGKILL" in str(caught.value)
    assert "`git status`" in str(caught.value)  # the fix


def test_output_that_is_not_utf8_reaches_the_message_readable(here: Path) -> None:
    with pytest.raises(GitError) as caught:
        gateway.run(_alias("printf 'bad \\377\\376 bytes\\n' >&2; exit 1"))
    assert "bad \ufffd\ufffd bytes" in str(caught.value)


def test_a_deleted_current_directory_is_said_as_such(here: Path) -> None:
    gone = here / "gone"
    gone.mkdir()
    os.chdir(gone)
    gone.rmdir()
    with pytest.raises(NotReady) as caught:
        gateway.find_repo()
    assert caught.value.key == "cwd_deleted"
    assert "cd" in str(caught.value)


def test_the_standard_streams_closed_and_an_empty_environment(here: Path) -> None:
    """A hook run with stdin closed, git found on the default PATH with no PATH at all."""
    code = (
        "import os, sys; os.close(0); from tg_git.repo import git; "
        "p = git.spawn(['rev-parse', '--is-inside-work-tree'], env={}); "
        "os.write(1, p.stdout)"
    )
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=here,
        capture_output=True,
        env={"PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert proc.stdout == b"true\n", proc.stderr
