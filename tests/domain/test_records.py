"""The typed records of the central data: a session's fields are declared once (as its
annotations), every reader of a field list follows them, and the event kinds the type
checker knows are the kinds and fields the ledger's reader and writer know."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tg_git.domain import document
from tg_git.domain import eventkinds
from tg_git.domain import eventlog
from tg_git.domain import schema
from tg_git.domain.replay import Record
from tg_git.domain.replay import Session
from tg_git.domain.replay import Task
from tg_git.repo import git
from tg_git.repo import memo

# A value of each declared field type, none of them a default, so a field a reader forgot
# shows as a difference.
SAMPLES: dict[str, object] = {
    "str": "x\u00e9",
    "int": 41,
    "bool": False,
    "list[str]": ["a", "b"],
    "list[tuple[str, int, int]]": [("path", 2, 7)],
    "dict[str, Task]": {"t": Task("t", "blocked", "here", ["why"])},
}


def sample(record: type[Record]) -> dict[str, object]:
    return {name: SAMPLES[record.__annotations__[name]] for name in record.FIELDS}


def test_the_fields_are_the_annotations_in_order() -> None:
    assert tuple(Session.__annotations__) == Session.FIELDS
    assert Task.FIELDS == ("title", "status", "stopping_point", "blockers")
    assert Session.FIELDS[:4] == ("id", "started", "max_tokens", "base")


def test_a_misspelt_field_is_an_error_not_a_new_attribute() -> None:
    session = Session("s1", "", 100, "")
    with pytest.raises(AttributeError):
        session.outptu = 7  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="outptu"):
        Session("s1", "", 100, "", outptu=7)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="outptu"):
        session.copy(outptu=7)


def test_a_required_field_missing_or_given_twice_is_an_error() -> None:
    with pytest.raises(TypeError, match="base"):
        Session("s1", "", 100)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Task("a", title="b")  # type: ignore[misc]


def test_defaults_are_the_declared_ones_and_lists_are_not_shared() -> None:
    one, two = Session("s1", "", 100, ""), Session("s2", "", 100, "")
    one.context.append("note")
    one.tasks["t"] = Task("t")
    Task("a").blockers.append("b")
    assert two.context == [] and two.tasks == {} and Task("a").blockers == []
    assert (two.input, two.use_measured, two.measured_at, Task("a").status) == (
        0,
        True,
        "",
        "pending",
    )


def test_records_compare_and_copy_by_value() -> None:
    values = sample(Session)
    session = Session(**values)  # type: ignore[arg-type]
    assert session == Session(**values)  # type: ignore[arg-type]
    assert session.copy() == session and session.copy() is not session
    assert session.copy(input=1) != session and session.copy(input=1).input == 1
    assert all(repr(values[name]) in repr(session) for name in ("id", "outputs"))


def test_every_session_field_survives_the_memo(plain_repo: Path) -> None:
    """Each field, set to a non-default value of its declared type, comes back from a memo:
    a field added to ``Session`` is memoised without a list to keep in step."""
    session = Session(**sample(Session))  # type: ignore[arg-type]
    repo = git.find_repo(plain_repo)
    memo.store(repo, memo.State(session, frozenset({"k"}), "n", "fp"))
    loaded = memo.load(repo, "fp")
    assert loaded is not None and loaded.session == session
    assert set(memo.FITS) | {"dict[str, Task]"} >= set(Session.__annotations__.values())
    assert set(memo.FITS) >= set(Task.__annotations__.values())


def _kind(record: type) -> str:
    (kind,) = re.findall(r"Literal\[['\"]([a-z]+)['\"]\]", str(record.__annotations__["kind"]))
    return str(kind)


KINDS = [
    eventkinds.SessionEvent,
    eventkinds.CommitEvent,
    eventkinds.InputEvent,
    eventkinds.TaskEvent,
    eventkinds.NoteEvent,
    eventkinds.NextEvent,
    eventkinds.UsageEvent,
    eventkinds.BudgetEvent,
]


def test_the_typed_kinds_are_the_ledgers_kinds_and_fields() -> None:
    """The union the type checker reads names every kind once, and its fields (with a
    carried task's) are exactly those the fast reader turns into JSON keys."""
    assert sorted(_kind(k) for k in KINDS) == sorted(eventlog.KINDS)
    declared = {name for k in [*KINDS, document.TaskState] for name in k.__annotations__}
    assert declared == set(eventlog.FIELDS)
    assert set(eventlog.COUNTS) <= declared


def test_each_count_is_declared_a_whole_number_where_it_is_declared() -> None:
    for record in KINDS:
        for name, annotation in record.__annotations__.items():
            if name in eventlog.COUNTS:
                assert "int" in str(annotation), (record.__name__, name)


def _typed_keys(record: type, schema: dict[str, object], where: str) -> list[str]:
    """Where ``record`` (a TypedDict of ``document``) and ``schema`` (an object's) differ:
    keys, which are required, and the same for every nested record."""
    hints = {
        name: str(getattr(a, "__forward_arg__", a)) for name, a in record.__annotations__.items()
    }
    props = schema.get("properties", {})
    assert isinstance(props, dict)
    problems = [f"{where}.{k}: not in the record" for k in props if k not in hints]
    problems += [f"{where}.{k}: not in the schema" for k in hints if k not in props]
    required = {k for k, a in hints.items() if not a.startswith("NotRequired[")}
    if required != set(schema.get("required", [])):  # type: ignore[call-overload]
        problems.append(f"{where}: required {sorted(required)}")
    for name, annotation in hints.items():
        nested = re.findall(r"[A-Z][A-Za-z]+", annotation.replace("NotRequired", ""))
        inner = props.get(name, {})
        while isinstance(inner, dict) and inner.get("type") == "array":
            inner = inner["items"]
        if nested and name in props and isinstance(inner, dict):
            problems += _typed_keys(getattr(document, nested[0]), inner, f"{where}.{name}")
    return problems


@pytest.mark.parametrize("version", schema.VERSIONS)
def test_the_document_records_are_the_schemas(version: str) -> None:
    """Every key of every shipped schema is in the records, with the same ones required;
    the latest schema has no key the records lack."""
    problems = _typed_keys(document.Checkpoint, schema.checkpoint_schema(version), "$")
    if version != schema.VERSIONS[-1]:
        problems = [p for p in problems if not p.endswith("not in the schema")]
    assert problems == []
