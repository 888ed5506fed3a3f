"""Events put in a session's files as tg-git writes them, for the benches."""

from __future__ import annotations

from pathlib import Path

from tg_git.domain import eventlog, layout


def fill_session(repo: Path, lines: list[str]) -> None:
    """Add event ``lines`` (each ending in a line end) to the current session: its file up
    to ``layout.SEGMENT_LINES`` event lines, then segments of as many."""
    files = sorted((repo / ".tg-git" / "ledger").glob("*.toml"))
    path = [p for p in files if not p.name.endswith(layout.PENDING)][-1]  # the newest session
    text = path.read_text()
    room = max(0, layout.SEGMENT_LINES - len(eventlog.event_lines(text)))
    path.write_text(text + "".join(lines[:room]))
    rel = path.relative_to(repo).as_posix()
    header = "".join(f"{ln}\n" for ln in text.splitlines() if ln.startswith("#"))
    for n, at in enumerate(range(room, len(lines), layout.SEGMENT_LINES), start=1):
        segment = repo / layout.segment_file(rel, n)
        segment.parent.mkdir(parents=True, exist_ok=True)
        segment.write_text(header + "".join(lines[at : at + layout.SEGMENT_LINES]))
