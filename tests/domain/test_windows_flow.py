"""The plan's windows through the real commands: Claude Code's status-line payloads with
``rate_limits`` and a Codex rollout's ``token_count`` events feed the third budget; warn at
80 %, save at 90 %, halt at 95 % of the configured share; off by default; a hand edit of the
share is ignored until recorded."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bench._transcripts import token_counts
from tests.support.agents import MARKER
from tests.support.agents import codex_lines
from tests.support.agents import hook
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import status
from tests.support.repos import tg

AGENT_SESSION = "51d7023f-0c1e-4d55-9a5e-0000000000ab"


def payload(repo: Path, five: float, resets: int | None = None, seven: float = 3.0) -> str:
    """A status-line JSON as Claude Code sends it to a Pro/Max user (``rate_limits``)."""
    reset = resets if resets is not None else int(time.time()) + 3 * 3600
    return json.dumps(
        {
            "session_id": AGENT_SESSION,
            "cwd": str(repo),
            "workspace": {"current_dir": str(repo), "project_dir": str(repo)},
            "model": {"id": "claude-opus-5-5", "display_name": "Opus 5.5"},
            "context_window": {
                "total_input_tokens": 900,
                "total_output_tokens": 100,
                "context_window_size": 1_000_000,
                "current_usage": {
                    "input_tokens": 7,
                    "output_tokens": 30,
                    "cache_creation_input_tokens": 993,
                    "cache_read_input_tokens": 9000,
                },
            },
            "cost": {"total_cost_usd": 0.01},
            "rate_limits": {
                "five_hour": {"used_percentage": five, "resets_at": reset},
                "seven_day": {"used_percentage": seven, "resets_at": reset + 86400},
            },
        }
    )


def statusline(repo: Path, five: float, **more: Any) -> str:
    proc = tg(
        repo, "statusline", input=payload(repo, five, **more), env={"NO_COLOR": "1"}, check=False
    )
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    return proc.stdout


def test_status_line_payloads_warn_save_and_halt_at_the_share(repo: Path) -> None:
    tg(repo, "config", "set", "budget.window_5h", "30%")
    assert tg(repo, "config", "get", "budget.window_5h").stdout.strip() == "30%"
    statusline(repo, 10)  # the baseline: the rise from here counts
    line = statusline(repo, 30)
    assert "5h +20%/30% (66%)" in line and "ok" in line
    st = status(repo)
    assert st["windows"]["5h"]["used"] == 20.0 and st["windows"]["5h"]["level"] == "ok"
    assert st["windows"]["5h"]["resets_at"] and st["windows"]["7d"]["share"] is None
    assert st["level"] == "ok"
    statusline(repo, 34.5)  # 24.5 of 30 points: 81 %
    assert (status(repo)["level"], status(repo)["windows"]["5h"]["level"]) == ("warning",) * 2
    statusline(repo, 37.5)  # 27.5 of 30: 91 %
    assert status(repo)["level"] == "force-save"
    line = statusline(repo, 39)  # 29 of 30: 96 %
    st = status(repo)
    assert (st["level"], st["halted_by"]) == ("halt", "window")
    assert "tg-git session start" in line and "5h +29%/30% (96%)" in line
    text = tg(repo, "status").stdout
    assert "Plan window 5h (claude): +29% of the window this session of 30% allowed" in text
    report = json.loads(tg(repo, "report", "--json").stdout)
    (current,) = [s for s in report["sessions"] if s["current"]]
    assert current["windows"]["5h"]["level"] == "halt"


def test_the_agent_hooks_save_and_block_at_the_window_share(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    tg(repo, "agent", "install", "claude")
    tg(repo, "config", "set", "budget.window_5h", "0.2")
    base = {
        "session_id": AGENT_SESSION,
        "cwd": str(repo),
        "permission_mode": "default",
        "transcript_path": str(agent_homes["CLAUDE_CONFIG_DIR"] / "none.jsonl"),
    }
    statusline(repo, 50)
    statusline(repo, 68.5)  # 18.5 of 20 points: 92 %, the save
    stop = hook(repo, "claude", "Stop", {**base, "hook_event_name": "Stop"})
    assert "force-save" in stop.stdout, stop.stdout
    assert any(t.endswith("-force-save") for t in git(repo, "tag", "-l").stdout.split())
    statusline(repo, 69.5)  # 19.5 of 20: 97 %, the halt
    prompt = hook(
        repo,
        "claude",
        "UserPromptSubmit",
        {**base, "hook_event_name": "UserPromptSubmit", "prompt": "go on"},
    )
    assert prompt.returncode == 2 and "share of the plan's window is used" in prompt.stderr


def test_off_by_default_no_reading_changes_any_level(repo: Path) -> None:
    statusline(repo, 1)
    line = statusline(repo, 99)
    st = status(repo)
    assert st["level"] == "ok" and st["halted_by"] is None
    assert st["windows"]["5h"]["used"] == 98.0 and st["windows"]["5h"]["share"] is None
    assert "5h" not in line  # the gauge shows a window only where a share is set


def test_a_codex_rollout_feeds_the_7_day_share(repo: Path, agent_homes: dict[str, Path]) -> None:
    tg(repo, "config", "set", "budget.window_7d", "5%")
    day = agent_homes["CODEX_HOME"] / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    rollout = day / "rollout-2026-12-01T10-00-00-0199-abc.jsonl"
    lines = codex_lines(str(repo), [(1000, 200, 50)]).splitlines()
    resets = int(time.time()) + 4 * 86400
    for n, (pct, total) in enumerate([(20.0, 2000), (22.0, 3000), (24.1, 4000)]):
        event = token_counts([(total, 200, 50 + n)], repeat=False)[0]
        event["payload"]["rate_limits"] = {
            "primary": {"used_percent": 1.0, "window_minutes": 300, "resets_in_seconds": 900},
            "secondary": {"used_percent": pct, "window_minutes": 10080, "resets_at": resets},
        }
        lines.append(json.dumps(event))
    rollout.write_text("\n".join(lines) + "\n")
    tg(repo, "usage", "import", "--agent", "codex")
    st = status(repo)
    assert st["windows"]["7d"]["agent"] == "codex" and st["windows"]["7d"]["used"] == 4.1
    assert (st["level"], st["halted_by"]) == ("warning", None)  # 4.1 of 5 points: 82 %
    with rollout.open("a") as fh:
        event = token_counts([(5000, 200, 60)], repeat=False)[0]
        event["payload"]["rate_limits"] = {
            "secondary": {"used_percent": 24.8, "window_minutes": 10080, "resets_at": resets}
        }
        fh.write(json.dumps(event) + "\n")
    tg(repo, "usage", "import", "--agent", "codex")
    st = status(repo)
    assert (st["level"], st["halted_by"]) == ("halt", "window")  # 4.8 of 5 points: 96 %
    marks = (repo / ".git" / "tg-git" / "usage").glob("*.json")
    assert all(MARKER not in m.read_text() for m in marks)  # percents and times only


def test_a_hand_edit_of_the_share_is_ignored_until_recorded(repo: Path) -> None:
    tg(repo, "config", "set", "budget.window_5h", "30%")
    statusline(repo, 10)
    statusline(repo, 39)
    assert status(repo)["level"] == "halt"
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text().replace("window_5h = 0.3", "window_5h = 0.9"))
    assert "window_5h = 0.9" in config.read_text()
    st = status(repo)
    assert (st["level"], st["unrecorded"]) == ("halt", ["budget.window_5h"])
    assert "tg-git config set budget.window_5h 90%" in statusline(repo, 39)
    tg(repo, "config", "set", "budget.window_5h", "90%")
    st = status(repo)
    assert (st["level"], st["unrecorded"]) == ("ok", [])
    git(repo, "add", "-A")
    commit(repo, "-m", "raise the share")
    tg(repo, "config", "set", "budget.window_5h", "off")
    assert tg(repo, "config", "get", "budget.window_5h").stdout.strip() == "off"
    st = status(repo)
    assert st["windows"]["5h"]["share"] is None and st["unrecorded"] == []
    bad = tg(repo, "config", "set", "budget.window_5h", "130%", check=False)
    assert bad.returncode != 0 and "share of the plan's window" in bad.stderr
