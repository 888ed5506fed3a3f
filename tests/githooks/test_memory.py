"""The pre-commit hook holds one file of a change at a time: its peak memory is bounded by the
largest file it counts (and a large file by a piece of it), not by the whole change.

Measured as the kernel keeps it: the peak resident set of the hook's own Python process
(``RUSAGE_SELF``'s ``ru_maxrss`` when it exits: git's processes are not in it), written by a
launcher the test puts where the installed shim names the interpreter, against the same for a
commit of one small file (the interpreter and tg-git's modules)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git

MIB = 1 << 20
_LINES = [
    "def handler(event, context):\n",
    "    return {'status': 200, 'body': json.dumps(event)}\n",
    "한국어 설명이 들어간 주석입니다\n",
    "漢字とかな、絵文字🙂も\r\n",
    "Some prose about the change, with numbers 1234 and words.\n",
    "        nested = [x * 2 for x in range(10) if x % 3]\n",
]
# The shim's own command line, the process's peak appended to PEAKS as it exits.
_LAUNCHER = """#!/bin/sh
while [ "$1" != hook ]; do shift; done
exec {python} -E -c 'import atexit, gc, resource, sys
gc.disable()
def peak():
    with open("{peaks}", "a") as fh:
        fh.write("%s %d\\n" % (sys.argv[2], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
atexit.register(peak)
sys.path[:] = [p for p in sys.path if p]
from tg_git.main import main
sys.exit(main())' "$@"
"""


def _mixed(size: int, seed: int) -> bytes:
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        out += rng.choice(_LINES).encode()
    return bytes(out[:size]).rsplit(b"\n", 1)[0] + b"\n"


def _measured(repo: Path, tmp_path: Path) -> Path:
    """The pre-commit hook run through a launcher that records its peak; returns the record."""
    peaks = tmp_path / "peaks.txt"
    launcher = tmp_path / "python-peak"
    launcher.write_text(_LAUNCHER.format(python=sys.executable, peaks=str(peaks)))
    launcher.chmod(0o755)
    shim = repo / ".git" / "hooks" / "pre-commit"
    text = re.sub(r'(?m)^TG_GIT_PYTHON=".*"$', f'TG_GIT_PYTHON="{launcher}"', shim.read_text())
    assert str(launcher) in text
    shim.write_text(text)
    return peaks


def _peak_of_commit(repo: Path, peaks: Path, files: dict[str, bytes]) -> int:
    """Commit ``files`` through the hooks: the pre-commit hook's peak resident bytes."""
    for name, data in files.items():
        (repo / name).write_bytes(data)
    git(repo, "add", *files)
    peaks.unlink(missing_ok=True)
    commit(repo, "-m", "work", env={"TG_GIT_ALLOW_HALT": "1"})  # over the budget: recorded
    assert git(repo, "status", "--porcelain").stdout == "", "the commit left something behind"
    hook, kib = peaks.read_text().split()
    assert hook == "pre-commit"
    return int(kib) * 1024


def test_a_change_of_many_files_peaks_at_one_file_not_the_change(
    repo: Path, tmp_path: Path
) -> None:
    peaks = _measured(repo, tmp_path)
    base = _peak_of_commit(repo, peaks, {"small.py": b"x = 1\n"})
    files = {f"part{n:02}.py": _mixed(MIB, n) for n in range(16)}
    peak = _peak_of_commit(repo, peaks, files)
    largest = max(len(data) for data in files.values())
    # A fixed allowance over the file: the texts that may still go to the vocabulary tier (at
    # most 1 MB) and one piece being counted, each with its decoded copy.
    assert peak <= base + 2 * largest + 6 * MIB, (peak / MIB, base / MIB)


def test_one_large_file_peaks_at_a_piece_of_it(repo: Path, tmp_path: Path) -> None:
    peaks = _measured(repo, tmp_path)
    base = _peak_of_commit(repo, peaks, {"small.py": b"x = 1\n"})
    data = _mixed(12 * MIB, 1)
    peak = _peak_of_commit(repo, peaks, {"large.md": data})
    assert peak <= base + len(data) // 2, (peak / MIB, base / MIB)
