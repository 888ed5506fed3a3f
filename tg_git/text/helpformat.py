"""tg-git's help pages laid out by terminal columns, not characters: argparse counts ``len``,
and a Hangul syllable or a Korean placeholder takes two columns a character."""

from __future__ import annotations

import argparse
from typing import Any

from tg_git.text import term


class Help(argparse.HelpFormatter):
    """tg-git's help format: the usage line's prefix in the language of the page, and every
    line wrapped by terminal columns, not characters (a Hangul syllable takes two)."""

    def __init__(self, prog: str, usage: str) -> None:
        super().__init__(prog)
        self._usage = usage

    def add_usage(
        self,
        usage: str | None,
        actions: Any,
        groups: Any,
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, self._usage if prefix is None else prefix)

    def _format_usage(self, usage: str | None, actions: Any, groups: Any, prefix: Any) -> str:
        """argparse lays the usage out by ``len``: it lays it out with a stand-in prefix as
        wide as the real one ("사용법: " takes eight columns, five characters), then puts the
        real one back."""
        real = "usage: " if prefix is None else str(prefix)
        stand_in = "u" * term.width(real)
        return real + super()._format_usage(usage, actions, groups, stand_in)[len(stand_in) :]

    def add_argument(self, action: argparse.Action) -> None:
        """The names' column as wide as its widest name in columns (see ``_format_action``)."""
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            invocation = self._format_action_invocation(action)
            wide = term.width(invocation) + self._current_indent
            self._action_max_length = max(self._action_max_length, wide)

    def _format_action(self, action: argparse.Action) -> str:
        """argparse pads an argument's name by ``len``: a Korean placeholder ("에이전트", four
        characters, eight columns) takes its extra columns back from the padding."""
        text = super()._format_action(action)
        invocation = self._format_action_invocation(action)
        extra = term.width(invocation) - len(invocation)
        padded = invocation + " " * (extra + 2)
        if extra > 0 and padded in text.split("\n", 1)[0]:
            text = text.replace(padded, invocation + "  ", 1)
        return text

    def _split_lines(self, text: str, width: int) -> list[str]:
        return term.wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in term.wrap(text, width - len(indent)))
