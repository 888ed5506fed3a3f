"""Which agent conversation each tg-git session serves: ``.git/tg-git/agents.json``.

``agent -> {"agent_session", "session", "brief"}``, plus a few one-time marks (e.g.
``compact_waited``: the session whose automatic compaction already waited once), and
``owed_briefing``: the briefing a plain resume left to the next session start. Local state of
this work tree, never committed; a file that is missing or not JSON reads as empty.
"""

from __future__ import annotations

import json
import os
from typing import Any

from tg_git.repo import regular
from tg_git.repo.git import Repo

PATH = "tg-git/agents.json"  # under the git dir of the work tree


def read(repo: Repo) -> dict[str, Any]:
    try:
        data = json.loads(regular.read_bytes(repo.git_file(PATH)).decode("utf-8"))
    except (OSError, ValueError, RecursionError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def write(repo: Repo, data: dict[str, Any]) -> None:
    path = repo.git_path(PATH)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".agents.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def bound(repo: Repo, agent: str) -> dict[str, Any]:
    """The binding of ``agent``: its conversation and the session it serves (empty: none)."""
    entry = read(repo).get(agent)
    return entry if isinstance(entry, dict) else {}


def bind(
    repo: Repo,
    agent: str,
    agent_session: str,
    tg_session: str,
    brief: bool,
    compacted: bool = False,
) -> None:
    """Which conversation serves which session; ``brief``: a compaction's briefing is owed at
    the next prompt; ``compacted``: SessionStart ``compact`` briefed the model already."""
    data = read(repo)
    data[agent] = {"agent_session": agent_session, "session": tg_session, "brief": brief}
    if compacted:
        data[agent]["compacted"] = True
    write(repo, data)


def mark(repo: Repo, name: str, value: str) -> bool:
    """Remember ``value`` under ``name`` once: True the first time (a postponed compaction)."""
    data = read(repo)
    if data.get(name) == value:
        return False
    data[name] = value
    write(repo, data)
    return True
