"""OpenCode's usage, read from its SQLite database (the tables and JSON OpenCode 1.18 writes):
each assistant message counted once at its largest copy, only this work tree's sessions, only
counts and ids; the totals equal ccusage's OpenCode report on the same database."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.repos import status
from tests.support.repos import tg

SECRET = "a prompt nobody may read"


def message(mid: str, session: str, *, fresh: int, out: int, read: int = 0, write: int = 0,
            reasoning: int = 0, model: str = "gpt-4.1", summary: bool = False,
            at: int = 0) -> dict[str, Any]:  # fmt: skip
    """An assistant message as OpenCode stores it (``message.data``)."""
    created = at or int(time.time() * 1000) + 5_000
    data: dict[str, Any] = {
        "id": mid, "sessionID": session, "role": "assistant", "parentID": "msg_user",
        "mode": "compaction" if summary else "build", "agent": "build",
        "path": {"cwd": "/", "root": "/"}, "cost": 0.01, "modelID": model, "providerID": "fake",
        "tokens": {"total": fresh + out + read + write + reasoning, "input": fresh, "output": out,
                   "reasoning": reasoning, "cache": {"read": read, "write": write}},
        "time": {"created": created, "completed": created + 100}, "finish": "stop",
    }  # fmt: skip
    if summary:
        data["summary"] = True
    return data


def database(folder: Path) -> sqlite3.Connection:
    """``opencode.db`` with the tables the import reads, as OpenCode creates them."""
    folder.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(folder / "opencode.db")
    con.executescript("""
        CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL,
          `workspace_id` text, `parent_id` text, `slug` text NOT NULL, `directory` text NOT NULL,
          `path` text, `title` text NOT NULL, `version` text NOT NULL, `share_url` text,
          `summary_additions` integer, `summary_deletions` integer, `summary_files` integer,
          `summary_diffs` text, `metadata` text, `cost` real DEFAULT 0 NOT NULL,
          `tokens_input` integer DEFAULT 0 NOT NULL, `tokens_output` integer DEFAULT 0 NOT NULL,
          `tokens_reasoning` integer DEFAULT 0 NOT NULL,
          `tokens_cache_read` integer DEFAULT 0 NOT NULL,
          `tokens_cache_write` integer DEFAULT 0 NOT NULL, `revert` text, `permission` text,
          `time_created` integer NOT NULL, `time_updated` integer NOT NULL);
        CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL,
          `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL);
        CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL,
          `session_id` text NOT NULL, `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL, `data` text NOT NULL);
    """)
    return con


def add_session(
    con: sqlite3.Connection, sid: str, directory: Path, parent: str | None = None
) -> None:
    now = int(time.time() * 1000)
    con.execute("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, "
                "time_created, time_updated) VALUES (?, 'global', ?, 'slug', ?, 'Title', '1.18.33', ?, ?)",
                (sid, parent, str(directory), now, now))  # fmt: skip


def put(con: sqlite3.Connection, data: dict[str, Any]) -> None:
    """A message written (or written again) as OpenCode does: the row replaced, time_updated
    moved on; its id and session are the row's columns, not in its JSON."""
    stored = {k: v for k, v in data.items() if k not in ("id", "sessionID")}
    now = int(time.time() * 1000) + 5_000
    con.execute("INSERT OR REPLACE INTO message (id, session_id, time_created, time_updated, data) "
                "VALUES (?, ?, ?, ?, ?)", (data["id"], data["sessionID"], data["time"]["created"], now, json.dumps(stored)))  # fmt: skip
    con.commit()


def user(con: sqlite3.Connection, mid: str, session: str) -> None:
    put(con, {"id": mid, "sessionID": session, "role": "user", "time": {"created": 1},
              "parts": [{"type": "text", "text": SECRET}]})  # fmt: skip


def fixture(repo: Path, data: Path, other: Path) -> dict[str, Any]:
    """Two sessions of this work tree (one with a sub-agent session and a compaction summary),
    one of another project; a message seen half-written, then whole."""
    con = database(data)
    add_session(con, "ses_a", repo)
    add_session(con, "ses_b", repo / "src")
    add_session(con, "ses_sub", repo, parent="ses_a")
    add_session(con, "ses_other", other)
    user(con, "msg_u1", "ses_a")
    put(con, message("msg_a1", "ses_a", fresh=1000, out=0))  # streaming: tokens not all in
    put(con, message("msg_a1", "ses_a", fresh=1200, out=50, read=300, write=40, reasoning=7))
    second = message("msg_a2", "ses_a", fresh=200, out=20, read=1500, model="gpt-4o")
    put(con, second)
    put(con, message("msg_s1", "ses_a", fresh=900, out=100, summary=True))
    put(con, message("msg_b1", "ses_b", fresh=70, out=9, write=1))
    put(con, message("msg_sub1", "ses_sub", fresh=30, out=3))
    put(con, message("msg_o1", "ses_other", fresh=99_999, out=1))
    con.close()
    return second


def spend(repo: Path) -> list[int]:
    figures = status(repo)["spend"]
    return [figures[k] for k in ("fresh_input", "cache_write", "cache_read", "output")]


def test_opencode_usage_is_imported_once_and_only_this_work_trees(
    repo: Path, tmp_path: Path
) -> None:
    data = tmp_path / "opencode-data"
    second = fixture(repo, data, tmp_path / "elsewhere")
    env = {"OPENCODE_DATA_DIR": str(data)}
    tg(repo, "usage", "import", env=env)
    # msg_a1 at its largest copy (reasoning is output), msg_a2, the summary, ses_b, the sub-agent
    assert spend(repo) == [1200 + 200 + 900 + 70 + 30, 40 + 1, 300 + 1500, 57 + 20 + 100 + 9 + 3]
    tg(repo, "usage", "import", env=env)  # nothing new: nothing counted again
    assert spend(repo)[0] == 2400
    con = sqlite3.connect(data / "opencode.db")
    put(
        con,
        message(
            "msg_a3", "ses_a", fresh=10, out=1, read=2_000, at=second["time"]["created"] + 9_000
        ),
    )
    grown = message("msg_a2", "ses_a", fresh=200, out=25, read=1500, model="gpt-4o",
                    at=second["time"]["created"])  # fmt: skip
    put(con, grown)  # written again later, as its tokens grew
    con.close()
    tg(repo, "usage", "import", env=env)
    assert spend(repo) == [2410, 41, 3800, 195]  # msg_a2 adds only what it grew by
    ledger = "".join(p.read_text() for p in (repo / ".tg-git").rglob("*.toml"))
    assert SECRET not in ledger and "ses_other" not in ledger
    assert status(repo)["context"]["used"] == 2_011  # the newest main request's fill


@pytest.mark.network
def test_ccusage_reports_the_same_opencode_usage(repo: Path, tmp_path: Path) -> None:
    """ccusage 20.0.24 (npm) reads the same database: its token totals for this work tree's
    sessions equal tg-git's (its output leaves reasoning out, its total has it)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    data = tmp_path / "opencode-data"
    fixture(repo, data, tmp_path / "elsewhere")
    con = sqlite3.connect(data / "opencode.db")
    con.execute("DELETE FROM message WHERE session_id = 'ses_other'")  # ccusage reads every project
    con.commit()
    con.close()
    tools = tmp_path / "tools"
    tools.mkdir()
    subprocess.run([npm, "install", "--silent", "ccusage@20.0.24"], cwd=tools, check=True,
                   capture_output=True, timeout=600)  # fmt: skip
    out = subprocess.run(
        [str(tools / "node_modules" / ".bin" / "ccusage"), "opencode", "session", "--json",
         "--offline"],
        capture_output=True, text=True, check=True, timeout=120,
        env={**__import__("os").environ, "OPENCODE_DATA_DIR": str(data)},
    )  # fmt: skip
    totals = json.loads(out.stdout)["totals"]
    tg(repo, "usage", "import", env={"OPENCODE_DATA_DIR": str(data)})
    ours = spend(repo)
    assert [ours[0], ours[1], ours[2]] == [
        totals["inputTokens"],
        totals["cacheCreationTokens"],
        totals["cacheReadTokens"],
    ]
    assert sum(ours) == totals["totalTokens"]
