"""Measured usage: transcripts written here in each agent's shape, imported through the real
CLI into real repositories. No test reads an agent's real home folder."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from unittest import mock

import hypothesis
import pytest
from hypothesis import strategies as st

from bench._transcripts import token_counts
from tests.support.agents import GEMINI_TOKENS
from tests.support.agents import MARKER
from tests.support.agents import claude_line
from tests.support.agents import codex_lines
from tests.support.agents import gemini_message
from tests.support.agents import project_folder
from tests.support.agents import read_in_small_blocks
from tests.support.agents import transcript_before_session
from tests.support.agents import ts
from tests.support.agents import user_line
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import pending_file
from tests.support.repos import status
from tests.support.repos import tg
from tg_git.domain import eventlog
from tg_git.usage import claude
from tg_git.usage import codex
from tg_git.usage import gemini
from tg_git.usage.discover import claude_transcripts

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import UsageEvent

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp


def usage_import(repo: Path, *args: str) -> dict[str, Any]:
    return json.loads(tg(repo, "usage", "import", "--json", *args).stdout)  # type: ignore[no-any-return]


def usage_events(repo: Path) -> list[UsageEvent]:
    """The usage events recorded since the last commit (the pending file) and before it."""
    pending = pending_file(repo)
    text = ledger_file(repo).read_text() + (pending.read_text() if pending.exists() else "")
    return [e for e in eventlog.parse(text).values() if e["kind"] == "usage"]


# ---- parsers, fed bytes ---------------------------------------------------------------------
def test_claude_parser_counts_and_skips() -> None:
    data = (
        claude_line("m1", "r1", fresh=3, write=100, read=50, out=7)
        + claude_line("m2", "r2", model="<synthetic>", out=999)
        + claude_line("m3", "r3", side=True, out=5)
        + user_line()
        + 'not json but has "output_tokens"\n'
    ).encode()
    batch = claude.parse(data, {})
    assert batch.skipped == 1
    assert [(r.key, r.total, r.fill) for r in batch.records] == [
        ("m1:r1", 160, 160),
        ("m3:r3", 8, None),  # a sidechain spends but does not fill the main context
    ]


@pytest.mark.parametrize(
    "bad",
    ['"12"', "-5", "1e400", "true", "99999999999999999999", "1.5", "null"],
)
def test_claude_parser_rejects_impossible_counts(bad: str) -> None:
    line = claude_line("m1", "r1", out=10).replace('"output_tokens":10', f'"output_tokens":{bad}')
    batch = claude.parse(line.encode(), {})
    if bad == "null":  # absent counts are zero, not an error
        assert batch.skipped == 0 and batch.records[0].output == 0
    else:
        assert batch.skipped == 1 and batch.records == []


def test_parsers_survive_deep_nesting_and_binary() -> None:
    deep = b'{"output_tokens":1,"usage":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    junk = b'\xff\xfe"usage" "output_tokens" "token_count" "tokens"\x00\n'
    for parser in (claude, codex, gemini):
        batch = parser.parse(deep + junk, {})
        assert batch.records == [] and batch.skipped >= 1


def test_codex_parser_uses_deltas_of_the_totals() -> None:
    state: dict[str, Any] = {}
    data = codex_lines("/w", [(1000, 200, 50), (2500, 1200, 80)]).encode()
    batch = codex.parse(data, state)
    assert [(r.fresh_input, r.cache_read, r.output) for r in batch.records] == [
        (800, 200, 50),
        (500, 1000, 30),
    ]
    assert batch.records[-1].fill == 1500 + 30 and batch.records[-1].window == 272000
    assert batch.records[-1].model == "gpt-5.3-codex"
    more = "".join(json.dumps(e) + "\n" for e in token_counts([(2500, 1200, 80), (3000, 1300, 90)]))
    again = codex.parse(more.encode(), state)  # state carries the totals between imports
    assert [(r.fresh_input, r.cache_read, r.output) for r in again.records] == [(400, 100, 10)]


def test_gemini_parser_keeps_the_last_copy_per_id() -> None:
    tokens = GEMINI_TOKENS
    lines = [
        {"sessionId": "g-1", "projectHash": "x", "startTime": ts()},
        {"id": "u1", "timestamp": ts(), "type": "user", "content": MARKER},
        gemini_message("msg-a", None),
        gemini_message("msg-a", tokens),
    ]
    batch = gemini.parse("".join(json.dumps(x) + "\n" for x in lines).encode(), {})
    assert len(batch.records) == 1
    record = batch.records[0]
    assert record.total == 16276 and record.fill == 16276 and record.cache_read == 11526
    assert record.key == "msg-a" and record.session == "g-1"
    doc = {
        "sessionId": "g-2",
        "messages": [lines[1], gemini_message("m1", tokens), gemini_message("m2", tokens)],
    }
    old = gemini.parse_document(json.dumps(doc, indent=2).encode(), {})
    assert [r.total for r in old.records] == [16276, 16276]


# ---- Claude Code end to end ----------------------------------------------------------------
def test_claude_import_end_to_end(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    transcript = folder / "sess-1.jsonl"
    # three streaming copies of one response, a synthetic line, a user line
    transcript.write_text(
        user_line()
        + claude_line("m1", "r1", fresh=5, write=1000, read=2000, out=1)
        + claude_line("m1", "r1", fresh=5, write=1000, read=2000, out=20)
        + claude_line("m1", "r1", fresh=5, write=1000, read=2000, out=48)
        + claude_line("m9", "r9", model="<synthetic>", out=500)
    )
    first = usage_import(repo)
    assert first["requests"] == 1 and first["tokens"] == 3053
    data = status(repo)
    assert data["used"] == 3053 and data["source"] == "measured"
    assert data["measured"]["model"] == "claude-opus-4-6" and data["measured"]["fill"] == 3053
    assert data["spend"] | {"usd": None} == {  # the spend budget's keys beside the classes
        "fresh_input": 5, "cache_write": 1000, "cache_read": 2000, "output": 48, "total": 3053,
        "requests": 1, "tokens": 3053, "usd": None, "budget_tokens": None, "budget_usd": None,
        "percent": None, "level": "ok"}  # fmt: skip
    assert data["spend"]["usd"] == (5 * 5 + 1000 * 6.25 + 2000 * 0.5 + 48 * 25) / 10**6
    # a second import adds nothing
    assert usage_import(repo)["events"] == 0
    assert status(repo)["used"] == 3053
    # growth adds exactly the new turn; a copy of m1 that grew adds only what grew
    with transcript.open("a") as fh:
        fh.write(claude_line("m1", "r1", fresh=5, write=1000, read=2000, out=60))
        fh.write(claude_line("m2", "r2", fresh=2, write=100, read=3053, out=40))
    grown = usage_import(repo)
    assert grown["tokens"] == 12 + 3195 and grown["requests"] == 1
    data = status(repo)
    assert data["spend"]["total"] == 3053 + 12 + 3195 and data["spend"]["requests"] == 2
    assert data["used"] == 3195  # the newest request's fill, not a sum of re-reads
    # a half-written last line is read next time, once complete
    line = claude_line("m3", "r3", fresh=1, write=0, read=3195, out=4)
    with transcript.open("a") as fh:
        fh.write(line[:40])
    assert usage_import(repo)["events"] == 0
    with transcript.open("a") as fh:
        fh.write(line[40:])
    assert usage_import(repo)["tokens"] == 3200
    assert status(repo)["used"] == 3200
    text = tg(repo, "status").stdout
    assert "Source: measured" in text and "claude-opus-4-6" in text


def test_sidechains_spend_but_do_not_fill(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "sess-1.jsonl").write_text(claude_line("m1", "r1", read=5000, out=10))
    sub = folder / "sess-1" / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-a1.jsonl").write_text(
        claude_line("s1", "rs1", read=90000, out=10, side=True, model="claude-haiku-4-5")
    )
    usage_import(repo)
    data = status(repo)
    assert data["used"] == 5013  # the main context only
    assert data["spend"]["total"] == 5013 + 90013
    report = json.loads(tg(repo, "usage", "--json").stdout)
    models = {m["model"]: m["total"] for m in report["models"]}
    assert models == {"claude-opus-4-6": 5013, "claude-haiku-4-5": 90013}
    assert "claude-haiku-4-5" in tg(repo, "usage").stdout


def test_compaction_lowers_used_and_estimates_add_on_top(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    transcript = folder / "sess-1.jsonl"
    tg(repo, "record", "--tokens", "777")  # before the measurement: inside it
    transcript.write_text(claude_line("m1", "r1", write=100_000, read=50_000, out=100))
    usage_import(repo)
    assert status(repo)["used"] == 150_103
    # a commit after the measurement adds on top until the next one
    (repo / "app.py").write_text("def f(x):\n    return x * 2\n" * 20)
    git(repo, "add", "app.py")
    gauge = commit(repo, "-m", "app").stderr
    data = status(repo)
    assert data["source"] == "mixed" and data["output"] > 0
    assert data["used"] == 150_103 + data["output"]
    assert f"~{data['used']:,}/" in gauge  # the commit hook's gauge uses the same figure
    # the next measurement (after a compaction) replaces everything before it
    with transcript.open("a") as fh:
        fh.write(claude_line("m2", "r2", fresh=20, write=12_000, read=0, out=80, at=ts(2)))
    usage_import(repo)
    data = status(repo)
    assert data["used"] == 12_100 and data["source"] == "measured"
    assert data["input"] == 777  # the estimate is still there, only not used


def test_budget_source_estimate_keeps_the_estimate(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text() + '\n[budget]\nsource = "estimate"\n')
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(claude_line("m1", "r1", read=90_000))
    tg(repo, "record", "--tokens", "10")
    usage_import(repo)
    data = status(repo)
    assert data["used"] == 10 and data["source"] == "estimated"
    assert data["spend"]["total"] == 90_013  # spend still shows
    config.write_text(config.read_text().replace('"estimate"', '"guess"'))
    bad = tg(repo, "status", check=False)
    assert bad.returncode == 1 and "budget.source" in bad.stderr


def test_no_agent_logs_keeps_the_estimate(repo: Path) -> None:
    assert usage_import(repo)["events"] == 0
    tg(repo, "record", "--tokens", "1234")
    data = status(repo)
    assert data["used"] == 1234 and data["source"] == "estimated" and data["measured"] is None


def test_records_before_the_session_are_not_counted(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    transcript_before_session(
        repo,
        agent_homes["CLAUDE_CONFIG_DIR"],
        "old.jsonl",
        claude_line("m0", "r0", read=99_000, at=ts(-3600)),
    )
    assert usage_import(repo)["events"] == 0
    assert status(repo)["used"] == 0


def test_hostile_lines_are_skipped_with_a_count(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    good = claude_line("m1", "r1", fresh=1, read=1000, out=9)
    hostile = [
        '{"type":"assistant","message":{"usage":{"output_tokens":' + "[" * 50_000 + "\n",
        'garbage with "output_tokens" in it\n',
        claude_line("m2", "r2", out=10).replace('"output_tokens":10', '"output_tokens":-4'),
        claude_line("m3", "r3", out=10).replace('"output_tokens":10', '"output_tokens":"9000"'),
        claude_line("m4", "r4", out=10).replace(
            '"output_tokens":10', '"output_tokens":' + "9" * 30
        ),
    ]
    (folder / "s.jsonl").write_bytes(("".join(hostile) + good).encode() + b"\xff\xfe\n")
    result = usage_import(repo)
    assert result["skipped"] == 5 and result["tokens"] == 1010
    assert status(repo)["used"] == 1010


def test_a_last_time_that_names_no_moment_is_no_error(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    """A transcript whose last line has a time of the right form naming no moment (hour 25)
    imports: that time tells nothing of the writer's clock, and every request counts."""
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    text = claude_line("m1", "r1", fresh=1, read=1000, out=9)
    today = ts()[:11]  # a fixed day would fall before the session once that day is over
    text += claude_line("m2", "r2", out=10, at=f"{today}25:00:00Z")
    (folder / "s.jsonl").write_text(text)
    result = usage_import(repo)
    assert (result["requests"], result["tokens"], result["skipped"]) == (2, 1010 + 13, 0)


def test_symlinked_transcript_is_skipped(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(claude_line("m1", "r1", read=5000))
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").symlink_to(elsewhere)
    result = usage_import(repo)
    assert result["events"] == 0 and result["skipped"] == 1
    assert any("not a regular file" in n for n in result["notes"])
    out = tg(repo, "usage", "import", "--transcript", str(folder / "s.jsonl")).stdout
    assert out.count("not a regular file") == 1


def test_rotated_and_deleted_transcripts(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    transcript = folder / "s.jsonl"
    transcript.write_text(claude_line("m1", "r1", read=5000) + claude_line("m2", "r2", read=6000))
    usage_import(repo)
    used = status(repo)["used"]
    transcript.unlink()  # rotated: a new, shorter file under the same name
    transcript.write_text(claude_line("m7", "r7", read=100))
    rotated = usage_import(repo)
    assert rotated["events"] == 0 and len(rotated["notes"]) == 1
    assert "replaced or truncated" in rotated["notes"][0]
    assert status(repo)["used"] == used
    transcript.unlink()
    gone = tg(repo, "usage", "import").stdout
    assert gone.count("is gone") == 1
    assert "is gone" not in tg(repo, "usage", "import").stdout  # said once


def test_corrupt_offset_file_never_double_counts(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(claude_line("m1", "r1", read=5000))
    usage_import(repo)
    state = next((repo / ".git" / "tg-git" / "usage").glob("*.json"))
    state.write_text("{not json")
    again = usage_import(repo)
    assert again["events"] == 0 and "unreadable" in again["notes"][0]
    assert status(repo)["spend"]["total"] == 5013


def test_explicit_transcript_and_session_filter(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "aaa.jsonl").write_text(claude_line("m1", "r1", read=1000, session="aaa"))
    (folder / "bbb.jsonl").write_text(claude_line("m2", "r2", read=2000, session="bbb"))
    assert usage_import(repo, "--session", "bbb")["tokens"] == 2013
    other = tmp_path / "x" / "zzz.jsonl"
    other.parent.mkdir()
    other.write_text(claude_line("m3", "r3", read=3000))
    assert usage_import(repo, "--transcript", str(other), "--agent", "claude")["tokens"] == 3013
    missing = tg(repo, "usage", "import", "--transcript", str(tmp_path / "nope.jsonl"), check=False)
    assert missing.returncode == 0 and missing.stdout.count("is gone") == 1


def test_claude_config_dir_may_list_several(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = tmp_path / "c1", tmp_path / "c2"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", f"{one},{two}")
    project_folder(repo, two)
    (project_folder(repo, two) / "s.jsonl").write_text(claude_line("m1", "r1"))
    assert [p.name for p, _ in claude_transcripts(repo, [])] == ["s.jsonl"]


def test_no_transcript_text_is_stored_anywhere(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    hostile_session = f"id with {MARKER} inside"
    (folder / "s.jsonl").write_text(
        user_line(f"please read {MARKER}")
        + claude_line("m1", "r1", write=170_000, out=100, session=hostile_session)
        + claude_line("m2", "r2", model=f"model {MARKER}", read=10)
    )
    tg(repo, "usage", "import")
    assert status(repo)["measured"]["model"] == "unknown"  # free text is not an id
    tg(repo, "checkpoint", "-m", "save")  # the measured figures go into a checkpoint too
    outputs = [tg(repo, *args).stdout for args in (["status"], ["status", "--json"], ["usage"],
                                                   ["usage", "--json"], ["log", "--json"])]  # fmt: skip
    assert not any(MARKER in out for out in outputs)
    for path in (ledger_file(repo), repo / "harness_checkpoint.json", repo / "CHECKPOINT.md"):
        assert MARKER not in path.read_text()
    objects = subprocess.run(
        ["git", "cat-file", "--batch-all-objects", "--batch"],
        cwd=repo,
        capture_output=True,
        check=True,
    ).stdout
    assert MARKER.encode() not in objects
    for state in (repo / ".git" / "tg-git").rglob("*"):
        if state.is_file():
            assert MARKER.encode() not in state.read_bytes(), state


def test_usage_without_measurements_says_so(repo: Path) -> None:
    assert "No measured usage" in tg(repo, "usage").stdout
    data = json.loads(tg(repo, "usage", "--json").stdout)
    assert data["turns"] == [] and data["source"] == "estimated"


# ---- Codex and Gemini end to end -----------------------------------------------------------
def test_codex_import_finds_rollouts_by_cwd(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path
) -> None:
    day = agent_homes["CODEX_HOME"] / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    mine = day / "rollout-2026-11-30T10-00-00-0199-abc.jsonl"
    mine.write_text(codex_lines(str(repo), [(1000, 200, 50), (2500, 1200, 80)]))
    other = day / "rollout-2026-11-30T10-00-00-0199-zzz.jsonl"
    other.write_text(codex_lines(str(tmp_path / "another-repo"), [(99999, 0, 1)]))
    first = usage_import(repo, "--agent", "codex")
    assert first["tokens"] == 2580 and first["requests"] == 2
    data = status(repo)
    assert data["used"] == 1530 and data["measured"]["window"] == 272000
    assert data["measured"]["model"] == "gpt-5.3-codex"
    with mine.open("a") as fh:  # the totals go on, with repeats
        for event in token_counts([(2500, 1200, 80), (3000, 1300, 90)]):
            fh.write(json.dumps(event) + "\n")
    assert usage_import(repo, "--agent", "codex")["tokens"] == 510
    assert status(repo)["spend"]["total"] == 3090


def test_gemini_import_jsonl_and_old_json(repo: Path, agent_homes: dict[str, Path]) -> None:
    tokens = GEMINI_TOKENS
    gemini_dir = agent_homes["GEMINI_CLI_HOME"] / ".gemini"
    hashed = gemini_dir / "tmp" / hashlib.sha256(str(repo).encode()).hexdigest() / "chats"
    hashed.mkdir(parents=True)
    doc: dict[str, Any] = {"sessionId": "g-old", "messages": [gemini_message("m1", tokens)]}
    (hashed / "session-2026-11-30T10-00-aaaa1111.json").write_text(json.dumps(doc, indent=2))
    slug = gemini_dir / "tmp" / "repo" / "chats"
    slug.mkdir(parents=True)
    (gemini_dir / "projects.json").write_text(json.dumps({"projects": {str(repo): "repo"}}))
    jsonl = slug / "session-2026-11-30T10-05-bbbb2222.jsonl"
    jsonl.write_text(
        json.dumps({"sessionId": "g-new"})
        + "\n"
        + json.dumps(gemini_message("x1", None))
        + "\n"
        + json.dumps(gemini_message("x1", tokens))
        + "\n"
    )
    assert usage_import(repo, "--agent", "gemini")["tokens"] == 2 * 16276
    # the old form is rewritten whole: a new message counts, the old one not again
    doc["messages"].append(gemini_message("m2", {**tokens, "output": 100, "total": 16353}))
    (hashed / "session-2026-11-30T10-00-aaaa1111.json").write_text(json.dumps(doc, indent=2))
    assert usage_import(repo, "--agent", "gemini")["tokens"] == 16353
    assert usage_import(repo, "--agent", "gemini")["events"] == 0
    assert status(repo)["spend"]["total"] == 3 * 16276 + 77


def test_import_without_session_or_setup(plain_repo: Path) -> None:
    out = tg(plain_repo, "usage", "import", check=False)
    assert out.returncode == 3 and "tg-git init" in out.stderr


def test_usage_events_carry_counts_and_ids_only(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(claude_line("m1", "r1", read=10))
    usage_import(repo)
    (event,) = usage_events(repo)
    assert set(event) <= {"kind", "at", "session", "agent", "model", "requests", "fresh_input",
                          "cache_write", "cache_read", "output", "fill", "window", "transcript"}  # fmt: skip
    assert all(isinstance(v, (int, str)) for v in event.values())
    assert os.sep not in event["transcript"]


# ---- an independent reader of the same logs ------------------------------------------------
@pytest.mark.network
def test_ccusage_reports_the_same_spend(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path
) -> None:
    """ccusage 20.0.24 (npm) reads the same Claude fixture: its per-model rows (which leave
    out `<synthetic>` lines) equal tg-git's spend. Needs npm and the registry."""

    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s1.jsonl").write_text(
        claude_line("m1", "r1", fresh=5, write=1000, read=2000, out=1, session="s1")
        + claude_line("m1", "r1", fresh=5, write=1000, read=2000, out=48, session="s1")
        + claude_line("m2", "r2", fresh=2, write=100, read=3053, out=40, session="s1")
        + claude_line("m3", "r3", model="<synthetic>", out=500, session="s1")
    )
    (folder / "s2.jsonl").write_text(
        claude_line("m4", "r4", fresh=9, read=777, out=3, session="s2")
    )
    tools = tmp_path / "tools"
    tools.mkdir()
    subprocess.run([npm, "install", "--silent", "ccusage@20.0.24"], cwd=tools, check=True,
                   capture_output=True, timeout=600)  # fmt: skip
    out = subprocess.run([str(tools / "node_modules" / ".bin" / "ccusage"), "claude", "session",
                          "--json", "--offline"], capture_output=True, text=True, check=True,
                         timeout=120)  # fmt: skip
    rows = [r for s in json.loads(out.stdout)["sessions"] for r in s["modelBreakdowns"]]
    theirs = [
        sum(r[k] for r in rows)
        for k in ("inputTokens", "cacheCreationTokens", "cacheReadTokens", "outputTokens")
    ]
    usage_import(repo)
    spend = status(repo)["spend"]
    assert [spend[k] for k in ("fresh_input", "cache_write", "cache_read", "output")] == theirs


def test_a_line_that_never_ends_is_skipped_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tg_git.usage import importer

    path = tmp_path / "s.jsonl"
    path.write_text("x" * 5000 + "\n" + claude_line("m1", "r1", read=100))
    batch, mark, parse = read_in_small_blocks(monkeypatch, path, "claude")
    assert batch.skipped == 1 and [r.total for r in batch.records] == [113]
    assert mark.offset == path.stat().st_size
    path.write_text(path.read_text() + "y" * 3000)  # a new endless line: read past, not again
    again = importer._read(path, mark, parse, path.stat())
    assert again.skipped == 1 and mark.offset == path.stat().st_size


def test_codex_looks_only_at_recent_day_folders(repo: Path, agent_homes: dict[str, Path]) -> None:
    old = agent_homes["CODEX_HOME"] / "sessions" / "2019" / "01" / "01"
    old.mkdir(parents=True)
    (old / "rollout-2019-01-01T10-00-00-0199-old.jsonl").write_text(
        codex_lines(str(repo), [(5000, 0, 5)])
    )
    assert usage_import(repo, "--agent", "codex")["events"] == 0  # a rollout in an old day folder
    archived = agent_homes["CODEX_HOME"] / "archived_sessions"
    archived.mkdir()
    (archived / "rollout-2026-01-01T10-00-00-0199-arc.jsonl").write_text(
        codex_lines(str(repo), [(700, 0, 7)])
    )
    assert usage_import(repo, "--agent", "codex")["tokens"] == 707  # archived: changed this session


def test_transcripts_untouched_since_before_the_session_are_not_read(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    old = folder / "old.jsonl"
    old.write_text(claude_line("m1", "r1", read=5000))  # its record is dated now, the file is old
    os.utime(old, (time.time() - 86400, time.time() - 86400))
    assert usage_import(repo)["events"] == 0
    assert not list((repo / ".git" / "tg-git" / "usage").glob("*.json"))


def test_a_users_unstaged_ledger_edit_is_kept_and_counted_once(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    """An import adds its events to the pending file: a user's unstaged edit of the session's
    own file stays as they left it, the next commit refuses until they stage it, then lands
    both (their line and the usage, counted once)."""
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(claude_line("m1", "r1", read=5000))
    path = ledger_file(repo)
    theirs = path.read_text() + "# my own note\n"
    path.write_text(theirs)
    assert usage_import(repo)["tokens"] == 5013
    assert path.read_text() == theirs  # the user's edit is intact
    assert usage_import(repo)["events"] == 0
    (repo / "work.py").write_text("work = 1\n")
    git(repo, "add", "work.py")
    refused = commit(repo, "-m", "work", check=False)
    assert refused.returncode == 1 and "unstaged" in refused.stdout + refused.stderr
    git(repo, "add", str(path))
    commit(repo, "-m", "work")
    assert "# my own note" in path.read_text()
    assert sum(e["requests"] for e in usage_events(repo)) == 1
    assert not pending_file(repo).exists()


def test_claude_started_in_a_subfolder_is_found(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path
) -> None:
    projects = agent_homes["CLAUDE_CONFIG_DIR"] / "projects"
    encoded = re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    sub = projects / f"{encoded}-src"
    sub.mkdir(parents=True)
    line = claude_line("m1", "r1", read=1000).replace(
        f'"cwd":"/home/{MARKER}"', json.dumps({"cwd": str(repo / "src")})[1:-1]
    )
    (sub / "s.jsonl").write_text(line)
    other = projects / f"{encoded}-two"  # a sibling repository named `repo-two`
    other.mkdir()
    stranger = claude_line("m2", "r2", read=9000).replace(
        f'"cwd":"/home/{MARKER}"', json.dumps({"cwd": f"{repo}-two"})[1:-1]
    )
    (other / "t.jsonl").write_text(stranger)
    assert usage_import(repo)["tokens"] == 1013


@pytest.mark.parametrize("damage", ["null state", "not JSON"])
def test_a_damaged_codex_mark_loses_no_later_request(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    day = home / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    rollout = day / "rollout-2026-11-30T10-00-00-0199-abc.jsonl"
    totals = [(1000, 200, 50), (2500, 1200, 80), (3000, 1300, 90), (3500, 1400, 100)]
    events = token_counts(totals, repeat=False)
    rollout.write_text(codex_lines(str(repo), totals[:2], repeat=False))
    tg(repo, "usage", "import", "--agent", "codex", "--json")
    assert status(repo)["spend"]["total"] == 2580
    for mark in (repo / ".git" / "tg-git" / "usage").glob("*.json"):
        text = json.dumps({**json.loads(mark.read_text()), "state": None})
        mark.write_text(text if damage == "null state" else "{not json")
    for event in events[2:]:  # two more requests, imported one at a time
        with rollout.open("a") as fh:
            fh.write(json.dumps(event) + "\n")
        tg(repo, "usage", "import", "--agent", "codex", "--json")
    # the last request (500 in of which 100 cached, 10 out) is counted, and nothing twice
    assert 2580 + 510 <= status(repo)["spend"]["total"] <= 2580 + 2 * 510


_PIECES = [
    b'{"usage":1}', b' {"usage": 2} ', b'{"usage":', b"}", b'\xef\xbb\xbf{"usage":3}',
    b'{"usage":4}\r', b'\x00{"usage"}', '{"usage":"é한"}'.encode(), b'\xff"usage"',
    b'[1,"usage"]', b'"usage"', b'{"usage":5} x', b'{"a":"\\"usage\\""}', b"\n", b"\n\n",
    b'{"token_count":1,"usage":2}', b'"tokens" "usage"', b'{"usage":[[[[', b'1e400 "usage"',
    b'{"usage": NaN}', b'{"usage":"\xed\xa0\x80"}', '{"usage":"\u2028"}'.encode(),
    b'{"usage":\t7}\t', b'{"u\x00":"usage"}', b'{\x00"\x00u\x00"usage"', b'{"sessionId":"s"}',
]  # fmt: skip


@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.given(st.lists(st.tuples(st.sampled_from(_PIECES), st.booleans()), max_size=14))
def test_a_block_reads_as_json_loads_reads_each_line(parts: list[tuple[bytes, bool]]) -> None:
    """The importer finds the lines holding a needle by searching the block and decodes only
    those: each value, and each line that is not JSON, is what ``json.loads`` of each line
    gives; a last line without its newline is left for the next read."""
    from tg_git.usage.records import Batch
    from tg_git.usage.records import json_lines

    data = b"".join(piece + (b"\n" if newline else b"") for piece, newline in parts)
    for needles in ((b'"usage"',), (b'"token_count"', b'"usage"', b'"sessionId"')):
        expected, bad = [], 0
        for line in data.split(b"\n")[:-1]:
            if any(needle in line for needle in needles):
                try:
                    expected.append(json.loads(line))
                except (ValueError, RecursionError):
                    bad += 1
        batch = Batch()
        assert list(json_lines(data, batch, *needles)) == expected
        assert batch.skipped == bad


_COPY = st.tuples(
    st.sampled_from(["a:1", "b:2", None]),  # key (None: no request id)
    st.sampled_from(  # the time as written: two of these are the same second
        [
            "2026-01-01T00:00:00.120Z",
            "2026-01-01T00:00:00.450Z",
            "2026-01-01T00:00:00.4x0Z",
            "2026-01-01T00:00:05Z",
            "",
        ]
    ),
    st.sampled_from(["m1", "m2"]),
    st.booleans(),  # a sidechain's (no fill)
    st.lists(st.integers(0, 5), min_size=4, max_size=4),
    st.sampled_from(["s", ""]),  # session
)


@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.given(
    st.lists(_COPY, max_size=10),
    st.sampled_from(["2026-01-01T00:00:03Z", ""]),
    st.booleans(),
    st.dictionaries(
        st.sampled_from(["a:1", "b:2"]), st.lists(st.integers(0, 5), min_size=4, max_size=4)
    ),
)
def test_merged_streaming_copies_count_as_one_at_a_time(
    copies: list[Any], started: str, read_here: bool, seen: dict[str, list[int]]
) -> None:
    """The Claude parser merges a request's streaming copies that follow one another (same
    key, time, model, session): the importer's groups, keys and session are what the lines
    read one at a time by ``json.loads`` give, whatever the session's start, and keys seen
    in an earlier import."""
    from tg_git.usage import importer
    from tg_git.usage import store
    from tg_git.usage.records import Batch
    from tg_git.usage.records import Count

    lines = []
    for key, at, model, side, v, session in copies:
        msg, req = (key or "m:").split(":")
        line = claude_line(msg, req, fresh=v[0], write=v[1], read=v[2], out=v[3], model=model,
                           side=side, at=at or "not a time", session=session)  # fmt: skip
        lines.append(line)

    def groups(records: list[Count]) -> Any:
        mark = store.Mark(path="x", agent="claude")
        keys = {store.digest(k): list(v) for k, v in seen.items()}
        batch = Batch()
        batch.records = records
        found = importer._groups(batch, mark, started, keys, read_here)
        shown = [(g.model, g.requests, g.values, g.at, g.window, g.fill) for g in found]
        return shown, list(keys.items()), mark.session

    one_at_a_time = [claude._record(json.loads(line), False) for line in lines]
    merged = claude.parse("".join(lines).encode(), {}).records
    assert groups(merged) == groups([r for r in one_at_a_time if r is not None])


def test_a_codex_events_second_copy_is_not_examined_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Codex writes each ``token_count`` event twice, one line after the other: the copy's
    value is the same object, and its totals are those just taken, so the parser passes it
    over without reading its counts again (half of a rollout's work)."""
    examined: list[int] = []
    real = codex._token_count

    def counted(*args: Any) -> Any:
        examined.append(1)
        return real(*args)

    monkeypatch.setattr(codex, "_token_count", counted)
    totals = [(1000, 200, 50), (2500, 1200, 80), (6100, 2000, 300)]
    batch = codex.parse(codex_lines("/w", totals).encode(), {})
    assert len(batch.records) == 3
    assert len(examined) == 3  # not 6


_CODEX_USAGE = st.fixed_dictionaries(
    {"input_tokens": st.sampled_from([0, 5, 9, 10**11, -1, "7", 2.5, True, None])},
    optional={
        "cached_input_tokens": st.sampled_from([0, 3, 9, None]),
        "output_tokens": st.sampled_from([0, 1, 4]),
    },
)
_CODEX_LINE = st.one_of(
    st.builds(
        lambda total, last, window, model: {
            "timestamp": "2026-01-01T00:00:00.000Z",
            "type": "event_msg",
            "payload": {
                "type": "token_count",
                "model": model,
                "info": {
                    "total_token_usage": total,
                    "last_token_usage": last,
                    "model_context_window": window,
                },
            },
        },
        st.one_of(st.none(), _CODEX_USAGE),
        st.one_of(st.none(), _CODEX_USAGE),
        st.sampled_from([None, 272000, -5]),
        st.sampled_from([None, "gpt-5", "x y"]),
    ),
    st.sampled_from(
        [
            {"type": "event_msg", "payload": {"type": "token_count", "info": None}},
            {"type": "event_msg", "payload": {"type": "token_count", "info": [1]}},
            {"type": "session_meta", "payload": {"id": "s-1", "cwd": "/w"}},
            {"type": "turn_context", "payload": {"model": "gpt-5.3-codex"}},
            {"type": "turn_context", "payload": "token_count"},
        ]
    ),
)


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    st.lists(st.tuples(_CODEX_LINE, st.integers(1, 3)), max_size=10),
    st.sampled_from([{}, {"total": [4, 2, 1]}, {"total": "x"}]),
)
def test_a_codex_block_reads_as_its_lines_one_at_a_time(
    lines: list[tuple[dict[str, Any], int]], before: dict[str, Any]
) -> None:
    """A block of a rollout gives the Counts, skipped lines and state its lines give read
    one at a time (each alone in a block, so no line is passed over as a copy of the one
    before it): events written once, twice or three times, with or without totals, with
    counts that cannot be true."""
    data = b"".join((json.dumps(line) + "\n").encode() * times for line, times in lines)
    whole_state, alone_state = json.loads(json.dumps(before)), json.loads(json.dumps(before))
    whole = codex.parse(data, whole_state)
    records, skipped = [], 0
    for line in data.splitlines(keepends=True):
        alone = codex.parse(line, alone_state)
        records += alone.records
        skipped += alone.skipped
    assert whole.records == records
    assert whole.skipped == skipped
    assert whole_state == alone_state


@pytest.mark.parametrize("enabled", [True, False])
def test_an_import_leaves_the_cycle_collector_as_it_found_it(
    repo: Path, agent_homes: dict[str, Path], enabled: bool
) -> None:
    """Whatever the import does inside, a program that calls it (or runs it in its own
    process, as the agent hooks do) finds Python's cycle collector as it left it, also when a
    transcript is damaged mid-way."""
    import gc

    from tg_git.repo.workspace import Workspace
    from tg_git.usage import importer

    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s-gc.jsonl").write_text(claude_line("m-1", "r-1") + "{not json\n\x00\xff")
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        outcome = importer.import_usage(Workspace.open(repo))
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert outcome.requests == 1


_NUMBER = st.sampled_from(["0", "7", "45000", "007", "-1", "1.5", "1e3", "9999999999",
                           "10000000000", "123456789012"])  # fmt: skip
_STAMP = st.sampled_from([
    "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:59Z", "2026-01-01T00:00:00.12345678901234567890Z",
    "2026-01-01T00:00:00+01:00", "2026-01-01 00:00:00Z", "\uff12026-01-01T00:00:00Z", "x", "",
    "2026\\u002d01-01T00:00:00Z",
])  # fmt: skip
_TAIL = st.sampled_from([
    "}}", "}} ", " }}", "}}}", ',"rate_limits":null}}', ',"rate_limits":{}}}',
    ',"rate_limits":{"primary":{"used_percent":1.5,"window_minutes":299},"secondary":null}}}',
    ',"rate_limits":{"a":}}}', ',"rate_limits":[1,2]} }', ',"rate_limits":NaN}}',
    ',"model":"gpt-5"}}', ',"rate_limits":{},"rate_limits":1}}',
])  # fmt: skip


@hypothesis.settings(max_examples=500, deadline=None)
@hypothesis.given(
    st.lists(
        st.tuples(
            _STAMP,
            st.lists(_NUMBER, min_size=11, max_size=11),
            st.sampled_from(["null", "272000", "01", "-5", ""]),
            _TAIL,
            st.integers(1, 2),
        ),
        max_size=6,
    ),
    st.sampled_from([{}, {"total": [4, 2, 1]}]),
)
def test_codex_lines_as_written_read_as_json_reads_them(
    lines: list[tuple[str, list[str], str, str, int]], before: dict[str, Any]
) -> None:
    """A token count line in the form Codex writes is read by one regex, not decoded: the
    Counts, skipped lines and state are those of each line's ``json.loads`` value handed to
    the parser, whatever the numbers (leading zeros, signs, fractions, over the limit), the
    time (escapes), the window and what follows the counts (rate limits of any shape, a
    space, a model, a key twice, broken JSON)."""
    texts = []
    for stamp, n, window, tail, times in lines:
        usage = [
            f'{{"input_tokens":{a},"cached_input_tokens":{b},"output_tokens":{c},'
            f'"reasoning_output_tokens":{d},"total_tokens":{e}}}'
            for a, b, c, d, e in (n[:5], n[5:10])
        ]
        shown = f',"model_context_window":{window}' if window else ""  # "": left out
        texts += [
            f'{{"timestamp":"{stamp}","type":"event_msg","payload":{{"type":"token_count",'
            f'"info":{{"total_token_usage":{usage[0]},"last_token_usage":{usage[1]}'
            f"{shown}}}{tail}"
        ] * times
    data = "".join(text + "\n" for text in texts).encode()
    got_state, want_state = dict(before), dict(before)
    with mock.patch.object(codex, "_QUICK_FROM", 0):  # a large read's way, for a small block
        got = codex.parse(data, got_state)
    want, skipped = [], 0
    for text in texts:  # the reference: json.loads of each line, then the parser's maker
        try:
            record = codex._line(json.loads(text), want_state, [None])
        except ValueError:  # not JSON, or a BadLine
            skipped += 1
            continue
        if record is not None:
            want.append(record)
    assert got.records == want
    assert got.skipped == skipped
    assert got_state == want_state


def test_codex_token_counts_as_written_are_read_without_decoding() -> None:
    """Codex writes compact JSON (serde): its token count lines, with or without rate
    limits, take the regex reading, and give the Counts the decoded lines give."""
    events = token_counts([(1000, 200, 50), (2500, 1200, 80)])
    events[2]["payload"]["rate_limits"] = {"primary": {"used_percent": 1.5}, "secondary": None}
    del events[0]["payload"]["info"]["model_context_window"]  # an Option: may be left out
    texts = [json.dumps(e, separators=(",", ":")) for e in events]
    assert all(codex._as_written(text) is not None for text in texts)
    compact = "".join(t + "\n" for t in texts).encode()
    spaced = "".join(json.dumps(e) + "\n" for e in events).encode()  # decoded, every line
    assert codex._as_written(spaced.decode().splitlines()[0]) is None
    with mock.patch.object(codex, "_QUICK_FROM", 0):  # a large read's way, for a small block
        assert codex.parse(compact, {}).records == codex.parse(spaced, {}).records
        assert [r.output for r in codex.parse(compact, {}).records] == [50, 30]
    big = compact * (codex._QUICK_FROM // len(compact) + 1)  # a large read: the regex way
    with mock.patch.object(codex, "_as_written", lambda text: None):
        decoded = codex.parse(big, {}).records
    assert codex.parse(big, {}).records == decoded
