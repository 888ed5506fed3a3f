"""What one git hook leaves for the next: the post-commit marker (a save or an index repair
due, or a commit left uncounted) and the journal-due lines, which the native shim appends to
the journal once HEAD holds the ledger committed (plain text, for the shell). Also the hooks'
one way to speak: a line on stderr.
"""

from __future__ import annotations

import json
import os
import sys

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:  # the hot path imports nothing it does not use
    from collections.abc import Sequence

    # Paths are ``str`` or ``os.PathLike``: the hooks import no ``pathlib`` (~5 ms a commit).
    Where = str | os.PathLike[str]

    from tg_git.repo import git

MARKER = "tg-git/post-commit.json"
# The journal-due file: the lines post-commit journals once the commit exists. Its head, one
# line each: the blob HEAD must hold at the ledger file, that file, the journal to append to;
# then the lines. Written by ``leave_journal_due``; read by the shim (its text rendered from
# these at install: ``shim_values``) and by ``journal_due``.
JOURNAL_DUE = "tg-git/journal-due"
JOURNAL_DUE_HEAD = ("blob", "rel", "target")
SAVE_LEVELS = ("force-save", "halt")  # levels.FORCE_SAVE, levels.HALT, without importing them


def emit(message: str) -> None:
    """The hooks' one way to speak: a line on stderr."""
    print(message, file=sys.stderr)


def shim_values() -> dict[str, str]:
    """The shim template's placeholders for the journal-due file, from its one definition."""
    return {
        "@JOURNAL_DUE@": JOURNAL_DUE,
        "@JOURNAL_DUE_READ@": " && ".join(f"read -r {name}" for name in JOURNAL_DUE_HEAD),
    }


def write_journal_due(due: Where, lines: Sequence[str], **head: str) -> None:
    """The journal-due file ``due``: ``head`` (each of ``JOURNAL_DUE_HEAD``), then ``lines``."""
    os.makedirs(os.path.dirname(due) or os.curdir, exist_ok=True)
    text = [*(head[name] for name in JOURNAL_DUE_HEAD), *lines]
    _discard(due)  # whatever is there (a FIFO would make the open below wait for ever)
    with open(due, "x", encoding="utf-8") as fh:
        fh.write("".join(f"{ln}\n" for ln in text))


def mark_uncounted(git_dir: Where) -> None:
    """After a failed pre-commit hook: tell post-commit to note the commit, so that the next
    commit counts it (tg_git.services.recount)."""
    _write(os.path.join(git_dir, MARKER), json.dumps({"uncounted": True}))


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _discard(path)  # whatever is there (a FIFO would make the open below wait for ever)
    with open(path, "x", encoding="utf-8") as fh:
        fh.write(text)


def leave_marker(
    repo: git.Repo, text: str, rel: str, partial: bool, level: str, also: Sequence[str] = ()
) -> None:
    """Tell post-commit what is due (a save, an index repair) for the commit with ``text`` in
    the ledger file ``rel``; ``also``: the other ledger files the commit changed (a commit's
    lines that filled a segment and opened the next), which `git commit PATH` leaves stale
    in the real index too."""
    from tg_git.domain import gitobjects  # lazy: 0.6 ms

    data = {
        "ledger": gitobjects.hash_text(text, repo.object_format),
        "file": rel,
        "also": list(also),
        "partial": partial,
        "level": level,
    }
    _write(repo.git_file(MARKER), json.dumps(data))


def _blob_id(text: str, head: str | None) -> str:
    """The blob id git gives ``text`` in this repository (SHA-256 ones have 64-digit ids)."""
    from tg_git.domain import gitobjects  # lazy: 0.6 ms

    if head is None or len(head) != 64:
        return gitobjects.hash_text(text)
    import hashlib  # lazy: 4.1 ms

    data = text.encode("utf-8")
    return hashlib.sha256(b"blob %d\0" % len(data) + data).hexdigest()


def leave_journal_due(
    repo: git.Repo,
    rel: str,
    text: str,
    head: str | None,
    known: str,
    journaled: list[str],
    checked: tuple[str, str] | None = None,
) -> None:
    """Leave post-commit the lines of the ledger being committed that the journal lacks (this
    commit's event, above all): the shim appends them to the journal once HEAD holds this very
    ledger, so a commit that leaves history before tg-git next runs (two resets, a revert of
    both, a deleted branch) keeps its event. Plain text, for the shell: the blob id, the
    ledger file, the journal's path (``JOURNAL_DUE_HEAD``), then the lines (a first blank one
    after a torn line).
    ``checked``: the file (and its text) HEAD must hold, when ``text`` is a whole session's
    files joined: the segment with the commit's own event."""
    from tg_git.domain import eventlog  # lazy: 1.8 ms
    from tg_git.repo import journal  # lazy: 3.9 ms

    due = repo.git_file(JOURNAL_DUE)
    lines = journal.missing(eventlog.event_lines(text), "\n".join([known, *journaled]))
    target = journal.path(repo, rel)
    if not lines or "\n" in target:
        _discard(due)
        return
    torn = [""] if known and not known.endswith("\n") else []
    where, held = checked or (rel, text)
    if "\n" in where:
        _discard(due)
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    write_journal_due(due, [*torn, *lines], blob=_blob_id(held, head), rel=where, target=target)


def journal_due(git_dir: Where) -> None:
    """What the shim does at post-commit, for hooks run without it (the pre-commit
    framework): journal the lines ``leave_journal_due`` left when HEAD holds them."""
    from tg_git.repo import regular  # lazy: 0.3 ms (this path runs without the shim only)

    due = os.path.join(git_dir, JOURNAL_DUE)
    try:
        parts = regular.read_bytes(due).decode("utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        _discard(due)
        return
    n = len(JOURNAL_DUE_HEAD)
    head, lines = dict(zip(JOURNAL_DUE_HEAD, parts[:n])), parts[n:]
    from tg_git.repo import gitquery  # lazy: 3.4 ms

    try:
        if (
            len(head) == n
            and gitquery.rev_parse(None, f"HEAD:{head['rel']}", peel=None) == head["blob"]
        ):
            with open(head["target"], "a", encoding="utf-8", newline="\n") as fh:
                fh.write("\n".join(lines))
    finally:
        _discard(due)


def _discard(path: Where) -> None:
    """``Path.unlink(missing_ok=True)``."""
    try:  # noqa: SIM105 (contextlib: ~1 ms of every commit)
        os.unlink(path)
    except FileNotFoundError:
        pass
