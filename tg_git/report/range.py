"""What the commits of a range cost (``tg-git report --range A..B``, the CI gate): tokens,
estimated and measured by class, and USD, per commit, session, agent, model and author, with
the saves and halts in the range.

An event belongs to the commit that added it: the events a commit's ledger files hold that
none of its parents' hold (a commit's changed ledger files from one ``diff-tree``; a merge's
whole ledger through ``history.ledger_blobs``; each distinct file parsed once). So a range's figures are the sum of its commits' and a merge adds only what its own
resolution recorded. What a commit costs in ``tokens``: its events' measured spend where
their session has measured usage in the ledger at the range's tip, else their estimate (the
two count the same work and are never added together); USD only where measured usage has a
price. Counts, ids and names only: no commit message, task title, note or path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tg_git import __version__
from tg_git.domain import eventlog, prices
from tg_git.domain.errors import TgGitError
from tg_git.repo import git, ranges
from tg_git.repo.workspace import Workspace
from tg_git.report import history

CLASSES = ("fresh_input", "cache_write", "cache_read", "output")  # measured, as usage events
ESTIMATED = ("input", "output")  # estimated: input events, commit events
HALT = "halt"


def zero() -> dict[str, Any]:
    return {
        "tokens": 0,
        "estimated": {"input": 0, "output": 0, "total": 0},
        "measured": {**dict.fromkeys(CLASSES, 0), "total": 0, "requests": 0},
        "usd_pico": 0,
        "unpriced": 0,
        "commits": 0,
    }


def _count(event: Mapping[str, object], name: str) -> int:
    value = event.get(name, 0)
    return value if type(value) is int and 0 <= value <= eventlog.MAX_COUNT else 0


def tally(into: dict[str, Any], event: Mapping[str, object], measured: bool) -> None:
    """One event's figures added to ``into`` (``measured``: its session's tokens are the
    measured spend)."""
    kind = event.get("kind")
    if kind in ("commit", "input"):
        tokens = _count(event, "tokens")
        part = "output" if kind == "commit" else "input"
        into["estimated"][part] += tokens
        into["estimated"]["total"] += tokens
        into["commits"] += kind == "commit"
        if not measured:
            into["tokens"] += tokens
    elif kind == "usage":
        spent = [_count(event, name) for name in CLASSES]
        for name, n in zip(CLASSES, spent):
            into["measured"][name] += n
        into["measured"]["total"] += sum(spent)
        into["measured"]["requests"] += _count(event, "requests")
        into["tokens"] += sum(spent)
        cost = prices.cost_pico(str(event.get("model", "")), *spent) if any(spent) else 0
        if cost is None:
            into["unpriced"] += sum(spent)
        else:
            into["usd_pico"] += cost


def _merge(into: dict[str, Any], other: Mapping[str, Any]) -> None:
    for name in ("tokens", "usd_pico", "unpriced", "commits"):
        into[name] += other[name]
    for part in ("estimated", "measured"):
        for name, n in other[part].items():
            into[part][name] += n


def finish(figures: dict[str, Any]) -> dict[str, Any]:
    """``figures`` with their USD as dollars (null where nothing was priced)."""
    pico = figures["usd_pico"]
    figures["usd"] = prices.usd(pico) if pico or figures["measured"]["total"] else None
    if figures["measured"]["total"] and figures["unpriced"] == figures["measured"]["total"]:
        figures["usd"] = None
    return figures


# ---- which events each commit added ------------------------------------------------------------
def _parse(data: bytes) -> dict[str, eventlog.Event]:
    """A ledger file's events as history holds it: a line that is no event (a conflict
    marker committed by hand, junk) is left out, the events beside it count."""
    return eventlog.clean_events(data.decode("utf-8", "replace"))[1]


def _events_at(
    repo: Any, revs: Sequence[str], cache: dict[bytes, dict[str, eventlog.Event]]
) -> dict[str, dict[str, eventlog.Event]]:
    """Each revision's ledger events (every distinct file parsed once)."""
    found = history.ledger_blobs(repo, list(dict.fromkeys(revs)))
    result: dict[str, dict[str, eventlog.Event]] = {}
    for rev, parts in found.items():
        events: dict[str, eventlog.Event] = {}
        for part in parts or []:
            if part not in cache:
                cache[part] = _parse(part)
            events.update(cache[part])
        result[rev] = events
    return result


def added(
    ws: Workspace, commits: Sequence[ranges.Authored]
) -> dict[str, dict[str, eventlog.Event]]:
    """The events each commit added (by id): those in its ledger and in none of its
    parents'. A commit with one parent: the keys of the ledger files it changed, less those
    of the files it replaced (a line moved between files is not new); a merge: its whole
    ledger against its parents' (merges are few)."""
    cache: dict[bytes, dict[str, eventlog.Event]] = {}
    merges = [c for c in commits if len(c.parents) > 1]
    revs = [rev for c in merges for rev in (c.sha, *c.parents)]
    at = _events_at(ws.repo, revs, cache) if revs else {}
    result: dict[str, dict[str, eventlog.Event]] = {}
    for c in merges:
        before: set[str] = set()
        for parent in c.parents:
            before.update(at.get(parent, {}))
        result[c.sha] = {k: e for k, e in at.get(c.sha, {}).items() if k not in before}
    single = [c.sha for c in commits if len(c.parents) <= 1]
    changes = ranges.ledger_changes(ws.repo, single)
    blobs = list(
        dict.fromkeys(oid for pairs in changes.values() for pair in pairs for oid in pair if oid)
    )
    parsed: dict[str, dict[str, eventlog.Event]] = {}
    for oid, obj in zip(blobs, git.read_objects(ws.repo, blobs) if blobs else []):
        parsed[oid] = _parse(obj.data) if obj else {}
    for sha in single:
        new: dict[str, eventlog.Event] = {}
        old: set[str] = set()
        for before_id, after_id in changes.get(sha, []):
            old.update(parsed.get(before_id, {}))
            new.update(parsed.get(after_id, {}))
        result[sha] = {k: e for k, e in new.items() if k not in old}
    return result


def _measured_sessions(events: Iterable[eventlog.Event]) -> set[str]:
    return {str(e.get("session")) for e in events if e.get("kind") == "usage"}


# ---- the receipt ---------------------------------------------------------------------------------
def _row(table: dict[str, dict[str, Any]], key: str, **fields: Any) -> dict[str, Any]:
    if key not in table:
        table[key] = {**fields, **zero()}
    return table[key]


def _session_of(key: str, event: Mapping[str, object]) -> str:
    if event.get("kind") == "session":
        return str(event.get("id", ""))
    return str(event.get("session", ""))


def _saves(
    ws: Workspace, shas: set[str], sessions: Iterable[str], halts: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The checkpoints saved on commits of the range (a save at the halt is a halt too)."""
    saves = []
    for save in history.checkpoints(ws, sessions):
        if save["commit"] in shas:
            row = {k: save[k] for k in ("tag", "commit", "session", "level", "timestamp")}
            saves.append(row)
            if save["level"] == HALT:
                halts.append(
                    {
                        "kind": "checkpoint",
                        "commit": save["commit"],
                        "session": save["session"],
                        "tag": save["tag"],
                    }
                )
    return saves


def build(ws: Workspace, spec: str) -> dict[str, Any]:
    """The receipt of ``spec`` (``A..B``) as one JSON-ready dict."""
    found = ranges.resolve(ws.repo, spec)
    if found.shallow:
        raise TgGitError.from_key(
            "range_shallow", spec=spec, commit=found.shallow[0][:12], n=len(found.shallow)
        )
    by_commit = added(ws, found.commits)
    tip = _events_at(ws.repo, [found.tip], {})[found.tip]
    measured = _measured_sessions(tip.values())
    total = zero()
    commits, sessions, agents, authors = [], {}, {}, {}  # type: ignore[var-annotated]
    halts: list[dict[str, Any]] = []
    for c in found.commits:
        mine = zero()
        author = _row(authors, c.author, author=c.author)
        for key, event in sorted(by_commit[c.sha].items(), key=lambda kv: str(kv[1].get("at"))):
            sid = _session_of(key, event)
            is_measured = sid in measured
            one = zero()
            tally(one, event, is_measured)
            _merge(mine, one)
            _merge(_row(sessions, sid, session=sid, source=_source(sid, measured)), one)
            if event.get("kind") == "usage":
                name = f"{event.get('agent', '')}\0{event.get('model', '')}"
                row = _row(
                    agents,
                    name,
                    agent=str(event.get("agent", "")),
                    model=str(event.get("model", "")),
                )
                _merge(row, one)
            if event.get("kind") == "commit" and event.get("override") is True:
                halts.append({"kind": "override", "commit": c.sha, "session": sid})
        _merge(author, mine)
        _merge(total, mine)
        commits.append(
            {
                "commit": c.sha,
                "author": c.author,
                "time": c.time,
                "parents": len(c.parents),
                **finish(mine),
            }
        )
    saves = _saves(ws, {c.sha for c in found.commits}, sessions, halts)
    return {
        "receipt_version": 1,
        "tool_version": __version__,
        "range": spec,
        "base": found.base,
        "tip": found.tip,
        "project": ws.config.project_name or ws.repo.root.name,
        "totals": finish(total),
        "sessions": [finish(r) for r in sessions.values()],
        "agents": [finish(r) for r in agents.values()],
        "authors": [finish(r) for r in authors.values()],
        "commits": commits,
        "saves": saves,
        "halts": halts,
    }


def _source(sid: str, measured: set[str]) -> str:
    return "measured" if sid in measured else "estimated"


# ---- the gate ----------------------------------------------------------------------------------
def over(totals: Mapping[str, Any], max_tokens: int | None, max_usd: float | None) -> list[str]:
    """Which limits the range's ``totals`` exceed: ``tokens``, ``usd`` (none: within)."""
    crossed = []
    if max_tokens is not None and totals["tokens"] > max_tokens:
        crossed.append("tokens")
    if max_usd is not None and totals["usd_pico"] > prices.to_pico(max_usd):
        crossed.append("usd")
    return crossed
