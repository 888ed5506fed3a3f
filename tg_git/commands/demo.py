"""`tg-git demo [--keep] [--language ko|en]`: the whole job in a throwaway repository."""

from __future__ import annotations


def demo(*, keep: bool, language: str) -> int:
    from tg_git.demo import run_demo

    return run_demo(keep=keep, language=language)
