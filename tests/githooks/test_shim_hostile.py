"""The hook shim's post-commit journal step (the newest commit's event kept when the commit
leaves history) wherever git runs the shim: a path with spaces and non-ASCII letters, a
linked worktree, a ``--separate-git-dir`` clone, ``GIT_DIR`` / ``GIT_WORK_TREE`` set,
``core.hooksPath`` set. (``/bin/sh`` on this machine is dash, as on Debian.)"""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import set_up
from tests.support.repos import used
from tg_git.estimate.estimator import estimate_tokens


def _add(tree: Path, name: str, env: dict[str, str] | None = None) -> int:
    text = f"# {name}\nvalue = compute_the_value_of('{name}', 1, 2, 3)\n"
    (tree / name).write_text(text)
    git(tree, "add", name)
    commit(tree, "-m", f"add {name}", env=env)
    git_dir = Path(git(tree, "rev-parse", "--absolute-git-dir").stdout.strip())
    due = git_dir / "tg-git" / "journal-due"
    assert not due.exists() or due.stat().st_size == 0  # the shim's step ran, and ended
    return estimate_tokens(text.rstrip("\n"), name)


def _survives(tree: Path, env: dict[str, str] | None = None) -> None:
    """Two commits through the hooks, both reset away: their tokens stay spent."""
    start = used(tree)
    spent = _add(tree, "one.py", env) + _add(tree, "two.py", env)
    git(tree, "reset", "-q", "--hard", "HEAD~2")
    assert used(tree) - start == spent


def test_a_path_with_spaces_and_non_ascii(tmp_path: Path) -> None:
    repo = tmp_path / "my répo 漢字" / "a b"
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    _survives(set_up(repo))


def test_a_linked_worktree(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "linked tree"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    _survives(other)


def test_a_separate_git_dir(tmp_path: Path) -> None:
    repo = tmp_path / "work"
    git(tmp_path, "init", "-q", f"--separate-git-dir={tmp_path / 'store.git'}", str(repo))
    assert (repo / ".git").is_file()
    _survives(set_up(repo))


def test_git_dir_and_work_tree_set(repo: Path) -> None:
    env = {"GIT_DIR": str(repo / ".git"), "GIT_WORK_TREE": str(repo)}
    _survives(repo, env)


def test_core_hooks_path_set(plain_repo: Path) -> None:
    hooks = plain_repo / "my hooks"
    hooks.mkdir()
    git(plain_repo, "config", "core.hooksPath", str(hooks))
    set_up(plain_repo)
    assert (hooks / "post-commit").is_file()
    assert not os.path.exists(plain_repo / ".git" / "hooks" / "post-commit")
    _survives(plain_repo)


def test_a_pythonpath_with_an_empty_or_relative_entry_imports_nothing_of_the_clone(
    repo: Path, tmp_path: Path
) -> None:
    """`export PYTHONPATH=$PYTHONPATH:/x` with PYTHONPATH unset leaves an empty entry (the
    current folder), `.` names it too: the hooks' Python ignores PYTHONPATH altogether, so
    the clone's `sitecustomize.py` and `json.py` never run, and commits still count."""
    marker = tmp_path / "ran"
    for name in ("sitecustomize.py", "json.py", "re.py"):
        (repo / name).write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    for n, entry in enumerate((":/nowhere", ".")):
        start = used(repo)
        spent = _add(repo, f"file{n}.py", {"PYTHONPATH": entry})
        assert used(repo) - start == spent
    assert not marker.exists(), marker.read_text()
