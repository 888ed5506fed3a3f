"""One clear figure per budget, budgets that change only on the record, and readings in their
true order: the context budget (its fill and where its window came from) and the spend
budget shown apart in `status`, `status --json`, the commit hook, checkpoints and the report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import cast

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import status
from tests.support.repos import tg
from tg_git.domain import budget
from tg_git.domain import levels
from tg_git.domain import replay
from tg_git.domain.config import Config

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import UsageEvent

STARTED = "2026-12-01T10:00:00Z"


def session(**values: Any) -> replay.Session:
    return replay.Session("s1", STARTED, 1000, "", **values)


def usage(s: replay.Session, at: str, fill: int, window: int = 0) -> replay.Session:
    event = {"kind": "usage", "at": at, "model": "claude-opus-4-6", "fill": fill, "window": window}
    replay.apply_usage(s, cast("UsageEvent", event))
    return s


def claude_status(
    repo: Path, *, fill: int, spent: int = 0, cost: float = 0.0, window: int = 1_000_000
) -> dict[str, Any]:
    """A status-line JSON in the shape Claude Code sends (docs/budgets.md)."""
    current = {"input_tokens": 7, "output_tokens": 300, "cache_creation_input_tokens": 993,
               "cache_read_input_tokens": fill - 1000}  # fmt: skip
    return {
        "session_id": "51d7023f-0c1e-4d55-9a5e-000000000002", "cwd": str(repo),
        "model": {"id": "claude-opus-5-5"},
        "workspace": {"current_dir": str(repo), "project_dir": str(repo)},
        "cost": {"total_cost_usd": cost},
        "context_window": {
            "total_input_tokens": spent - spent // 50, "total_output_tokens": spent // 50,
            "context_window_size": window, "current_usage": current,
            "used_percentage": fill * 100 // window,
        },
    }  # fmt: skip


def statusline(repo: Path, payload: dict[str, Any]) -> str:
    proc = tg(repo, "statusline", input=json.dumps(payload), env={"NO_COLOR": "1"}, check=False)
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    return proc.stdout


def land(repo: Path, name: str, text: str) -> None:
    (repo / name).write_text(text)
    git(repo, "add", name)
    commit(repo, "-m", f"add {name}")


def report_json(repo: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(tg(repo, "report", "--json").stdout)
    return data


def current_row(repo: Path) -> dict[str, Any]:
    data = report_json(repo)
    return next(s for s in data["sessions"] if s["id"] == data["current_session"])


# ---- one clear figure per budget -------------------------------------------------------------
def test_a_window_read_from_the_agent_never_replaces_max_tokens(repo: Path) -> None:
    """After a status-line reading of a 1,000,000-token window, `status --json` keeps the
    configured `max_tokens`, names the window apart (and where it came from), and the report
    gives the same percent and level."""
    statusline(repo, claude_status(repo, fill=850_000, spent=900_000, cost=3.0))
    st = status(repo)
    assert st["max_tokens"] == st["session"]["max_tokens"] == 200_000
    assert st["context"]["window"] == 1_000_000 and st["context"]["window_from"] == "agent"
    assert (st["used"], st["percent"], st["level"]) == (850_000, 85.0, "warning")
    row = current_row(repo)
    assert (row["percent"], row["level"]) == (st["percent"], st["level"])
    assert row["max_tokens"] == 200_000 and row["window"] == 1_000_000
    assert row["token_thresholds"] == st["token_thresholds"]


def test_init_max_tokens_stands_beside_the_agents_window(repo: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", "6000")
    statusline(repo, claude_status(repo, fill=60_000, window=200_000, spent=60_100))
    st = status(repo)
    assert (st["max_tokens"], st["context"]["window"]) == (6000, 200_000)
    row = current_row(repo)
    assert (row["percent"], row["level"]) == (st["percent"], st["level"]) == (30.0, "ok")


def test_the_status_table_adds_up_and_the_budgets_are_labelled(repo: Path) -> None:
    """The estimate table's rows add up to its total; the context (measured, with its
    window's origin) and the spend are lines of their own."""
    tg(repo, "record", "--tokens", "100")
    land(repo, "a.txt", "some words to count\n")
    statusline(repo, claude_status(repo, fill=60_000, window=200_000, spent=60_100))
    out = tg(repo, "status").stdout
    rows = [line for line in out.splitlines() if line.startswith("| ") and "~" in line]
    numbers = [int(re.search(r"~([\d,]+)", r)[1].replace(",", "")) for r in rows]  # type: ignore[index]
    assert numbers[-1] == sum(numbers[:-1]), out
    context = next(line for line in out.splitlines() if line.startswith("Context:"))
    assert "60,000" in context and "200,000" in context and "max_tokens 200,000" in context
    assert "status line" in context, context
    assert any(line.startswith("Spend:") for line in out.splitlines())


def test_the_commit_hook_shows_both_budgets_labelled(repo: Path) -> None:
    statusline(repo, claude_status(repo, fill=60_000, spent=60_100))  # a 1,000,000 window
    (repo / "b.txt").write_text("more words\n")
    git(repo, "add", "b.txt")
    hook = commit(repo, "-m", "b").stderr
    gauge = next(line for line in hook.splitlines() if "🔋" in line)
    assert "context ~60," in gauge and "/1,000,000 tokens" in gauge, gauge
    assert "the window the agent reports" in gauge, gauge
    assert "spend ~60,100" in gauge, gauge


def test_the_report_draws_a_single_measured_reading(repo: Path) -> None:
    out = repo.parent / "r.html"
    for max_tokens in ("6000", "200000"):  # the reading carried into the ledger, or kept live
        tg(repo, "session", "start", "--max-tokens", max_tokens)
        statusline(repo, claude_status(repo, fill=60_000, window=200_000, spent=60_100))
        tg(repo, "report", "-o", str(out))
        assert 'class="dot dot-measured"' in out.read_text(), max_tokens
        assert current_row(repo)["burn_down"]["measured"][-1]["used"] == status(repo)["used"]


# ---- checkpoint text from the budget that set the level ----------------------------------------
def test_the_checkpoint_text_reads_the_budget_that_set_the_level(repo: Path) -> None:
    statusline(repo, claude_status(repo, fill=960_000, spent=1_000_000, cost=5.0))
    land(repo, "a.txt", "the commit that crosses lands\n")
    subject = git(repo, "log", "--grep", "^checkpoint:", "--format=%s").stdout.splitlines()[0]
    md = git(repo, "show", "HEAD:CHECKPOINT.md").stdout
    assert "/1,000,000" in subject and "(96%)" in subject, subject
    tokens = next(line for line in md.splitlines() if "Tokens" in line or "Context" in line)
    assert "/1,000,000" in tokens and "(96%)" in tokens and "/200,000" not in tokens, tokens
    assert "480%" not in md


def test_a_spend_halt_names_the_spend_budget(repo: Path) -> None:
    tg(repo, "config", "set", "budget.spend_tokens", "40000")
    statusline(repo, claude_status(repo, fill=30_000, window=200_000, spent=40_000))
    assert "halt" in statusline(repo, claude_status(repo, fill=30_000, window=200_000,
                                                   spent=40_000))  # fmt: skip
    land(repo, "a.txt", "the commit at the spend halt\n")
    subject = git(repo, "log", "--grep", "^checkpoint:", "--format=%s").stdout.splitlines()[0]
    assert "spend" in subject and "/40,000" in subject and "/200,000" not in subject, subject


def test_the_status_line_follows_config_set_at_once(repo: Path) -> None:
    """`config set budget.spend_usd` is a change of the record: the very next refresh of the
    status line shows the new level (nothing cached hides it)."""
    payload = claude_status(repo, fill=30_000, window=200_000, spent=40_000, cost=4.0)
    assert "· ok" in statusline(repo, payload)
    tg(repo, "config", "set", "budget.spend_usd", "4")
    assert "halt" in statusline(repo, payload)


# ---- budgets change only on the record ---------------------------------------------------------
def _hand_edit(repo: Path, old: str, new: str) -> None:
    path = repo / ".tg-git" / "config.toml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_hand_edit_that_would_lower_the_level_is_ignored_until_recorded(repo: Path) -> None:
    # The record that crosses lands in a commit of its own at the halt.
    head = git(repo, "rev-parse", "HEAD").stdout
    tg(repo, "record", "--tokens", "192000")
    assert git(repo, "rev-parse", "HEAD").stdout != head
    assert status(repo)["level"] == "halt"
    _hand_edit(repo, "halt = 95", "halt = 99")
    st = status(repo)
    assert st["level"] == "halt" and st["unrecorded"] == ["thresholds.halt"]
    text = tg(repo, "status").stdout
    assert "tg-git config set thresholds.halt 99" in text, text
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    refused = commit(repo, "-m", "x", check=False)
    assert refused.returncode != 0
    assert "tg-git config set thresholds.halt 99" in refused.stderr
    # Recorded, it takes effect (and the history says when).
    tg(repo, "config", "set", "thresholds.halt", "99")
    st = status(repo)
    assert st["level"] == "force-save" and st["unrecorded"] == []
    assert commit(repo, "-m", "x").returncode == 0


def test_hand_edits_of_the_spend_budget_and_max_tokens_are_ignored(repo: Path) -> None:
    tg(repo, "config", "set", "budget.spend_tokens", "40000")
    statusline(repo, claude_status(repo, fill=30_000, window=200_000, spent=39_000))
    assert status(repo)["halted_by"] == "spend"
    _hand_edit(repo, "spend_tokens = 40000", "spend_tokens = 4000000")
    _hand_edit(repo, "max_tokens = 200000", "max_tokens = 9000000")
    st = status(repo)
    assert (st["halted_by"], st["unrecorded"]) == ("spend", ["budget.spend_tokens"])
    assert st["max_tokens"] == 200_000
    assert "config set budget.spend_tokens" in statusline(
        repo, claude_status(repo, fill=30_000, window=200_000, spent=39_000)
    )


def test_a_stricter_hand_edit_takes_effect_at_once() -> None:
    s = session(output=850)
    assert budget.budgets(s, Config(warning=70, force_save=80, halt=85)).level == levels.HALT


def test_the_record_beats_a_lenient_file_in_process() -> None:
    s = session(output=960)
    found = budget.budgets(s, Config(halt=99))
    assert (found.level, found.unrecorded) == (levels.HALT, ("thresholds.halt",))
    s.recorded.append("thresholds.halt=99")
    found = budget.budgets(s, Config(halt=99))
    assert (found.level, found.unrecorded) == (levels.FORCE_SAVE, ())


# ---- readings in their true order ----------------------------------------------------------------
def test_a_ledger_reading_of_the_same_second_after_the_live_one_wins() -> None:
    """A status-line reading (880) and, in the same second, the Stop hook's transcript
    reading (910) recorded after it: the newer one is the fill, whatever the clock says."""
    s = session()
    live = budget.Live("claude", "a", 880, 1000, "2026-12-01T10:05:00Z", 0, 0, None,
                       seen="")  # fmt: skip
    usage(s, "2026-12-01T10:05:00Z", 910, 1000)
    found = budget.budgets(s, Config(), live)
    assert (found.context.used, found.level) == (910, levels.FORCE_SAVE)
    # A live reading taken after that measurement (it saw it) is the newer one.
    later = live._replace(used=930, seen=budget.seen(s))
    assert budget.budgets(s, Config(), later).context.used == 930


def test_the_status_line_records_what_it_saw(repo: Path) -> None:
    statusline(repo, claude_status(repo, fill=100_000, window=1_000_000))
    tg(repo, "record", "--tokens", "10")
    live = json.loads((repo / ".git" / "tg-git" / "live.json").read_text())
    entry = next(iter(live["readings"].values()))
    assert "seen" in entry and "at_ns" in entry


def test_a_halt_reached_by_an_estimate_is_not_lifted_by_a_higher_measured_fill() -> None:
    """Measured 900, a commit's estimate brings it to 980 (the halt, landed); the agent's
    next fill is 930: no compaction happened, so the next commit is still refused."""
    landed = usage(session(), "2026-12-01T10:01:00Z", 900, 1000)
    landed.output += 80
    assert budget.session_level(landed, Config()) == levels.HALT
    now = usage(landed.copy(), "2026-12-01T10:02:00Z", 930, 1000)
    assert budget.landed_level(landed, now, Config()) == levels.HALT
    compacted = usage(landed.copy(), "2026-12-01T10:03:00Z", 200, 1000)
    assert budget.landed_level(landed, compacted, Config()) == levels.OK


def test_a_hand_edit_of_the_budget_source_keeps_the_measured_fill(repo: Path) -> None:
    """`[budget] source = "estimate"` written by hand would drop a measured halt to the
    estimate: it waits for `tg-git config set budget.source estimate`."""
    statusline(repo, claude_status(repo, fill=960_000, spent=1_000_000))
    assert status(repo)["level"] == "halt"
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text() + '\n[budget]\nsource = "estimate"\n')
    st = status(repo)
    assert (st["level"], st["unrecorded"]) == ("halt", ["budget.source"])
    tg(repo, "config", "set", "budget.source", "estimate")
    st = status(repo)
    assert (st["level"], st["unrecorded"]) == ("ok", [])
