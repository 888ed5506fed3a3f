"""A plan that travels between two real clones through a real bare remote: a task under way in
one clone is finished in the other, and the first pulls it in a real merge."""

from __future__ import annotations

from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg


def work(repo: Path, name: str) -> None:
    """A commit of its own adding ``name``."""
    (repo / name).write_text(f"# {name}\n")
    git(repo, "add", name)
    commit(repo, "-m", f"add {name}")


def plan_with_origin(repo: Path, tmp_path: Path) -> Path:
    """``repo`` gets a bare remote ``origin`` (returned) and a plan: a task under way, one
    pending, two next steps."""
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(repo, "remote", "add", "origin", str(origin))
    tg(repo, "task", "add", "login page")
    tg(repo, "task", "start", "login page", "--at", "the form")
    tg(repo, "task", "add", "docs")
    tg(repo, "next", "finish the login page form")
    tg(repo, "next", "write the docs")
    return origin


def finish_in_another_clone(repo: Path, origin: Path, other: Path, *join: str) -> None:
    """``other`` clones ``origin``, joins with ``tg-git JOIN``, finishes the task under way and
    pushes; ``repo`` moves on too and pulls it (a real merge)."""
    git(other.parent, "clone", "-q", str(origin), str(other))
    tg(other, "install")
    tg(other, *join)
    tg(other, "task", "done", "login page")
    work(other, "login.py")
    git(other, "push", "-q", "origin", "main")
    work(repo, "notes.md")  # this clone moved on too: the pull is a real merge
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert (repo / "login.py").is_file()
