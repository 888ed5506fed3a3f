"""Where a commit's ledger lines go among a session's files (pure: texts in, texts out).

A line stays in the file that holds it; a new line (the commit's event, folded records,
restored ones) goes to the session's last file until that holds ``layout.SEGMENT_LINES``
lines, then to the next segment. So a commit rewrites one small file however long the
session, and a file written before segments existed (thousands of lines) is never
rewritten again: its session goes on in segments.
"""

from __future__ import annotations

from collections.abc import Sequence

from tg_git.domain import eventlog, layout


def split(
    rel: str, bases: Sequence[tuple[str, str | None]], lines: Sequence[str]
) -> dict[str, str]:
    """The new text of each of a session's files (``bases``: each file's path, in order, and
    the text it is written over) for the session's ``lines``; new segments included."""
    owner: dict[str, str] = {}
    held: dict[str, list[str]] = {}
    for path, text in bases:
        held[path] = eventlog.event_lines(text)
        for line in held[path]:
            owner.setdefault(line, path)
    assigned: dict[str, list[str]] = {path: [] for path, _ in bases}
    extra = []
    for line in lines:
        if line in owner:
            assigned[owner[line]].append(line)
        else:
            extra.append(line)
    last = bases[-1][0] if bases else rel
    found = layout.segment_number(last)
    number = found[1] if found else 0
    assigned.setdefault(last, [])
    room = max(0, layout.SEGMENT_LINES - len(assigned[last]))
    assigned[last] += extra[:room]
    extra = extra[room:]
    while extra:  # the last file is full: the session goes on in new segments
        number += 1
        assigned[layout.segment_file(rel, number)] = extra[: layout.SEGMENT_LINES]
        extra = extra[layout.SEGMENT_LINES :]
    texts = dict(bases)
    result = {}
    for path, kept in assigned.items():
        base = texts.get(path)
        result[path] = base if base and kept == held.get(path) else eventlog.rewrite(base, kept)
    return result
