"""Finding the repository without starting git (``git._find_fast``): it agrees with ``git
rev-parse`` in every layout git accepts (linked worktrees, links, submodules, gitfiles,
``core.worktree``, odd names), rejects what git rejects, and defers to a ``GIT_DIR`` a hook
sets."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support import layouts
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_at
from tests.support.repos import tg
from tg_git.domain.errors import NotReady
from tg_git.repo import git as gitmod


def by_git(start: Path) -> tuple[str, str, str] | None:
    proc = subprocess.run(
        ["git", "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"],
        cwd=start,
        capture_output=True,
    )
    if proc.returncode != 0:
        return None
    root, git_dir, common = proc.stdout.decode("utf-8", "surrogateescape").splitlines()
    common_path = Path(common) if os.path.isabs(common) else (start / common).resolve()
    return root, git_dir, str(common_path)


def by_tg_git(start: Path) -> tuple[str, str, str] | None:
    try:
        repo = gitmod.find_repo(start)
    except NotReady:
        return None
    return str(repo.root), str(repo.git_dir), str(repo.common_dir)


def _stray_head_only(top: Path) -> Path:
    (top / "sub" / ".git").mkdir(parents=True)  # a half-copied git dir: no objects, no refs
    (top / "sub" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (top / "sub" / ".git" / "config").write_text("")
    return top / "sub"


def _garbage_head(top: Path) -> Path:
    git(top, "init", "-q", "sub")
    (top / "sub" / ".git" / "HEAD").write_text("not a ref\n")
    return top / "sub"


def _bare_yes(top: Path) -> Path:
    git(top, "config", "core.bare", "yes")
    return top


@pytest.mark.parametrize("layout", [_stray_head_only, _garbage_head, _bare_yes])
def test_discovery_rejects_what_git_rejects(plain_repo: Path, layout: object) -> None:
    start = layout(plain_repo)  # type: ignore[operator]
    assert by_tg_git(start) == by_git(start)


def test_a_stray_git_folder_in_a_subfolder_does_not_hide_the_repository(repo: Path) -> None:
    sub = _stray_head_only(repo / "vendor")
    tg(repo, "record", "--tokens", "500")
    assert by_git(sub) is not None and by_git(sub)[0] == str(repo)  # type: ignore[index]
    assert json.loads(tg(sub, "status", "--json", check=False).stdout).get("input") == 500


@pytest.mark.parametrize(
    "layout",
    [
        layouts.linked_worktree,
        layouts.symlinked_git_dir,
        layouts.symlinked_work_dir,
        layouts.nested,
        layouts.submodule,
        layouts.relative_gitfile,
        layouts.odd_names,
        layouts.inside_git_dir,
        layouts.core_worktree,
    ],
)
def test_discovery_agrees_with_git(plain_repo: Path, layout: object) -> None:
    start = layout(plain_repo)  # type: ignore[operator]
    assert by_tg_git(start) == by_git(start)


def test_discovery_defers_to_git_dir_set_by_a_hook(
    plain_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    git(tmp_path, "init", "-q", "other")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    expected = by_git(plain_repo)
    assert expected is not None and expected[1] == str(other / ".git")
    assert by_tg_git(plain_repo) == expected


def test_a_common_dir_named_past_a_link_with_dotdot_is_the_one_git_uses(
    repo: Path, tmp_path: Path
) -> None:
    """``GIT_COMMON_DIR`` as git takes it, verbatim: ``link/..`` is the folder above the link's
    target, not the folder the link sits in (where a lexical ``..`` would take it). tg-git's
    lock and journal go to the repository's own common dir, and nothing is made elsewhere."""
    (tmp_path / "target").mkdir()
    (tmp_path / "x" / "y").mkdir(parents=True)
    (tmp_path / "x" / "y" / "link").symlink_to(tmp_path / "target")
    env = {"GIT_DIR": str(repo / ".git"), "GIT_COMMON_DIR": f"{tmp_path}/x/y/link/../repo/.git"}
    tg(repo, "record", "--tokens", "500", env=env)
    (repo / "a.txt").write_text("a\n")
    git(repo, "add", "a.txt")
    commit(repo, "-m", "a", env=env)
    assert not (tmp_path / "x" / "y" / "repo").exists()  # the lexical reading's folder
    assert json.loads(tg(repo, "status", "--json").stdout)["input"] == 500
    assert "500" in ledger_at(repo)  # the commit carries the recorded spend
