"""`tg-git install [--pre-commit]` and `tg-git uninstall [--purge]`: the git hooks (their
wiring is ``tg_git.githooks.install``)."""

from __future__ import annotations

from tg_git.githooks import install as hooks


def install(*, pre_commit: bool = False) -> int:
    return hooks.install(pre_commit=pre_commit)


def uninstall(*, purge: bool = False) -> int:
    return hooks.uninstall(purge=purge)
