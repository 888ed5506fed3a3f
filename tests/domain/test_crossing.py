"""The production crossing rule and the commit decision's counting, in-process: which level a
commit newly reaches (``decide.decide``'s ``crossed``), what it counts, when it refuses."""

from __future__ import annotations

from tg_git.domain import decide
from tg_git.domain import eventlog
from tg_git.domain import levels
from tg_git.domain.config import Config
from tg_git.domain.decide import FileCount

SID = "s20261201100000-0123456789ab"
CONFIG = Config()


def ev(kind: str, n: int, **fields: object) -> str:
    """Event ``k<n>`` at second ``n`` of the session, as one ledger line."""
    fields.setdefault("at", f"2026-12-01T10:00:{n:02d}Z")
    if kind != "session":
        fields.setdefault("session", SID)
    return eventlog.event_line(kind, key=f"k{n:02d}", **fields)[1].rstrip("\n")


START = ev("session", 0, id=SID, max_tokens=1000, base="")


def landed(tokens: int) -> str:
    """A ledger in which the session has committed ``tokens``."""
    return eventlog.render([START, ev("commit", 1, tokens=tokens, files=1, label="a.py")])


def commit_on(
    text: str | None, *files: FileCount, config: Config = CONFIG, **kw: object
) -> decide.Decision:
    inputs = decide.Inputs(SID, head=text, staged=text, counts=files, **kw)  # type: ignore[arg-type]
    return decide.decide(inputs, config)


def py(tokens: int, path: str = "b.py") -> FileCount:
    return FileCount(path, tokens, 1)


def test_a_commit_within_the_force_save_band_crosses_nothing() -> None:
    """The second commit at force-save must not say 'force-save reached' (nor save) again."""
    result = commit_on(landed(900), py(10))
    assert (result.level, result.crossed) == (levels.FORCE_SAVE, None)


def test_a_commit_within_the_warning_band_crosses_nothing() -> None:
    result = commit_on(landed(850), py(10))
    assert (result.level, result.crossed) == (levels.WARNING, None)


def test_the_commit_that_reaches_a_level_crosses_it_at_its_first_token() -> None:
    assert commit_on(landed(799), py(1)).crossed == levels.WARNING
    assert commit_on(landed(899), py(1)).crossed == levels.FORCE_SAVE
    assert commit_on(landed(949), py(1)).crossed == levels.HALT
    assert commit_on(landed(948), py(1)).crossed is None


def test_a_jump_past_every_level_crosses_the_halt() -> None:
    result = commit_on(landed(10), py(980))
    assert (result.action, result.crossed) == (decide.COUNT, levels.HALT)


def test_binary_and_excluded_files_are_not_counted() -> None:
    files = (
        FileCount("logo.png", 500, 0, binary=True),
        FileCount("uv.lock", 700, 9, counted=False),
        py(5),
    )
    result = commit_on(landed(0), *files)
    assert result.tokens == 5 and result.after is not None and result.after.output == 5
    new = eventlog.parse(result.text or "")
    (event,) = [e for e in new.values() if e["kind"] == "commit" and e["tokens"] == 5]
    assert (event["files"], event["label"]) == (1, "b.py")


def test_only_binary_files_commit_nothing() -> None:
    result = commit_on(landed(900), FileCount("big.bin", 5000, 0, binary=True))
    assert (result.tokens, result.level, result.crossed) == (0, levels.FORCE_SAVE, None)


def test_several_files_are_labelled_by_the_first_and_how_many_more() -> None:
    result = commit_on(landed(0), py(1, "a.py"), py(2, "b.py"), py(3, "c.py"))
    labels = [
        e.get("label") for e in eventlog.parse(result.text or "").values() if e.get("tokens") == 6
    ]
    assert labels == ["a.py (+2)"]


def test_after_the_halt_landed_the_next_commit_is_refused_unless_overridden() -> None:
    refused = commit_on(landed(960), py(1))
    assert (refused.action, refused.reason) == (decide.REFUSE, decide.HALTED)
    allowed = commit_on(landed(960), py(1), allow_halt=True)
    assert (allowed.action, allowed.override) == (decide.COUNT, True)


def test_an_override_with_nothing_counted_is_still_recorded() -> None:
    result = commit_on(landed(960), FileCount("notes.bin", 3, 0, binary=True), allow_halt=True)
    assert result.action == decide.COUNT and result.override
    overrides = [e for e in eventlog.parse(result.text or "").values() if e.get("override")]
    assert len(overrides) == 1 and overrides[0].get("tokens") == 0


def test_recorded_input_only_staged_counts_and_does_not_refuse_the_crossing_commit() -> None:
    head = eventlog.render([START])
    staged = eventlog.render([START, ev("input", 2, tokens=990, label="request")])
    result = decide.decide(decide.Inputs(SID, head=head, staged=staged, counts=[py(1)]), CONFIG)
    assert (result.action, result.level) == (decide.COUNT, levels.HALT)
    assert "k02" in eventlog.parse(result.text or "")


def test_a_new_ledger_file_not_yet_staged_is_the_sessions_start() -> None:
    """Before the session's file is in HEAD or the index, the work tree's copy is not a user's
    unstaged edit of it: the first commit counts."""
    inputs = decide.Inputs(SID, worktree=eventlog.render([START]), counts=[py(4)])
    result = decide.decide(inputs, CONFIG)
    assert (result.action, result.tokens) == (decide.COUNT, 4)


def test_junk_in_the_local_journal_is_not_a_repair_of_the_commit() -> None:
    result = commit_on(landed(10), py(1), journal="not an event\n" + START + "\n")
    assert (result.action, result.repaired) == (decide.COUNT, 0)


def test_with_budget_source_estimate_a_measured_fill_does_not_halt() -> None:
    usage = ev(
        "usage",
        2,
        agent="claude",
        model="claude-opus-4-6",
        requests=1,
        fill=990,
        window=1000,
        output=10,
    )
    text = eventlog.render([START, usage])
    assert commit_on(text, py(1)).action == decide.REFUSE  # measured: at the halt, landed
    # A hand edit to the estimate would lower the level: it waits for the record.
    result = commit_on(text, py(1), config=Config(budget_source="estimate"))
    assert result.action == decide.REFUSE
    recorded = ev("budget", 3, label="budget.source", text="estimate")
    text = eventlog.render([START, usage, recorded])
    result = commit_on(text, py(1), config=Config(budget_source="estimate"))
    assert (result.action, result.level) == (decide.COUNT, levels.OK)


def test_a_ledger_whose_newest_start_is_another_session_is_not_counted() -> None:
    other = ev("session", 3, id="s20261201100003-ffffffffffff", max_tokens=5, base="")
    result = commit_on(eventlog.render([START, other]), py(1))
    assert (result.action, result.reason) == (decide.SKIP, "no-start")
