"""`tg-git report`: every session's budget, from the ledger and history, as data and as one
self-contained HTML page (inline SVG and CSS, no script, no network).

``build`` gathers the numbers (``--json`` prints them as they are); ``render`` draws the
page from that same dict, so the page and the JSON can never disagree. Session totals come
from ``ledger.replay`` run on one session's events at a time: the status command's replay is
the one home of what a session has used.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from tg_git import __version__
from tg_git.domain import budget, eventlog, layout, levels, replay
from tg_git.domain.config import Config
from tg_git.domain.errors import CorruptFile, TgGitError
from tg_git.domain.layout import CONFIG_DIR, LEDGER_PATH
from tg_git.repo import git
from tg_git.repo.workspace import Workspace
from tg_git.text import messages, term

LEDGER_DIR = f"{CONFIG_DIR}/ledger"  # per-session ledger files (the layout the ledger moves to)
TOP = 10  # rows in the costliest commits and files tables
REESTIMATE = 10  # costliest multi-file commits re-estimated per file from history
CANDIDATES = 8  # commits near an event's time checked for it
MAX_BRANCHES = 50  # most recently committed branches compared
STEPS = ("commit", "input", "usage")  # the events that move a session's `used`
MEASURED_FIELDS = ("fill", "context_fill")  # a usage event's measured context fill


# ---- grouping the ledger by session ---------------------------------------------------------
@dataclass
class _Grouped:
    starts: dict[str, tuple[str, eventlog.Event]]  # session id -> (key, start event), start order
    events: dict[str, list[tuple[str, eventlog.Event]]]  # session id -> its events, file order


def _at(event: eventlog.Event) -> str:
    return str(event.get("at", ""))


def group(events: Mapping[str, eventlog.Event]) -> _Grouped:
    """Every session's start and events; sessions in start order (file order breaks ties,
    as in ``ledger.replay``)."""
    starts = [(k, e) for k, e in events.items() if e.get("kind") == "session"]
    starts.sort(key=lambda item: _at(item[1]))
    by_id = {str(e.get("id", "")): (k, e) for k, e in starts}
    mine: dict[str, list[tuple[str, eventlog.Event]]] = {sid: [] for sid in by_id}
    for key, event in events.items():
        sid = event.get("session")
        if event.get("kind") != "session" and isinstance(sid, str) and sid in mine:
            mine[sid].append((key, event))
    return _Grouped(by_id, mine)


def _replay_one(grouped: _Grouped, sid: str) -> replay.Session:
    key, start = grouped.starts[sid]
    subset = {key: start, **dict(grouped.events[sid])}
    session = replay.replay(subset)
    assert session is not None  # the subset holds a start
    return session


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
def summary(session: replay.Session, config: Config) -> dict[str, Any]:
    return {
        "id": session.id,
        "started": session.started,
        "base": session.base,
        "max_tokens": session.max_tokens,
        "used": session.used,
        "input": session.input,
        "output": session.output,
        "percent": levels.percent(session.used, session.max_tokens),
        "level": budget.session_level(session, config),
        "commits": session.commits,
        "resumed_from": session.resumed_from,
    }


def burn_down(
    started: str, events: Sequence[tuple[str, eventlog.Event]], limits: Mapping[str, int]
) -> dict[str, Any]:
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
            "key": key, "at": _at(event), "kind": kind, "tokens": tokens, "used": used,
        }  # fmt: skip
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


NO_TASK = ""  # the row of tokens spent while no task was in progress


def tokens_per_task(
    start: eventlog.Event, events: Sequence[tuple[str, eventlog.Event]], session: replay.Session
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


# ---- history: ledgers at commits, checkpoints, commits behind events --------------------------
def _tree_blobs(tree: bytes, hash_bytes: int) -> list[str]:
    """Blob ids of the ``*.toml`` files in a raw tree object (``mode name\\0<hash>``...)."""
    found = []
    pos = 0
    while pos < len(tree):
        nul = tree.index(b"\0", pos)
        mode, _, name = tree[pos:nul].partition(b" ")
        oid = tree[nul + 1 : nul + 1 + hash_bytes].hex()
        pos = nul + 1 + hash_bytes
        if mode.startswith(b"100") and name.endswith(b".toml"):
            found.append(oid)
    return found


def ledger_blobs(repo: git.Repo, revs: Sequence[str]) -> dict[str, list[bytes] | None]:
    """The ledger files at each revision: the single ``.tg-git/ledger.toml`` and the
    per-session files under ``.tg-git/ledger/`` (both layouts are read); None where there
    is neither. Two ``git cat-file`` processes for all revisions."""
    # The trailing slash names only a folder: a file at that path reads as missing.
    specs = [f"{rev}:{path}" for rev in revs for path in (LEDGER_PATH, f"{LEDGER_DIR}/")]
    found = git.read_objects(repo, specs) if specs else []
    wanted: list[str] = []
    layout: dict[str, tuple[bytes | None, list[str]]] = {}
    for n, rev in enumerate(revs):
        file, folder = found[2 * n], found[2 * n + 1]
        blobs: list[str] = []
        if folder is not None:
            try:
                blobs = _tree_blobs(folder[1], len(folder[0]) // 2)
            except ValueError:
                blobs = []  # a truncated tree: nothing to read there
        wanted += blobs
        layout[rev] = (file[1] if file else None, blobs)
    contents = dict(zip(wanted, git.read_objects(repo, wanted))) if wanted else {}
    result: dict[str, list[bytes] | None] = {}
    for rev, (single, blobs) in layout.items():
        parts = [single] if single is not None else []
        for oid in blobs:
            obj = contents.get(oid)
            if obj is not None:
                parts.append(obj[1])
        result[rev] = parts if parts else None
    return result


def parse_ledgers(parts: Iterable[bytes], where: str) -> dict[str, eventlog.Event]:
    text = "\n".join(p.decode("utf-8", "replace") for p in parts)
    return eventlog.parse(text, where)


def _epoch(at: str) -> int | None:
    try:
        stamp = datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return None
    return int(stamp.replace(tzinfo=timezone.utc).timestamp())


@dataclass(frozen=True)
class _GitCommit:
    sha: str
    parents: tuple[str, ...]
    time: int
    subject: str


def _log(ws: Workspace, since: int) -> list[_GitCommit]:
    """Commits since ``since`` (newest first) that changed a ledger file: only those can have
    added an event."""
    if git.head(ws.repo) is None:
        return []
    out = ws.repo.git(
        "log", "--no-merges", "-n", "20000", f"--since={since}",
        "--format=%H%x1f%P%x1f%ct%x1f%s%x1e", "HEAD", "--", LEDGER_PATH, LEDGER_DIR,
    )  # fmt: skip
    commits = []
    for record in out.decode("utf-8", "replace").split("\x1e"):
        fields = record.strip("\n").split("\x1f")
        if len(fields) != 4 or not fields[2].isdigit():
            continue
        commits.append(_GitCommit(fields[0], tuple(fields[1].split()), int(fields[2]), fields[3]))
    return commits


def find_commits(ws: Workspace, wanted: Mapping[str, tuple[str, str]]) -> dict[str, _GitCommit]:
    """The git commit that added each ledger event (key -> its ``at`` and session): the oldest
    commit that changed the ledger in the minutes after the event and holds it (the hook
    writes the event just before git makes the commit). Candidates are read in rounds, each
    key's likeliest first, and of each only the event's own session file (and a 0.1 single
    ledger), so most keys cost one session file's blob. Events not found (a rebased commit, a
    merge resolution) are left out."""
    times = {key: (t, sid) for key, (at, sid) in wanted.items() if (t := _epoch(at)) is not None}
    if not times:
        return {}
    commits = _log(ws, min(t for t, _ in times.values()) - 60)
    order = {c.sha: n for n, c in enumerate(commits)}  # newest first
    queue: dict[str, list[_GitCommit]] = {}
    for key, (t, _sid) in times.items():
        near = [c for c in commits if t - 5 <= c.time <= t + 900]
        near.sort(key=lambda c: (c.time, -order[c.sha]))  # oldest first
        queue[key] = near[:CANDIDATES]
    found: dict[str, _GitCommit] = {}
    for round_ in range(CANDIDATES):
        trying = {key: near[round_] for key, near in queue.items() if len(near) > round_}
        if not trying:
            break
        specs = list(dict.fromkeys(
            f"{c.sha}:{path}" for key, c in trying.items()
            for path in (layout.ledger_file(times[key][1]), LEDGER_PATH)
        ))  # fmt: skip
        blobs = dict(zip(specs, git.read_objects(ws.repo, specs)))
        for key, c in trying.items():
            needle = f"{key} = {{".encode()
            paths = (layout.ledger_file(times[key][1]), LEDGER_PATH)
            if any((obj := blobs[f"{c.sha}:{p}"]) and needle in obj[1] for p in paths):
                found[key] = c
                del queue[key]
    return found


def _files_of(ws: Workspace, commit: _GitCommit) -> list[tuple[str, int]]:
    """What a commit adds, re-estimated per file (the ledger's own folder left out: a diff
    of a large ledger would cost more than the rest)."""
    from tg_git.repo.staged import DIFF_OPTIONS, count_all, parse_patch

    parent = commit.parents[0] if commit.parents else ws.repo.empty_tree
    out = ws.repo.git(
        "diff-tree", "-r", *DIFF_OPTIONS, parent, commit.sha, "--", f":(exclude){CONFIG_DIR}"
    )
    counts = count_all(parse_patch(out), ws.config)
    return [(c.path, c.tokens) for c in counts if c.counted and not c.binary]


def checkpoints(ws: Workspace, session_ids: Iterable[str]) -> list[dict[str, Any]]:
    """Checkpoint tags oldest first, each with its session (named in the tag) and level."""
    from tg_git.services.checkpoint import listing

    ids = list(session_ids)
    rows = []
    for row in reversed(listing(ws)):
        tag = str(row.get("tag", ""))
        sid = next((s for s in ids if f"-{s}-" in tag), "")
        used = row.get("used")
        stamp = row.get("timestamp")
        rows.append({
            "tag": tag,
            "commit": str(row.get("commit", "")),
            "timestamp": stamp if isinstance(stamp, str) else "",
            "used": used if type(used) is int else None,
            "session": sid,
            "level": tag.split(f"-{sid}-", 1)[1] if sid else tag.rsplit("-", 1)[-1],
        })  # fmt: skip
    return rows


def _place(points: Sequence[Mapping[str, Any]], checkpoint: Mapping[str, Any]) -> int:
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


# ---- branches ---------------------------------------------------------------------------------
Known = dict[str, tuple[frozenset[str], dict[str, Any]]]  # session id -> its keys, summary


def _keys(grouped: _Grouped, sid: str) -> frozenset[str]:
    return frozenset([grouped.starts[sid][0], *(k for k, _ in grouped.events[sid])])


def branches(
    ws: Workspace, current: Mapping[str, eventlog.Event], known: Known | None = None
) -> list[dict[str, Any]]:
    """Every branch head's committed ledger (the current branch: ``current``, the events
    ``status`` replays), its sessions side by side, with totals. ``known`` summaries are
    reused for a session whose events are the same on a branch."""
    known = known or {}
    repo = ws.repo
    out = repo.git(
        "for-each-ref", "--sort=-committerdate", f"--count={MAX_BRANCHES}",
        "--format=%(objectname)%00%(refname:strip=2)", "refs/heads",
    )  # fmt: skip
    heads = []
    for line in out.decode("utf-8", "surrogateescape").splitlines():
        sha, _, name = line.partition("\0")
        if sha and name:
            heads.append((name, sha))
    symbolic = repo.git("symbolic-ref", "-q", "--short", "HEAD", check=False)
    current_name = symbolic.decode("utf-8", "surrogateescape").strip()
    others = [sha for name, sha in heads if name != current_name]
    blobs = ledger_blobs(repo, others)
    cache: dict[bytes, dict[str, eventlog.Event] | str] = {}
    result = []
    for name, sha in heads:
        row: dict[str, Any] = {
            "name": name, "head": sha, "current": name == current_name, "sessions": [],
            "error": "",
        }  # fmt: skip
        events: dict[str, eventlog.Event] | None = None
        if name == current_name:
            events = dict(
                current
            )  # HEAD's ledger and the events recorded since: as `status` sees it
        elif blobs.get(sha):
            events = {}
            for part in blobs.get(sha) or []:  # each file parsed once, however many branches
                if part not in cache:
                    try:
                        cache[part] = parse_ledgers([part], f"{name}:{LEDGER_PATH}")
                    except CorruptFile as exc:
                        cache[part] = str(exc)
                parsed = cache[part]
                if isinstance(parsed, str):
                    row["error"], events = parsed, None
                    break
                events.update(parsed)
        if events:
            try:
                grouped = group(events)
                for sid in grouped.starts:
                    same = known.get(sid)
                    if same is not None and same[0] == _keys(grouped, sid):
                        row["sessions"].append(dict(same[1]))
                    else:
                        session = _replay_one(grouped, sid)
                        row["sessions"].append(summary(session, ws.config))
            except CorruptFile as exc:
                row["error"] = str(exc)
        row["totals"] = _totals(row["sessions"])
        result.append(row)
    return result


def _totals(sessions: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    return {
        name: sum(int(s[name]) for s in sessions)
        for name in ("used", "input", "output", "commits", "max_tokens")
    } | {"sessions": len(sessions)}


# ---- everything -------------------------------------------------------------------------------
def build(
    ws: Workspace, session_id: str | None = None, all_sessions: bool = False
) -> dict[str, Any]:
    """The report's numbers: every session's totals, the burn-down and tasks of the chosen
    sessions (the current one by default), the costliest commits and files among them,
    checkpoints, and the sessions of every branch side by side."""
    config = ws.config
    events = ws.events()
    grouped = group(events)
    if not grouped.starts:
        raise TgGitError(messages.text(config.language, "ws_no_session"))
    # The work tree's own session, as `tg-git status` counts it (two sessions started in the
    # same second would otherwise tie on their start times).
    own = ws.current_session_id()
    current = replay.replay(
        {k: e for k, e in events.items() if own in (e.get("session"), e.get("id"))}
        if own in grouped.starts
        else events
    )
    assert current is not None
    if session_id is not None and session_id not in grouped.starts:
        raise TgGitError(messages.text(config.language, "report_no_session", id=clean(session_id)))
    chosen = (
        list(grouped.starts)
        if all_sessions
        else [session_id if session_id is not None else current.id]
    )
    replayed = {sid: _replay_one(grouped, sid) for sid in grouped.starts}
    known: Known = {
        sid: (_keys(grouped, sid), summary(session, config)) for sid, session in replayed.items()
    }
    saves = checkpoints(ws, grouped.starts)
    sessions = []
    for sid, session in replayed.items():
        row = dict(known[sid][1])
        mine = grouped.events[sid]
        row["inputs"] = sum(1 for _, e in mine if e.get("kind") == "input")
        row["overrides"] = sum(
            1 for _, e in mine if e.get("kind") == "commit" and e.get("override") is True
        )
        row["ended"] = max((_at(e) for _, e in mine), default=session.started)
        row["current"] = sid == current.id
        row["checkpoints"] = sum(1 for c in saves if c["session"] == sid)
        if sid in chosen:
            limits = levels.thresholds(session.max_tokens, config)
            row["token_thresholds"] = limits
            curve = burn_down(session.started, mine, limits)
            curve["checkpoints"] = [
                {**c, "step": _place(curve["points"], c)} for c in saves if c["session"] == sid
            ]
            row["burn_down"] = curve
            row["tasks"] = tokens_per_task(grouped.starts[sid][1], mine, session)
        sessions.append(row)

    commits = [
        (key, e, sid)
        for sid in chosen
        for key, e in grouped.events[sid]
        if e.get("kind") == "commit"
    ]
    commits.sort(key=lambda item: -(_int_field(item[1], "tokens") or 0))  # stable: file order
    multi = [item for item in commits if (_int_field(item[1], "files") or 0) > 1][:REESTIMATE]
    looked_up = {key: (_at(e), sid) for key, e, sid in commits[:TOP] + multi}
    in_history = find_commits(ws, looked_up)
    per_file = {key: _files_of(ws, in_history[key]) for key, _, _ in multi if key in in_history}
    costliest = []
    for key, e, sid in commits[:TOP]:
        found = in_history.get(key)
        costliest.append({
            "key": key, "session": sid, "at": _at(e), "tokens": _int_field(e, "tokens") or 0,
            "files": _int_field(e, "files") or 0, "label": str(e.get("label", "")),
            "override": e.get("override") is True,
            "commit": found.sha if found else "", "subject": found.subject if found else "",
        })  # fmt: skip

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
    top_files = sorted(files.values(), key=lambda f: -f["tokens"])[:TOP]

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
        "costliest_commits": costliest,
        "costliest_files": {
            "files": top_files,
            "unattributed": unattributed,
            "reestimated_commits": len(per_file),
        },
        "checkpoints": saves,
        "branches": branches(ws, events, known),
    }


# ---- HTML ----------------------------------------------------------------------------------
# Control characters (C0 but tab/newline, DEL, C1), bidi controls and lone surrogates never
# reach the page: a hostile task title or path could otherwise hide or reorder text. The
# terminal's sanitiser (``term``) is the one that knows them.
def clean(text: object) -> str:
    return term.mark_controls(str(text)).replace("\t", " ").replace("\n", " ")


def esc(text: object) -> str:
    """Any user string, safe in HTML text and in a double-quoted attribute."""
    return html.escape(clean(text), quote=True)


def clean_data(value: Any) -> Any:
    """The report's data with lone surrogates (undecodable bytes in a path) made U+FFFD, so
    it prints as UTF-8 JSON; JSON itself escapes control characters."""
    if isinstance(value, str):
        return re.sub("[\ud800-\udfff]", "\ufffd", value)
    if isinstance(value, list):
        return [clean_data(v) for v in value]
    if isinstance(value, dict):
        return {clean_data(k): clean_data(v) for k, v in value.items()}
    return value


TEXT = {
    "en": {
        "title": "tg-git report",
        "generated": "generated {at} · ledger events: {events:,} · sessions: {sessions} · tg-git {version}",
        "session": "Session",
        "current": "current",
        "used": "used",
        "max_tokens": "budget",
        "percent": "percent",
        "level": "level",
        "input": "input",
        "output": "output",
        "commits": "commits",
        "inputs": "inputs recorded",
        "overrides": "overrides",
        "checkpoints": "checkpoints",
        "started": "started",
        "burn_title": "Burn-down: tokens used",
        "burn_label": "cumulative tokens used in session {id}, against the 80/90/95 % levels",
        "estimated": "estimated",
        "measured": "measured (agent logs)",
        "warning": "warning",
        "force_save": "force-save",
        "halt": "halt",
        "budget_line": "budget",
        "override": "override: committed past the halt",
        "checkpoint": "checkpoint",
        "axis": "commits and inputs →",
        "io_title": "Input vs output",
        "tasks_title": "Tokens per task",
        "task": "task",
        "status": "status",
        "stopping_point": "stopping point",
        "tokens": "tokens",
        "no_task": "(no task in progress)",
        "commits_title": "Costliest commits",
        "subject": "subject",
        "paths": "first file",
        "files": "files",
        "when": "when",
        "commit": "commit",
        "not_found": "not found in history",
        "files_title": "Costliest files",
        "path": "path",
        "files_note": (
            "Single-file commits from the ledger; {n} multi-file commits re-estimated from "
            "history; {u:,} tokens of other commits are not split by file."
        ),
        "sessions_title": "Sessions by branch",
        "sessions_note": "Each branch's committed ledger at its head (the current branch: with "
        "the events recorded since, as `tg-git status` counts them); bars are input + output "
        "against each session's budget.",
        "branch": "branch",
        "totals": "totals",
        "ledger_error": "ledger unreadable",
        "no_ledger": "no ledger on this branch",
        "no_checkpoints": "no checkpoints in this session",
        "none": "none",
        "footer": "Token figures are offline estimates (profile {profile}) unless marked measured. "
        "Numbers: `tg-git report --json`.",
        "pending": "pending",
        "in_progress": "in progress",
        "blocked": "blocked",
        "done": "done",
        "level.ok": "ok",
        "level.warning": "warning",
        "level.force-save": "force-save",
        "level.halt": "halt",
        "level.manual": "manual",
        "level.pre-compact": "pre-compact",
    },
    "ko": {
        "title": "tg-git 보고서",
        "generated": "생성 {at} · 원장 이벤트 {events:,}개 · 세션 {sessions}개 · tg-git {version}",
        "session": "세션",
        "current": "현재",
        "used": "사용",
        "max_tokens": "예산",
        "percent": "비율",
        "level": "단계",
        "input": "입력",
        "output": "출력",
        "commits": "커밋",
        "inputs": "입력 기록",
        "overrides": "강제 커밋",
        "checkpoints": "체크포인트",
        "started": "시작",
        "burn_title": "소진 추이: 사용한 토큰",
        "burn_label": "세션 {id}의 누적 사용 토큰과 80/90/95 % 단계",
        "estimated": "추정",
        "measured": "측정 (에이전트 로그)",
        "warning": "경고",
        "force_save": "강제 저장",
        "halt": "중단",
        "budget_line": "예산",
        "override": "강제 커밋: 중단 후 커밋됨",
        "checkpoint": "체크포인트",
        "axis": "커밋과 입력 →",
        "io_title": "입력 대 출력",
        "tasks_title": "작업별 토큰",
        "task": "작업",
        "status": "상태",
        "stopping_point": "중단 지점",
        "tokens": "토큰",
        "no_task": "(진행 중인 작업 없음)",
        "commits_title": "비용이 큰 커밋",
        "subject": "제목",
        "paths": "첫 파일",
        "files": "파일 수",
        "when": "시각",
        "commit": "커밋",
        "not_found": "기록에서 찾지 못함",
        "files_title": "비용이 큰 파일",
        "path": "경로",
        "files_note": (
            "단일 파일 커밋은 원장에서, 여러 파일 커밋 {n}개는 기록에서 다시 추정했습니다. "
            "나머지 커밋의 {u:,} 토큰은 파일별로 나누지 않았습니다."
        ),
        "sessions_title": "브랜치별 세션",
        "sessions_note": "각 브랜치 끝 커밋의 원장 (현재 브랜치는 `tg-git status`처럼 그 뒤에 "
        "기록된 이벤트 포함). 막대는 세션 예산 대비 입력 + 출력입니다.",
        "branch": "브랜치",
        "totals": "합계",
        "ledger_error": "원장을 읽을 수 없음",
        "no_ledger": "이 브랜치에는 원장이 없음",
        "no_checkpoints": "이 세션에는 체크포인트가 없음",
        "none": "없음",
        "footer": "토큰 수치는 측정으로 표시된 것 외에는 오프라인 추정치입니다 (프로필 {profile}). "
        "수치: `tg-git report --json`.",
        "pending": "대기",
        "in_progress": "진행 중",
        "blocked": "막힘",
        "done": "완료",
        "level.ok": "정상",
        "level.warning": "경고",
        "level.force-save": "강제 저장",
        "level.halt": "중단",
        "level.manual": "수동",
        "level.pre-compact": "압축 전",
    },
}


def _css() -> str:
    from importlib.resources import files

    return str(files("tg_git").joinpath("report.css").read_text(encoding="utf-8"))


def _n(value: int) -> str:
    return f"{value:,}"


def _short(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:.3g}M"
    if value >= 1000:
        return f"{value / 1000:.3g}k"
    return f"{value:.0f}"


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _thin(count: int, limit: int) -> list[int]:
    """At most ``limit`` indices of ``count`` points, first and last kept: a cumulative
    curve keeps its shape, and the page stays small for a session of 10,000 events."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)} | {count - 1})


def _apart(ys: Sequence[float], gap: float = 12.0) -> list[float]:
    """Label heights for lines at ``ys`` (top to bottom): each on its line unless that is
    within ``gap`` (11 px text) of the label above, then just below that one. Thresholds
    a few percent apart (95 % and 100 %) would otherwise print over each other."""
    placed: list[float] = []
    for value in ys:
        placed.append(max(value, placed[-1] + gap) if placed else value)
    return placed


def _burn_svg(s: Mapping[str, Any], pct: Mapping[str, float], t: Mapping[str, str]) -> str:
    curve = s["burn_down"]
    points = curve["points"]
    budget = s["max_tokens"]
    limits = s["token_thresholds"]
    width, height, left, right, top, bottom = 760, 300, 56, 128, 14, 40
    steps = max(len(points) - 1, 1)
    highest = max([budget, *(p["used"] for p in points), *(m["used"] for m in curve["measured"])])
    scale = highest * 1.04 or 1

    def x(i: float) -> str:
        return _f(left + (width - left - right) * i / steps)

    def y(v: float) -> str:
        return _f(top + (height - top - bottom) * (1 - v / scale))

    out = [
        f'<svg class="chart burn" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{esc(t["burn_label"].format(id=s["id"]))}">'
    ]
    for frac in (0, 0.25, 0.5, 0.75):
        v = budget * frac
        out.append(
            f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(v)}" y2="{y(v)}"/>'
            f'<text class="tick" x="{left - 6}" y="{y(v)}" dy="4" text-anchor="end">'
            f"{_short(v)}</text>"
        )
    lines = [
        ("budget", budget, f"100 % {t['budget_line']} {_short(budget)}"),
        *(
            (name, limits[name], f"{_f(pct[name])} % {t[name]}")
            for name in ("halt", "force_save", "warning")
        ),
    ]
    at = _apart([float(y(tokens)) for _, tokens, _ in lines])
    for (name, tokens, label), label_y in zip(lines, at):
        out.append(
            f'<line class="th th-{name}" x1="{left}" x2="{width - right}" y1="{y(tokens)}" '
            f'y2="{y(tokens)}"/><text class="th-label th-{name}" x="{width - right + 6}" '
            f'y="{_f(label_y)}" dy="4">{esc(label)}</text>'
        )
    out.append(
        f'<line class="axis" x1="{left}" x2="{width - right}" y1="{y(0)}" y2="{y(0)}"/>'
        f'<text class="tick" x="{left}" y="{height - bottom + 16}">{esc(points[0]["at"])}</text>'
        f'<text class="tick" x="{width - right}" y="{height - bottom + 16}" text-anchor="end">'
        f"{esc(points[-1]['at'])}</text>"
        f'<text class="tick" x="{x(steps / 2)}" y="{height - bottom + 32}" '
        f'text-anchor="middle">{esc(t["axis"])}</text>'
    )
    keep = _thin(len(points), 1500)
    estimated = " ".join(f"{x(i)},{y(points[i]['used'])}" for i in keep)
    out.append(f'<polyline class="used" points="{estimated}"/>')
    measured = curve["measured"]
    if measured:
        keep_m = _thin(len(measured), 1500)
        series = " ".join(f"{x(measured[i]['step'])},{y(measured[i]['used'])}" for i in keep_m)
        out.append(f'<polyline class="measured" points="{series}"/>')
    if len(points) <= 200:
        for i, p in enumerate(points[1:], start=1):
            tip = f"{p['at']} · {p['kind']} +{p['tokens']:,} · {p['used']:,}"
            if p.get("label"):
                tip += f" · {p['label']}"
            out.append(
                f'<circle class="dot dot-{esc(p["kind"])}" cx="{x(i)}" cy="{y(p["used"])}" '
                f'r="2.5"><title>{esc(tip)}</title></circle>'
            )
    for n, cp in enumerate(curve["checkpoints"], start=1):
        cx = x(cp["step"])
        value = cp["used"] if cp["used"] is not None else points[cp["step"]]["used"]
        out.append(
            f'<g class="cp"><line x1="{cx}" x2="{cx}" y1="{top}" y2="{y(0)}"/>'
            f'<circle cx="{cx}" cy="{y(value)}" r="4"/>'
            f'<text x="{cx}" y="{top + 10 + 11 * ((n - 1) % 3)}" dx="3">C{n}</text>'
            f"<title>{esc(cp['tag'])}</title></g>"
        )
    halt = curve["halt"]
    if halt is not None:
        hx = x(halt)
        out.append(
            f'<g class="halt"><line x1="{hx}" x2="{hx}" y1="{top}" y2="{y(0)}"/>'
            f'<text x="{hx}" y="{_f(float(y(0)) - 4)}" dx="-3" text-anchor="end">{esc(t["halt"])}</text>'
            f"</g>"
        )
    for i in curve["overrides"]:
        p = points[i]
        out.append(
            f'<g class="override"><text x="{x(i)}" y="{y(p["used"])}" dy="4" '
            f'text-anchor="middle">×</text><title>{esc(t["override"])} · {esc(p["at"])} · '
            f"+{p['tokens']:,} · {esc(p.get('label', ''))}</title></g>"
        )
    out.append("</svg>")
    return "".join(out)


def _legend(s: Mapping[str, Any], t: Mapping[str, str]) -> str:
    items = [f'<span class="key key-used"></span>{esc(t["estimated"])}']
    if s["burn_down"]["measured"]:
        items.append(f'<span class="key key-measured"></span>{esc(t["measured"])}')
    items += [
        f'<span class="key key-th th-{name}"></span>{esc(t[name])}'
        for name in ("warning", "force_save", "halt")
    ]
    if s["burn_down"]["checkpoints"]:
        items.append(f'<span class="key key-cp"></span>{esc(t["checkpoint"])}')
    if s["burn_down"]["overrides"]:
        items.append(f'<span class="key-x">×</span>{esc(t["override"])}')
    return '<p class="legend">' + " ".join(f"<span>{i}</span>" for i in items) + "</p>"


def _io_svg(used_in: int, used_out: int, budget: int, t: Mapping[str, str]) -> str:
    width, height = 760, 26
    scale = max(budget, used_in + used_out) or 1
    w_in = width * used_in / scale
    w_out = width * used_out / scale
    return (
        f'<svg class="chart io" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{esc(t["io_title"])}">'
        f'<rect class="track" x="0" y="4" width="{width}" height="18"/>'
        f'<rect class="in" x="0" y="4" width="{_f(w_in)}" height="18">'
        f"<title>{esc(t['input'])} {used_in:,}</title></rect>"
        f'<rect class="out" x="{_f(w_in)}" y="4" width="{_f(w_out)}" height="18">'
        f"<title>{esc(t['output'])} {used_out:,}</title></rect></svg>"
    )


def _kpis(s: Mapping[str, Any], t: Mapping[str, str]) -> str:
    items = [
        ("used", s["used"], f"~{_n(s['used'])}"),
        ("max_tokens", s["max_tokens"], _n(s["max_tokens"])),
        ("percent", s["percent"], f"{s['percent']:.2f} %"),
        ("level", s["level"], _level(s["level"], t)),
        ("input", s["input"], _n(s["input"])),
        ("output", s["output"], _n(s["output"])),
        ("commits", s["commits"], _n(s["commits"])),
        ("inputs", s["inputs"], _n(s["inputs"])),
        ("checkpoints", s["checkpoints"], _n(s["checkpoints"])),
        ("overrides", s["overrides"], _n(s["overrides"])),
    ]
    cells = "".join(
        f'<div><dt>{esc(t[key])}</dt><dd data-k="{key}" data-v="{esc(value)}" '
        f'class="lvl-{esc(value) if key == "level" else ""}">{esc(shown)}</dd></div>'
        for key, value, shown in items
    )
    return f'<dl class="kpi" data-session="{esc(s["id"])}">{cells}</dl>'


def _head(t: Mapping[str, str], *keys: str) -> str:
    """Table headings; a key starting with ``#`` heads a column of numbers."""
    return "".join(
        f'<th class="num">{esc(t[k[1:]])}</th>'
        if k.startswith("#")
        else f"<th>{esc(t.get(k, ''))}</th>"
        for k in keys
    )


def _muted(text: str) -> str:
    return f'<span class="muted">{esc(text)}</span>'


def _bar(value: int, largest: int) -> str:
    share = 100 * value / largest if largest else 0
    return f'<span class="bar"><span style="width:{_f(share)}%"></span></span>'


def _tasks_table(rows: Sequence[Mapping[str, Any]], t: Mapping[str, str]) -> str:
    if not rows:
        return f'<p class="muted">{esc(t["none"])}</p>'
    largest = max(r["tokens"] for r in rows)
    body = "".join(
        f'<tr data-task="{esc(r["title"])}"><td>{esc(r["title"] or t["no_task"])}</td>'
        f"<td>{esc(t.get(r['status'], r['status']))}</td><td>{esc(r['stopping_point'])}</td>"
        f'<td class="num" data-v="{r["tokens"]}">{_n(r["tokens"])}</td>'
        f"<td>{_bar(r['tokens'], largest)}</td>"
        f'<td class="num">{_n(r["input"])}</td><td class="num">{_n(r["output"])}</td>'
        f'<td class="num">{_n(r["commits"])}</td></tr>'
        for r in rows
    )
    head = _head(
        t, "task", "status", "stopping_point", "#tokens", "", "#input", "#output", "#commits"
    )
    return f'<table class="tasks"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _level(level: str, t: Mapping[str, str]) -> str:
    """A level's name in the page's language (its id when the page has no name for it)."""
    return t.get(f"level.{level}", level)


def _checkpoint_list(s: Mapping[str, Any], t: Mapping[str, str]) -> str:
    saves = s["burn_down"]["checkpoints"]
    if not saves:
        return f'<p class="muted">{esc(t["no_checkpoints"])}</p>'
    items = "".join(
        f'<li><b>C{n}</b> <code class="tag">{esc(cp["tag"])}</code> · {esc(_level(cp["level"], t))} · '
        + (f"~{_n(cp['used'])} · " if cp["used"] is not None else "")
        + f"{esc(cp['timestamp'])}</li>"
        for n, cp in enumerate(saves, start=1)
    )
    return f'<ol class="cps">{items}</ol>'


def _session_section(s: Mapping[str, Any], data: Mapping[str, Any], t: Mapping[str, str]) -> str:
    badge = f' <span class="badge">{esc(t["current"])}</span>' if s["current"] else ""
    return (
        f'<section class="session" id="session-{esc(s["id"])}">'
        f"<h2>{esc(t['session'])} <code>{esc(s['id'])}</code>{badge}</h2>"
        f'<p class="muted">{esc(t["started"])} {esc(s["started"])}</p>'
        f"{_kpis(s, t)}"
        f"<h3>{esc(t['io_title'])}</h3>{_io_svg(s['input'], s['output'], s['max_tokens'], t)}"
        f'<p class="legend"><span><span class="key key-in"></span>{esc(t["input"])} '
        f'{_n(s["input"])}</span> <span><span class="key key-out"></span>{esc(t["output"])} '
        f"{_n(s['output'])}</span></p>"
        f"<h3>{esc(t['burn_title'])}</h3><figure>{_burn_svg(s, data['thresholds_percent'], t)}"
        f"<figcaption>{_legend(s, t)}</figcaption></figure>"
        f"{_checkpoint_list(s, t)}"
        f"<h3>{esc(t['tasks_title'])}</h3>{_tasks_table(s['tasks'], t)}"
        f"</section>"
    )


def _commits_section(data: Mapping[str, Any], t: Mapping[str, str]) -> str:
    rows = data["costliest_commits"]
    several = len(data["selected"]) > 1  # with one session drawn, its id is in the heading
    if rows:
        largest = max(r["tokens"] for r in rows)
        body = "".join(
            f'<tr data-key="{esc(r["key"])}"><td class="num" data-v="{r["tokens"]}">'
            f"{_n(r['tokens'])}</td><td>{_bar(r['tokens'], largest)}</td>"
            f"<td>{esc(r['subject']) if r['subject'] else _muted(t['not_found'])}"
            + (f' <span class="badge bad">{esc(t["override"])}</span>' if r["override"] else "")
            + f'</td><td><code>{esc(r["label"])}</code></td><td class="num">{_n(r["files"])}</td>'
            + (f'<td><code class="id">{esc(r["session"])}</code></td>' if several else "")
            + f'<td class="when">{esc(r["at"])}</td>'
            f'<td><code class="id">{esc(r["commit"][:10])}</code></td></tr>'
            for r in rows
        )
        columns = ("tokens", "", "subject", "paths", "files", "session", "when", "commit")
        head = "".join(
            f'<th class="num">{esc(t[k])}</th>'
            if k == "tokens"
            else f"<th>{esc(t.get(k, ''))}</th>"
            for k in columns
            if k != "session" or several
        )
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    else:
        table = f'<p class="muted">{esc(t["none"])}</p>'
    return f'<section id="commits"><h2>{esc(t["commits_title"])}</h2>{table}</section>'


def _files_section(data: Mapping[str, Any], t: Mapping[str, str]) -> str:
    files = data["costliest_files"]
    rows = files["files"]
    if rows:
        largest = max(r["tokens"] for r in rows)
        body = "".join(
            f'<tr><td><code>{esc(r["path"])}</code></td><td class="num" data-v="{r["tokens"]}">'
            f"{_n(r['tokens'])}</td><td>{_bar(r['tokens'], largest)}</td>"
            f'<td class="num">{_n(r["commits"])}</td></tr>'
            for r in rows
        )
        head = (
            f'<th>{esc(t["path"])}</th><th class="num">{esc(t["tokens"])}</th><th></th>'
            f"<th>{esc(t['commits'])}</th>"
        )
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    else:
        table = f'<p class="muted">{esc(t["none"])}</p>'
    note = t["files_note"].format(n=files["reestimated_commits"], u=files["unattributed"])
    return (
        f'<section id="files"><h2>{esc(t["files_title"])}</h2>{table}'
        f'<p class="muted">{esc(note)}</p></section>'
    )


def _sessions_svg(
    sessions: Sequence[Mapping[str, Any]], branch: str, pct: Mapping[str, float]
) -> str:
    shown = list(sessions[-40:])
    width, row, label_w, text_w = 800, 22, 210, 150
    height = row * len(shown) + 26
    scale = max([100.0, *(float(s["percent"]) for s in shown)])
    x0, x1 = label_w, width - text_w

    def px(p: float) -> float:
        return x0 + (x1 - x0) * p / scale

    def sx(p: float) -> str:
        return _f(px(p))

    out = [
        f'<svg class="chart sessions" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{esc(branch)}">'
    ]
    for n, s in enumerate(shown):
        top = 4 + n * row
        budget = s["max_tokens"] or 1
        p_in = 100 * s["input"] / budget
        p_out = 100 * s["output"] / budget
        cls = " current" if s.get("current") else ""
        out.append(
            f'<g class="srow{cls}"><text class="sid" x="{x0 - 6}" y="{top + 13}" '
            f'text-anchor="end">{esc(s["id"])}</text>'
            f'<rect class="track" x="{x0}" y="{top + 2}" width="{x1 - x0}" height="14"/>'
            f'<rect class="in" x="{x0}" y="{top + 2}" width="{_f(px(p_in) - x0)}" height="14"/>'
            f'<rect class="out" x="{sx(p_in)}" y="{top + 2}" '
            f'width="{_f(px(p_in + p_out) - px(p_in))}" height="14"/>'
            f'<text class="tick" x="{x1 + 6}" y="{top + 13}">~{_short(s["used"])} / '
            f"{_short(s['max_tokens'])} ({s['percent']:.0f} %)</text>"
            f"<title>{esc(s['id'])} · {s['used']:,} / {s['max_tokens']:,}</title></g>"
        )
    bottom = 4 + len(shown) * row
    for name, p in (*pct.items(), ("budget", 100.0)):
        out.append(f'<line class="th th-{name}" x1="{sx(p)}" x2="{sx(p)}" y1="2" y2="{bottom}"/>')
    out.append(
        f'<text class="tick" x="{x0}" y="{bottom + 14}">0</text>'
        f'<text class="tick" x="{sx(100)}" y="{bottom + 14}" text-anchor="middle">100 %</text>'
        "</svg>"
    )
    return "".join(out)


def _branches_section(data: Mapping[str, Any], t: Mapping[str, str]) -> str:
    parts = [
        f'<section id="sessions"><h2>{esc(t["sessions_title"])}</h2>'
        f'<p class="muted">{esc(t["sessions_note"])}</p>'
    ]
    for b in data["branches"]:
        badge = f' <span class="badge">{esc(t["current"])}</span>' if b["current"] else ""
        parts.append(
            f'<div class="branch" data-branch="{esc(b["name"])}"><h3>{esc(t["branch"])} '
            f'<code>{esc(b["name"])}</code>{badge} <small class="muted">'
            f"{esc(b['head'][:10])}</small></h3>"
        )
        if b["error"]:
            parts.append(f'<p class="bad">{esc(t["ledger_error"])}: {esc(b["error"])}</p>')
        if not b["sessions"]:
            if not b["error"]:
                parts.append(f'<p class="muted">{esc(t["no_ledger"])}</p>')
            parts.append("</div>")
            continue
        marked = [{**s, "current": s["id"] == data["current_session"]} for s in b["sessions"]]
        parts.append(_sessions_svg(marked, b["name"], data["thresholds_percent"]))
        head = _head(
            t, "session", "started", "#used", "#max_tokens", "#percent", "level", "#input",
            "#output", "#commits",
        )  # fmt: skip
        body = "".join(
            f'<tr data-session="{esc(s["id"])}"><td><code>{esc(s["id"])}</code></td>'
            f"<td>{esc(s['started'])}</td>"
            f'<td class="num" data-v="{s["used"]}">{_n(s["used"])}</td>'
            f'<td class="num">{_n(s["max_tokens"])}</td>'
            f'<td class="num">{s["percent"]:.2f} %</td><td class="lvl-{esc(s["level"])}">'
            f"{esc(_level(s['level'], t))}</td>"
            f'<td class="num">{_n(s["input"])}</td><td class="num">{_n(s["output"])}</td>'
            f'<td class="num">{_n(s["commits"])}</td></tr>'
            for s in b["sessions"]
        )
        tot = b["totals"]
        foot = (
            f'<tr class="totals" data-totals="{esc(b["name"])}"><th>{esc(t["totals"])} '
            f"({tot['sessions']})</th><td></td>"
            f'<td class="num" data-v="{tot["used"]}">{_n(tot["used"])}</td>'
            f'<td class="num">{_n(tot["max_tokens"])}</td><td></td><td></td>'
            f'<td class="num">{_n(tot["input"])}</td><td class="num">{_n(tot["output"])}</td>'
            f'<td class="num">{_n(tot["commits"])}</td></tr>'
        )
        parts.append(
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
            f"<tfoot>{foot}</tfoot></table></div>"
        )
    parts.append("</section>")
    return "".join(parts)


CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"  # nothing leaves the page


def render(data: Mapping[str, Any], profile: str = "") -> str:
    """The page: one HTML document, its CSS and SVG inline, no script, no network."""
    t = TEXT.get(data["language"], TEXT["en"])
    lang = data["language"] if data["language"] in TEXT else "en"
    chosen = [s for s in data["sessions"] if "burn_down" in s]
    chosen.sort(key=lambda s: not s["current"])  # the current session first
    meta = t["generated"].format(
        at=data["generated"],
        events=data["events"],
        sessions=len(data["sessions"]),
        version=data["tool_version"],
    )
    body = "".join(_session_section(s, data, t) for s in chosen)
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{esc(t['title'])} — {esc(data['project'])}</title>"
        f"<style>{_css()}</style></head>\n<body><header>"
        f"<h1>{esc(t['title'])} — {esc(data['project'])}</h1>"
        f'<p class="muted">{esc(meta)}</p></header><main>'
        f"{body}{_commits_section(data, t)}{_files_section(data, t)}"
        f"{_branches_section(data, t)}</main>"
        f'<footer class="muted">{esc(t["footer"].format(profile=profile or "?"))}</footer>'
        "</body></html>\n"
    )
