"""The offline price table: USD of measured usage, computed here from the table itself for a
fixture of each family (Claude, GPT/Codex, Gemini), through the real import of each agent's
own log shape; an unknown model costs tokens only."""

from __future__ import annotations

import json
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from bench._transcripts import token_counts
from tests.support.agents import GEMINI_TOKENS
from tests.support.agents import claude_line
from tests.support.agents import gemini_message
from tests.support.agents import project_folder
from tests.support.repos import PROJECT
from tests.support.repos import tg

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp

TABLE = json.loads((PROJECT / "tg_git" / "domain" / "prices.json").read_text())


def expected_usd(key: str, fresh: int, write: int, read: int, out: int) -> Decimal:
    """The figure from the table's own row, in exact decimals (not tg-git's code path)."""
    row = {k: Decimal(str(v)) for k, v in TABLE["models"][key].items()}
    mtok = Decimal(10**6)
    return (
        fresh * row["input"]
        + write * row["cache_write"]
        + read * row["cache_read"]
        + out * row["output"]
    ) / mtok


def usage(repo: Path) -> dict[str, Any]:
    tg(repo, "usage", "import")
    data: dict[str, Any] = json.loads(tg(repo, "usage", "--json").stdout)
    return data


def test_the_table_names_its_date_and_source() -> None:
    assert TABLE["date"] and "anthropic.com" in TABLE["source"] and "openai.com" in TABLE["source"]
    assert "ai.google.dev" in TABLE["source"]
    for key, row in TABLE["models"].items():
        assert set(row) == {"input", "output", "cache_write", "cache_read"}, key
        for value in row.values():  # at most 6 decimals: a price per token in whole picodollars
            assert Decimal(str(value)) * 10**6 == int(Decimal(str(value)) * 10**6), key


def test_claude_usd_equals_the_table(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(
        claude_line("m1", "r1", fresh=1234, write=56_789, read=987_654, out=4321)
        + claude_line("m2", "r2", fresh=10, write=0, read=5000, out=77, model="claude-haiku-4-5")
    )
    data = usage(repo)
    opus, haiku = (
        next(m for m in data["models"] if m["model"] == name)
        for name in ("claude-opus-4-6", "claude-haiku-4-5")
    )
    want_opus = expected_usd("claude-opus-4-6", 1234, 56_789, 987_654, 4321)
    want_haiku = expected_usd("claude-haiku", 10, 0, 5000, 77)
    assert Decimal(str(opus["usd"])) == want_opus.quantize(Decimal("0.000001"))
    assert Decimal(str(haiku["usd"])) == want_haiku.quantize(Decimal("0.000001"))
    spend = json.loads(tg(repo, "status", "--json").stdout)["spend"]
    assert Decimal(str(spend["usd"])) == (want_opus + want_haiku).quantize(Decimal("0.000001"))


def test_codex_usd_equals_the_table(repo: Path, agent_homes: dict[str, Path]) -> None:
    day = agent_homes["CODEX_HOME"] / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    lines = [
        {
            "timestamp": "2026-11-30T10:00:00.000Z",
            "type": "session_meta",
            "payload": {"id": "0199-abc", "cwd": str(repo), "cli_version": "0.169.0"},
        },
        {
            "timestamp": "2026-11-30T10:00:00.000Z",
            "type": "turn_context",
            "payload": {"model": "gpt-5.3-codex", "cwd": str(repo)},
        },
    ]
    (day / "rollout-2026-11-30T10-00-00-0199-abc.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in lines + token_counts([(50_000, 30_000, 2000)]))
    )
    data = usage(repo)
    (row,) = data["models"]
    fresh, read, out = row["fresh_input"], row["cache_read"], row["output"]
    assert (fresh + read, read) == (50_000, 30_000)  # Codex's input includes the cached part
    want = expected_usd("gpt-5.3", fresh, row["cache_write"], read, out)
    assert Decimal(str(row["usd"])) == want.quantize(Decimal("0.000001"))


def test_gemini_usd_equals_the_table(repo: Path, agent_homes: dict[str, Path]) -> None:
    gemini_dir = agent_homes["GEMINI_CLI_HOME"] / ".gemini"
    chats = gemini_dir / "tmp" / "repo" / "chats"
    chats.mkdir(parents=True)
    (gemini_dir / "projects.json").write_text(json.dumps({"projects": {str(repo): "repo"}}))
    message = gemini_message("x1", GEMINI_TOKENS, model="gemini-2.5-pro")
    (chats / "session-2026-11-30T10-05-bbbb2222.jsonl").write_text(
        json.dumps({"sessionId": "g-new"}) + "\n" + json.dumps(message) + "\n"
    )
    data = usage(repo)
    (row,) = data["models"]
    want = expected_usd(
        "gemini-2.5-pro", row["fresh_input"], row["cache_write"], row["cache_read"], row["output"]
    )
    assert row["total"] > 0
    assert Decimal(str(row["usd"])) == want.quantize(Decimal("0.000001"))


def test_an_unknown_model_costs_tokens_only_said_once(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(
        claude_line("m1", "r1", fresh=100, out=10, model="claude-opus-4-6")
        + claude_line("m2", "r2", fresh=500, out=50, model="mystery-model-9")
        + claude_line("m3", "r3", fresh=500, out=50, model="mystery-model-9")
    )
    data = usage(repo)
    mystery = next(m for m in data["models"] if m["model"] == "mystery-model-9")
    assert mystery["usd"] is None and data["unpriced_tokens"] == 1100
    assert data["usd"] == float(expected_usd("claude-opus-4-6", 100, 0, 0, 10))
    text = tg(repo, "usage").stdout
    assert text.count("1,100 tokens of models the price table does not know") == 1, text
    assert tg(repo, "status").stdout.count("price table does not know") == 1


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("claude-opus-4-20250514", "claude-opus-4"),
        ("claude-opus-4-1-20250805", "claude-opus-4-1"),
        ("claude-opus-4-6", "claude-opus-4-6"),
        ("claude-opus-5-5", "claude-opus"),
        ("claude-sonnet-4-5-20250929", "claude-sonnet"),
        ("anthropic/claude-3-5-haiku", "claude-3-5-haiku"),
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet"),
        ("claude-sonnet-4-5[1m]", "claude-sonnet"),
        ("gpt-5.1-codex", "gpt-5"),
        ("gpt-5-mini-2025-08-07", "gpt-5-mini"),
        ("gpt-5.3-codex", "gpt-5.3"),
        ("o4-mini", "o4-mini"),
        ("models/gemini-2.5-flash-lite", "gemini-2.5-flash-lite"),
        ("gemini-3-flash-preview", "gemini-3-flash"),
        ("gpt-50", None),
        ("o30", None),
        ("unknown", None),
        ("", None),
        ("claude", None),
    ],
)
def test_a_model_id_finds_its_family(model: str, key: str | None) -> None:
    from tg_git.domain import prices

    found = prices.lookup(model)
    assert (found.key if found else None) == key
