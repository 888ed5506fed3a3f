"""`tg-git statusline`: the agent's status-line JSON in (the shape the real Claude Code CLI
2.1.328 sends), the live reading kept under the git dir, one gauge
line out; and what `status --json` and the commit hook make of it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.repos import git
from tests.support.repos import status
from tests.support.repos import tg
from tests.support.statusline import claude_status
from tests.support.statusline import land
from tests.support.statusline import statusline


def test_fill_warns_then_a_compaction_brings_the_level_back(repo: Path) -> None:
    """The must-hold: 850,000 of 1,000,000 is a context warning; 960,000 a context halt (the
    next commit refused); a compaction to 200,000 is `ok` in the same session and the halt
    is lifted; spend keeps growing across the drop."""
    first = status(repo)["session"]["id"]
    line = statusline(repo, claude_status(repo, fill=850_000, spent=900_000, cost=4.5))
    assert "warning" in line and "850k/1M" in line, line
    data = status(repo)
    assert data["context"] == {"used": 850_000, "window": 1_000_000, "percent": 85.0,
                               "level": "warning", "source": "statusline",
                               "measured_at": data["context"]["measured_at"],
                               "window_from": "agent"}  # fmt: skip
    # The configured budget stays as configured; the agent's window stands beside it.
    assert (data["used"], data["max_tokens"], data["level"]) == (850_000, 200_000, "warning")
    assert data["spend"]["tokens"] == 900_000 and data["spend"]["usd"] == 4.5

    line = statusline(repo, claude_status(repo, fill=960_000, spent=1_900_000, cost=9.0))
    assert "halt" in line and "compact" in line, line
    assert status(repo)["level"] == "halt" and status(repo)["halted_by"] == "context"
    land(repo, "a.txt", "the commit that crosses lands\n")
    refused = git(repo, "commit", "--allow-empty", "-m", "refused", check=False)
    assert refused.returncode != 0 and "refused" in refused.stderr

    line = statusline(repo, claude_status(repo, fill=200_000, spent=2_300_000, cost=10.0))
    assert "ok" in line and "200k/1M" in line, line
    data = status(repo)
    assert data["session"]["id"] == first  # the same tg-git session
    assert (data["context"]["level"], data["level"], data["halted_by"]) == ("ok", "ok", None)
    assert data["spend"]["tokens"] == 2_300_000 and data["spend"]["usd"] == 10.0
    land(repo, "b.txt", "lands again after the compaction\n")


def test_spend_counts_on_when_the_agent_restarts_its_counter(repo: Path) -> None:
    """Tokens spent stay spent: a running total that goes down (the agent restarted it) adds
    on to what was counted, and a second agent session of the same tg-git session adds."""
    statusline(repo, claude_status(repo, fill=100_000, spent=500_000, cost=2.0))
    statusline(repo, claude_status(repo, fill=20_000, spent=50_000, cost=0.25))
    assert status(repo)["spend"]["tokens"] == 550_000
    statusline(repo, claude_status(repo, fill=30_000, spent=10_000, session="other"))
    data = status(repo)
    assert data["spend"]["tokens"] == 560_000 and data["spend"]["usd"] == 2.25
    assert data["context"]["used"] == 30_000  # the fill is the newest reading's


def test_start_and_after_compact_without_usage_keep_the_window(repo: Path) -> None:
    """At session start (and right after /compact) `current_usage` is null: the window is
    known, the fill is not; nothing is made up and the gauge still prints."""
    line = statusline(repo, claude_status(repo, fill=None))
    assert "1M" in line and "ok" in line, line
    data = status(repo)
    assert data["context"]["window"] == 1_000_000 and data["context"]["used"] == 0
    assert data["context"]["source"] == "estimated"


def test_spend_halt_refuses_commits_until_the_budget_is_raised(repo: Path) -> None:
    tg(repo, "config", "set", "budget.spend_tokens", "1000000")
    line = statusline(repo, claude_status(repo, fill=100_000, spent=960_000))
    assert "halt" in line and "session start" in line, line
    data = status(repo)
    assert (data["level"], data["halted_by"], data["context"]["level"]) == ("halt", "spend", "ok")
    assert data["spend"] | {"usd": None} == {**data["spend"], "tokens": 960_000,
                                             "budget_tokens": 1_000_000, "percent": 96.0,
                                             "level": "halt", "usd": None}  # fmt: skip
    land(repo, "a.txt", "the commit that crosses lands\n")
    assert git(repo, "commit", "--allow-empty", "-m", "x", check=False).returncode != 0
    # A compaction gives no spend back.
    statusline(repo, claude_status(repo, fill=10_000, spent=970_000))
    assert git(repo, "commit", "--allow-empty", "-m", "x", check=False).returncode != 0
    tg(repo, "config", "set", "budget.spend_tokens", "4000000")  # raised: recorded, lifted
    events = [json.loads(ln.split(" = ", 1)[1].replace('" = ', '": ')) for ln in
              ledger_lines(repo) if '"budget"' in ln]  # fmt: skip
    assert [e["text"] for e in events] == ["1000000", "4000000"]
    assert status(repo)["level"] == "ok"
    land(repo, "b.txt", "lands\n")


def test_session_start_lifts_a_spend_halt(repo: Path) -> None:
    tg(repo, "config", "set", "budget.spend_tokens", "1000000")
    statusline(repo, claude_status(repo, fill=100_000, spent=990_000))
    assert status(repo)["halted_by"] == "spend"
    tg(repo, "session", "start")
    assert status(repo)["level"] == "ok"
    # The same conversation goes on: the new session counts from where the old one stopped.
    statusline(repo, claude_status(repo, fill=110_000, spent=1_090_000))
    data = status(repo)
    assert (data["spend"]["tokens"], data["level"]) == (100_000, "ok")


def ledger_lines(repo: Path) -> list[str]:
    """The ledger's event lines: committed, then those waiting under the git dir."""
    folder = repo / ".tg-git" / "ledger"
    files = sorted(folder.glob("*.toml"), key=lambda p: p.name.replace(".pending.toml", "~"))
    files += sorted((repo / ".git" / "tg-git" / "pending").glob("*.toml"))  # waiting: last
    return [ln for p in files for ln in p.read_text().splitlines()  # a pending file last
            if ln and not ln.startswith("#")]  # fmt: skip


def test_a_refresh_writes_no_ledger_line_and_no_commit(repo: Path) -> None:
    """The status line runs after every message: the live file changes, the ledger only when
    the reading changes the level the ledger gives."""
    before = git(repo, "rev-parse", "HEAD").stdout
    statusline(repo, claude_status(repo, fill=100_000, spent=100_000))
    lines = ledger_lines(repo)
    for n in range(5):
        statusline(repo, claude_status(repo, fill=100_000 + n * 1000, spent=200_000 + n))
    assert ledger_lines(repo) == lines
    assert git(repo, "rev-parse", "HEAD").stdout == before
    statusline(repo, claude_status(repo, fill=820_000, spent=900_000))  # a new level: carried
    (carried,) = [ln for ln in ledger_lines(repo) if ln not in lines]
    assert '"fill" = 820000' in carried and '"window" = 1000000' in carried
    assert git(repo, "rev-parse", "HEAD").stdout == before


@pytest.mark.parametrize(
    "payload",
    [
        "", "not json", "[1, 2]", "null", '{"context_window": "x"}', "{" * 100_000,
        json.dumps({"context_window": {"context_window_size": -5, "current_usage": {
            "input_tokens": "9", "cache_read_input_tokens": 10**40}}, "session_id": "a\x1b[2Jb"}),
        json.dumps({"session_id": "s", "cost": {"total_cost_usd": float("inf")},
                    "context_window": {"context_window_size": True, "used_percentage": 1e308}}),
    ],
)  # fmt: skip
def test_broken_input_prints_a_short_gauge_and_exits_0(repo: Path, payload: str) -> None:
    out = statusline(repo, payload)
    assert out.startswith("tg-git") and "\x1b" not in out, out
    assert status(repo)["context"]["source"] == "estimated"


def test_binary_stdin_and_a_hostile_live_file(repo: Path) -> None:
    proc = tg(repo, "statusline", input=None, check=False)
    assert proc.returncode == 0
    live = repo / ".git" / "tg-git" / "live.json"
    for junk in ('{"format": 1, "readings": {"k": {"used": -1}}}', "\xff\xfe", "[]" * 9):
        live.write_text(junk, encoding="utf-8", errors="surrogateescape")
        assert statusline(repo, claude_status(repo, fill=1000)).startswith("tg-git")
    live.unlink()
    os.mkfifo(live)  # a reader must never block on it; the write replaces it
    assert statusline(repo, claude_status(repo, fill=1000)).startswith("tg-git")
    assert live.is_file() and status(repo)["context"]["used"] == 1000


def test_control_characters_from_the_model_name_never_print(repo: Path) -> None:
    out = statusline(repo, claude_status(repo, fill=1000, model="evil\x1b]0;pwned\x07\x1b[31m"))
    assert "\x1b" not in out and "\x07" not in out


def test_colour_on_unless_no_color(repo: Path) -> None:
    payload = json.dumps(claude_status(repo, fill=850_000))
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = tg(repo, "statusline", input=payload, env=env)
    coloured = proc.stdout
    assert "\x1b[33m" in coloured  # the warning level in yellow (Claude renders ANSI)
    assert "\x1b" not in statusline(repo, payload)  # NO_COLOR=1
    assert "\x1b" not in tg(repo, "statusline", "--no-color", input=payload, env=env).stdout


def test_outside_a_repository_prints_nothing(tmp_path: Path) -> None:
    assert statusline(tmp_path, claude_status(tmp_path, fill=850_000)) == ""
    git(tmp_path, "init", "-q")
    assert statusline(tmp_path, claude_status(tmp_path, fill=850_000)) == ""  # no tg-git


def test_korean(repo: Path) -> None:
    tg(repo, "config", "set", "language", "ko")
    out = statusline(repo, claude_status(repo, fill=850_000))
    assert "컨텍스트" in out and "경고" in out, out


def test_copilot_percentage_only(repo: Path) -> None:
    """Copilot CLI's experimental status line gives `context_window.used_percentage` only:
    with no window, nothing can be measured; with one, the fill follows from it."""
    line = statusline(repo, {"session_id": "c1", "cwd": str(repo),
                             "context_window": {"used_percentage": 50}}, "--agent", "copilot")  # fmt: skip
    assert line.startswith("tg-git")
    statusline(repo, {"session_id": "c1", "cwd": str(repo), "context_window": {
        "used_percentage": 85, "context_window_size": 400_000}}, "--agent", "copilot")  # fmt: skip
    assert status(repo)["context"] | {"measured_at": None} == {
        "used": 340_000, "window": 400_000, "percent": 85.0, "level": "warning",
        "source": "statusline", "measured_at": None, "window_from": "agent"}  # fmt: skip


def test_the_gauge_cache_follows_every_change_of_the_ledger_config_and_session(repo: Path) -> None:
    """A refresh with nothing new reads a small cache; anything that changes the session's
    figures (a recorded event, a commit, the config, a new session) shows at the next one."""
    payload = claude_status(repo, fill=None, window=0)
    payload["context_window"]["context_window_size"] = None
    assert "ctx 0/200k" in statusline(repo, payload)
    assert (repo / ".git" / "tg-git" / "gauge.memo").is_file()
    assert "ctx 0/200k" in statusline(repo, payload)  # from the cache
    tg(repo, "record", "--tokens", "170000")
    assert "ctx 170k/200k (85%)" in statusline(repo, payload)
    land(repo, "c.txt", "word " * 2000)
    assert "ctx 17" in statusline(repo, payload) and "170k/" not in statusline(repo, payload)
    tg(repo, "config", "set", "budget.context", "400000")
    assert "/400k" in statusline(repo, payload)
    tg(repo, "config", "set", "language", "ko")
    assert "컨텍스트" in statusline(repo, payload)
    tg(repo, "session", "start")
    assert "컨텍스트 0/400k" in statusline(repo, payload)


def test_the_checkpoint_subject_names_the_budget_that_reached_the_level(repo: Path) -> None:
    """A save at a context halt reads against the window the agent reports (1,000,000), not
    the session's estimate budget (200,000): never "~960,001/200,000 tokens (480%)"."""
    statusline(repo, claude_status(repo, fill=960_000, spent=1_000_000, cost=5.0))
    land(repo, "a.txt", "the commit that crosses lands\n")
    subjects = git(repo, "log", "--grep", "^checkpoint:", "--format=%s").stdout.splitlines()
    assert subjects, "no checkpoint was saved at the halt"
    assert "/1,000,000 tokens (96%)" in subjects[0], subjects
