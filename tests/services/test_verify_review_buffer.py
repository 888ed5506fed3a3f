"""verify's ``cat-file`` lookups ask with ``--buffer``: git writes its answers only as its
buffer fills, so a request list larger than both pipes holds is read while it is written
(no wait on each other), from the work tree's top and from elsewhere alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.repos import add
from tests.support.repos import git
from tg_git.repo import git as gitmod
from tg_git.repo import gitquery

MANY = 40_000  # ~2 MB asked, ~2 MB answered: past a pipe's 64 KiB many times over


@pytest.mark.parametrize("here", [True, False])
def test_a_long_request_list_is_answered_whole(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, here: bool
) -> None:
    add(repo, "a.py", "a = 1\n")
    monkeypatch.chdir(repo if here else tmp_path)
    top = str(repo)
    where = gitmod.Repo(top, f"{top}/.git", f"{top}/.git")
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    blob = git(repo, "rev-parse", "HEAD:a.py").stdout.strip()
    specs = [f"{head}:a.py" if n % 2 else f"{head}:missing-{n}" for n in range(MANY)]
    found = gitquery.object_ids(where, specs)
    assert len(found) == MANY
    assert found[1] == (blob, "blob") and found[0] is None
    assert sum(f is not None for f in found) == MANY // 2
    sizes = gitquery.object_sizes(where, [blob, head] * (MANY // 2))
    assert sizes[blob] == int(git(repo, "cat-file", "-s", blob).stdout) and head in sizes
