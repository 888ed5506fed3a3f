"""Until the layered package lands (issue 24, phase 1): the messages live in ``tg_git.text.messages``."""

from tg_git.text.messages import LANGUAGES, argparse_message, has, table, text

__all__ = ["LANGUAGES", "argparse_message", "has", "table", "text"]
