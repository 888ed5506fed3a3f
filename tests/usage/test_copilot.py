"""GitHub Copilot CLI's usage: its session events (``session-state/<id>/events.jsonl``) written
here in its own shape, imported through the real CLI and its hooks into real repositories."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import COPILOT_SESSION
from tests.support.agents import MARKER
from tests.support.agents import copilot_compaction
from tests.support.agents import copilot_session
from tests.support.agents import copilot_start
from tests.support.agents import copilot_turn
from tests.support.agents import copilot_usage
from tests.support.agents import hook
from tests.support.agents import read_in_small_blocks
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import pending_file
from tests.support.repos import status
from tests.support.repos import tg
from tg_git.domain import eventlog
from tg_git.usage import copilot

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp


@pytest.fixture
def copilot_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "copilot-home"
    home.mkdir()
    monkeypatch.setenv("COPILOT_HOME", str(home))
    return home


def usage_import(repo: Path, *args: str) -> dict[str, Any]:
    return json.loads(tg(repo, "usage", "import", "--json", *args).stdout)  # type: ignore[no-any-return]


def usage_events(repo: Path) -> list[dict[str, Any]]:
    pending = pending_file(repo)
    text = ledger_file(repo).read_text() + (pending.read_text() if pending.exists() else "")
    return [dict(e) for e in eventlog.parse(text).values() if e["kind"] == "usage"]


def spent(repo: Path) -> dict[str, int]:
    """The recorded usage events' counts, summed."""
    names = ("requests", "fresh_input", "cache_write", "cache_read", "output")
    return {n: sum(int(e.get(n, 0)) for e in usage_events(repo)) for n in names}


def test_each_request_is_counted_as_copilot_records_it(repo: Path, copilot_home: Path) -> None:
    """``inputTokens`` is the whole prompt, its cached reads and writes among it; the
    context is the newest request's prompt and answer, against ``maxPromptTokens``."""
    events = copilot_session(copilot_home)
    events.write_text(
        copilot_start(str(repo))
        + copilot_turn(1, 12_345, 77, cached=5_000)
        + copilot_turn(2, 13_000, 55, written=2_000)
    )
    result = usage_import(repo)
    assert (result["requests"], result["tokens"]) == (2, 12_345 + 77 + 13_000 + 55)
    assert spent(repo) == {"requests": 2, "fresh_input": 7_345 + 11_000, "cache_write": 2_000,
                           "cache_read": 5_000, "output": 132}  # fmt: skip
    data = status(repo)
    assert data["used"] == 13_055
    assert data["measured"]["window"] == 64_000 and data["measured"]["model"] == "gpt-4.1"
    assert {e["agent"] for e in usage_events(repo)} == {"copilot"}
    assert {e["transcript"] for e in usage_events(repo)} == {COPILOT_SESSION}
    assert usage_import(repo, "--agent", "copilot")["requests"] == 0  # read once


def test_a_request_of_another_kind_spends_but_does_not_fill(repo: Path, copilot_home: Path) -> None:
    copilot_session(copilot_home).write_text(
        copilot_start(str(repo))
        + copilot_turn(1, 20_000, 100)
        + copilot_usage(2, 3_000, 40, kind="conversation-subagent")
    )
    assert usage_import(repo)["tokens"] == 23_140
    assert status(repo)["used"] == 20_100


def test_requests_count_once_across_imports_and_a_resume(repo: Path, copilot_home: Path) -> None:
    events = copilot_session(copilot_home)
    events.write_text(copilot_start(str(repo)) + copilot_turn(1, 1_000, 10))
    assert usage_import(repo, "--agent", "copilot")["tokens"] == 1_010
    assert usage_import(repo)["requests"] == 0
    with events.open("a") as fh:  # `copilot --resume=ID` appends to the same file
        fh.write(copilot_start(str(repo), resume=True) + copilot_turn(2, 2_000, 20))
    assert usage_import(repo)["tokens"] == 2_020
    with events.open("a") as fh:  # the second request's record again (a copy): not again
        fh.write(copilot_usage(2, 2_000, 20) + copilot_turn(3, 3_000, 30))
    assert usage_import(repo)["tokens"] == 3_030
    assert usage_import(repo)["requests"] == 0
    assert spent(repo)["requests"] == 3 and status(repo)["used"] == 3_030


def test_a_compaction_spends_its_summary_and_lowers_the_fill(
    repo: Path, copilot_home: Path
) -> None:
    """Copilot records no usage record for its compaction's request: the compaction's own
    event holds it, and the context it left is the fill until the next request."""
    events = copilot_session(copilot_home)
    attempt = "e0000000-0000-4000-8000-000000000001"
    events.write_text(
        copilot_start(str(repo))
        + copilot_turn(1, 50_000, 500)
        + copilot_compaction(50_400, 900, 6_000, attempt=attempt)
    )
    assert usage_import(repo)["tokens"] == 50_500 + 51_300
    assert spent(repo)["requests"] == 2 and status(repo)["used"] == 6_000
    with events.open("a") as fh:  # the same compaction's event again: not counted twice
        fh.write(copilot_compaction(50_400, 900, 6_000, attempt=attempt).split("\n", 1)[1])
        fh.write(copilot_turn(2, 7_000, 70))
    assert usage_import(repo)["tokens"] == 7_070
    assert status(repo)["used"] == 7_070


def test_requests_with_one_call_id_are_told_apart_by_their_sequence(
    repo: Path, copilot_home: Path
) -> None:
    """A server that names every answer alike (a local one): each request still counts."""
    copilot_session(copilot_home).write_text(
        copilot_start(str(repo))
        + copilot_turn(1, 1_000, 10, call="chatcmpl-local")
        + copilot_turn(2, 1_500, 15, call="chatcmpl-local")
    )
    assert usage_import(repo)["tokens"] == 2_525


def test_only_this_work_trees_sessions_count(
    repo: Path, copilot_home: Path, tmp_path: Path
) -> None:
    (repo / "src").mkdir()
    nested = repo / "vendor" / "lib"
    nested.mkdir(parents=True)
    git(nested, "init", "-q")
    sessions = {
        "a0000000-0000-4000-8000-000000000001": (str(repo / "src"), 1_000),  # a subfolder
        "a0000000-0000-4000-8000-000000000002": (str(tmp_path / "elsewhere"), 50_000),
        "a0000000-0000-4000-8000-000000000003": (str(nested), 60_000),  # another repository
        "a0000000-0000-4000-8000-000000000004": (str(repo) + "-two", 70_000),
    }
    for session, (cwd, used) in sessions.items():
        copilot_session(copilot_home, session).write_text(
            copilot_start(cwd, session) + copilot_turn(1, used, 1, session=session)
        )
    no_start = copilot_session(copilot_home, "a0000000-0000-4000-8000-000000000005")
    no_start.write_text(copilot_turn(1, 80_000, 1))  # no session.start first: no place named
    old = copilot_session(copilot_home, "a0000000-0000-4000-8000-000000000006")
    old.write_text(copilot_start(str(repo)) + copilot_turn(1, 90_000, 1))
    os.utime(old, (time.time() - 86400, time.time() - 86400))  # untouched since before
    assert usage_import(repo)["tokens"] == 1_001
    assert [e["transcript"] for e in usage_events(repo)] == ["a0000000-0000-4000-8000-000000000001"]


def test_one_session_named_is_the_only_one_read(repo: Path, copilot_home: Path) -> None:
    ids = ["f0000000-0000-4000-8000-000000000001", "f0000000-0000-4000-8000-000000000002"]
    for n, session in enumerate(ids, 1):
        copilot_session(copilot_home, session).write_text(
            copilot_start(str(repo), session) + copilot_turn(1, 1_000 * n, n, session=session)
        )
    assert usage_import(repo, "--agent", "copilot", "--session", ids[1])["tokens"] == 2_002
    assert usage_import(repo, "--session", "../" + ids[0])["requests"] == 0  # not an id
    assert usage_import(repo)["tokens"] == 1_001


def test_odd_input_is_skipped_with_a_count(repo: Path, copilot_home: Path) -> None:
    good = copilot_turn(1, 4_000, 40)
    bad = [
        '{"type":"session.usage_record","data":{"usage":' + "[" * 50_000 + "\n",
        'not json, though it names "session.usage_record"\n',
        copilot_usage(2, 5_000, 5).replace('"inputTokens":5000', '"inputTokens":-5'),
        copilot_usage(3, 5_000, 5).replace('"outputTokens":5', '"outputTokens":"5"'),
        copilot_usage(4, 5_000, 5).replace('"inputTokens":5000', '"inputTokens":' + "9" * 30),
        copilot_usage(5, 5_000, 5).replace('"maxPromptTokens":64000', '"maxPromptTokens":1.5'),
        '{"type":"session.usage_record","data":{"usage":"none"}}\n',
    ]
    text = copilot_start(str(repo)).encode() + "".join(bad).encode() + good.encode()
    text += b'{"type":"session.usage_record","data":{"usage":\xff\xfe}}\n'  # not UTF-8
    copilot_session(copilot_home).write_bytes(text)
    result = usage_import(repo)
    assert (result["skipped"], result["requests"], result["tokens"]) == (8, 1, 4_040)


def test_a_fifo_or_a_link_is_not_read(repo: Path, copilot_home: Path, tmp_path: Path) -> None:
    """Discovery reads a session's first line without blocking on a FIFO, and says so."""
    os.mkfifo(copilot_session(copilot_home, "b0000000-0000-4000-8000-000000000001"))
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(copilot_start(str(repo)) + copilot_turn(1, 7_000, 7))
    copilot_session(copilot_home, "b0000000-0000-4000-8000-000000000002").symlink_to(elsewhere)
    copilot_session(copilot_home).write_text(copilot_start(str(repo)) + copilot_turn(1, 100, 1))
    result = usage_import(repo)
    assert result["tokens"] == 101 and result["skipped"] == 1
    assert len([note for note in result["notes"] if "events.jsonl" in note]) == 2


def test_a_line_over_the_bound_is_skipped_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text(copilot_start("/w") + "x" * 5000 + "\n" + copilot_usage(1, 300, 3))
    batch, mark, _ = read_in_small_blocks(monkeypatch, path, "copilot")
    assert batch.skipped == 1 and [r.total for r in batch.records] == [303]
    assert mark.offset == path.stat().st_size and mark.state["cwd"] == "/w"


def test_the_parser_keys_each_request_by_session_sequence_and_id() -> None:
    state: dict[str, Any] = {}
    data = copilot_start("/w") + copilot_usage(7, 900, 9, cached=300, written=100, call="r-7")
    (record,) = copilot.parse(data.encode(), state).records
    assert record.key == f"{COPILOT_SESSION}:7:r-7" and record.session == COPILOT_SESSION
    assert record.values() == [500, 100, 300, 9] and (record.fill, record.window) == (909, 64000)
    assert state == {"session": COPILOT_SESSION, "cwd": "/w"}


def test_copilots_hooks_import_the_sessions_that_ended(
    repo: Path, copilot_home: Path, tmp_path: Path
) -> None:
    """Copilot CLI writes a session's events when its process ends: a later hook (of the
    same conversation resumed, or of another) reads every session of this work tree, and
    never the file a payload names."""
    events = copilot_session(copilot_home)
    events.write_text(copilot_start(str(repo)) + copilot_turn(1, 30_000, 300))
    base = {"sessionId": "d0000000-0000-4000-8000-000000000001", "timestamp": 1764583200000,
            "cwd": str(repo)}  # fmt: skip
    hook(repo, "copilot", "userPromptSubmitted", {**base, "prompt": "go on"})
    assert status(repo)["used"] == 30_300
    with events.open("a") as fh:
        fh.write(copilot_turn(2, 41_000, 400))
    other = tmp_path / "other-copilot"  # a path to another repository's session: not read
    foreign = copilot_session(other, "c0000000-0000-4000-8000-000000000001")
    foreign.write_text(copilot_start(str(tmp_path / "elsewhere")) + copilot_turn(1, 99_000, 1))
    hook(repo, "copilot", "agentStop", {**base, "transcriptPath": str(foreign)})
    assert status(repo)["used"] == 41_400 and spent(repo)["requests"] == 2


def test_nothing_but_counts_and_ids_is_stored(repo: Path, copilot_home: Path) -> None:
    copilot_session(copilot_home).write_text(copilot_start(str(repo)) + copilot_turn(1, 500, 5))
    out = tg(repo, "usage", "import").stdout + tg(repo, "status", "--json").stdout
    assert usage_import(repo)["requests"] == 0
    kept = [ledger_file(repo), pending_file(repo), *(repo / ".git" / "tg-git").rglob("*")]
    texts = [p.read_text(errors="replace") for p in kept if p.is_file()]
    assert spent(repo)["requests"] == 1
    assert all(MARKER not in t for t in [out, *texts])
