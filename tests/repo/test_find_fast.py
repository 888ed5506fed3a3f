"""``git._find_fast`` held to ``git rev-parse`` itself: wherever it answers, its answer is git's
(work tree, git dir, common dir, object format), and where git would refuse or look elsewhere
(a bare repository, ``GIT_DIR`` or ``GIT_WORK_TREE``, a repository another user owns that
``safe.directory`` decides on) it does not answer at all, so ``find_repo`` asks git."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import layouts
from tests.support.repos import git
from tg_git.repo import git as gitmod


def by_git(start: Path) -> tuple[str, str, str, str] | None:
    proc = subprocess.run(
        ["git", "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir",
         "--show-object-format"],
        cwd=start, capture_output=True,
    )  # fmt: skip
    if proc.returncode != 0:
        return None
    root, git_dir, common, fmt = proc.stdout.decode("utf-8", "surrogateescape").splitlines()
    common_path = Path(common) if os.path.isabs(common) else (start / common).resolve()
    return root, git_dir, str(common_path), fmt


def fast(start: Path) -> tuple[str, str, str, str] | None:
    repo = gitmod._find_fast(start)
    if repo is None:
        return None
    return str(repo.root), str(repo.git_dir), str(repo.common_dir), repo.object_format


def _plain(top: Path) -> Path:
    return top


def _subfolder(top: Path) -> Path:
    (top / "a" / "b").mkdir(parents=True)
    return top / "a" / "b"


def _sha256(top: Path) -> Path:
    git(top, "init", "-q", "--object-format=sha256", "h")
    return top / "h"


def _separate_git_dir(top: Path) -> Path:
    git(top.parent, "init", "-q", "--separate-git-dir", str(top.parent / "store"), "sep")
    return top.parent / "sep"


ANSWERS: list[Callable[[Path], Path]] = [
    _plain,
    _subfolder,
    _sha256,
    _separate_git_dir,
    layouts.linked_worktree,
    layouts.symlinked_git_dir,
    layouts.symlinked_work_dir,
    layouts.nested,
    layouts.relative_gitfile,
    layouts.odd_names,
]


@pytest.mark.parametrize("layout", ANSWERS)
def test_where_it_answers_it_answers_as_git_does(
    plain_repo: Path, layout: Callable[[Path], Path]
) -> None:
    start = layout(plain_repo)
    expected = by_git(start)
    assert expected is not None
    assert fast(start) == expected  # answered, without a process, and git's answer


def _bare(top: Path) -> Path:
    git(top.parent, "init", "-q", "--bare", "bare.git")
    return top.parent / "bare.git"


def _in_bare_refs(top: Path) -> Path:
    return _bare(top) / "refs"


@pytest.mark.parametrize(
    "layout",
    [_bare, _in_bare_refs, layouts.inside_git_dir, layouts.core_worktree, layouts.submodule],
)  # a submodule's git dir names its work tree (core.worktree)
def test_where_git_has_its_own_rules_it_leaves_the_answer_to_git(
    plain_repo: Path, layout: Callable[[Path], Path]
) -> None:
    start = layout(plain_repo)
    assert fast(start) is None
    found: tuple[str, ...] | None
    try:
        repo = gitmod.find_repo(start)
        found = (str(repo.root), str(repo.git_dir), str(repo.common_dir), repo.object_format)
    except Exception:
        found = None
    assert found == by_git(start)


@pytest.mark.parametrize("names", [("GIT_DIR",), ("GIT_WORK_TREE",), ("GIT_DIR", "GIT_WORK_TREE")])
def test_a_variable_that_moves_discovery_leaves_it_to_git(
    plain_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, names: tuple[str, ...]
) -> None:
    git(tmp_path, "init", "-q", "other")
    values = {"GIT_DIR": str(tmp_path / "other" / ".git"), "GIT_WORK_TREE": str(tmp_path)}
    for name in names:
        monkeypatch.setenv(name, values[name])
    assert fast(plain_repo) is None


@pytest.mark.skipif(os.geteuid() != 0, reason="a repository another user owns needs root")
def test_a_repository_another_user_owns_is_left_to_safe_directory(
    plain_repo: Path, home: Path
) -> None:
    nobody = 65534
    for folder, _dirs, files in os.walk(plain_repo):
        os.chown(folder, nobody, nobody)
        for name in files:
            os.chown(os.path.join(folder, name), nobody, nobody)
    try:
        assert by_git(plain_repo) is None  # git: dubious ownership
        assert fast(plain_repo) is None
        git(home, "config", "--global", "--add", "safe.directory", str(plain_repo))
        expected = by_git(plain_repo)
        assert expected is not None and fast(plain_repo) is None
        repo = gitmod.find_repo(plain_repo)
        assert (str(repo.root), str(repo.git_dir)) == expected[:2]
    finally:
        shutil.rmtree(plain_repo)
