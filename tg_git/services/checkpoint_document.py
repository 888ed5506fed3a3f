"""The checkpoint document: what a save records about a session, built from the session's
replay and the repository (schema 1.2, ``tg_git/schemas``).

What carries over from the previous checkpoint (completed files and tasks), what this
session committed, what is still uncommitted, who wrote it and both budgets at the save.
Reads only; ``tg_git.domain.checkpoint_text`` turns the document into its two files and
``tg_git.services.checkpoint`` commits them.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from tg_git.domain import budget, levels, refs, replay, schema
from tg_git.repo import git, gitquery
from tg_git.repo.workspace import Workspace
from tg_git.text import messages, term

SCHEMA_VERSION = "1.2"
MAX_COMPLETED = 10000  # the schema's limit on completed files
MAX_SUBJECTS = 100
MAX_DIRTY = 100  # a checkpoint lists at most this many uncommitted files
# In every agent settings entry tg-git writes (`tg-git hook agent ...`, or the interpreter's
# `-m tg_git hook agent ...`).
AGENT_HOOK_MARKS = (b"tg-git hook agent", b"tg_git hook agent")
SKILL_FILE = "skills/token-guard/SKILL.md"


def build(
    ws: Workspace,
    session: replay.Session,
    message: str = "",
    previous: tuple[str, str, dict[str, Any]] | None = None,
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The checkpoint document, schema 1.2 (1.1, ``written_by`` and ``budgets``): the seed's 1.0 keys, plus completed files with
    blob ids (carried over from the previous checkpoint) and completed tasks kept apart,
    blocked tasks with their blockers, what this session did, the ``-m`` message, and
    ``usage`` (measured figures, ``{source, measured_at, agent, model, window, spend: {input,
    cache_write, cache_read, output}, fill}``) when the caller has them; 1.2 adds ``budgets``
    (the context and spend budgets at the save, USD where known)."""
    config = ws.config
    tasks = session.tasks.values()
    in_progress = [_task(t) for t in tasks if t.status == "in_progress"]
    blocked = [_task(t) for t in tasks if t.status == "blocked"]
    known = {item["task"] for item in in_progress + blocked}
    in_progress += [
        {"task": p, "stopping_point": "uncommitted changes", "blockers": []}
        for p in _dirty_files(ws)
        if p not in known
    ]
    files = {**_carried_files(ws, previous), **_committed_files(ws, session)}
    files = {path: blob for path, blob in files.items() if schema.path_fits(path)}
    completed_files = [{"path": p, "blob": b} for p, b in sorted(files.items())][:MAX_COMPLETED]
    carried_tasks = previous[2]["status"].get("completed_tasks", []) if previous else []
    done_tasks = (
        [t for t in carried_tasks if isinstance(t, str)] if isinstance(carried_tasks, list) else []
    )
    done_tasks = list(dict.fromkeys(done_tasks + session.titles("done")))
    session_info: dict[str, Any] = {
        "timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "project_name": config.project_name or ws.repo.root.name,
        "project_root": ".",  # the repository itself: no path of the user's machine
        "max_tokens": session.max_tokens,
        "estimated_used": session.used,
        "id": session.id,
    }
    remote = _remote(ws)
    if remote:
        session_info["remote"] = remote
    document = {
        "schema_version": SCHEMA_VERSION,
        "session": session_info,
        "token_thresholds": levels.thresholds(session.max_tokens, config),
        "status": {
            "completed": [f["path"] for f in completed_files],
            "in_progress": in_progress,
            "pending": session.titles("pending"),
            "completed_files": completed_files,
            "completed_tasks": done_tasks,
            "blocked": blocked,
        },
        "critical_context": list(config.critical_context)
        + session.context
        + [f"MAX_TOKENS: {session.max_tokens}"],
        "next_steps": list(session.next_steps),
        "resume_instructions": messages.text(config.language, "resume_instructions"),
        "done_this_session": _done_this_session(ws, session),
        "message": message.strip(),
        **({"usage": usage} if usage else {}),
        **_written_by(ws, session),
        "budgets": _budgets(ws, session),
    }
    # Every field entered here is cut to the schema's bounds: tg-git's own checkpoints load.
    return schema.clamp(document, schema.checkpoint_schema(SCHEMA_VERSION))  # type: ignore[no-any-return]


def _task(t: replay.Task) -> dict[str, Any]:
    return {"task": t.title, "stopping_point": t.stopping_point, "blockers": list(t.blockers)}


def _carried_files(
    ws: Workspace, previous: tuple[str, str, dict[str, Any]] | None
) -> dict[str, str]:
    """Completed files of the previous checkpoint, path -> blob id (1.0 documents: looked up
    in that checkpoint's tree)."""
    if previous is None:
        return {}
    _, commit, data = previous
    status = data["status"]
    files = status.get("completed_files")
    if isinstance(files, list):
        return {
            f["path"]: f["blob"]
            for f in files
            if isinstance(f, dict)
            and isinstance(f.get("path"), str)
            and isinstance(f.get("blob"), str)
        }
    names = [c for c in status.get("completed", []) if isinstance(c, str)]
    return _tree_blobs(ws, commit, names)


def _tree_blobs(ws: Workspace, commit: str, paths: list[str]) -> dict[str, str]:
    if not paths:
        return {}
    wanted = set(paths)
    entries = gitquery.ls_tree(ws.repo, commit, recursive=True, check=False)
    return {entry.path: entry.id for entry in entries if entry.path in wanted}


def _committed_files(ws: Workspace, session: replay.Session) -> dict[str, str]:
    """Files added or changed by this session's commits, path -> blob id at HEAD (a
    submodule's "blob" is its commit id)."""
    head = git.head(ws.repo)
    if not head:
        return {}
    base = (
        session.base
        if session.base and gitquery.exists(ws.repo, session.base)
        else ws.repo.empty_tree
    )
    changes = gitquery.diff_raw(ws.repo, base, head, diff_filter="AMT")
    return {c.path: c.new_id for c in changes if ws.config.counts(c.path)}


def _done_this_session(ws: Workspace, session: replay.Session) -> dict[str, Any]:
    """The session's own commits (checkpoint saves left out): count, subjects, tokens."""
    subjects: list[str] = []
    if git.head(ws.repo):
        since = [f"^{session.base}"] if session.base else []
        commits = gitquery.log(ws.repo, ["HEAD", *since], check=False)
        subjects = [
            term.one_line(c.subject, 200)
            for c in commits
            if c.subject.strip() and not c.subject.startswith(refs.SUBJECT_PREFIX)
        ]
    return {
        "commits": len(subjects),
        "output_tokens": session.output,
        "subjects": subjects[:MAX_SUBJECTS][::-1],  # oldest first, the newest kept
    }


def _dirty_files(ws: Workspace) -> list[str]:
    """Files with uncommitted changes, new untracked files included (ignored ones not);
    tg-git's own fresh agent wiring is not the user's work (see ``agent_wiring``)."""
    return uncommitted(ws)[0]


def uncommitted(ws: Workspace) -> tuple[list[str], list[str]]:
    """The user's uncommitted files, and tg-git's own fresh agent wiring: untracked files
    that `tg-git agent install` writes (a settings file holding its hook entries, the
    token-guard skill), which the user has not decided to commit yet."""
    entries = gitquery.status_entries(ws.repo)
    theirs: list[str] = []
    ours: list[str] = []
    for code, path in entries:
        if not ws.config.counts(path):
            continue
        (ours if code == "??" and _agent_wiring(ws, path) else theirs).append(path)
    return theirs[:MAX_DIRTY], ours[:MAX_DIRTY]


def _agent_wiring(ws: Workspace, path: str) -> bool:
    if path.endswith(SKILL_FILE):
        return True
    if not path.endswith((".json", ".toml")) or "/" not in path:
        return False
    try:
        with open(ws.repo.root / path, "rb") as fh:
            head = fh.read(1_000_000)
        return any(mark in head for mark in AGENT_HOOK_MARKS)
    except OSError:
        return False


def _remote(ws: Workspace) -> str | None:
    """The origin's URL as an identity, without credentials; None for a local path."""
    url = (gitquery.config_get(ws.repo, "remote.origin.url") or "").strip()
    if "://" in url:
        scheme, _, rest = url.partition("://")
        host_part, slash, path = rest.partition("/")
        if scheme == "file":
            return None
        return f"{scheme}://{host_part.rpartition('@')[2]}{slash}{path}"
    if re.match(r"^[\w.-]+@[\w.-]+:", url):  # scp-like git@host:path
        return url
    return None


def written_by(ws: Workspace, session: replay.Session) -> dict[str, str] | None:
    """The agent (and model) that served this session last: the newest of the live reading
    and the last measured usage, else the agent bound to the session; None for a person."""
    from tg_git.repo import readings

    live = readings.read_live(ws.repo.git_dir, session.id)
    measured = (session.measured_at, session.measured_agent, session.measured_model)
    newest = max(
        [measured] + ([(live.at, live.agent, live.model)] if live else []), key=lambda m: m[0]
    )
    if newest[1]:
        return {"agent": newest[1][:64], **({"model": newest[2][:200]} if newest[2] else {})}
    from tg_git.repo import bindings

    for agent, bound in bindings.read(ws.repo).items():  # agents; marks are not dicts
        if isinstance(bound, dict) and bound.get("session") == session.id:
            return {"agent": agent[:64]}
    return None


def _written_by(ws: Workspace, session: replay.Session) -> dict[str, Any]:
    """Schema 1.2's ``written_by``: the agent (and model) that served the session, so that
    a hand-off to another agent can say so."""
    writer = written_by(ws, session)
    return {"written_by": writer} if writer else {}


def _budgets(ws: Workspace, session: replay.Session) -> dict[str, Any]:
    """Schema 1.2's ``budgets``: both budgets at the save (``tg_git.domain.budget``)."""
    from tg_git.repo import readings

    found = budget.budgets(session, ws.config, readings.read_live(ws.repo.git_dir, session.id))

    def plain(one: budget.Budget) -> dict[str, Any]:
        data = {"used": one.used, "limit": one.limit, "percent": one.percent, "level": one.level,
                "source": one.source, "measured_at": one.measured_at, "usd": one.usd,
                "limit_usd": one.limit_usd}  # fmt: skip
        return {k: v for k, v in data.items() if v is not None and v != ""}

    spend = plain(found.spend)
    context = {k: v for k, v in plain(found.context).items() if k not in ("usd", "limit_usd")}
    halted = {"halted_by": found.halted_by} if found.halted_by else {}
    return {"level": found.level, **halted, "context": context, "spend": spend}
