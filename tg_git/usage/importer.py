"""``tg-git usage import``: read what is new in each transcript of this work tree, count
every request once, and write one ``usage`` event per transcript and model.

Only complete lines past the stored offset are read, so a repeated import costs what is new
and a half-written last line is read next time. Copies of one request (streaming, Gemini's
rewrites) carry a key: the largest copy counts, and a copy seen in a later import adds only
what grew. Records older than the tg-git session are read past but not counted. The ledger
is written before the offsets; event keys are derived from what was read, so a crash in
between never counts a line twice.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from tg_git.domain import eventlog, replay
from tg_git.domain.errors import TgGitError, os_reason
from tg_git.repo import memo
from tg_git.repo.workspace import Workspace
from tg_git.text import messages
from tg_git.usage import clock, discover, store
from tg_git.usage.records import Batch, Count, collector_paused

TYPE_CHECKING = False  # `import typing` costs every usage import ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

CHUNK = 1 << 20  # larger blocks are slower: each is fresh memory the kernel must map
MAX_DOCUMENT = 64 << 20  # an older Gemini chat is one JSON document, read whole
MAX_LINE = 64 << 20


class Outcome:
    """What an import did (plain classes here: the agent hooks import no dataclasses)."""

    def __init__(self, session: replay.Session | None = None) -> None:
        self.events: dict[str, eventlog.Event] = {}  # written, by key
        self.requests = 0
        self.tokens = 0
        self.skipped = 0  # unreadable or impossible lines
        self.transcripts = 0  # transcripts with something new
        self.notes: list[str] = []
        self.session = session  # the session after the import


class _Group:
    """One model's requests in one read of a transcript."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.requests = 0
        self.values = [0, 0, 0, 0]
        self.at = ""
        self.window = 0
        self.fill: int | None = None


def _parser(agent: str, path: Path, sidechain: bool) -> Callable[[bytes, dict[str, Any]], Batch]:
    """The agent's log parser (imported here: an agent turn loads only its own)."""
    if agent == "claude":
        from tg_git.usage import claude  # lazy: 0.3 ms

        return lambda data, state: claude.parse(data, state, sidechain)
    if agent == "codex":
        from tg_git.usage import codex  # lazy: 1.7 ms

        return codex.parse
    if agent == "gemini":
        from tg_git.usage import gemini  # lazy: 0.3 ms

        return gemini.parse_document if path.suffix == ".json" else gemini.parse
    if agent == "copilot":
        from tg_git.usage import copilot  # lazy: 0.3 ms

        return copilot.parse
    raise _unknown_agent(agent)


def _unknown_agent(agent: str) -> TgGitError:
    return TgGitError.from_key(
        "usage.unknown_agent", agent=agent, agents=", ".join(discover.AGENTS)
    )


def candidates(
    ws: Workspace,
    agents: Iterable[str],
    session: replay.Session,
    known: dict[str, store.Mark],
    agent_session: str | None = None,
    skipped: discover.Skipped | None = None,
) -> list[tuple[Path, str, bool]]:
    """(path, agent, is a subagent's) for the transcripts of this work tree; files discovery
    would not read (a FIFO, a device, an oversized registry) are named in ``skipped``."""
    root = ws.repo.root
    skipped = [] if skipped is None else skipped
    found: list[tuple[Path, str, bool]] = []
    for agent in agents:
        if agent == "claude":
            found += [(p, "claude", s) for p, s in discover.claude_transcripts(root, skipped)]
        elif agent == "codex":
            since = _epoch(session.started) - 60
            cwds = {path: m.state["cwd"] for path, m in known.items()  # no cwd: read it again
                    if m.agent == "codex" and isinstance(m.state.get("cwd"), str)}  # fmt: skip
            rollouts = discover.codex_transcripts(root, since, cwds, skipped)
            found += [(p, "codex", False) for p in rollouts]
        elif agent == "gemini":
            found += [(p, "gemini", False) for p in discover.gemini_transcripts(root, skipped)]
        elif agent == "copilot":
            paths = copilot_candidates(session, known, root, agent_session, skipped)
            found += [(p, "copilot", False) for p in paths]
    if agent_session:
        found = [c for c in found if agent_session in str(c[0])]
    if "opencode" in agents:  # one database holds every session (usage/opencode.py)
        found += [(p, "opencode", False) for p in discover.opencode_databases()]
    return found


def copilot_candidates(
    session: replay.Session,
    known: dict[str, store.Mark],
    root: Path,
    agent_session: str | None,
    skipped: discover.Skipped,
) -> list[Path]:
    """Copilot's sessions of this work tree changed since the session began (a minute's
    slack, as for Codex), each one's first line read once (its cwd is kept in its mark)."""
    since = _epoch(session.started) - 60
    cwds = {path: m.state["cwd"] for path, m in known.items()
            if m.agent == "copilot" and isinstance(m.state.get("cwd"), str)}  # fmt: skip
    return discover.copilot_transcripts(root, since, cwds, skipped, agent_session or "")


def _epoch(at: str) -> float:
    """Seconds since the epoch of the ledger's "%Y-%m-%dT%H:%M:%SZ" (0 for anything else)."""
    return clock.epoch(at) or 0.0


def _read(
    path: Path,
    mark: store.Mark,
    parse: Callable[[bytes, dict[str, Any]], Batch],
    info: os.stat_result,
    whole: bool = False,
) -> Batch:
    """Parse what is new past ``mark.offset``; move the offset past the complete lines
    (``whole``: the file is one document, an older Gemini chat, read whole)."""
    if whole:
        if info.st_size > MAX_DOCUMENT:
            raise OSError(f"over {MAX_DOCUMENT >> 20} MB")
        batch = parse(path.read_bytes(), mark.state)
        mark.state["document"] = True
        mark.offset = info.st_size
        return batch
    total = Batch()
    block = bytearray(CHUNK)  # one block's memory for every read: mapped by the kernel once
    with open(path, "rb", buffering=0) as fh:
        fh.seek(mark.offset)
        while got := fh.readinto(block):
            # (a parser reads a bytearray as it reads bytes: finds, slices, views)
            data: bytes = block if got == CHUNK else block[:got]  # type: ignore[assignment]
            if b"\n" not in data:
                data = _long_line(fh, bytes(data))
            cut = data.rfind(b"\n") + 1
            if not cut:
                if len(data) <= MAX_LINE:
                    break  # a last line still being written: read next time
                total.skipped += 1  # no agent writes such a line: skip it, once, and read
                mark.offset += len(data) + _past_line(fh)  # on from the line after it
            else:
                batch = parse(data, mark.state)  # the lines up to ``cut``: a parser reads
                total.records += batch.records  # only complete lines
                total.skipped += batch.skipped
                mark.offset += cut
            fh.seek(mark.offset)  # the next block starts at the line cut off (no copy)
    return total


def _long_line(fh: BinaryIO, data: bytes) -> bytes:
    """``data`` read on through the end of its line (a line longer than a block: rare), or
    until it is longer than ``MAX_LINE`` or the file ends."""
    parts, size = [data], len(data)
    while size <= MAX_LINE and (more := fh.read(CHUNK)):
        parts.append(more)
        size += len(more)
        if b"\n" in more:
            break
    return b"".join(parts)


def _past_line(fh: BinaryIO) -> int:
    """Bytes from here through the end of the current line (to the end of the file when the
    line has no end yet), read a chunk at a time."""
    skipped = 0
    while block := fh.read(CHUNK):
        end = block.find(b"\n")
        if end >= 0:
            return skipped + end + 1
        skipped += len(block)
    return skipped


def _groups(
    batch: Batch, mark: store.Mark, started: str, keys: dict[str, list[int]], read_here: bool
) -> list[_Group]:
    """Requests counted once, summed per model; the newest main-context fill on its group.
    ``keys``: the copies seen so far (this transcript's, or every Claude transcript's, as a
    resumed conversation copies its requests into a new file). ``read_here``: the lines lie
    past what an import of this same session read, so they are new whatever time they say
    (an agent's clock behind the session's start); else records older than ``started``
    (the session's start on the writer's clock, ``clock``) are not counted."""
    groups: dict[str, _Group] = {}
    newest: tuple[Count, int] | None = None
    shared = keys is not mark.keys
    session = mark.session
    group: _Group | None = None
    digest = store.digest if shared else None
    for rec in batch.records:
        values = list(rec[3:7])  # (``rec.values()``, without its call)
        fresh = True
        fill = rec.fill
        if rec.key is not None:
            key = digest(rec.key) if digest else rec.key
            before = keys.pop(key, None)
            if before is not None and len(before) == 4:
                grown = [max(a, b) for a, b in zip(before, values)]
                values, fresh = [g - b for g, b in zip(grown, before)], False
                keys[key] = grown
                fill = sum(grown) if rec.fill is not None else None
            else:
                keys[key] = values
        if rec.session:
            session = rec.session
        if rec.at and rec.at < started and not read_here:
            continue  # before this tg-git session: read past, not counted
        if group is None or group.model != rec.model:  # (requests of one model in a row)
            group = groups.get(rec.model) or groups.setdefault(rec.model, _Group(rec.model))
        group.requests += fresh
        sums = group.values
        sums[0] += values[0]
        sums[1] += values[1]
        sums[2] += values[2]
        sums[3] += values[3]
        if rec.at > group.at:
            group.at = rec.at
        if rec.window > group.window:
            group.window = rec.window
        if fill is not None:
            newest = (rec, fill)
    mark.session = session
    if newest is not None:
        rec, fill = newest
        group = groups[rec.model]
        group.fill, group.window = fill, rec.window or group.window
    return [g for g in groups.values() if any(g.values) or g.fill is not None]


def _not_regular(ws: Workspace, name: str, limit: int = 0) -> str:
    """The note on a file discovery or the import did not read (``limit``: it was larger)."""
    if limit:
        return messages.text(ws.config.language, "usage_too_big", name=name, limit=limit)
    return messages.text(ws.config.language, "usage_not_regular", name=name)


def _event_key(at: str, seed: str) -> str:
    stamp = "".join(ch for ch in at if ch.isdigit())[:14] or eventlog.new_key()[1:15]
    return f"e{stamp}-{store.digest(seed)[:12]}"


def import_usage(
    ws: Workspace,
    *,
    agent: str | None = None,
    transcript: str | os.PathLike[str] | None = None,
    agent_session: str | None = None,
    state: memo.State | None = None,
    own_only: bool = False,
) -> Outcome:
    """Import what is new; returns what was written and the session after it (``state``:
    the session as the caller read it, ``ws.session_state()`` by default; ``own_only``: a
    ``transcript`` named by an agent's hook input must be one of this work tree's, else it
    is refused with ``TgGitError``)."""
    state = ws.session_state() if state is None else state
    session, lang = state.session, ws.config.language
    outcome = Outcome(session=session)
    if session is None:
        outcome.notes.append(messages.text(lang, "usage.no_session"))
        return outcome
    if agent is not None and agent not in discover.AGENTS:
        raise _unknown_agent(agent)
    folder = ws.repo.git_path(store.FOLDER)
    with store.locked(folder):
        known: dict[str, store.Mark] = {}
        if transcript is not None:  # one mark to read, not every transcript's
            path = Path(transcript).absolute()
            which = agent or discover.guess_agent(path)
            if which is None:
                raise TgGitError(messages.text(lang, "usage.which_agent", name=path.name))
            if own_only and not discover.belongs(ws.repo.root, path, which):
                from tg_git.text.term import one_line  # lazy: 1.2 ms

                shown = one_line(str(path), 300)
                raise TgGitError(messages.text(ws.config.language, "usage_foreign", path=shown))
            found = [(path, which, False)]
            if which == "claude":
                found += [(p, "claude", True) for p in discover.claude_subagents(path)]
        else:
            known = {m.path: m for m in store.marks(folder)}
            agents = [agent] if agent else list(discover.AGENTS)
            skipped: discover.Skipped = []
            found = candidates(ws, agents, session, known, agent_session, skipped)
            outcome.notes += [_not_regular(ws, Path(p).name, n) for p, n in dict.fromkeys(skipped)]
            for path_text, mark in known.items():  # imported before, gone now
                if mark.agent in agents and not os.path.lexists(path_text):
                    outcome.notes.append(
                        messages.text(lang, "usage.gone", name=Path(path_text).name)
                    )
                    store.forget(folder, path_text)
        shared = store.SharedKeys(folder, "claude")
        with collector_paused():
            lines, marks = _collect(ws, found, session, known, state.usage_keys, outcome, shared)
        fingerprint = ""
        if lines:
            fingerprint = ws.append(*lines, expect=state.fingerprint)
            outcome.events.update(eventlog.parse("".join(lines)))
        for mark in marks:
            store.save(folder, mark)
        shared.save()
    if outcome.events:
        outcome.session = _after(ws, state, outcome.events, fingerprint)
    return outcome


def _after(
    ws: Workspace, state: memo.State, written: dict[str, eventlog.Event], fingerprint: str
) -> replay.Session | None:
    """The session with the new events, when nothing else changed the ledger since ``state``
    was read (``fingerprint``, from the append) and they are its newest (replay sorts by
    time; a tie keeps file order, which a fold cannot know): applied on top and memoised, no
    replay of 10,000 events on an agent turn. Else the session is read again."""
    added = sorted(written.values(), key=lambda e: str(e.get("at", "")))
    if not fingerprint or state.session is None or str(added[0].get("at", "")) <= state.newest:
        return ws.session_state().session
    after = state.session.copy(tasks=dict(state.session.tasks),
                               outputs=list(state.session.outputs))  # fmt: skip
    for event in added:
        after.activity += 1
        if event["kind"] == "usage":  # all are: an import writes nothing else
            replay.apply_usage(after, event)
    newest = max(state.newest, str(added[-1].get("at", "")))
    memo.store(ws.repo, memo.State(after, state.usage_keys | set(written), newest, fingerprint))
    return after


def _collect_opencode(
    ws: Workspace,
    path: Path,
    session: replay.Session,
    known: dict[str, store.Mark],
    usage_keys: frozenset[str],
    outcome: Outcome,
) -> tuple[list[str], list[store.Mark]]:
    """OpenCode's database: its rows updated since the last import, not its bytes."""
    from tg_git.usage import opencode  # lazy: 2.1 ms

    try:
        more = opencode.collect(
            ws, path, session, known, usage_keys, outcome.notes, (_groups, _event_key)
        )
    except OSError as exc:
        lang = ws.config.language
        error = os_reason(exc).text(lang)
        outcome.notes.append(messages.text(lang, "usage.unreadable", name=path.name, error=error))
        return [], []
    outcome.requests += more[2]
    outcome.tokens += more[3]
    outcome.transcripts += bool(more[0])
    return more[0], more[1]


def _collect(
    ws: Workspace,
    found: list[tuple[Path, str, bool]],
    session: replay.Session,
    known: dict[str, store.Mark],
    usage_keys: frozenset[str],
    outcome: Outcome,
    shared: store.SharedKeys,
) -> tuple[list[str], list[store.Mark]]:
    folder, lang = ws.repo.git_path(store.FOLDER), ws.config.language
    lines: list[str] = []
    marks: list[store.Mark] = []
    now = eventlog.now()
    for path, agent, sidechain in found:
        name = path.name
        if agent == "opencode":  # a database: its rows updated since, not its bytes
            more = _collect_opencode(ws, path, session, known, usage_keys, outcome)
            lines += more[0]
            marks += more[1]
            continue
        try:
            info = os.lstat(path)
        except OSError:
            outcome.notes.append(messages.text(lang, "usage.gone", name=name))
            continue
        if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
            outcome.notes.append(_not_regular(ws, name))
            outcome.skipped += 1
            continue
        key = str(path)
        mark = known.get(key) or store.load(folder, key, agent)
        if mark is None:
            outcome.notes.append(messages.text(lang, "usage.offset_unreadable", name=name))
            mark = store.Mark(path=key, agent=agent, offset=info.st_size, inode=info.st_ino)
            mark.size, mark.mtime_ns = info.st_size, info.st_mtime_ns
            marks.append(mark)
            continue
        document = path.suffix == ".json"
        if (
            mark.inode
            and (info.st_ino != mark.inode or info.st_size < mark.offset)
            and not document
        ):
            outcome.notes.append(messages.text(lang, "usage.truncated", name=name))
            mark.offset, mark.inode = info.st_size, info.st_ino
            mark.size, mark.mtime_ns = info.st_size, info.st_mtime_ns
            marks.append(mark)
            continue
        if info.st_size == mark.size and info.st_mtime_ns == mark.mtime_ns:
            continue  # nothing new
        if not mark.inode and info.st_mtime < _epoch(session.started) - 60:
            continue  # untouched since before this session: nothing in it can count
        start = mark.offset
        read_here = mark.state.get("tg") == session.id and not document
        try:
            whole = agent == "gemini" and path.suffix == ".json"
            batch = _read(path, mark, _parser(agent, path, sidechain), info, whole)
        except OSError as exc:
            error = os_reason(exc).text(lang)
            outcome.notes.append(messages.text(lang, "usage.unreadable", name=name, error=error))
            continue
        mark.state["tg"] = session.id
        mark.inode, mark.size, mark.mtime_ns = info.st_ino, info.st_size, info.st_mtime_ns
        mark.imported_at = now
        marks.append(mark)
        if batch.skipped:
            outcome.skipped += batch.skipped
            outcome.notes.append(messages.text(lang, "usage.bad_lines", n=batch.skipped, name=name))
        keys = shared.take(mark) if agent == "claude" else mark.keys
        started = session.started  # on the writer's clock, for lines this session has not read
        if batch.records and not read_here:
            started = clock.session_start(path, info, started, document)
        groups = _groups(batch, mark, started, keys, read_here)
        if groups:
            outcome.transcripts += 1
        for group in groups:
            at = group.at or now
            seed = f"{key}:{start}:{mark.offset}:{mark.mtime_ns if document else 0}:{group.model}"
            event_key = _event_key(at, seed)
            if event_key in usage_keys:
                continue  # written by an import that died before saving its offset
            fresh_input, cache_write, cache_read, output = group.values
            extra: dict[str, Any] = {}
            if group.fill is not None:
                extra["fill"] = group.fill
            if group.window:
                extra["window"] = group.window
            _, line = eventlog.event_line(
                "usage", key=event_key, session=session.id, at=at, agent=agent,
                model=group.model, requests=group.requests, fresh_input=fresh_input,
                cache_write=cache_write, cache_read=cache_read, output=output,
                transcript=mark.session, **extra,
            )  # fmt: skip
            lines.append(line)
            outcome.requests += group.requests
            outcome.tokens += sum(group.values)
    return lines, marks
