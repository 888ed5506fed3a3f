"""The gateway's own way of starting git (``git.spawn``): what ``subprocess.run`` gave, from a
real git, whichever way the process is started (``os.posix_spawn`` in the current directory,
``subprocess`` elsewhere or with a timeout)."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import git
from tg_git.domain.errors import GitError
from tg_git.repo import git as gateway


@pytest.fixture
def here(plain_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(plain_repo)
    return plain_repo


def both_ways(repo: Path) -> list[dict[str, object]]:
    """``spawn``'s keyword arguments for the current directory and for another one."""
    return [{}, {"cwd": repo / "sub"}]


def test_large_input_and_output_at_once_do_not_block(here: Path) -> None:
    """cat-file --batch reads specs while it writes objects: both pipes past their buffers."""
    (here / "sub").mkdir()
    data = os.urandom(1 << 20).hex().encode()  # 2 MiB
    blob = gateway.spawn(["hash-object", "-w", "--stdin"], input=data).stdout.decode().strip()
    assert blob == hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    specs = f"{blob}\n".encode() * 40  # ~1.6 MiB in, 80 MiB out
    for kwargs in both_ways(here):
        proc = gateway.spawn(["cat-file", "--batch"], input=specs, **kwargs)  # type: ignore[arg-type]
        assert proc.returncode == 0
        assert proc.stdout == (f"{blob} blob {len(data)}\n".encode() + data + b"\n") * 40


def test_exit_code_and_stderr(here: Path) -> None:
    (here / "sub").mkdir()
    for kwargs in both_ways(here):
        proc = gateway.spawn(["rev-parse", "--verify", "no-such-thing"], **kwargs)  # type: ignore[arg-type]
        assert proc.returncode == 128
        assert b"no-such-thing" in proc.stderr or b"fatal" in proc.stderr
        assert proc.stdout == b""


def test_the_child_finds_git_on_the_path_it_is_given(here: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    fake.write_text("#!/bin/sh\necho \"fake git $*\"; echo 'to stderr' >&2; exit 3\n")
    fake.chmod(0o755)
    proc = gateway.spawn(["--version"], env={**os.environ, "PATH": str(bin_dir)})
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        3,
        b"fake git --version\n",
        b"to stderr\n",
    )
    with pytest.raises(GitError, match="git is not installed"):
        gateway.spawn(["--version"], env={**os.environ, "PATH": str(tmp_path / "nothing")})


def test_the_child_gets_the_signals_subprocess_resets(here: Path, tmp_path: Path) -> None:
    """Python ignores SIGPIPE; a git it starts must not (a reader that stops ends it)."""
    assert gateway._DEFAULT_SIGNALS == (signal.SIGPIPE, signal.SIGXFSZ)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "git").write_text("#!/bin/sh\ngrep SigIgn /proc/$$/status\n")
    (bin_dir / "git").chmod(0o755)
    if not Path("/proc/self/status").exists():
        pytest.skip("no /proc here")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    theirs = subprocess.run(["git"], env=env, capture_output=True).stdout
    assert _ignored(gateway.spawn([], env=env).stdout) == _ignored(theirs)
    assert signal.SIGPIPE not in _ignored(theirs)


def test_the_child_gets_every_signal_the_caller_holds_back(here: Path, tmp_path: Path) -> None:
    """A save holds back the signals that would end it while it holds git's index lock
    (``services.checkpoint``); the git it runs meanwhile, and the hooks that git runs, get
    them all (an empty mask), read from git's output and from git's streamed output."""
    if not Path("/proc/self/status").exists():
        pytest.skip("no /proc here")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    grep = shutil.which("grep")
    assert grep is not None
    (bin_dir / "git").symlink_to(grep)  # grep itself (a shell clears its mask as it starts)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    held = {signal.SIGTERM, signal.SIGINT, signal.SIGALRM}
    asked = ["SigBlk", "/proc/self/status"]
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        ran = gateway.spawn(asked, env=env).stdout
        streamed = b"".join(gateway.stream(asked, env=env))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
    assert ran.startswith(b"SigBlk:") and int(ran.split(b":")[1], 16) == 0, ran
    assert streamed == ran


def _ignored(status_line: bytes) -> set[int]:
    """The signals a ``SigIgn:`` line says are ignored, of those a program may use: glibc's
    posix_spawn leaves its own two internal ones (32, 33) ignored in the child, which no
    program can send or handle (``signal.valid_signals`` leaves them out)."""
    mask = int(status_line.split(b":")[1], 16)
    return {sig for sig in signal.valid_signals() if mask >> (sig - 1) & 1}


def test_a_repository_answers_the_same_either_way(here: Path) -> None:
    (here / "sub").mkdir()
    (here / "a.txt").write_text("a\n")
    git(here, "add", "a.txt")
    git(here, "commit", "-q", "-m", "one")
    outs = {gateway.spawn(["rev-parse", "HEAD:a.txt"], **kw).stdout for kw in both_ways(here)}  # type: ignore[arg-type]
    assert len(outs) == 1 and next(iter(outs)).strip()


def test_with_the_standard_streams_closed(here: Path) -> None:
    """A pipe then takes the number of a closed stream: git still gets its own three."""
    script = (
        "import os, sys\n"
        "from tg_git.repo import git\n"
        "err = os.dup(2)\n"
        "for fd in (0, 1, 2):\n"
        "    os.close(fd)\n"
        "proc = git.spawn(['hash-object', '--stdin'], input=b'x')\n"
        "os.write(err, b'%d %s' % (proc.returncode, proc.stdout))\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=here, capture_output=True)
    expected = hashlib.sha1(b"blob 1\0x").hexdigest()
    assert proc.stderr.decode() == f"0 {expected}\n"
