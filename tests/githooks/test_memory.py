"""The pre-commit hook holds one file of a change at a time: its peak memory is bounded by the
largest file it counts (and a large file by a piece of it), not by the whole change.

Measured as the kernel keeps it: the peak resident set of the largest process a ``git commit``
started (``RUSAGE_CHILDREN``'s ``ru_maxrss`` in a wrapper that runs only that commit), against
the same for a commit of one small file (the interpreter and git themselves)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from tests.conftest import git

MIB = 1 << 20
_WRAPPER = (
    "import json, resource, subprocess, sys\n"
    "proc = subprocess.run(sys.argv[1:], capture_output=True)\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "print(json.dumps([proc.returncode, peak * 1024, proc.stderr.decode(errors='replace')]))\n"
)
_LINES = [
    "def handler(event, context):\n",
    "    return {'status': 200, 'body': json.dumps(event)}\n",
    "한국어 설명이 들어간 주석입니다\n",
    "漢字とかな、絵文字🙂も\r\n",
    "Some prose about the change, with numbers 1234 and words.\n",
    "        nested = [x * 2 for x in range(10) if x % 3]\n",
]


def _mixed(size: int, seed: int) -> bytes:
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        out += rng.choice(_LINES).encode()
    return bytes(out[:size]).rsplit(b"\n", 1)[0] + b"\n"


def _peak_of_commit(repo: Path, files: dict[str, bytes]) -> int:
    """Commit ``files`` through the hooks; the peak resident bytes of any process it ran."""
    for name, data in files.items():
        (repo / name).write_bytes(data)
    git(repo, "add", *files)
    env = {**os.environ, "TG_GIT_ALLOW_HALT": "1"}  # a change this size is over the budget
    out = subprocess.run(
        [sys.executable, "-c", _WRAPPER, "git", "commit", "-q", "-m", "work"],
        cwd=repo, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    code, peak, said = json.loads(out.stdout)
    assert code == 0, said
    assert git(repo, "status", "--porcelain").stdout == "", "the commit left something behind"
    return int(peak)


def test_a_change_of_many_files_peaks_at_one_file_not_the_change(repo: Path) -> None:
    base = _peak_of_commit(repo, {"small.py": b"x = 1\n"})
    files = {f"part{n:02}.py": _mixed(MIB, n) for n in range(24)}
    peak = _peak_of_commit(repo, files)
    largest = max(len(data) for data in files.values())
    assert peak <= base + 2 * largest + 8 * MIB, (peak / MIB, base / MIB)


def test_one_large_file_peaks_at_twice_its_size(repo: Path) -> None:
    base = _peak_of_commit(repo, {"small.py": b"x = 1\n"})
    data = _mixed(16 * MIB, 1)
    peak = _peak_of_commit(repo, {"large.md": data})
    assert peak <= base + 2 * len(data), (peak / MIB, base / MIB)
