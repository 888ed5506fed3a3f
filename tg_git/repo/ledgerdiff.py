"""The event lines each commit of a range adds to the ledger files and takes from them, out of
the one ``git diff-tree --stdin`` that also gives what each commit changes to count: the
patches, not the files (at 100,000 events the versions of a range's ledger files hold
~175 MB; their patches ~25 MB).

A line a patch adds or takes away is an event line exactly as ``eventlog.event_lines`` reads
it out of the whole file: the same decoding, the same line ends (CRLF read as LF, a last line
without one kept as it is) and the byte-order mark dropped only from a file's first line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tg_git.domain import eventlog
from tg_git.domain.errors import GitError
from tg_git.domain.layout import LEDGER_DIR, is_ledger_file
from tg_git.domain.typed import NamedTuple
from tg_git.repo.git import Repo
from tg_git.repo.staged import DIFF_OPTIONS, unquote


class Change(NamedTuple):
    """What one pair's patch does to one ledger file."""

    path: str
    added: list[str]  # event lines, in file order
    removed: list[str]


# A hunk that starts a side at the file's first line (``+1``, ``+1,3``; ``+1,0`` adds nothing).
_FIRST = {sign: re.compile(rb"^@@ [^\n@]*\%s1(?:,0*[1-9]\d*)? " % sign, re.M)
          for sign in (b"+", b"-")}  # fmt: skip
_BOM = "\ufeff"


def _side(hunks: bytes, lines: list[bytes], sign: bytes) -> list[str]:
    """The event lines of one side (``+`` or ``-``) of a file's hunks, split at ``lines``."""
    if b"\n\\" in hunks:  # "\ No newline at end of file": the line before it has no end
        kept: list[bytes] = []
        for n, line in enumerate(lines):
            if line[:1] == sign:
                ends = n + 1 < len(lines) and lines[n + 1][:1] == b"\\"
                kept.append(line[1:] if ends else line[1:] + b"\n")
        raw = b"".join(kept)
    else:
        raw = b"\n".join([line[1:] for line in lines if line[:1] == sign])
        raw += b"\n" if raw else b""
    text = raw.decode("utf-8", "replace")
    if text.startswith(_BOM) and not _FIRST[sign].search(hunks):
        text = "\n" + text  # `event_lines` drops a byte-order mark at the text's start only
    return eventlog.event_lines(text)


def _header_path(header: bytes, prefix: bytes) -> str | None:
    """The path a ``--- a/...`` or ``+++ b/...`` line of a section's header names."""
    for line in header.split(b"\n"):
        if line.startswith(prefix):
            name = unquote(line[4:].rstrip(b"\t"))
            if name == b"/dev/null":
                return None
            return name[2:].decode("utf-8", "surrogateescape")
    return None


# How a section of a ledger file starts (its name C-quoted when it has unusual bytes).
_LEDGER_SECTIONS = tuple(b"diff --git %sa/%s" % (q, LEDGER_DIR.encode()) for q in (b"", b'"'))


def _starts(patch: bytes, heads: tuple[bytes, ...]) -> list[int]:
    """Where the sections of ``patch`` that start with one of ``heads`` start (``find`` at C
    speed: a regular expression anchored at each line start takes ~10x as long)."""
    found = []
    for head in heads:
        at = patch.find(head)
        while at >= 0:
            if at == 0 or patch[at - 1] == 10:  # at a line's start
                found.append(at)
            at = patch.find(head, at + 1)
    return sorted(found)


def _change(section: bytes, under: str) -> Change | None:
    """A ledger file's change, from its section of a patch; None for any other section, or
    one that adds and removes no line (a mode change, an empty file)."""
    start = section.find(b"\n@@")
    if start < 0:
        return None
    header, hunks = section[:start], section[start + 1 :]
    path = _header_path(header, b"+++ ") or _header_path(header, b"--- ")
    if path is None:
        return None
    path = f"{under}/{path}" if under else path
    if not is_ledger_file(path):
        return None
    lines = hunks.split(b"\n")
    return Change(path, _side(hunks, lines, b"+"), _side(hunks, lines, b"-"))


def split(patch: bytes, under: str = "") -> tuple[bytes, list[Change]]:
    """One pair's patch (``DIFF_OPTIONS``) less its ledger files' sections, and what those
    do to the ledger; ``under``: every file of the patch is one, in that folder (a diff of
    the folder's tree). A commit's change to count (``staged.parse_patch``) is the rest: a
    ledger file never counts, and its lines are most of a long session's patches."""
    starts = _starts(patch, (b"diff --git ",) if under else _LEDGER_SECTIONS)
    if not starts:
        return patch, []
    rest, changes, kept = [], [], 0
    for at in starts:
        end = patch.find(b"\ndiff --git ", at) + 1 or len(patch)
        change = _change(patch[at:end], under)
        if change is not None:
            rest.append(patch[kept:at])
            changes.append(change)
            kept = end
    rest.append(patch[kept:])
    return b"".join(rest), changes


def patches(
    repo: Repo, pairs: Sequence[tuple[str, str | None]], folders: Sequence[str] = ()
) -> tuple[list[bytes], list[list[Change]]]:
    """What each ``(commit, parent)`` of ``pairs`` changes (parent None: a root commit,
    against the empty tree), as its whole patch (``DIFF_OPTIONS``: ``staged.parse_patch``
    reads what it adds, ``split`` its ledger lines), and every event line of each ledger
    folder of ``folders`` (a tree id, as added to an empty tree): one ``git diff-tree
    --stdin`` for them all. With ``--always`` git heads each pair's patch with the commit's
    id (a tree pair's: both ids), and no patch line is a bare id, so the output splits at
    those lines."""
    if not pairs and not folders:
        return [], []
    if len(pairs) == 1 and not folders:  # one commit (the one made since the last verify)
        return [_one(repo, *pairs[0])], []
    heads = [commit for commit, _ in pairs] + [f"{repo.empty_tree} {tree}" for tree in folders]
    asked = [f"{c} {p}" if p else c for c, p in pairs] + heads[len(pairs) :]
    out = repo.git(
        "diff-tree", "--stdin", "--always", "--root", "-r", *DIFF_OPTIONS,
        input="".join(f"{line}\n" for line in asked).encode("ascii"),
    )  # fmt: skip
    found: list[bytes] = []
    pos = 0
    for n, head in enumerate(heads):
        if not out.startswith(b"%s\n" % head.encode(), pos):  # never guess
            raise GitError.from_key("git_odd_output", command="diff-tree --stdin")
        start = pos + len(head) + 1
        after = heads[n + 1].encode() if n + 1 < len(heads) else None
        end = out.find(b"\n%s\n" % after, start - 1) + 1 if after else len(out)
        if end <= 0:
            raise GitError.from_key("git_odd_output", command="diff-tree --stdin")
        found.append(out[start:end])
        pos = end
    return found[: len(pairs)], [split(p, LEDGER_DIR)[1] for p in found[len(pairs) :]]


def _one(repo: Repo, commit: str, parent: str | None) -> bytes:
    """One pair's patch, as ``patches`` gives it, the two named on git's command line (so
    that a trace of git's processes shows which commit was diffed)."""
    if parent:
        return repo.git("diff-tree", "-r", *DIFF_OPTIONS, parent, commit)
    return repo.git("diff-tree", "--root", "-r", "--no-commit-id", *DIFF_OPTIONS, commit)
