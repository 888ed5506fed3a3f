"""``tg-git verify`` read cold where every code change is an append, read from its blobs (no
patch of git's at all: git lists what each commit changed, ``--raw``, and is asked for no
patch, ``-p``): an honest history of odd shapes matches, and a ``--no-verify`` commit that
only appended to a file git quotes the name of is found uncounted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tests.support.traces import traced_reads

QUOTED = 'we ird "q" é.py'
SHAPES = {  # name: (first version, each step's append)
    QUOTED: (b"a = 1\n", b"a%d = 1\n"),
    "crlf.py": (b"x = 1\r\n", b"x%d = 1\r\n"),
    "bin.dat": (b"\0\n", b"y%d\n"),
    "run.sh": (b"echo 0\n", b"echo %d\n"),
    "sub/new%d.py": (b"", b"n = %d\n"),  # a new file each step
}


def _history(repo: Path, sneaky: tuple[str, ...]) -> None:
    for name, (first, _) in SHAPES.items():
        if first:
            (repo / name).write_bytes(first)
    (repo / "run.sh").chmod(0o755)
    git(repo, "add", "-A")
    commit(repo, "-m", "base")
    for step in (1, 2):
        for name, (_, more) in SHAPES.items():
            path = repo / (name % step if "%" in name else name)
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(path.read_bytes() + more % step if path.exists() else more % step)
        git(repo, "add", "-A")
        commit(repo, "-m", f"step {step}")
    with (repo / QUOTED).open("ab") as f:
        f.write(b"def sneaky():\n    return 'work appended to a file of an odd name'\n")
    git(repo, "add", "-A")
    commit(repo, *sneaky, "-m", "sneaky")
    with (repo / "crlf.py").open("ab") as f:
        f.write(b"later = 1\r\n")
    git(repo, "add", "-A")
    commit(repo, "-m", "later")


@pytest.mark.parametrize("honest", [True, False])
def test_a_cold_verify_of_appends_alone_reads_them_as_git_s_patch(
    repo: Path, tmp_path: Path, honest: bool
) -> None:
    _history(repo, () if honest else ("--no-verify",))
    trace = tmp_path / "trace"
    proc = tg(repo, "verify", check=False, env={"GIT_TRACE": str(trace)})
    if honest:
        assert proc.returncode == 0 and "matches history" in proc.stdout, proc.stdout
    else:
        assert proc.returncode == 6 and proc.stdout.count("drift in") == 1, proc.stdout
        assert "(sneaky): not counted" in proc.stdout, proc.stdout
    reads = traced_reads(trace)
    assert [r for r in reads if "--raw" in r], reads  # what each commit changed: listed
    assert not [r for r in reads if "-p" in r], reads  # and no patch asked for
