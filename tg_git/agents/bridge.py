"""The one place agent hooks call into checkpoints, resume and the level texts, so those
modules can change behind a small, stable surface."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tg_git.domain import budget, gauge, levels

if TYPE_CHECKING:  # checkpoint and resume load only when a hook saves or rolls over
    from tg_git.domain.budget import Budgets
    from tg_git.domain.replay import Session
    from tg_git.repo.workspace import Workspace

PRE_COMPACT = "pre-compact"
HALT, FORCE_SAVE, WARNING, OK = levels.HALT, levels.FORCE_SAVE, levels.WARNING, levels.OK


def budgets(ws: Workspace, session: Session) -> Budgets:
    """Both budgets of the session with the agents' live reading: what every hook acts on
    (the worse level of the two, and which one halts)."""
    from tg_git.repo import readings  # lazy: 6.0 ms
    from tg_git.usage import (
        planwindows,  # lazy: 3.2 ms; the plan's windows, read only when a share is set
    )

    live = readings.read_live(ws.repo.git_dir, session.id)
    return budget.budgets(
        session, ws.config, live, planwindows.for_budgets(ws.repo.git_dir, ws.config)
    )


def record_live(
    ws: Workspace, agent: str, agent_session: str, used: int, window: int, model: str
) -> None:
    """An agent's figures as the live reading of the session (nothing without a session)."""
    from tg_git.repo import hotstate, readings  # lazy: 4.8 ms (hotstate: loaded by every hook)

    session = ws.session()
    if session is not None:  # ``seen``: a ledger reading of the same second after it wins
        readings.record_live(
            ws.repo.git_dir,
            agent,
            agent_session or agent,
            used=used,
            window=window,
            model=model,
            session=session.id,
            estimated=session.estimated,
            seen=budget.seen(session),
        )
        hotstate.forget(ws.repo.git_dir)  # the reading may move the level: Python decides next


def save_at_level(ws: Workspace, lvl: str) -> str | None:
    """The turn-end save: once per session and level (None when already saved)."""
    from tg_git.services import checkpoint  # lazy: 34.0 ms

    return checkpoint.auto_save(ws, lvl)


def saved(ws: Workspace, session: Session, lvl: str) -> bool:
    """Whether this session has its checkpoint of level ``lvl`` already."""
    from tg_git.repo import checkpoints  # lazy: 17.6 ms

    return checkpoints.already_saved(ws, session.id, lvl)


def save_before_compaction(ws: Workspace, session: Session) -> str | None:
    from tg_git.repo import checkpoints  # lazy: 17.6 ms
    from tg_git.services import checkpoint  # lazy: 34.0 ms

    if checkpoints.already_saved(ws, session.id, PRE_COMPACT):
        return None
    if checkpoint.operation_in_progress(ws):
        return None
    return checkpoint.save(ws, session, PRE_COMPACT)


def warning(session: Session, ws: Workspace) -> str:
    current = ", ".join(session.titles("in_progress"))
    return gauge.warning_block(session, ws.config, current)


def halt(ws: Workspace, saved: bool = True) -> str:
    return gauge.halt_block(ws.config, saved)


def new_session(ws: Workspace) -> tuple[str, str]:
    """Start the next session from the newest checkpoint (the resume briefing), or plainly
    when there is none; returns (session id, briefing or "")."""
    from tg_git.domain.errors import NoCheckpoint  # lazy: 0.7 ms
    from tg_git.services import resume  # lazy: 45.1 ms

    try:
        result = resume.resume(ws)
    except NoCheckpoint:
        return ws.start_session(), ""
    return result["session"]["id"], resume.briefing(result, ws.config.language)
