"""Fixtures of the real-agent tests: the scripted model server, and a repository with tg-git
set up and one agent wired, committed as a user would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realagents.modelserver import ModelServer


@pytest.fixture
def server() -> Iterator[ModelServer]:
    srv = ModelServer()
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture
def agent_home(tmp_path: Path) -> Path:
    """The agent's own HOME for this test (not the suite's HOME: the CLIs write there)."""
    home = tmp_path / "agent-home"
    home.mkdir()
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n")
    return home
