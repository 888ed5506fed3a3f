"""The checkpoint document: what a save records about a session, built from the session's
replay and the repository (schema 1.2, ``tg_git/schemas``).

What carries over from the previous checkpoint (completed files and tasks), what this
session committed, what is still uncommitted, who wrote it and both budgets at the save.
Reads only; ``tg_git.domain.checkpoint_text`` turns the document into its two files and
``tg_git.services.checkpoint`` commits them.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

from tg_git.domain import budget, eventlog, levels, refs, replay, schema
from tg_git.domain.errors import CorruptFile
from tg_git.repo import git, gitquery
from tg_git.repo.workspace import Workspace
from tg_git.text import messages, term

SCHEMA_VERSION = "1.2"
# What a checkpoint lists, so that it stays well under the 1 MiB resume reads at any project
# size (100,000 files once made 2 MB): completed files (each path twice, with its blob id) and
# the whole document. What is left out is counted (``omitted``) and recoverable.
LISTED_FILES = 1000
LISTED_BYTES = 128 * 1024
MAX_DOCUMENT = 768 * 1024
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
    session = replay.settle_tasks(session, every_event(ws))  # merged from other clones
    tasks = session.tasks.values()
    in_progress = [_task(t) for t in tasks if t.status == "in_progress"]
    blocked = [_task(t) for t in tasks if t.status == "blocked"]
    known = {item["task"] for item in in_progress + blocked}
    in_progress += [
        {"task": p, "stopping_point": "uncommitted changes", "blockers": []}
        for p in _dirty_files(ws)
        if p not in known
    ]
    since = _since(ws, session, previous)
    carried = _carried_files(ws, previous)
    files = {**carried, **_committed_files(ws, since)}
    files = {path: blob for path, blob in files.items() if schema.path_fits(path)}
    listed = _listed(files, carried)
    completed_files = [{"path": p, "blob": files[p]} for p in sorted(listed)]
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
    if len(listed) < len(files):  # the rest: changed since ``since`` in the tagged tree
        unlisted_carried = any(p not in listed for p in carried)
        document["status"]["completed_since"] = ws.repo.empty_tree if unlisted_carried else since
        document["omitted"] = {"completed_files": len(files) - len(listed)}
    return _within_size(document)


def _within_size(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` cut to the schema's bounds (every field entered here: tg-git's own
    checkpoints load), and under ``MAX_DOCUMENT`` bytes: the largest list left is halved
    until it fits, and ``omitted`` says how many items each lost. Schema 1.2 when nothing
    was left out, 1.3 (its ``omitted`` and ``status.completed_since``) otherwise."""
    from tg_git.domain.checkpoint_text import json_text  # lazy: 0.3 ms

    version = "1.3" if "omitted" in document else SCHEMA_VERSION
    document = schema.clamp(
        {**document, "schema_version": version}, schema.checkpoint_schema(version)
    )
    lists = [
        (document["status"], k) for k in ("completed_tasks", "pending", "in_progress", "blocked")
    ] + [(document, "next_steps"), (document, "critical_context")]
    while len(json_text(document).encode("utf-8", "surrogateescape")) > MAX_DOCUMENT:
        holder, key = max(lists, key=lambda item: len(json.dumps(item[0].get(item[1]) or [])))
        items = holder.get(key) or []
        if len(items) < 2:
            break  # (no list left to cut: the schema's bounds hold it well under 1 MiB)
        keep = len(items) // 2
        holder[key] = items[-keep:] if key == "completed_tasks" else items[:keep]  # newest done
        omitted = document.setdefault("omitted", {})
        omitted[key] = omitted.get(key, 0) + len(items) - keep
        document["schema_version"] = "1.3"
    return document


def every_event(ws: Workspace) -> list[eventlog.Event]:
    """Every event this clone holds, every session's, the current one's as its replay reads
    them (those waiting for the next commit too); the current session's alone when a ledger
    file cannot be read (the next commit repairs it)."""
    own = ws.session_events()
    try:
        return list({**ws.events(), **own}.values())
    except CorruptFile:
        return list(own.values())


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


_COMMIT_ID = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


def _since(
    ws: Workspace, session: replay.Session, previous: tuple[str, str, dict[str, Any]] | None
) -> str:
    """The commit this checkpoint's completed files are counted from: the session's base, or
    the older one of a previous checkpoint that listed only some of its files (those it left
    out are completed still); the empty tree without either."""
    since = previous[2]["status"].get("completed_since") if previous else None
    for commit in (since, session.base):
        valid = isinstance(commit, str) and _COMMIT_ID.match(commit) is not None
        if valid and gitquery.exists(ws.repo, str(commit)):
            return str(commit)
    return ws.repo.empty_tree


def _committed_files(ws: Workspace, since: str) -> dict[str, str]:
    """Files added or changed since ``since`` (this session's commits, and any a previous
    checkpoint left unlisted), path -> blob id at HEAD (a submodule's "blob" is its commit
    id)."""
    head = git.head(ws.repo)
    if not head:
        return {}
    changes = gitquery.diff_raw(ws.repo, since, head, diff_filter="AMT")
    return {c.path: c.new_id for c in changes if ws.config.counts(c.path)}


def _listed(files: dict[str, str], carried: dict[str, str]) -> set[str]:
    """The completed files a checkpoint lists: those carried over first (a previous
    checkpoint listed them), then the rest by path, at most ``LISTED_FILES`` and
    ``LISTED_BYTES`` of paths. The rest are counted and recoverable (``completed_since``)."""
    listed: set[str] = set()
    size = 0
    for path in [*sorted(p for p in carried if p in files), *sorted(files)]:
        if path in listed:
            continue
        size += len(path.encode("utf-8", "surrogateescape")) + 64
        if len(listed) >= LISTED_FILES or size > LISTED_BYTES:
            break
        listed.add(path)
    return listed


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
    from tg_git.repo import readings  # lazy: 0.9 ms

    live = readings.read_live(ws.repo.git_dir, session.id)
    measured = (session.measured_at, session.measured_agent, session.measured_model)
    newest = max(
        [measured] + ([(live.at, live.agent, live.model)] if live else []), key=lambda m: m[0]
    )
    if newest[1]:
        return {"agent": newest[1][:64], **({"model": newest[2][:200]} if newest[2] else {})}
    from tg_git.repo import bindings  # lazy: 0.2 ms

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
    from tg_git.repo import readings  # lazy: 0.9 ms

    found = budget.budgets(session, ws.config, readings.read_live(ws.repo.git_dir, session.id))

    def plain(one: budget.Budget) -> dict[str, Any]:
        data = {
            "used": one.used,
            "limit": one.limit,
            "percent": one.percent,
            "level": one.level,
            "source": one.source,
            "measured_at": one.measured_at,
            "usd": one.usd,
            "limit_usd": one.limit_usd,
        }
        return {k: v for k, v in data.items() if v is not None and v != ""}

    spend = plain(found.spend)
    context = {k: v for k, v in plain(found.context).items() if k not in ("usd", "limit_usd")}
    halted = {"halted_by": found.halted_by} if found.halted_by else {}
    return {"level": found.level, **halted, "context": context, "spend": spend}
