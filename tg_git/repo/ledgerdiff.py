"""The event lines each commit of a range adds to the ledger files and takes from them, and
what each commit changes to count: ``read`` cuts a file a commit only appended to (a ledger
file, or a code file) from its newest version (below), and takes the rest from ``git diff-tree
--stdin`` patches; the patches, not the files (at 100,000 events the versions of a range's
ledger files hold ~175 MB; their patches ~25 MB), and at 10 events a commit git spends more
CPU diffing the ledger's segments (~1.7-2.3 s at 10,001 commits) than the cut costs whole.

A line a patch adds or takes away is an event line exactly as ``eventlog.event_lines`` reads
it out of the whole file: the same decoding, the same line ends (CRLF read as LF, a last line
without one kept as it is) and the byte-order mark dropped only from a file's first line.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Sequence

from tg_git.domain import eventlog
from tg_git.domain.errors import GitError
from tg_git.domain.layout import LEDGER_DIR, LEDGER_PATH, is_ledger_file
from tg_git.domain.typed import NamedTuple
from tg_git.repo import gitquery
from tg_git.repo.git import Repo
from tg_git.repo.gitquery import Entry as Entry  # what ``raw`` lists, read here
from tg_git.repo.gitquery import log_listed as log_listed  # a range listed with its log
from tg_git.repo.staged import DIFF_OPTIONS, Added, parse_patch, steady_env, unquote


class Change(NamedTuple):
    """What one pair's patch does to one ledger file."""

    path: str
    added: list[str]  # event lines, in file order
    removed: list[str]


# A hunk that starts a side at the file's first line (``+1``, ``+1,3``; ``+1,0`` adds nothing).
_FIRST = {sign: re.compile(rb"^@@ [^\n@]*\%s1(?:,0*[1-9]\d*)? " % sign, re.M)
          for sign in (b"+", b"-")}  # fmt: skip
_BOM = "\ufeff"
# ``diff-tree --stdin`` flushes its output after each commit when it writes to a pipe (one
# write a commit, and one wake-up of the reader); with this it fills the pipe's buffer first.
_BUFFERED = {"GIT_FLUSH": "0"}


def _steady() -> dict[str, str]:
    """``steady_env``, git's output buffered (``_BUFFERED``)."""
    return {**steady_env(), **_BUFFERED}


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
    heads, asked = _heads_and_lines(repo, pairs, folders)
    out = repo.git(
        "diff-tree", "--stdin", "--always", "--root", "-r", *DIFF_OPTIONS,
        input="".join(f"{line}\n" for line in asked).encode("ascii"), env=_steady(),
    )  # fmt: skip
    found = _by_head(out, heads)
    return found[: len(pairs)], [split(p, LEDGER_DIR)[1] for p in found[len(pairs) :]]


def _one(repo: Repo, commit: str, parent: str | None) -> bytes:
    """One pair's patch, as ``patches`` gives it, the two named on git's command line (so
    that a trace of git's processes shows which commit was diffed)."""
    if parent:
        return repo.git("diff-tree", "-r", *DIFF_OPTIONS, parent, commit, env=steady_env())
    return repo.git(
        "diff-tree", "--root", "-r", "--no-commit-id", *DIFF_OPTIONS, commit, env=steady_env()
    )


# ---- a range read from blob ids: a segment appended to is cut, not diffed ------------------
# A ledger file only grows: a commit appends its events to the session's newest segment. The
# lines such a commit added are the new version's bytes past the old version's end, and
# whether the old version *is* the new one's start is told by its id (git's own hash of those
# bytes), not by a diff. So a range is read as: one ``diff-tree --raw`` (each pair's changed
# paths with their blob ids), one ``cat-file --batch-check`` (the sizes), one ``cat-file
# --batch`` of the newest versions only (each older one is a start of one of them), and
# patches only where a cut would not say what git's patch says: a change that is not a plain
# append. A code file is counted as git's patch adds its lines, so its cut is written as such
# a patch (``_code_cuts``); a pair with any other code change has git's patch of its code.

_CODE_ONLY = (f":(exclude,literal){LEDGER_DIR}", f":(exclude,literal){LEDGER_PATH}")
_LEDGER_ONLY = (f":(literal){LEDGER_DIR}", f":(literal){LEDGER_PATH}")
_RAW = ("--always", "--root", "-r", "-z", "--raw", "--no-renames", "--ignore-submodules=all")


def _in_ledger(path: str) -> bool:
    """Whether a patch of ``_LEDGER_ONLY`` holds ``path`` (else one of ``_CODE_ONLY``): a
    pathspec names its path and every path under it, whether a file or a folder there (a
    file ``.tg-git/ledger``, a folder ``.tg-git/ledger.toml``: no ledger file, counted)."""
    return any(path == top or path.startswith(top + "/") for top in (LEDGER_DIR, LEDGER_PATH))


def raw(repo: Repo, heads: Sequence[str], asked: Sequence[str]) -> list[list[Entry]]:
    """Each pair's changed paths (``asked``: ``diff-tree --stdin`` lines, ``heads``: the
    line git heads each one's part with), from one ``diff-tree --raw -z``. A commit's head
    ends with a NUL, a tree pair's with a line end."""
    out = repo.git(
        "diff-tree", "--stdin", *_RAW, input="".join(f"{a}\n" for a in asked).encode("ascii"),
        env={**os.environ, **_BUFFERED},
    )  # fmt: skip
    found: list[list[Entry]] = []
    # One decode of the whole output: a NUL is never part of a UTF-8 sequence, so each part
    # decodes as it would alone (paths with surrogate escapes, the rest ASCII).
    items = out.decode("utf-8", "surrogateescape").split("\0")
    n, last = 0, len(items) - 1
    entries: list[Entry] | None = None  # the current pair's
    while n <= last:
        item = items[n]
        if item[:1] == ":" and entries is not None and n < last:  # a changed path
            m = item[1:].split()
            old, new = m[2], m[3]  # all 0: none
            old = old if old.strip("0") else ""
            new = new if new.strip("0") else ""
            entries.append(Entry(m[0], m[1], old, new, m[4][:1], items[n + 1]))
            n += 2
            continue
        if not item and n == last:
            break
        head = heads[len(found)] if len(found) < len(heads) else None
        if head is None or not (item == head or item.startswith(head + "\n")):
            raise GitError.from_key("git_odd_output", command="diff-tree --raw")
        entries = []
        found.append(entries)
        items[n] = item[len(head) + 1 :]  # a tree pair's head: its first entry follows
        n += 0 if items[n] else 1
    if len(found) != len(heads):
        raise GitError.from_key("git_odd_output", command="diff-tree --raw")
    return found


_UNSET: tuple[int, int] = (-1, -1)  # no start told yet (a start's size is never -1)


class _Blobs:
    """The blobs of a range's appends, read as few as can be: the sizes of all, the content
    of each newest version only (``ends``); an older one is the start of a newer one it was
    appended to when git's id of that start is its id (``start``)."""

    def __init__(
        self,
        repo: Repo,
        pairs: Sequence[tuple[str, str]],
        wholes: Sequence[str],
        code: Sequence[tuple[str, str]] = (),
    ):
        """``pairs``: the ledger's (old, new) blob ids, ``code``: the code files' (only those
        that grew are read: a version that shrank or kept its size is no append)."""
        ids = list(dict.fromkeys(b for pair in pairs for b in pair if b))
        more = [b for pair in code for b in pair if b]
        every = list(dict.fromkeys([*ids, *more]))
        self.size = gitquery.object_sizes(repo, every) if every else {}
        self.next: dict[str, str] = {}
        for old, new in (*pairs, *code):  # only a larger version can be an append
            if self.size.get(new, -1) > self.size.get(old, -1) >= 0:
                self.next.setdefault(old, new)
        # Each version's newest, the largest first: sizes only grow along ``next`` (no cycle),
        # so the version after one is settled before it.
        self._ends: dict[str, str] = {}
        for old in sorted(self.next, key=self.size.__getitem__, reverse=True):
            after = self.next[old]
            self._ends[old] = self._ends.get(after, after)
        grown = [  # a code file's versions where it grew (or is new): each one's newest is read
            b
            for old, new in code
            if self.size.get(new, 0) > (self.size.get(old, 0) if old else 0)
            for b in (old, new)
            if b
        ]
        newest = self._ends
        ends = list(dict.fromkeys([*(newest.get(b, b) for b in (*ids, *grown)), *wholes]))
        # The newest versions' contents: where each is in one output of git's, no copy each
        self.out, self.at = gitquery.blobs(repo, ends) if ends else (b"", {})
        self.format = repo.object_format
        self._hash = getattr(hashlib, self.format, None)  # ``new`` looks it up each call
        self._starts: dict[str, tuple[int, int] | None] = {}
        self._ledger: dict[str, bool] = {}  # path -> is_ledger_file(path)
        self._names: dict[str, tuple[bytes, bytes]] = {}  # path -> its two names in a patch

    def is_ledger(self, path: str) -> bool:
        """``is_ledger_file(path)``, told once a path."""
        found = self._ledger.get(path)
        if found is None:
            found = self._ledger[path] = is_ledger_file(path)
        return found

    def names(self, path: str) -> tuple[bytes, bytes]:
        """``path`` as a patch's header names its two sides (``_name``), made once a path."""
        found = self._names.get(path)
        if found is None:
            found = self._names[path] = (_name(b"a/", path), _name(b"b/", path))
        return found

    def data(self, blob: str) -> bytes | None:
        """The content of ``blob`` when it is one of the newest versions read."""
        found = self.at.get(blob)
        return None if found is None else self.out[found[0] : found[0] + found[1]]

    def start(self, blob: str) -> tuple[int, int] | None:
        """Where in ``out`` a newest version that ``blob`` is the start of begins, and
        ``blob``'s size; None when that cannot be told."""
        found = self._starts.get(blob, _UNSET)
        if found is not _UNSET:
            return found
        end = self._ends.get(blob, blob)
        place, size = self.at.get(end), self.size.get(blob, -1)
        found = None
        if place is not None and end == blob:  # read by its own id, as git's patch reads it
            found = (place[0], size) if size == place[1] else None
        elif place is not None and 0 <= size <= place[1]:
            head = b"blob %d\0" % size
            digest = self._hash(head) if self._hash else hashlib.new(self.format, head)
            digest.update(memoryview(self.out)[place[0] : place[0] + size])
            found = (place[0], size) if digest.hexdigest() == blob else None
        self._starts[blob] = found
        return found

    def appended(self, old: str, new: str) -> tuple[bytes, int] | None:
        """What ``new`` holds past ``old``'s end, and where that starts, when ``new`` is
        ``old`` with whole lines appended and git's patch of the two adds exactly those
        lines (its hunk cannot slide up: the last line before it differs from its own last
        line); None otherwise. ``old`` "": a new file, all of it."""
        starts = self._starts  # each version's told once (``start``), looked up here
        after = starts.get(new, _UNSET)
        after = self.start(new) if after is _UNSET else after
        before = starts.get(old, _UNSET) if old else (-1, 0)
        before = self.start(old) if before is _UNSET else before
        if after is None or before is None:
            return None
        (at, size), (was, cut) = after, before
        out = self.out
        if cut >= size or (cut and was != at and out[was : was + cut] != out[at : at + cut]):
            return None
        if cut:
            end = at + cut  # the old version's end, in ``out``
            if out[end - 1] != 10:  # the old version's last line has no line end
                return None
            last_old = out[max(out.rfind(b"\n", at, end - 1) + 1, at) : end - 1]
            last = at + size
            last_new = out[max(out.rfind(b"\n", at, last - 1) + 1, at) : last]
            if last_old == last_new.removesuffix(b"\n"):
                return None
        return out[at + cut : at + size], cut


def _cut(path: str, added: bytes, at: int) -> Change:
    """The ledger change of an append at byte ``at`` (as ``_side`` reads git's patch)."""
    text = added.decode("utf-8", "replace")
    if at and text.startswith(_BOM):
        text = "\n" + text  # past the file's first line a byte-order mark is the line's
    return Change(path, eventlog.event_lines(text), [])


def _ledger_cuts(blobs: _Blobs, entries: list[Entry]) -> list[Change] | None:
    """A pair's ledger changes, when each is a plain append to a ledger file (or a new,
    non-empty one); None when git's patch must say."""
    changes = []
    for e in entries:
        if e.new_mode != "100644" or not blobs.is_ledger(e.path):
            return None
        if e.old_mode not in ("100644", "000000") or e.status not in ("M", "A"):
            return None
        if not e.old and not blobs.size.get(e.new):
            return None  # an empty new file: a section without hunks, as the patch shows
        cut = blobs.appended(e.old, e.new)
        if cut is None:
            return None
        changes.append(_cut(e.path, *cut))
    return changes


_CODE_MODES = ("100644", "100755")
_PLAIN_NAME = re.compile(rb"[ !#-\[\]-~]*")  # printable ASCII but `"` and `\`: as it is
_PLAIN_BYTES = frozenset(range(0x20, 0x7F)) - {0x22, 0x5C}


def _name(prefix: bytes, path: str) -> bytes:
    """``prefix`` and ``path`` as a patch's header names them for ``staged.unquote``: as they
    are, or C-quoted (every byte but printable ASCII an octal escape)."""
    raw = prefix + path.encode("utf-8", "surrogateescape")
    if _PLAIN_NAME.fullmatch(raw):
        return raw
    return b'"%s"' % b"".join(bytes([c]) if c in _PLAIN_BYTES else b"\\%03o" % c for c in raw)


class CodeCut(bytes):
    """A pair's patch of its code files as ``_code_cuts`` writes it, with what
    ``staged.parse_patch`` reads from it (``added``), kept as it was written. Read for its
    ``added`` alone (``read(..., texts=False)``), it is empty until ``whole`` writes it."""

    added: Added
    parts: list[tuple[bytes, bytes, list[bytes]]]  # each file's two names and added lines

    def whole(self) -> bytes:
        """The patch as written, with its ``added``."""
        if self or not self.parts:
            return self
        patch = CodeCut(_written(self.parts))
        patch.added, patch.parts = self.added, self.parts
        return patch


def _written(parts: list[tuple[bytes, bytes, list[bytes]]]) -> bytes:
    """A patch that adds ``lines`` to each file (its names in a patch's header: ``_name``)."""
    return b"".join(
        b"diff --git %s %s\n--- %s\n+++ %s\n@@ -0,0 +1 @@\n+" % (old, new, old, new)
        + b"\n+".join(lines)
        + b"\n"
        for old, new, lines in parts
    )


def added(patch: bytes) -> Added:
    """``staged.parse_patch(patch)``: of a ``CodeCut``, what it was written from."""
    return patch.added if isinstance(patch, CodeCut) else parse_patch(patch)


def _code_cuts(blobs: _Blobs, entries: list[Entry], texts: bool = True) -> bytes | None:
    """A pair's patch of its code files (``staged.parse_patch`` reads from it what git's
    patch gives: the added lines), when each is a plain append to a regular file of an
    unchanged mode (or a new, non-empty one); None when git's patch must say. Its files'
    added lines are kept with it (``CodeCut``): one line a ``+`` line of the patch, a file
    with a NUL in them binary (None), as ``parse_patch`` reads them. ``texts`` False: the
    patch is written only when asked (``CodeCut.whole``)."""
    parts = []
    found: Added = {}
    size, appended = blobs.size, blobs.appended
    for e in entries:
        if e.new_mode not in _CODE_MODES or not size.get(e.new):
            return None
        if (e.status, e.old_mode) not in (("M", e.new_mode), ("A", "000000")):
            return None
        cut = appended(e.old, e.new)
        if cut is None:
            return None
        lines = cut[0].split(b"\n")
        if not lines[-1]:
            lines.pop()
        parts.append((*blobs.names(e.path), lines))
        found[e.path] = None if b"\0" in cut[0] else lines
    patch = CodeCut(_written(parts) if texts else b"")
    patch.added, patch.parts = found, parts
    return patch


def _heads_and_lines(
    repo: Repo, pairs: Sequence[tuple[str, str | None]], folders: Sequence[str]
) -> tuple[list[str], list[str]]:
    heads = [commit for commit, _ in pairs] + [f"{repo.empty_tree} {tree}" for tree in folders]
    asked = [f"{c} {p}" if p else c for c, p in pairs] + heads[len(pairs) :]
    return heads, asked


def _folder(blobs: _Blobs, entries: list[Entry]) -> list[Change]:
    """Every event line of an edge's ledger folder (its files as added to an empty tree)."""
    changes = []
    for e in entries:
        path = f"{LEDGER_DIR}/{e.path}"
        data = blobs.data(e.new) if e.new else None
        if is_ledger_file(path) and data:
            changes.append(_cut(path, data, 0))
    return changes


def replaced(repo: Repo) -> bool:
    """Whether git may read another object than the one an id names here (replace refs,
    grafts; a reftable repository, whose replace refs this does not read, counts as one):
    then a blob's id no longer checks what git's patch reads, and nothing is cut."""
    common = repo.common_dir
    if (common / "info" / "grafts").exists() or os.environ.get("GIT_REPLACE_REF_BASE"):
        return True
    if (common / "reftable").exists():  # refs this reading cannot list (git 2.45+)
        return True
    try:
        if any((common / "refs" / "replace").iterdir()):
            return True
    except OSError:
        pass
    try:
        packed = (common / "packed-refs").read_bytes()
    except OSError:
        packed = b""
    return b" refs/replace/" in packed


def read(
    repo: Repo,
    pairs: Sequence[tuple[str, str | None]],
    folders: Sequence[str] = (),
    listing: list[list[Entry]] | None = None,
    texts: bool = True,
    given: Sequence[list[Entry] | None] | None = None,
) -> tuple[list[tuple[bytes, list[Change]]], list[list[Change]]]:
    """``split`` of each pair's patch and every event line of each folder, as ``patches``
    gives them, with no patch of a ledger file that a pair only appended to (see above):
    each pair's patch less its ledger files, and its ledger files' changes. ``listing``, when
    given, receives each pair's changed paths (``raw``) where they were listed (else none).
    ``texts`` False: a code cut is read for its ``added`` alone (``CodeCut``). ``given``: each
    pair's changed paths as listed before (``log_listed``; None: not), the others asked."""
    if not pairs and not folders:
        return [], []
    if len(pairs) == 1 and not folders:  # one commit (the one made since the last verify)
        return [split(_one(repo, *pairs[0]))], []
    if replaced(repo):  # git reads what a replace ref names: only its patch says that
        whole, held = patches(repo, pairs, folders)
        return [split(patch) for patch in whole], held
    heads, asked = _heads_and_lines(repo, pairs, folders)
    listed = _completed(repo, heads, asked, given if given and len(given) == len(pairs) else ())
    if listing is not None:
        listing += listed[: len(pairs)]
    ledger, codes = _sorted_out(listed[: len(pairs)])
    wholes = [e.new for entries in listed[len(pairs) :] for e in entries if e.new]
    plain = [(e.old, e.new) for es in codes for e in es if e.new_mode in _CODE_MODES]
    blobs = _Blobs(repo, [(e.old, e.new) for es in ledger for e in es], wholes, plain)
    cuts = [_ledger_cuts(blobs, entries) for entries in ledger]
    cut_code = [_code_cuts(blobs, entries, texts) if entries else b"" for entries in codes]
    coded = _patches(repo, [p for p, c in zip(pairs, cut_code) if c is None], _CODE_ONLY)
    diffed = _patches(repo, [p for p, c in zip(pairs, cuts) if c is None], _LEDGER_ONLY)
    found = _joined(cut_code, cuts, coded, diffed)
    return found, [_folder(blobs, entries) for entries in listed[len(pairs) :]]


def _joined(
    cut_code: list[bytes | None],
    cuts: list[list[Change] | None],
    coded: Iterator[bytes],
    diffed: Iterator[bytes],
) -> list[tuple[bytes, list[Change]]]:
    """Each pair's code patch and ledger changes: cut where they could be, else git's next
    patch (``coded``: the code's, ``diffed``: the ledger folder's, its other files code)."""
    found: list[tuple[bytes, list[Change]]] = []
    for rest, changes in zip(cut_code, cuts):
        rest = next(coded) if rest is None else rest
        if changes is None:
            more, changes = split(next(diffed))
            if more:
                rest = (rest.whole() if isinstance(rest, CodeCut) else rest) + more
        found.append((rest, changes))
    return found


def _completed(
    repo: Repo, heads: list[str], asked: list[str], given: Sequence[list[Entry] | None]
) -> list[list[Entry]]:
    """``raw(repo, heads, asked)``, the first pairs' as ``given`` lists them (None: not): one
    ``diff-tree`` for the others and the folders, none when there are none."""
    every = [*given, *[None] * (len(heads) - len(given))]
    ask = [n for n, entries in enumerate(every) if entries is None]
    more = iter(raw(repo, [heads[n] for n in ask], [asked[n] for n in ask]) if ask else ())
    return [entries if entries is not None else next(more) for entries in every]


def _sorted_out(listed: list[list[Entry]]) -> tuple[list[list[Entry]], list[list[Entry]]]:
    """Each pair's ledger entries (those a patch of ``_LEDGER_ONLY`` holds) and the others
    (each path told once: a range changes the same few paths again and again)."""
    inside: dict[str, bool] = {}
    ledger: list[list[Entry]] = []
    codes: list[list[Entry]] = []
    for entries in listed:
        ours: list[Entry] = []
        theirs: list[Entry] = []
        for e in entries:
            at = inside.get(e.path)
            if at is None:
                at = inside[e.path] = _in_ledger(e.path)
            (ours if at else theirs).append(e)
        ledger.append(ours)
        codes.append(theirs)
    return ledger, codes


def _patches(
    repo: Repo, pairs: Sequence[tuple[str, str | None]], pathspec: Sequence[str]
) -> Iterator[bytes]:
    """Each pair's patch of the paths ``pathspec`` names, in order: one ``diff-tree
    --stdin`` (none for no pairs)."""
    if not pairs:
        return iter(())
    heads, asked = _heads_and_lines(repo, pairs, ())
    out = repo.git(
        "diff-tree", "--stdin", "--always", "--root", "-r", *DIFF_OPTIONS, "--", *pathspec,
        input="".join(f"{line}\n" for line in asked).encode("ascii"), env=_steady(),
    )  # fmt: skip
    return iter(_by_head(out, heads))


def _by_head(out: bytes, heads: Sequence[str]) -> list[bytes]:
    """``diff-tree --stdin --always`` output cut at each pair's head line (never guessed)."""
    found: list[bytes] = []
    pos = 0
    for n, head in enumerate(heads):
        if not out.startswith(b"%s\n" % head.encode(), pos):
            raise GitError.from_key("git_odd_output", command="diff-tree --stdin")
        start = pos + len(head) + 1
        after = heads[n + 1].encode() if n + 1 < len(heads) else None
        end = out.find(b"\n%s\n" % after, start - 1) + 1 if after else len(out)
        if end <= 0:
            raise GitError.from_key("git_odd_output", command="diff-tree --stdin")
        found.append(out[start:end])
        pos = end
    return found
