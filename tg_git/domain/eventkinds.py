"""The ledger's events, one typed record per kind: the fields tg-git writes and reads.

``eventlog.Event`` is their union, told apart by ``kind`` (``if event["kind"] == "commit"``
narrows it). They describe what tg-git writes, not what a file holds: a hand edit can put
anything in a line, so readers still take counts through ``eventlog.count`` and texts through
``str()``. Only the type checker reads this module (``eventlog`` imports it under
``TYPE_CHECKING``): building these classes costs a hook ~0.7 ms at start-up, for nothing it
does at run time. ``tests/domain/test_records.py`` keeps ``eventlog.KINDS`` and
``eventlog.FIELDS`` (the fast reader's key list) equal to what these declare.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict

if TYPE_CHECKING:
    from typing_extensions import Required  # Python 3.11's; read only by the type checker

    from tg_git.domain.document import TaskState


class _Any(TypedDict, total=False):
    at: str  # UTC, "2026-12-01T13:45:00Z"; every event has one
    session: str  # the session it belongs to (a start names itself in `id`)


class Plan(TypedDict, total=False):
    """What a session's start carries over from the session before (or a checkpoint)."""

    pending: list[str]
    in_progress: list[TaskState]  # in progress or blocked, as a checkpoint lists them
    context: list[str]
    next: list[str]
    resumed_from: str  # the checkpoint a resume started from


class SessionEvent(_Any, Plan, total=False):
    """A session starts, carrying the plan of the one before (or of a checkpoint)."""

    kind: Required[Literal["session"]]
    id: str
    max_tokens: int
    base: str  # the commit it started at


class CommitEvent(_Any, total=False):
    """What a commit's change was counted as (or a late count of one: ``recount``)."""

    kind: Required[Literal["commit"]]
    tokens: int
    files: int
    path: str  # its first file (``files``: how many)
    label: str  # "path (+N)", for older tg-git versions (a line without ``path``: the only one)
    override: bool  # committed past the halt on purpose
    estimator: str  # the estimator profile it was counted with
    recount: str  # the commit a late count is for


class InputEvent(_Any, total=False):
    """Tokens read into the session by hand (``tg-git input``)."""

    kind: Required[Literal["input"]]
    tokens: int
    label: str


class TaskEvent(_Any, total=False):
    kind: Required[Literal["task"]]
    op: Literal["add", "start", "done", "block"]
    title: str
    note: str  # a stopping point (start) or a blocker (block)


class NoteEvent(_Any, total=False):
    kind: Required[Literal["note"]]
    text: str


class NextEvent(_Any, total=False):
    kind: Required[Literal["next"]]
    op: Literal["clear"]  # absent: `text` is one more next step
    text: str


class UsageEvent(_Any, total=False):
    """Usage measured by the agent itself (its transcript or its status line)."""

    kind: Required[Literal["usage"]]
    agent: str
    model: str
    requests: int
    fresh_input: int
    cache_write: int
    cache_read: int
    output: int
    fill: int  # the main context's fill at the newest request: present when measured
    window: int
    transcript: str  # the agent's session id (never its path or content)
    spent: int  # the agent's own running total of the session
    cost_pico: int  # the agent's own running cost, in picodollars


class BudgetEvent(_Any, total=False):
    """A budget setting changed in the middle of a session (``tg-git config``)."""

    kind: Required[Literal["budget"]]
    label: str  # the setting
    text: str  # its new value


Event = (
    SessionEvent
    | CommitEvent
    | InputEvent
    | TaskEvent
    | NoteEvent
    | NextEvent
    | UsageEvent
    | BudgetEvent
)
