"""Gemini CLI (0.61.0) expands ``$NAME``, ``${NAME}`` and ``${NAME:-default}`` in every string
of its settings files as it loads them: the commands tg-git writes for it hold none of them
(``formats.EXPANDS``). The real-CLI scenarios of the command text: ``command_text``, run from
``test_real_clis``."""

from __future__ import annotations

import re

from tg_git.agents import formats
from tg_git.agents.protocol import EVENTS
from tg_git.repo import hotstate


def test_gemini_commands_hold_nothing_its_loader_expands_and_older_ones_are_told_apart() -> None:
    """No ``$NAME``, ``${NAME}`` or ``${NAME:-...}`` in Gemini's commands (the loader's own
    pattern, from its bundle); a tool-call command with one is older (`agent install` replaces
    it). The other agents keep the plain spelling."""
    loader = re.compile(r"\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})")
    for portable in (False, True):
        for event in EVENTS["gemini"]:
            command = formats.command("gemini", event, portable)
            names = [m.group(1) or m.group(2) for m in loader.finditer(command)]
            assert all(not re.fullmatch(r"\w+", n) for n in names), (event, names)
        tool = formats.command("gemini", "BeforeTool", portable)
        assert not formats.is_older("gemini", "BeforeTool", tool)
        assert formats.is_older("gemini", "BeforeTool", tool.replace("${PWD#}", "$PWD"))
        assert "o=$PWD" in formats.command("codex", "PreToolUse", portable)
    assert hotstate.MAGIC in formats.command("gemini", "BeforeTool")
