"""The report's numbers: the ledger's sessions and events gathered into the figures the page
shows (``build``), as one JSON-ready dict.

Session totals come from ``replay.replay`` run on one session's events at a time: the
status command's replay is the one home of what a session has used. What the figures need
from git (ledgers at other branches' heads, the commit behind an event, checkpoints) comes
from ``history``.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from tg_git import __version__
from tg_git.domain import budget, eventlog, levels, replay, windows
from tg_git.domain.config import Config
from tg_git.domain.errors import CorruptFile, TgGitError
from tg_git.domain.layout import LEDGER_PATH
from tg_git.repo.workspace import Workspace
from tg_git.report import history
from tg_git.text import messages, term

TOP = 10  # rows in the costliest commits and files tables
REESTIMATE = 10  # costliest multi-file commits re-estimated per file from history
STEPS = ("commit", "input", "usage")  # the events that move a session's `used`
MEASURED_FIELDS = ("fill", "context_fill")  # a usage event's measured context fill
NO_TASK = ""  # the row of tokens spent while no task was in progress

Keyed = tuple[str, eventlog.Event]  # an event and its key


# ---- grouping the ledger by session ---------------------------------------------------------
class _Grouped(NamedTuple):  # not a dataclass: importing dataclasses costs the report ~13 ms
    starts: dict[str, Keyed]  # session id -> (key, start event), start order
    events: dict[str, list[Keyed]]  # session id -> its events, file order
    odd: frozenset[object]  # the `session` fields of start events (tg-git writes none)


Known = dict[str, tuple[_Grouped, dict[str, Any]]]  # session id -> its grouping, its summary


def _at(event: eventlog.Event) -> str:
    return str(event.get("at", ""))


def group(events: Mapping[str, eventlog.Event]) -> _Grouped:
    """Every session's start and events; sessions in start order (file order breaks ties,
    as in ``replay.replay``)."""
    starts: list[Keyed] = []
    by_session: dict[str, list[Keyed]] = {}
    for key, event in events.items():  # one pass over 100,000 events, not two
        sid = event.get("session")
        if event.get("kind") == "session":
            starts.append((key, event))
        elif isinstance(sid, str):
            into = by_session.get(sid)
            if into is None:
                into = by_session[sid] = []
            into.append((key, event))
    starts.sort(key=lambda item: _at(item[1]))
    by_id = {str(e.get("id", "")): (k, e) for k, e in starts}
    mine = {sid: by_session.get(sid, []) for sid in by_id}
    return _Grouped(by_id, mine, frozenset(e.get("session") for _, e in starts))


def _replay_one(grouped: _Grouped, sid: str) -> replay.Session:
    key, start = grouped.starts[sid]
    subset = {key: start}
    subset.update(grouped.events[sid])  # one dict of a session's events, not two
    session = replay.replay(subset)
    assert session is not None  # the subset holds a start
    return session


def _same_events(one: _Grouped, other: _Grouped, sid: str) -> bool:
    """Whether session ``sid`` has the same events (by key) in both groupings: the count
    first (the keys of 5,000 events are only gathered where a branch may share them)."""
    if len(one.events[sid]) != len(other.events[sid]):
        return False
    keys = [(g.starts[sid][0], *(k for k, _ in g.events[sid])) for g in (one, other)]
    return frozenset(keys[0]) == frozenset(keys[1])


def _int_field(event: eventlog.Event, name: str) -> int | None:
    value = event.get(name)
    return value if type(value) is int and value >= 0 else None


def measured_fill(event: eventlog.Event) -> int | None:
    """A usage event's measured context fill, or None (its field names are not final: any
    whole number under one of ``MEASURED_FIELDS`` counts)."""
    for name in MEASURED_FIELDS:
        value = _int_field(event, name)
        if value is not None:
            return value
    return None


# ---- one session ------------------------------------------------------------------------------
def summary(
    session: replay.Session,
    config: Config,
    live: budget.Live | None = None,
    plan: list[Any] | None = None,
) -> dict[str, Any]:
    """A session's figures as ``status --json`` gives them (``live``: the current session's
    live reading; ``plan``: the plan windows' readings): ``used``, ``percent`` and ``window``
    are the context budget's, ``level`` the session's, ``max_tokens`` the configured budget
    the session started with."""
    found = budget.budgets(session, config, live, plan)
    context = found.context
    window = context.limit or session.max_tokens
    return {
        "id": session.id,
        "started": session.started,
        "base": session.base,
        "max_tokens": session.max_tokens,
        "window": window,
        "window_from": context.window_from,
        "source": context.source,
        "used": context.used,
        "input": session.input,
        "output": session.output,
        "percent": levels.percent(context.used, window),
        "level": found.level,
        "halted_by": found.halted_by,
        "spend": {
            "tokens": found.spend.used,
            "usd": found.spend.usd,
            "percent": found.spend.percent,
            "level": found.spend.level,
        },
        "unrecorded": list(found.unrecorded),
        "windows": windows.as_json(found.windows or {}),
        "commits": session.commits,
        "resumed_from": session.resumed_from,
    }


def burn_down(started: str, events: Sequence[Keyed], limits: Mapping[str, int]) -> dict[str, Any]:
    """Cumulative ``used`` after each event that moves it, from 0 at the session's start.

    ``measured`` is the series the agent's own logs give: from a usage event on, its context
    fill plus the estimated events recorded after it (measured beats estimated)."""
    ordered = sorted(events, key=lambda item: _at(item[1]))
    points: list[dict[str, Any]] = [{"at": started, "kind": "start", "tokens": 0, "used": 0}]
    measured: list[dict[str, Any]] = []
    overrides: list[int] = []
    used = 0
    fill: int | None = None
    for key, event in ordered:
        kind = event.get("kind")
        if kind not in STEPS:
            continue
        if kind == "usage":
            value = measured_fill(event)
            if value is None:
                continue
            fill = value
            tokens = 0
        else:
            tokens = _int_field(event, "tokens") or 0
            used += tokens
            if fill is not None:
                fill += tokens
        point: dict[str, Any] = {
            "key": key,
            "at": _at(event),
            "kind": kind,
            "tokens": tokens,
            "used": used,
        }
        if kind == "commit":
            point["label"] = str(event.get("label", ""))
            point["files"] = _int_field(event, "files") or 0
            if event.get("override") is True:
                point["override"] = True
                overrides.append(len(points))
        elif kind == "input" and event.get("label"):
            point["label"] = str(event.get("label"))
        if fill is not None:
            point["measured"] = fill
            measured.append({"step": len(points), "at": point["at"], "used": fill})
        points.append(point)
    crossings: dict[str, int | None] = {}
    for name, tokens in limits.items():
        crossings[name] = next((n for n, p in enumerate(points) if p["used"] >= tokens), None)
    return {
        "points": points,
        "measured": measured,
        "overrides": overrides,
        "crossings": crossings,
        "halt": crossings.get("halt"),
    }


def tokens_per_task(
    start: eventlog.Event, events: Sequence[Keyed], session: replay.Session
) -> list[dict[str, Any]]:
    """Tokens of each commit and input, given to the task in progress at the time (the one
    started last and not yet done or blocked); tasks carried over in progress count from the
    session's start."""
    active: list[str] = []
    carried = start.get("in_progress")
    for item in carried if isinstance(carried, list) else []:
        if (
            isinstance(item, dict)
            and isinstance(item.get("task"), str)
            and not item.get("blockers")
        ):
            active.append(item["task"])
    rows: dict[str, dict[str, Any]] = {}

    def row(title: str) -> dict[str, Any]:
        if title not in rows:
            rows[title] = {"title": title, "tokens": 0, "input": 0, "output": 0, "commits": 0}
        return rows[title]

    for _key, event in sorted(events, key=lambda item: _at(item[1])):
        kind = event.get("kind")
        if kind == "task":
            title = str(event.get("title", ""))
            if title in active:
                active.remove(title)
            if event.get("op") == "start":
                active.append(title)
            row(title)
        elif kind in ("commit", "input"):
            tokens = _int_field(event, "tokens") or 0
            target = row(active[-1] if active else NO_TASK)
            target["tokens"] += tokens
            if kind == "commit":
                target["output"] += tokens
                target["commits"] += 1
            else:
                target["input"] += tokens
    for known in session.tasks.values():
        row(known.title)
    result = []
    for title, data in rows.items():
        task = session.tasks.get(title)
        data["status"] = task.status if task else ("" if title == NO_TASK else "pending")
        data["stopping_point"] = task.stopping_point if task else ""
        result.append(data)
    result.sort(key=lambda r: -r["tokens"])
    return result


def place(points: Sequence[Mapping[str, Any]], checkpoint: Mapping[str, Any]) -> int:
    """The step a checkpoint was saved after: the last event at or before its time (times
    have whole seconds, so an event in the same second after the save is told apart by the
    figure the checkpoint recorded); without a time, the first step that reached its figure."""
    stamp, used = checkpoint["timestamp"], checkpoint["used"]
    if stamp:
        before = [n for n, p in enumerate(points) if n == 0 or p["at"] <= stamp]
        within = [n for n in before if used is None or points[n]["used"] <= used]
        return max(within or before)
    if used is not None:
        return next((n for n, p in enumerate(points) if p["used"] >= used), len(points) - 1)
    return len(points) - 1


def _totals(sessions: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    return {
        name: sum(int(s[name]) for s in sessions)
        for name in ("used", "input", "output", "commits", "max_tokens")
    } | {"sessions": len(sessions)}


# ---- branches ---------------------------------------------------------------------------------
def _branch_events(
    name: str, parts: Sequence[bytes], cache: dict[bytes, dict[str, eventlog.Event] | str]
) -> dict[str, eventlog.Event] | str:
    """A branch head's events from its ledger files (each file parsed once, however many
    branches hold it), or the error that makes them unreadable."""
    events: dict[str, eventlog.Event] = {}
    for part in parts:
        if part not in cache:
            try:
                cache[part] = history.parse_ledgers([part], f"{name}:{LEDGER_PATH}")
            except CorruptFile as exc:
                cache[part] = str(exc)
        parsed = cache[part]
        if isinstance(parsed, str):
            return parsed
        events.update(parsed)
    return events


def _branch_sessions(
    events: Mapping[str, eventlog.Event], known: Known, config: Config
) -> list[dict[str, Any]]:
    """The summary of each session in ``events``: a ``known`` one reused where its events
    are the same."""
    grouped = group(events)
    rows = []
    for sid in grouped.starts:
        same = known.get(sid)
        if same is not None and _same_events(same[0], grouped, sid):
            rows.append(dict(same[1]))
        else:
            rows.append(summary(_replay_one(grouped, sid), config))
    return rows


def branches(
    ws: Workspace,
    current: Mapping[str, eventlog.Event],
    known: Known | None = None,
    rows: Sequence[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Every branch head's committed ledger (the current branch: ``current``, the events
    ``status`` replays), its sessions side by side, with totals. ``known`` summaries are
    reused for a session whose events are the same on a branch; ``rows``: the current
    branch's, when the caller has them (its sessions are ``current``'s: not grouped again)."""
    heads, current_name = history.branch_heads(ws.repo)
    blobs = history.ledger_blobs(ws.repo, [sha for name, sha in heads if name != current_name])
    cache: dict[bytes, dict[str, eventlog.Event] | str] = {}
    result = []
    for name, sha in heads:
        row: dict[str, Any] = {
            "name": name,
            "head": sha,
            "current": name == current_name,
            "sessions": [],
            "error": "",
        }
        if name == current_name and rows is not None:
            row["sessions"], events = [dict(r) for r in rows], {}
        elif name == current_name:  # HEAD's ledger and the events since, as `status` does
            events = dict(current)
        else:
            found = _branch_events(name, blobs.get(sha) or [], cache)
            row["error"], events = (found, {}) if isinstance(found, str) else ("", found)
        if events:
            try:
                row["sessions"] = _branch_sessions(events, known or {}, ws.config)
            except CorruptFile as exc:
                row["error"] = str(exc)
        row["totals"] = _totals(row["sessions"])
        result.append(row)
    return result


def clean_data(value: Any) -> Any:
    """The report's data with lone surrogates (undecodable bytes in a path) made U+FFFD, so
    it prints as UTF-8 JSON; JSON itself escapes control characters."""
    if isinstance(value, str):
        return term.mark_surrogates(value)
    if isinstance(value, list):
        return [clean_data(v) for v in value]
    if isinstance(value, dict):
        return {clean_data(k): clean_data(v) for k, v in value.items()}
    return value


# ---- everything -------------------------------------------------------------------------------
def _session_row(
    sid: str,
    session: replay.Session,
    grouped: _Grouped,
    known: Known,
    saves: Sequence[Mapping[str, Any]],
    current: str,
) -> dict[str, Any]:
    """A session's summary with what the page counts beside it."""
    row = dict(known[sid][1])
    mine = [event for _key, event in grouped.events[sid]]  # up to 100,000: C-speed passes
    kinds = [event.get("kind") for event in mine]
    row["inputs"] = kinds.count("input")
    row["overrides"] = sum(
        1 for event in mine if event.get("override") is True and event.get("kind") == "commit"
    )
    row["ended"] = (
        max(map(str, [event.get("at", "") for event in mine])) if mine else session.started
    )
    row["current"] = sid == current
    row["checkpoints"] = sum(1 for c in saves if c["session"] == sid)
    return row


def _drawn(
    row: dict[str, Any],
    sid: str,
    session: replay.Session,
    grouped: _Grouped,
    saves: Sequence[Mapping[str, Any]],
    config: Config,
) -> None:
    """Add what a chosen session's section draws: its burn-down, checkpoints and tasks."""
    mine = grouped.events[sid]
    judged = budget.on_record(session, config) if row.get("unrecorded") else config
    limits = levels.thresholds(row.get("window") or session.max_tokens, judged)
    row["token_thresholds"] = limits
    curve = burn_down(session.started, mine, limits)
    curve["checkpoints"] = [
        {**c, "step": place(curve["points"], c)} for c in saves if c["session"] == sid
    ]
    row["burn_down"] = curve
    row["tasks"] = tokens_per_task(grouped.starts[sid][1], mine, session)


def _live_point(row: dict[str, Any], live: budget.Live) -> None:
    """The status line's reading ends the measured series when it is the figure ``status``
    shows and the ledger does not hold it (a reading that changed no level stays local)."""
    curve = row["burn_down"]
    measured = curve["measured"]
    if row.get("source") != "statusline" or (measured and measured[-1]["used"] == row["used"]):
        return
    step = max(len(curve["points"]) - 1, 0)
    measured.append({"step": step, "at": live.at, "used": row["used"]})


def _costliest(ws: Workspace, grouped: _Grouped, chosen: Sequence[str]) -> dict[str, Any]:
    """The costliest commits of the chosen sessions (each looked up in history) and the
    costliest files (single-file commits from the ledger, the costliest multi-file ones
    re-estimated per file)."""
    commits = [
        (key, e, sid) for sid in chosen for key, e in grouped.events[sid] if e["kind"] == "commit"
    ]
    commits.sort(key=lambda item: -(_int_field(item[1], "tokens") or 0))  # stable: file order
    multi = [item for item in commits if (_int_field(item[1], "files") or 0) > 1][:REESTIMATE]
    looked_up = {key: (_at(e), sid) for key, e, sid in commits[:TOP] + multi}
    in_history = history.find_commits(ws, looked_up)
    split = history.files_of(ws, [in_history[key] for key, _, _ in multi if key in in_history])
    per_file = {key: split[in_history[key].sha] for key, _, _ in multi if key in in_history}
    costliest = []
    for key, e, sid in commits[:TOP]:
        found = in_history.get(key)
        costliest.append(
            {
                "key": key,
                "session": sid,
                "at": _at(e),
                "tokens": _int_field(e, "tokens") or 0,
                "files": _int_field(e, "files") or 0,
                "label": str(e.get("label", "")),
                "override": e.get("override") is True,
                "commit": found.sha if found else "",
                "subject": history.subject(found) if found else "",
            }
        )
    files: dict[str, dict[str, Any]] = {}
    unattributed = 0
    for key, e, _sid in commits:
        tokens = _int_field(e, "tokens") or 0
        if _int_field(e, "files") == 1 and e.get("label"):
            shares = [(str(e["label"]), tokens)]
        elif key in per_file:
            shares = per_file[key]
        else:
            unattributed += tokens
            continue
        for path, share in shares:
            entry = files.setdefault(path, {"path": path, "tokens": 0, "commits": 0})
            entry["tokens"] += share
            entry["commits"] += 1
    return {
        "costliest_commits": costliest,
        "costliest_files": {
            "files": sorted(files.values(), key=lambda f: -f["tokens"])[:TOP],
            "unattributed": unattributed,
            "reestimated_commits": len(per_file),
        },
    }


def build(
    ws: Workspace, session_id: str | None = None, all_sessions: bool = False
) -> dict[str, Any]:
    """The report's numbers: every session's totals, the burn-down and tasks of the chosen
    sessions (the current one by default), the costliest commits and files among them,
    checkpoints, and the sessions of every branch side by side.

    Python's cycle collector is paused meanwhile: the ledger's events are ~100,000 small
    dicts that live to the end and hold no cycles, and each of its full passes (three at
    100,000 events) walks them all to free nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _build(ws, session_id, all_sessions)
    finally:
        if enabled:
            gc.enable()


def _build(ws: Workspace, session_id: str | None, all_sessions: bool) -> dict[str, Any]:
    config = ws.config
    events = ws.events()
    grouped = group(events)
    if not grouped.starts:
        raise TgGitError(messages.text(config.language, "ws_no_session"))
    # The work tree's own session, as `tg-git status` counts it (two sessions started in the
    # same second would otherwise tie on their start times).
    own = ws.current_session_id()
    replayed = {sid: _replay_one(grouped, sid) for sid in grouped.starts}
    if own in grouped.starts and own not in grouped.odd:  # its events are those replayed
        current: replay.Session | None = replayed[own]
    else:
        current = replay.replay(
            {k: e for k, e in events.items() if own in (e.get("session"), e.get("id"))}
            if own in grouped.starts
            else events
        )
    assert current is not None
    if session_id is not None and session_id not in grouped.starts:
        shown = term.mark_line(session_id)
        raise TgGitError(messages.text(config.language, "report_no_session", id=shown))
    chosen = (
        list(grouped.starts)
        if all_sessions
        else [session_id if session_id is not None else current.id]
    )
    from tg_git.repo import readings  # lazy: 0.7 ms
    from tg_git.usage import planwindows  # lazy: 0.4 ms

    live = readings.read_live(ws.repo.git_dir, current.id)
    plan = planwindows.readings(ws.repo.git_dir)  # the current session's use of the windows
    known: Known = {
        sid: (grouped, summary(session, config, *((live, plan) if sid == current.id else ())))
        for sid, session in replayed.items()
    }
    saves = history.checkpoints(ws, grouped.starts)
    sessions = []
    for sid, session in replayed.items():
        row = _session_row(sid, session, grouped, known, saves, current.id)
        if sid in chosen:
            _drawn(row, sid, session, grouped, saves, config)
            if sid == current.id and live is not None:
                _live_point(row, live)
        sessions.append(row)
    return {
        "report_version": 1,
        "tool_version": __version__,
        "generated": eventlog.now(),
        "project": config.project_name or ws.repo.root.name,
        "language": config.language,
        "thresholds_percent": {
            "warning": config.warning,
            "force_save": config.force_save,
            "halt": config.halt,
        },
        "current_session": current.id,
        "selected": chosen,
        "events": len(events),
        "totals": _totals(sessions),
        "sessions": sessions,
        **_costliest(ws, grouped, chosen),
        "checkpoints": saves,
        "branches": branches(ws, events, known, [known[sid][1] for sid in grouped.starts]),
    }
