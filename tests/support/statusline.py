"""The status line's test helpers: a status-line JSON as Claude Code hands it, the command run
as the agent runs it, a file landed through the hooks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg

AGENT_SESSION = "51d7023f-0c1e-4d55-9a5e-000000000001"


def claude_status(
    repo: Path,
    *,
    fill: int | None,
    spent: int = 0,
    cost: float = 0.0,
    window: int = 1_000_000,
    session: str = AGENT_SESSION,
    model: str = "claude-opus-5-5",
) -> dict[str, Any]:
    """A status-line JSON as Claude Code 2.1.328 hands it (the notes' sample), with the
    context fill in ``current_usage`` (None: null, as at start and right after /compact)."""
    current = None
    if fill is not None:
        current = {"input_tokens": 7, "output_tokens": 300, "cache_creation_input_tokens": 993,
                   "cache_read_input_tokens": fill - 1000}  # fmt: skip
    return {
        "session_id": session,
        "transcript_path": str(repo / ".." / f"{session}.jsonl"),
        "cwd": str(repo), "effort": {"level": "medium"},
        "model": {"id": model, "display_name": "Opus 5.5"},
        "workspace": {"current_dir": str(repo), "project_dir": str(repo), "added_dirs": []},
        "version": "2.1.328", "output_style": {"name": "default"},
        "cost": {"total_cost_usd": cost, "total_duration_ms": 27514, "total_api_duration_ms": 0,
                 "total_lines_added": 0, "total_lines_removed": 0},
        "context_window": {
            "total_input_tokens": spent - spent // 50, "total_output_tokens": spent // 50,
            "context_window_size": window, "current_usage": current,
            "used_percentage": None if fill is None else fill * 100 // window,
            "remaining_percentage": None if fill is None else 100 - fill * 100 // window,
        },
        "exceeds_200k_tokens": bool(fill and fill > 200_000), "fast_mode": False,
        "thinking": {"enabled": True},
    }  # fmt: skip


def statusline(
    cwd: Path, payload: dict[str, Any] | str, *args: str, env: dict[str, str] | None = None
) -> str:
    """Run the command as the agent does (stdin JSON); it must always exit 0, stderr empty."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    proc = tg(cwd, "statusline", *args, input=text, env={"NO_COLOR": "1", **(env or {})},
              check=False)  # fmt: skip
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert proc.stdout.count("\n") <= 1, proc.stdout
    return proc.stdout


def land(repo: Path, name: str, text: str) -> None:
    (repo / name).write_text(text)
    git(repo, "add", name)
    commit(repo, "-m", f"add {name}")
