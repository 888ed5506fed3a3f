"""The commands of the CLIs that block on a status other than their block code end in a filter
(``formats.STATUS_FILTER``); an older command without it is told apart. The real-CLI scenarios
of a failing hook: ``exit_status``, run from ``test_real_clis``."""

from __future__ import annotations

import pytest

from tg_git.agents import formats
from tg_git.agents.protocol import EVENTS


@pytest.mark.parametrize("agent", sorted(formats.STATUS_FILTER))
def test_a_tool_call_command_without_the_status_filter_is_older(agent: str) -> None:
    """An install from before the filter is listed as older (`agent status`, `doctor`), so
    `agent install` brings it. Its other commands have none: they exec tg-git, so that the
    agent's timeout reaches it (``tests/agents/test_command_status.py``)."""
    filtered = formats.STATUS_FILTER[agent]
    event = next(e for e, kind in EVENTS[agent].items() if kind == "tool")
    for portable in (False, True):
        today = formats.command(agent, event, portable)
        assert filtered in today and not formats.is_older(agent, event, today)
        assert formats.is_older(agent, event, today.replace(filtered, ""))
        others = [e for e, kind in EVENTS[agent].items() if kind != "tool"]
        execs = [formats.command(agent, e, portable) for e in others]
        assert not [c for c in execs if c.endswith(filtered) or "exec " not in c], execs
