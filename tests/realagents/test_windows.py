"""The plan's windows with the real Codex CLI: the scripted server sends the rate-limit
headers Codex reads (``x-codex-primary-used-percent`` …), Codex writes them into its
rollout's ``token_count`` events, and tg-git's window budget follows them."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.realagents import clis
from tests.realagents.modelserver import ModelServer
from tests.realagents.modelserver import Turn
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg


@dataclass
class WindowServer(ModelServer):
    """The model server, with the plan's windows in every answer's headers."""

    five_hour: float = 0.0
    seven_day: float = 0.0
    resets: int = 0

    def _answer(self, handler: Any, body: dict[str, Any]) -> None:
        end = handler.end_headers

        def with_limits() -> None:
            for slot, pct, minutes, reset in (
                ("primary", self.five_hour, 300, self.resets),
                ("secondary", self.seven_day, 10080, self.resets + 4 * 86400),
            ):
                handler.send_header(f"x-codex-{slot}-used-percent", f"{pct}")
                handler.send_header(f"x-codex-{slot}-window-minutes", f"{minutes}")
                handler.send_header(f"x-codex-{slot}-reset-at", f"{reset}")
            end()

        handler.end_headers = with_limits
        super()._answer(handler, body)


@pytest.mark.network
def test_codex_rate_limit_headers_reach_the_window_budget(repo: Path, agent_home: Path) -> None:
    binary = clis.installed("codex")
    clis.wire(repo, "codex")
    tg(repo, "config", "set", "budget.window_5h", "10%")
    server = WindowServer(resets=int(time.time()) + 3 * 3600)
    try:
        env = clis.codex_env(agent_home, repo, server.url)
        server.five_hour = 20.0
        server.script(Turn("hello", used=5_000))
        events, _ = clis.codex(binary, repo, env, "hi")
        thread = ("resume", clis.thread_id(events))
        server.five_hour = 28.5  # 8.5 of 10 points
        server.script(Turn("done", used=6_000))
        clis.codex(binary, repo, env, "work", *thread)
        st = status(repo)
        assert st["windows"]["5h"]["agent"] == "codex", st["windows"]
        assert st["windows"]["5h"]["level"] == "warning", st["windows"]
        server.five_hour = 30.0  # 10 of 10: the halt
        server.script(Turn("done", used=7_000))
        clis.codex(binary, repo, env, "more", *thread)
        st = status(repo)
        assert (st["level"], st["halted_by"]) == ("halt", "window"), st["windows"]
        assert any(t.endswith("-halt") for t in tags(repo))
    finally:
        server.close()
