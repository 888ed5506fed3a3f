"""The checkpoint document (``harness_checkpoint.json``), schema 1.0 to 1.3, as typed records.

One family serves every version: 1.1, 1.2 and 1.3 only add keys that may be absent (the schemas'
``required`` lists are the same), so a key a version lacks is ``NotRequired`` here. The
shipped JSON Schemas stay the contract (a document is checked against its own version's
schema before resume reads it); ``tests/domain/test_records.py`` keeps these records' keys,
and which of them are required, equal to the latest schema's. Only the type checker reads
this module (``services.checkpoint`` builds, ``services.resume`` reads the document): these
classes would cost a start-up ~0.5 ms for nothing done at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from typing_extensions import NotRequired  # Python 3.11's; read only by the type checker


class SessionInfo(TypedDict):
    timestamp: str  # UTC, "2026-12-01T13:45:00Z"
    project_name: str
    project_root: str  # "." : the repository itself, no path of the user's machine
    max_tokens: int
    estimated_used: int
    id: NotRequired[str]  # 1.1: the tg-git session saved
    remote: NotRequired[str]  # 1.1: remote.origin.url without credentials


class Thresholds(TypedDict):
    warning: int
    force_save: int
    halt: int


class TaskState(TypedDict):
    """A task in progress or blocked, where it stopped and what blocks it."""

    task: str
    stopping_point: str
    blockers: list[str]


class CompletedFile(TypedDict):
    path: str
    blob: str  # the blob id it had when completed (either object format)


class Status(TypedDict):
    completed: list[str]  # 1.0: paths and task titles alike; 1.1 on: the paths
    in_progress: list[TaskState]
    pending: list[str]
    completed_files: NotRequired[list[CompletedFile]]  # 1.1
    completed_tasks: NotRequired[list[str]]  # 1.1
    blocked: NotRequired[list[TaskState]]  # 1.1
    completed_since: NotRequired[str]  # 1.3: the files not listed changed since this commit


class DoneThisSession(TypedDict):
    commits: int
    output_tokens: int
    subjects: list[str]  # oldest first


class Spend(TypedDict):
    input: int
    cache_write: int
    cache_read: int
    output: int


class Usage(TypedDict):
    """What was measured from the agent's own logs, when it was."""

    source: str
    measured_at: NotRequired[str]
    agent: NotRequired[str]
    model: NotRequired[str]
    window: NotRequired[int]
    spend: NotRequired[Spend]
    fill: NotRequired[int]


class WrittenBy(TypedDict):
    agent: str
    model: NotRequired[str]


class Figures(TypedDict):
    """One budget at the save (``tg_git.domain.budget.Budget``, its empty values left out)."""

    used: int
    level: str
    limit: NotRequired[int]
    percent: NotRequired[float]
    source: NotRequired[str]
    measured_at: NotRequired[str]


class SpendFigures(Figures):
    usd: NotRequired[float]
    limit_usd: NotRequired[float]


class Budgets(TypedDict):
    level: str
    halted_by: NotRequired[str]
    context: NotRequired[Figures]
    spend: NotRequired[SpendFigures]


class Omitted(TypedDict):
    """1.3: how many items each list left out to stay within the size resume reads."""

    completed_files: NotRequired[int]
    completed_tasks: NotRequired[int]
    pending: NotRequired[int]
    in_progress: NotRequired[int]
    blocked: NotRequired[int]
    next_steps: NotRequired[int]
    critical_context: NotRequired[int]


class Checkpoint(TypedDict):
    """The whole document: the seed's 1.0 keys, then what 1.1, 1.2 and 1.3 add."""

    schema_version: str  # "1.0" to "1.3"; resume reads every "1.x"
    session: SessionInfo
    token_thresholds: Thresholds
    status: Status
    critical_context: list[str]
    next_steps: list[str]
    resume_instructions: str
    done_this_session: NotRequired[DoneThisSession]  # 1.1
    message: NotRequired[str]  # 1.1: `tg-git checkpoint -m`
    usage: NotRequired[Usage]  # 1.1
    written_by: NotRequired[WrittenBy]  # 1.2
    budgets: NotRequired[Budgets]  # 1.2
    omitted: NotRequired[Omitted]  # 1.3: written only when a list was cut
