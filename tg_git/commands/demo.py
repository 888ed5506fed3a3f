"""`tg-git demo [--keep] [--language ko|en]`: the whole job in a throwaway repository."""

from __future__ import annotations

from tg_git.demo import Entry, run_demo


def demo(*, keep: bool, language: str, entry: Entry) -> int:
    """``entry`` is the console script's ``main``: the demo runs tg-git's commands through it,
    in this process, as a user's shell would run the ``tg-git`` script."""
    return run_demo(entry, keep=keep, language=language)
