"""Resume checks completed files by blob id in both object formats (its own SHA-1 copy of the
blob hash said "modified" for every file of a SHA-256 repository)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import set_up
from tests.support.repos import tg


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_resume_finds_committed_files_intact(tmp_path: Path, object_format: str) -> None:
    repo = tmp_path / object_format
    repo.mkdir()
    git(repo, "init", "-q", f"--object-format={object_format}")
    set_up(repo)
    (repo / "-done file.py").write_text("def done():\n    return 1\n")
    git(repo, "add", "--", "-done file.py")
    commit(repo, "-m", "done")
    tg(repo, "checkpoint")
    result = json.loads(tg(repo, "resume", "--json").stdout)
    assert {"path": "-done file.py", "status": "intact"} in result["integrity"], result
