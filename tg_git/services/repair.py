"""Rebuild the ledger from every version of it in HEAD's history and this clone's journal.

The union of every line that reads as an event, each once (by key, the oldest version wins),
sorted into its session's file; junk, half-written lines and conflict markers are dropped.
A repair only ever adds events back: it never removes one that any version held.

A long session's later segments (``layout.segment_file``) are read like its file, in history
and in the work tree; each keeps its own events (its junk dropped), and only the events no
file of the session holds go back into the session's file: the segments' blobs stay as git
stores them, and the next commit appends after them as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from tg_git.domain import eventlog, layout
from tg_git.domain.layout import LEDGER_DIR, LEDGER_PATH
from tg_git.repo import git, gitquery, journal, ledger, segments
from tg_git.repo.gitquery import stage
from tg_git.repo.workspace import Workspace
from tg_git.services import recount
from tg_git.services.verify import verify_history


@dataclass(frozen=True)
class Repaired:
    files: list[str]
    events: int
    restored: int  # events the work tree lacked
    dropped: int  # lines that did not read as events

    def as_dict(self) -> dict[str, object]:
        return {"files": self.files, "events": self.events, "restored": self.restored,
                "dropped": self.dropped}  # fmt: skip


def _history_texts(ws: Workspace) -> tuple[list[str], set[str]]:
    """Every distinct version of every ledger file (segments too) in HEAD's history, oldest
    first, and every path they were at."""
    if git.head(ws.repo) is None:
        return [], set()
    paths = (LEDGER_DIR, LEDGER_PATH)
    commits = gitquery.log(ws.repo, ["HEAD"], paths, reverse=True)
    found = gitquery.files_at(ws.repo, [c.sha for c in commits], paths, depth=3)
    blobs = {obj.id: obj.data for held in found for obj in held.values()}
    texts = [data.decode("utf-8", "replace") for data in blobs.values()]
    return texts, {path for held in found for path in held}


def _lenient_text(ws: Workspace, rel: str) -> str | None:
    """A work-tree ledger file as text even where it is not UTF-8: every other reader refuses
    it and names `tg-git repair`, so repair itself must read past the bad bytes (their lines
    do not read as events and are dropped; every other line is kept)."""
    data = ledger.read_bytes(ws.repo.root / rel, rel)
    return None if data is None else data.decode("utf-8", "replace")


def repair(ws: Workspace) -> Repaired:
    with journal.locked(ws.repo):
        current = {rel: _lenient_text(ws, rel) for rel in ws.all_ledger_files()}
        texts, known = _history_texts(ws)
        texts += [journal.read(ws.repo, n) for n in journal.names(ws.repo)]
        texts += [t for t in current.values() if t]
        lines: list[str] = []
        dropped = 0
        for version in texts:
            kept, lost = eventlog.salvage(version)
            lines += kept
            dropped += lost
        by_file: dict[str, list[str]] = {}
        for line in eventlog.union("\n".join(lines)):
            event = next(iter(eventlog.parse(line).values()))
            owner = event.get("id") if event.get("kind") == "session" else event.get("session")
            by_file.setdefault(layout.ledger_file(str(owner or "")), []).append(line)
        had: set[str] = set()
        for text in current.values():
            had.update(eventlog.event_lines(text))
        restored = 0
        paths: list[str] = []
        for rel, new in by_file.items():
            journal.record(ws.repo, rel, new)
            restored += sum(1 for ln in new if ln not in had)
            paths += _rebuild(ws, rel, new, current)
            paths += _removed_segments(ws, rel, known, current)
        if LEDGER_PATH in current:
            (ws.repo.root / LEDGER_PATH).unlink()
            paths.append(LEDGER_PATH)
        if paths:
            stage(ws.repo, paths)
    return Repaired(sorted(by_file), sum(len(v) for v in by_file.values()), restored, dropped)


def _removed_segments(
    ws: Workspace, rel: str, known: set[str], current: dict[str, str | None]
) -> list[str]:
    """Session ``rel``'s segments the index holds and the work tree lacks (removed by hand):
    their events are back in the session's file, so the removal is staged with it (the
    index and the work tree then agree, as the commit hook needs)."""
    seen = [p for p in known if p != rel and layout.session_file_of(p) == rel]
    index, _ = segments.in_revs(ws.repo, rel, [":"], seen)
    return [path for path in index[":"] if path not in current]


def _rebuild(
    ws: Workspace, rel: str, lines: list[str], current: dict[str, str | None]
) -> list[str]:
    """Write session ``rel``'s work-tree files holding every one of its event ``lines``:
    each later segment keeps the events it reads as (its junk dropped), and the session's
    file its own and every event no segment holds. Returns the paths written."""
    held: set[str] = set()
    written: list[str] = []
    for path, old in current.items():
        if path == rel or layout.session_file_of(path) != rel or old is None:
            continue
        keep = eventlog.salvage(old)[0]
        held.update(eventlog.key_of(ln) for ln in keep)
        text = eventlog.rewrite(old, keep)
        if text != old:
            ws.write_file(path, text)
            written.append(path)
    old = current.get(rel)
    keep = eventlog.salvage(old)[0] if old else []
    rest = [ln for ln in lines if eventlog.key_of(ln) not in held]
    ws.write_file(rel, eventlog.rewrite(old, eventlog.union("\n".join(keep), "\n".join(rest))))
    return [rel, *written]


def short_commits(ws: Workspace) -> list[tuple[str, int]]:
    """`tg-git repair`: count every commit verify finds short (uncounted, or counted low),
    staged for the next commit. A commit that drifts otherwise (a hand-edited ledger) is
    the user's to accept (`tg-git verify --accept COMMIT`)."""
    session = ws.require_session()
    drift = [d.commit for d in verify_history(ws).drift]
    lines, counted = recount.events_for(ws, drift, session.id)
    if lines:
        ws.append(*(ln + "\n" for ln in lines))
    return counted
