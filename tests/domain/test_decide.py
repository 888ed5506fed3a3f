"""The commit decision in-process: every case the hooks handle, in milliseconds, no git."""

from __future__ import annotations

import pytest

from tg_git.domain import decide
from tg_git.domain import eventlog
from tg_git.domain import levels
from tg_git.domain.config import Config
from tg_git.domain.decide import FileCount

CONFIG = Config()
SID = "s20260101000000-000000000000"


def line(kind: str, key: str, **fields: object) -> str:
    fields.setdefault("at", f"2026-01-01T00:00:{int(key[-2:]) % 60:02d}Z")
    if kind != "session":
        fields.setdefault("session", SID)
    return eventlog.event_line(kind, key=key, **fields)[1].rstrip("\n")


START = line("session", "e00", id=SID, max_tokens=1000, base="")


def text(*lines: str) -> str:
    return eventlog.render(lines)


def counts(*tokens: int) -> list[FileCount]:
    return [FileCount(f"f{i}.py", t, 1) for i, t in enumerate(tokens)]


def keys(result: decide.Decision) -> set[str]:
    assert result.text is not None
    return set(eventlog.parse(result.text))


def run(**kw: object) -> decide.Decision:
    inputs = {"session_id": SID, "head": text(START), "staged": text(START), **kw}
    return decide.decide(decide.Inputs(**inputs), CONFIG)  # type: ignore[arg-type]


def test_a_plain_commit_adds_one_event_with_its_estimator() -> None:
    result = run(counts=counts(10, 5), estimator="o200k/fit-1")
    assert result.action == decide.COUNT and result.tokens == 15
    new = [e for e in eventlog.parse(result.text or "").values() if e["kind"] == "commit"]
    assert len(new) == 1 and new[0]["tokens"] == 15 and new[0]["files"] == 2
    assert new[0]["estimator"] == "o200k/fit-1" and new[0]["label"] == "f0.py (+1)"


def test_nothing_counted_leaves_the_ledger_as_staged() -> None:
    result = run(counts=[])
    assert result.action == decide.COUNT and keys(result) == {"e00"}


def test_an_attempt_that_never_landed_is_dropped() -> None:
    stale = line("commit", "e01", tokens=50, files=1, label="x")
    result = run(staged=text(START, stale), counts=counts(7))
    assert "e01" not in keys(result) and result.after is not None and result.after.output == 7


def test_events_a_rewrite_took_out_come_back_from_the_journal_and_landed_commits() -> None:
    reverted = line("commit", "e02", tokens=30, files=1, label="a")
    reset_away = line("commit", "e03", tokens=40, files=1, label="b")
    result = run(journal=text(reverted), landed=[text(START, reset_away)], counts=counts(1))
    assert {"e02", "e03"} <= keys(result)
    assert result.after is not None and result.after.output == 71
    assert eventlog.key_of(reset_away) in {eventlog.key_of(ln) for ln in result.journal}


def test_the_other_side_of_a_merge_joins() -> None:
    theirs = line("commit", "e04", tokens=20, files=1, label="t")
    result = run(theirs=[text(START, theirs)], counts=counts(3))
    assert "e04" in keys(result) and result.after is not None and result.after.output == 23


def test_halt_crossing_lands_then_the_next_commit_is_refused() -> None:
    big = line("commit", "e05", tokens=960, files=1, label="big")
    crossing = run(counts=counts(960))
    assert crossing.action == decide.COUNT and crossing.crossed == levels.HALT
    refused = run(head=text(START, big), staged=text(START, big), counts=counts(1))
    assert refused.action == decide.REFUSE and refused.reason == decide.HALTED


def test_recorded_input_past_halt_does_not_refuse_the_crossing_commit() -> None:
    note = line("input", "e06", tokens=990, label="request")
    result = run(staged=text(START, note), counts=counts(2))
    assert result.action == decide.COUNT and result.level == levels.HALT


def test_override_is_recorded() -> None:
    big = line("commit", "e07", tokens=960, files=1, label="big")
    result = run(head=text(START, big), staged=text(START, big), counts=counts(1), allow_halt=True)
    assert result.action == decide.COUNT and result.override
    assert any(e.get("override") for e in eventlog.parse(result.text or "").values())


def test_a_halt_that_a_revert_took_out_of_head_still_refuses() -> None:
    big = line("commit", "e08", tokens=960, files=1, label="big")
    result = run(journal=text(big), counts=counts(1))
    assert result.action == decide.REFUSE


def test_pre_merge_commit_stages_nothing() -> None:
    result = run(merge_hook=True, counts=counts(99))
    assert result.action == decide.SKIP and result.text is None


def test_a_users_unstaged_edit_is_refused_but_tg_gits_own_is_not() -> None:
    edited = text(START) + "# my note\n"
    assert run(worktree=edited).reason == decide.UNSTAGED
    mine = text(START, line("input", "e09", tokens=5, label="r"))
    result = run(worktree=mine, worktree_ours=True, counts=counts(1))
    assert result.action == decide.COUNT and "e09" in keys(result)


@pytest.mark.parametrize(
    "junk", ["garbage", "<<<<<<< HEAD", "=======", ">>>>>>> b1", 'k = {"x" = ']
)
def test_junk_is_dropped_and_counted_as_repaired(junk: str) -> None:
    kept = line("commit", "e10", tokens=4, files=1, label="k")
    result = run(
        head=text(START, kept) + junk + "\n",
        staged=text(START, kept) + junk + "\n",
        counts=counts(1),
    )
    assert result.action == decide.COUNT and result.repaired >= 1
    assert keys(result) >= {"e00", "e10"} and junk not in (result.text or "")


def test_mid_rebase_nothing_is_restored() -> None:
    lost = line("commit", "e11", tokens=30, files=1, label="a")
    result = run(journal=text(lost), restore=False, counts=[])
    assert result.text == text(START)


def test_no_session_and_no_start() -> None:
    assert run(session_id=None).action == decide.SKIP
    other = line("session", "e12", id="s20990101000000-000000000000", max_tokens=5, base="")
    assert run(head=text(other), staged=text(other)).reason == "no-start"


def test_comments_and_order_of_the_staged_text_survive() -> None:
    staged = "# header kept\n" + text(START).split("\n", 3)[3] + "# a user's note\n"
    result = run(staged=staged, head=staged, counts=counts(2))
    assert result.text is not None
    assert result.text.startswith("# header kept\n") and "# a user's note" in result.text
