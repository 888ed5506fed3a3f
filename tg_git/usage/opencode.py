"""OpenCode's storage: one SQLite database for every project (``opencode.db`` in
``$OPENCODE_DATA_DIR``, else ``${XDG_DATA_HOME:-~/.local/share}/opencode``), read only.

Its ``message`` table holds each message as JSON (``data``); an assistant message carries
``tokens {input, output, reasoning, cache {read, write}}``, ``modelID`` and ``time.created``,
and is written again as its tokens arrive (``time_updated`` moves; the row's ``id`` is the
``key``: the largest copy counts). ``input`` excludes the cache reads and writes; reasoning is
output. A session counts here when its ``directory`` (the ``session`` table) is this work
tree's (``discover.owns``). A compaction's summary and a sub-agent's session spend but do not
fill the main context. Only counts and ids are taken: no text of any message.

The importer reads the rows updated since the last import (``state["since"]``, milliseconds),
not the file's bytes: a database is rewritten in place and its write-ahead log holds the
newest rows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tg_git.usage import clock, discover, store
from tg_git.usage.records import MAX_COUNT, BadLine, Batch, Count, counts, ident, model_name

if TYPE_CHECKING:
    from tg_git.domain import replay
    from tg_git.repo.workspace import Workspace

_QUERY = (
    "SELECT m.id, m.session_id, m.time_updated, m.data, s.directory, s.parent_id "
    "FROM message m JOIN session s ON s.id = m.session_id WHERE m.time_updated >= ? "
    "ORDER BY m.time_created, m.id"  # the newest request last: its fill is the context
)


def rows(db: Path, since_ms: int) -> Iterator[tuple[Any, ...]]:
    """The message rows updated since ``since_ms``, read only (the database stays OpenCode's:
    never written, never locked for writing)."""
    import sqlite3  # lazy: 2.0 ms, on every import that finds no OpenCode database

    uri = f"{db.absolute().as_uri()}?mode=ro"
    try:
        con = sqlite3.connect(uri, uri=True, timeout=2)
    except sqlite3.Error as exc:
        raise OSError(str(exc)) from None
    try:
        yield from con.execute(_QUERY, (since_ms,))
    except sqlite3.Error as exc:
        raise OSError(str(exc)) from None
    finally:
        con.close()


def read(db: Path, root: Path, state: dict[str, Any]) -> Batch:
    """The assistant messages of this work tree's sessions updated since the last read
    (``state["since"]``, moved to the newest row's time)."""
    roots = list(dict.fromkeys([str(root), os.path.realpath(root)]))  # as discover has them
    batch = Batch()
    value = state.get("since")
    since = value if isinstance(value, int) else 0
    newest = since
    for row in rows(db, since):
        message_id, session_id, updated, data, directory, parent = row
        if isinstance(updated, int) and updated > newest:
            newest = updated
        if not isinstance(directory, str) or not discover.owns(directory, roots):
            continue
        try:
            record = message(data, message_id, session_id, parent is not None)
        except BadLine:
            batch.skipped += 1
            continue
        if record is not None:
            batch.records.append(record)
    state["since"] = newest
    return batch


def message(data: Any, message_id: Any, session_id: Any, sidechain: bool = False) -> Count | None:
    """One message row's Count (its id and session are the row's columns, not in its JSON) (None for a user message or one without tokens); ``BadLine``
    for one whose JSON or counts cannot be true."""
    try:
        obj = json.loads(data) if isinstance(data, (str, bytes)) else None
    except (ValueError, RecursionError):
        raise BadLine("not JSON") from None
    if not isinstance(obj, dict) or obj.get("role") != "assistant":
        return None
    tokens = obj.get("tokens")
    if not isinstance(tokens, dict):
        return None
    fresh, out, reasoning = counts(tokens, ("input", "output", "reasoning"))
    cache = tokens.get("cache") if isinstance(tokens.get("cache"), dict) else {}
    read_, write = counts(cache, ("read", "write"))
    fills = not sidechain and obj.get("summary") is not True and obj.get("mode") != "compaction"
    times = obj.get("time")
    created = times.get("created") if isinstance(times, dict) else None
    return Count(  # by position (see claude.py)
        "opencode",  # agent
        model_name(obj.get("modelID")),
        _utc(created),  # at
        fresh,  # fresh_input
        write,  # cache_write
        read_,  # cache_read
        out + reasoning,  # output
        fresh + write + read_ + out + reasoning if fills else None,  # fill
        0,  # window
        ident(message_id) or None,  # key
        ident(session_id),  # session
    )


def _utc(ms: Any) -> str:
    """Milliseconds since the epoch (OpenCode's times) as the ledger's UTC seconds."""
    if type(ms) is not int or not 0 < ms < MAX_COUNT * 1000:
        return ""
    return clock.utc(ms / 1000)


def collect(ws: Workspace, db: Path, session: replay.Session, known: dict[str, store.Mark],
            usage_keys: frozenset[str], notes: list[str],
            helpers: tuple[Callable[..., list[Any]], Callable[[str, str], str]],
            ) -> tuple[list[str], list[store.Mark], int, int]:  # fmt: skip
    """The importer's work for one database: the usage events of the rows new since the last
    import (one per model), the mark that remembers how far, the requests and tokens."""
    from tg_git.domain import eventlog  # lazy: 2.2 ms

    groups, event_key_of = helpers  # the importer's own (it imports this module, not back)

    folder = ws.repo.git_path(store.FOLDER)
    key = str(db)
    mark = known.get(key) or store.load(folder, key, "opencode")
    if mark is None:
        mark = store.Mark(path=key, agent="opencode")
    start = mark.state.get("since", 0)
    batch = read(db, ws.repo.root, mark.state)
    if batch.skipped:
        from tg_git.text import messages  # lazy: 0.5 ms

        notes.append(messages.text(ws.config.language, "usage.bad_lines", n=batch.skipped,
                                   name=db.name))  # fmt: skip
    now = eventlog.now()
    mark.imported_at = now
    lines, requests, tokens = [], 0, 0
    for group in groups(batch, mark, session.started, mark.keys, False):
        at = group.at or now
        event_key = event_key_of(at, f"{key}:{start}:{mark.state['since']}:{group.model}")
        if event_key in usage_keys:
            continue
        fresh_input, cache_write, cache_read, output = group.values
        extra: dict[str, Any] = {"fill": group.fill} if group.fill is not None else {}
        _, line = eventlog.event_line(
            "usage", key=event_key, session=session.id, at=at, agent="opencode",
            model=group.model, requests=group.requests, fresh_input=fresh_input,
            cache_write=cache_write, cache_read=cache_read, output=output,
            transcript=mark.session, **extra,
        )  # fmt: skip
        lines.append(line)
        requests += group.requests
        tokens += sum(group.values)
    return lines, [mark], requests, tokens
