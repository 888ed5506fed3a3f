"""Repository layouts git accepts, each built next to or inside a plain repository ``top``; each
returns the folder to start discovery from. Shared by the tests that hold repository discovery
to ``git rev-parse``."""

from __future__ import annotations

import os
from pathlib import Path

from tests.support.repos import git


def linked_worktree(top: Path) -> Path:
    git(top, "commit", "-q", "--allow-empty", "-m", "x")
    git(top, "worktree", "add", "-q", "-b", "wt", str(top.parent / "linked"))
    (top.parent / "linked" / "deep").mkdir()
    return top.parent / "linked" / "deep"


def symlinked_git_dir(top: Path) -> Path:
    (top.parent / "elsewhere").mkdir()
    os.symlink(top / ".git", top.parent / "elsewhere" / ".git")
    return top.parent / "elsewhere"


def symlinked_work_dir(top: Path) -> Path:
    (top / "a b").mkdir()
    os.symlink(top / "a b", top.parent / "link")
    return top.parent / "link"


def nested(top: Path) -> Path:
    git(top, "init", "-q", "inner")
    (top / "inner" / "x").mkdir()
    return top / "inner" / "x"


def submodule(top: Path) -> Path:
    src = top.parent / "src"
    git(top.parent, "init", "-q", "src")
    git(src, "commit", "-q", "--allow-empty", "-m", "x")
    git(top, "-c", "protocol.file.allow=always", "submodule", "-q", "add", str(src), "mod")
    return top / "mod"


def relative_gitfile(top: Path) -> Path:
    (top.parent / "w").mkdir()
    (top.parent / "w" / ".git").write_text("gitdir: ../repo/.git\n")
    return top.parent / "w"


def odd_names(top: Path) -> Path:
    name = os.fsdecode(b"sp ace \xff")
    git(top, "init", "-q", name)
    return top / name


def inside_git_dir(top: Path) -> Path:
    return top / ".git" / "refs"


def core_worktree(top: Path) -> Path:
    (top.parent / "tree").mkdir()
    git(top, "config", "core.worktree", str(top.parent / "tree"))
    return top  # git: the work tree is ../tree, not the folder holding .git
