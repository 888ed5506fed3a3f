"""The two budgets (tg_git/domain/budget.py), the one rounding rule (levels.py), the budget config
keys: the pure model first, then what the hooks and commands print of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import cast

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.domain import budget
from tg_git.domain import levels
from tg_git.domain import replay
from tg_git.domain.config import Config
from tg_git.domain.config import from_mapping
from tg_git.domain.errors import CorruptFile
from tg_git.repo import readings

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import UsageEvent

STARTED = "2026-12-01T10:00:00Z"


def session(**values: Any) -> replay.Session:
    return replay.Session("s1", STARTED, 200_000, "", **values)


def usage(s: replay.Session, at: str, fill: int, window: int = 0, **spend: int) -> None:
    event = {"kind": "usage", "at": at, "model": "claude-opus-4-6", "fill": fill, "window": window}
    replay.apply_usage(s, cast("UsageEvent", {**event, **spend}))


# ---- one rounding rule ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("used", "limit", "pct", "shown", "level"),
    [
        (799, 1000, 79.9, 79, "ok"),
        (800, 1000, 80.0, 80, "warning"),
        (899, 1000, 89.9, 89, "warning"),
        (900, 1000, 90.0, 90, "force-save"),
        (949, 1000, 94.9, 94, "force-save"),
        (950, 1000, 95.0, 95, "halt"),
        (94_999, 100_000, 94.99, 94, "force-save"),
        (949_999, 1_000_000, 94.99, 94, "force-save"),
        (1999, 2000, 99.95, 99, "halt"),
        (3000, 1000, 300.0, 300, "halt"),
    ],
)
def test_a_percentage_never_reads_as_a_level_not_reached(
    used: int, limit: int, pct: float, shown: int, level: str
) -> None:
    """Floored, so a shown 95 % is always the halt and 94 % never is (the git hook showed 94 %
    at 949/1,000 and the agent hook 95 %; status --json rounded 94.999 up to 95.0)."""
    assert levels.percent(used, limit) == pct
    assert levels.shown(used, limit) == shown
    assert levels.level(used, limit, Config()) == level


def test_every_gauge_shows_the_same_percentage_at_the_boundary(repo: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", "1000")
    tg(repo, "record", "--tokens", "949")
    data = json.loads(tg(repo, "status", "--json").stdout)
    assert (data["percent"], data["level"]) == (94.9, "force-save")
    assert "~949 / 1,000 tokens (94%)" in tg(repo, "status").stdout
    (repo / "empty.txt").write_text("")
    git(repo, "add", "empty.txt")
    hook = commit(repo, "-m", "zero tokens").stderr
    assert "~949/1,000 tokens (94%)" in hook, hook
    tg(repo, "agent", "install", "claude")
    start = tg(
        repo,
        "hook",
        "agent",
        "claude",
        "SessionStart",
        input=json.dumps({"session_id": "a1", "source": "compact", "cwd": str(repo)}),
    )
    context = json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "~949/1,000 tokens (94%)" in context, context


# ---- the context budget --------------------------------------------------------------------
def test_a_compaction_lowers_the_context_level_in_the_same_session() -> None:
    s = session()
    usage(s, "2026-12-01T10:01:00Z", 850_000, 1_000_000, fresh_input=850_000, output=1000)
    assert budget.budgets(s, Config()).context.level == "warning"
    usage(s, "2026-12-01T10:02:00Z", 960_000, 1_000_000, cache_read=950_000, output=1000)
    found = budget.budgets(s, Config())
    assert (found.level, found.halted_by) == ("halt", "context")
    usage(s, "2026-12-01T10:03:00Z", 200_000, 1_000_000, fresh_input=20_000, output=500)
    found = budget.budgets(s, Config())
    assert (found.context.used, found.level, found.halted_by) == (200_000, "ok", None)
    # Spend sums every class across the compaction.
    assert found.spend.used == 850_000 + 1000 + 950_000 + 1000 + 20_000 + 500


def test_context_window_auto_fixed_and_fallback() -> None:
    s = session()
    assert budget.context_window(s, Config()) == 200_000  # nothing reported: max_tokens
    usage(s, "2026-12-01T10:01:00Z", 100_000, 272_000)
    assert budget.context_window(s, Config()) == 272_000  # auto: the agent's window
    assert budget.context_window(s, Config(budget_context=150_000)) == 150_000
    live = budget.Live("claude", "a", 10, 1_000_000, "2026-12-01T10:02:00Z", 0, 0, None)
    assert budget.budgets(s, Config(), live).context.limit == 1_000_000


def test_estimates_after_the_newest_measurement_add_on() -> None:
    s = session()
    s.input = 5000
    live = budget.Live("claude", "a", 100_000, 1_000_000, "2026-12-01T10:02:00Z", 5000, 0, None)
    assert budget.budgets(s, Config(), live).context.used == 100_000
    s.output = 7000  # a commit after the reading
    assert budget.budgets(s, Config(), live).context.used == 107_000
    s.use_measured = False  # budget.source = "estimate": the live reading is not used either
    s.recorded = ["budget.source=estimate"]  # on the record (`tg-git config set`)
    assert budget.budgets(s, Config(budget_source="estimate"), live).context.used == 12_000
    s.recorded = []
    stale = live._replace(at="2026-11-30T00:00:00Z")  # from before the session began
    s.use_measured = True
    assert budget.budgets(s, Config(), stale).context.source == "estimated"


def test_a_context_halt_landed_is_lifted_by_a_compaction_recorded_since() -> None:
    landed = session()
    usage(landed, "2026-12-01T10:01:00Z", 960_000, 1_000_000)
    now = landed.copy()
    usage(now, "2026-12-01T10:02:00Z", 200_000, 1_000_000)
    assert budget.landed_level(landed, now, Config()) == "ok"
    rise = session()
    usage(rise, "2026-12-01T10:02:00Z", 990_000, 1_000_000)  # a rise counts once it landed
    assert budget.landed_level(session(), rise, Config()) == "ok"


# ---- the spend budget ----------------------------------------------------------------------
def test_spend_budgets_are_off_by_default_and_the_worse_one_counts() -> None:
    s = session()
    usage(s, "2026-12-01T10:01:00Z", 1000, fresh_input=1_000_000, output=100_000)
    off = budget.budgets(s, Config()).spend
    assert (off.limit, off.limit_usd, off.percent, off.level) == (None, None, None, "ok")
    usd = off.usd  # claude-opus-4-6: $5 in, $25 out per million
    assert usd == 5.0 + 2.5
    both = budget.budgets(s, Config(spend_tokens=10_000_000, spend_usd=7.8)).spend
    assert (both.percent, both.level) == (96.15, "halt")  # $7.50 of $7.80 is the worse
    found = budget.budgets(s, Config(spend_tokens=1_300_000))
    assert (found.spend.level, found.level, found.halted_by) == ("warning", "warning", None)


def test_the_agents_own_count_and_the_ledger_are_never_added() -> None:
    s = session()
    usage(s, "2026-12-01T10:01:00Z", 1000, fresh_input=400_000)
    live = budget.Live("claude", "a", 1000, 0, "2026-12-01T10:02:00Z", 0, 300_000, None)
    assert budget.budgets(s, Config(), live).spend.used == 400_000
    assert budget.budgets(s, Config(), live._replace(spent=500_000)).spend.used == 500_000


# ---- the live file -------------------------------------------------------------------------
def test_record_live_is_bounded_and_refuses_impossible_values(tmp_path: Path) -> None:
    for n in range(readings.MAX_READINGS + 10):
        assert readings.record_live(
            tmp_path,
            "claude",
            f"a{n}",
            used=n,
            session="s1",
            at=f"2026-12-01T10:{n // 60:02d}:{n % 60:02d}Z",
        )
    data = json.loads((tmp_path / readings.LIVE).read_text())
    assert len(data["readings"]) == readings.MAX_READINGS
    assert readings.read_live(tmp_path, "s1").used == readings.MAX_READINGS + 9  # type: ignore[union-attr]
    assert not readings.record_live(tmp_path, "claude", "x", used=-1)
    assert not readings.record_live(tmp_path, "claude", "x", used=10**40)
    assert readings.read_live(tmp_path, "other") is None


# ---- config --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "table",
    [
        {"context": 0},
        {"context": "big"},
        {"context": 1.5},
        {"spend_tokens": -1},
        {"spend_tokens": "1"},
        {"spend_usd": -2},
        {"spend_usd": True},
        {"spend_usd": float("nan")},
        {"spend_usd": float("inf")},
    ],
)
def test_bad_budget_values_are_clear_errors(table: dict[str, Any]) -> None:
    with pytest.raises(CorruptFile, match=r"`budget\.\w+` must be"):
        from_mapping({"budget": table})


def test_budget_keys_in_config(repo: Path) -> None:
    cfg = from_mapping(
        {"budget": {"context": 500_000, "spend_tokens": 2_000_000, "spend_usd": 12.5}}
    )
    assert (cfg.budget_context, cfg.spend_tokens, cfg.spend_usd) == (500_000, 2_000_000, 12.5)
    assert (Config().budget_context, Config().spend_tokens, Config().spend_usd) == (None,) * 3
    path = repo / ".tg-git" / "config.toml"
    path.write_text(path.read_text() + "# my note stays\n")
    for key, value in (
        ("budget.context", "300000"),
        ("budget.spend_usd", "20.5"),
        ("budget.spend_tokens", "off"),
        ("budget.context", "auto"),
    ):
        tg(repo, "config", "set", key, value)
    assert "# my note stays" in path.read_text()
    get = {
        k: tg(repo, "config", "get", k).stdout.strip()
        for k in ("budget.context", "budget.spend_tokens", "budget.spend_usd")
    }
    assert get == {
        "budget.context": "auto",
        "budget.spend_tokens": "off",
        "budget.spend_usd": "20.5",
    }
    for key, bad in (
        ("budget.context", "off"),
        ("budget.spend_tokens", "auto"),
        ("budget.spend_usd", "lots"),
        ("budget.context", "0"),
    ):
        proc = tg(repo, "config", "set", key, bad, check=False)
        assert proc.returncode != 0 and proc.stderr.count("\n") == 1, proc.stderr
    tg(repo, "config", "set", "language", "ko")
    proc = tg(repo, "config", "set", "budget.spend_usd", "lots", check=False)
    assert "미국 달러" in proc.stderr
