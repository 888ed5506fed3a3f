"""``tg-git record --input-file F`` reads a regular file of a bounded size, as ``tg-git
estimate`` does: a FIFO, a device or a huge sparse file is refused in one sentence, at once."""

from __future__ import annotations

import json
import os
import resource
import subprocess
from pathlib import Path

import pytest

from tests.support.repos import TG_GIT
from tests.support.repos import tg
from tg_git.repo.inputfile import MAX_BYTES

GUARD = 120  # seconds: only so that a hang fails the test instead of stalling the suite


def _memory_bound() -> None:
    """A child that reads /dev/zero whole fails with MemoryError, not the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def used(repo: Path) -> int:
    return int(json.loads(tg(repo, "status", "--json").stdout)["used"])


def record(repo: Path, path: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TG_GIT, "record", "--input-file", str(path)],
        cwd=repo,
        text=True,
        capture_output=True,
        timeout=GUARD,
        preexec_fn=_memory_bound,
    )


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "dev-urandom", "sparse", "folder"])
def test_record_refuses_what_is_no_bounded_file(repo: Path, tmp_path: Path, kind: str) -> None:
    before = used(repo)
    if kind == "fifo":
        path: Path | str = tmp_path / "pipe"
        os.mkfifo(path)  # no writer: opening it for reading blocks forever
    elif kind == "sparse":
        path = tmp_path / "huge.txt"
        with open(path, "wb") as fh:
            fh.truncate(MAX_BYTES + 1)  # no disk used: a hole
    elif kind == "folder":
        path = tmp_path
    else:
        path = "/dev/" + kind.removeprefix("dev-")
    proc = record(repo, path)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    expected = {"sparse": f"{MAX_BYTES:,} bytes", "folder": str(path)}.get(kind, "not a regular")
    assert expected in lines[0], lines[0]
    assert used(repo) == before


def test_record_still_reads_a_file_and_follows_a_link_to_one(repo: Path, tmp_path: Path) -> None:
    text = tmp_path / "request.md"
    text.write_text("Please add a login page with a password reset link.\n" * 20)
    link = tmp_path / "link.md"
    link.symlink_to(text)
    start = used(repo)
    tg(repo, "record", "--input-file", str(text))
    first = used(repo) - start
    tg(repo, "record", "--input-file", str(link))
    assert used(repo) - start == 2 * first > 0
