"""``tg-git agent install | uninstall | status``: wire tg-git into the agents' own settings."""

from __future__ import annotations


def agent_setup(*, action: str, agents: list[str], user: bool) -> int:
    raise NotImplementedError


def agent_status(*, as_json: bool) -> int:
    raise NotImplementedError
