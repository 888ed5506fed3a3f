"""What tg-git writes, its resume reads, at any project size: a checkpoint lists a bounded
share of its completed files and says how many there are and how to recover the rest from
the tagged commit's tree; resume accepts it under its 1 MiB cap (which guards against a
hostile checkpoint) and checks the listed files only."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.support.repos import git
from tests.support.repos import tags
from tests.support.repos import tg

FILES = 100_000


def _fast_import(repo: Path, n: int) -> None:
    """One commit on top of HEAD adding ``n`` files with ordinary, longish paths, written by
    ``git fast-import`` (no hook runs: tg-git sees the commit as made without it), then
    checked out into the work tree by git."""
    parent = git(repo, "rev-parse", "HEAD").stdout.strip()
    out = [
        "blob\nmark :1\ndata 11\nVALUE = 42\n\n",  # one blob: git stores it once
        f"commit refs/heads/main\ncommitter T <t@example.com> 1764700000 +0000\n"
        f"data 11\nbulk import\nfrom {parent}\n",
    ]
    out += [
        f"M 100644 :1 src/module_{i // 1000:03d}/component_{i:06d}_implementation.py\n"
        for i in range(n)
    ]
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=repo, input="".join(out).encode(), check=True
    )
    git(repo, "read-tree", "-m", "-u", parent, "HEAD")


def test_resume_reads_its_own_checkpoint_of_a_100000_file_project(repo: Path) -> None:
    _fast_import(repo, FILES)
    tg(repo, "checkpoint", "-m", "after the bulk import")
    tag = tags(repo)[-1]
    raw = git(repo, "show", f"{tag}:harness_checkpoint.json").stdout.encode()
    assert len(raw) < 1 << 20  # resume's cap, kept
    data: dict[str, Any] = json.loads(raw)
    status = data["status"]
    listed = status["completed_files"]
    assert 0 < len(listed) < FILES and [f["path"] for f in listed] == status["completed"]
    omitted = data["omitted"]["completed_files"]
    assert len(listed) + omitted >= FILES
    # The rest is recoverable from the tagged commit's tree, as the checkpoint says.
    since = status["completed_since"]
    recovered = git(repo, "diff", "--name-only", "--diff-filter=AMT", since, tag).stdout.split()
    assert {f["path"] for f in listed} <= set(recovered)
    assert len(set(recovered) - {"harness_checkpoint.json", "CHECKPOINT.md"}) >= FILES
    proc = tg(repo, "resume", "--json", check=False)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["completed_file_count"] == len(listed) + omitted
    assert len(result["integrity"]) == len(listed)
    assert {i["status"] for i in result["integrity"]} == {"intact"}
