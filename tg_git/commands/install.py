"""Native hooks: a shim per hook in the repository's hooks dir, an existing hook kept and chained."""

from __future__ import annotations

import os
import stat
import sys
from importlib import resources
from pathlib import Path

from tg_git import git
from tg_git.errors import TgGitError

HOOKS = ("pre-commit", "pre-merge-commit", "post-commit")
MARKER = "tg-git-shim-v1"
KEPT = ".pre-tg-git"


def hooks_dir() -> Path:
    repo = git.find_repo()
    path = Path(repo.text("rev-parse", "--git-path", "hooks"))
    return path if path.is_absolute() else repo.root / path


def _is_ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def install() -> int:
    folder = hooks_dir()
    folder.mkdir(parents=True, exist_ok=True)
    template = resources.files("tg_git").joinpath("hooks/shim.sh").read_text(encoding="utf-8")
    for name in HOOKS:
        hook = folder / name
        kept = folder / (name + KEPT)
        if hook.exists() and not _is_ours(hook):
            if kept.exists():
                raise TgGitError(
                    f"both {hook} and {kept} exist; move one aside, then run install again."
                )
            os.replace(hook, kept)
            print(f"tg-git: kept your {name} hook as {kept.name}; it still runs first.")
        hook.write_text(
            template.replace("@HOOK@", name).replace("@PYTHON@", sys.executable), encoding="utf-8"
        )
        hook.chmod(hook.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    print(f"tg-git: installed {', '.join(HOOKS)} in {folder}")
    return 0


def uninstall() -> int:
    folder = hooks_dir()
    for name in HOOKS:
        hook = folder / name
        kept = folder / (name + KEPT)
        if hook.exists() and _is_ours(hook):
            hook.unlink()
            if kept.exists():
                os.replace(kept, hook)
                print(f"tg-git: restored your {name} hook.")
    print(f"tg-git: removed tg-git's hooks from {folder}")
    return 0
