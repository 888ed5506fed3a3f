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


# In a -U0 hunk each line is added (+), taken away (-) or says that the line before it has
# no line end (\ No newline at end of file); the lookahead reads that marker with its line.
_SIDES = {sign: re.compile(rb"^\%s(.*\n)(?=(\\)?)" % sign, re.M) for sign in (b"+", b"-")}
# A hunk that starts a side at the file's first line (``+1``, ``+1,3``; ``+1,0`` adds nothing).
_FIRST = {sign: re.compile(rb"^@@ [^\n@]*\%s1(?:,0*[1-9]\d*)? " % sign, re.M)
          for sign in (b"+", b"-")}  # fmt: skip


def _lines(hunks: bytes, sign: bytes) -> list[str]:
    """The event lines of one side (``+`` or ``-``) of a file's hunks."""
    found = _SIDES[sign].findall(hunks)
    if not found:
        return []
    raw = b"".join(line[:-1] if marker else line for line, marker in found)
    text = raw.decode("utf-8", "replace")
    # `event_lines` drops a byte-order mark at the text's start: right only at line 1
    return eventlog.event_lines(text if _FIRST[sign].search(hunks) else "\n" + text)


def _header_path(header: bytes, prefix: bytes) -> str | None:
    """The path a ``--- a/...`` or ``+++ b/...`` line of a section's header names."""
    for line in header.split(b"\n"):
        if line.startswith(prefix):
            name = unquote(line[4:].rstrip(b"\t"))
            if name == b"/dev/null":
                return None
            return name[2:].decode("utf-8", "surrogateescape")
    return None


# Where a section of a ledger file starts (its name C-quoted when it has unusual bytes).
_LEDGER_SECTION = re.compile(rb'^diff --git "?a/%s[/.]' % re.escape(LEDGER_DIR.encode()), re.M)


def _section(patch: bytes, start: int, under: str) -> Change | None:
    end = patch.find(b"\ndiff --git ", start)
    section = patch[start : end + 1 if end >= 0 else len(patch)]
    hunks = section.find(b"\n@@")
    if hunks < 0:
        return None  # a mode change, an empty file: no line comes or goes
    header, body = section[:hunks], section[hunks + 1 :] + b"\n"
    path = _header_path(header, b"+++ ") or _header_path(header, b"--- ")
    if path is None:
        return None
    path = f"{under}/{path}" if under else path
    if not is_ledger_file(path):
        return None
    return Change(path, _lines(body, b"+"), _lines(body, b"-"))


def changes(patch: bytes, under: str = "") -> list[Change]:
    """The ledger files one pair's patch (``DIFF_OPTIONS``) changes, with their event lines;
    ``under``: every file of the patch is one, in that folder (a diff of the folder's tree)."""
    if under:
        starts = [m.start() for m in re.finditer(rb"^diff --git ", patch, re.M)]
    else:
        starts = [m.start() for m in _LEDGER_SECTION.finditer(patch)]
    return [c for c in (_section(patch, at, under) for at in starts) if c is not None]


def patches(
    repo: Repo, pairs: Sequence[tuple[str, str | None]], folders: Sequence[str] = ()
) -> tuple[list[bytes], list[list[Change]]]:
    """What each ``(commit, parent)`` of ``pairs`` changes (parent None: a root commit,
    against the empty tree), as its whole patch (``DIFF_OPTIONS``: ``staged.parse_patch``
    reads what it adds, ``changes`` its ledger lines), and every event line of each ledger
    folder of ``folders`` (a tree id, as added to an empty tree): one ``git diff-tree
    --stdin`` for them all. With ``--always`` git heads each pair's patch with the commit's
    id (a tree pair's: both ids), and no patch line is a bare id, so the output splits at
    those lines."""
    if not pairs and not folders:
        return [], []
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
            raise GitError.said("git_odd_output", command="diff-tree --stdin")
        start = pos + len(head) + 1
        after = heads[n + 1].encode() if n + 1 < len(heads) else None
        end = out.find(b"\n%s\n" % after, start - 1) + 1 if after else len(out)
        if end <= 0:
            raise GitError.said("git_odd_output", command="diff-tree --stdin")
        found.append(out[start:end])
        pos = end
    return found[: len(pairs)], [changes(p, LEDGER_DIR) for p in found[len(pairs) :]]
