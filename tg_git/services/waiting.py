"""A commit of records alone by path: the session's waiting events written into its own files
in the work tree first, since git makes a `git commit -- PATHS` only of a changed file."""

from __future__ import annotations

from tg_git.domain import eventlog, segments
from tg_git.repo import gitquery, journal, ledger
from tg_git.repo.workspace import Workspace


def to_worktree(ws: Workspace, rel: str) -> list[str]:
    """Write the session's waiting events into its own files in the work tree (tg-git's own
    write, nothing staged); returns the paths to commit. The commit's hook folds the waiting
    events with them, each once."""
    with journal.locked(ws.repo):
        held = eventlog.decode(ledger.held_bytes(ws.repo, rel))
        files = ledger.segment_paths(ws.repo.root, rel)
        bases = [(path, ws.file_text(path)) for path in files]
        if not held:
            return [rel]
        for path, text in bases:
            ws.check_ledger_staged(path, text)
        texts = segments.split(rel, bases, eventlog.union(*(t for _, t in bases), held))
        changed = [path for path, text in texts.items() if text != dict(bases).get(path)]
        for path in changed:
            ws.write_file(path, texts[path])
        return changed or [rel]


def commit(ws: Workspace, rel: str, subject: str, also: list[str] | None = None) -> bool:
    """A commit of the session's records alone, through the hooks (the user's staged changes
    stay staged): its waiting events into its files first; a file git does not know yet (a
    session's first) is announced to the index (``git add -N``), since git commits by path
    only a file it knows. Whether git made the commit."""

    paths = [*to_worktree(ws, rel), *(also or [])]
    known = {e.path for e in gitquery.index_entries(ws.repo, paths)}
    new = [p for p in paths if p not in known and (ws.repo.root / p).is_file()]
    if new:
        gitquery.on_index(ws.repo, ["add", "-N", "--", *new])
    return gitquery.commit_paths(ws.repo, subject, paths, check=False)
