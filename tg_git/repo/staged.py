"""What a commit adds: the ``+`` lines of a change, estimated per file.

One ``git diff`` with ``-p`` gives every file's added lines; the hook reads it as git writes it
(``count_stream``), one file's added text at a time. Files are keyed by the path in
each section's ``+++`` header, never by position: a file<->symlink type change is one path
but two sections (one deleting, one adding), and both land on that path.

``--text`` makes git print every file as text, so no ``.gitattributes`` line (``-diff``,
``binary``) can hide a change from the count; a file is binary when an added line holds a
NUL byte, which is git's own rule. While a merge (or a cherry-pick, a squash, a commit after
a reset) is being concluded, only the lines new to *every* counted tip count, so no work is
counted twice.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from tg_git.domain.config import Config
from tg_git.domain.decide import FileCount
from tg_git.domain.errors import GitError
from tg_git.domain.layout import is_ledger_file
from tg_git.estimate.estimator import VOCAB_MAX_BYTES, Tally, safe_cut, tier, tier_id, utf8_size
from tg_git.repo import git

_ADDED = re.compile(rb"^\+(.*)$", re.M)
DIFF_OPTIONS = (
    "-p", "-U0", "--text", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv",
    "--ignore-submodules=all", "--src-prefix=a/", "--dst-prefix=b/",
)  # fmt: skip
_UNKNOWN = "?"

Added = dict[str, "list[bytes] | None"]


_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34, b"\\": 92}


def unquote(name: bytes) -> bytes:
    """A path as git prints it in a patch header: C-quoted (``"a/\\303\\251"``) when it has
    unusual bytes, else as is."""
    if not (name.startswith(b'"') and name.endswith(b'"') and len(name) >= 2):
        return name
    out = bytearray()
    body, i = name[1:-1], 0
    while i < len(body):
        char = body[i : i + 1]
        if char != b"\\":
            out += char
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt.isdigit():
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out.append(_ESCAPES.get(nxt, nxt[0] if nxt else 92))
            i += 2
    return bytes(out)


def parse_patch(out: bytes) -> Added:
    """Added lines per path from ``git diff -p`` output (``DIFF_OPTIONS``); None for binary
    files. Deleted files and sections without added lines (mode changes) add nothing; a
    deleted ledger file is there with no lines (never counted: the hook sees it staged)."""
    result: Added = {}
    for section in re.split(rb"(?:^|\n)diff --git ", out)[1:]:
        hunks = section.find(b"\n@@")
        header = section if hunks < 0 else section[:hunks]
        new_path, old_path = _paths(header)
        if new_path is None:
            gone = (old_path or b"").decode("utf-8", "surrogateescape")
            if is_ledger_file(gone):  # a ledger file staged for deletion: the hook must know
                result[gone] = []
            continue  # a deletion, or a section with nothing added (mode change, empty file)
        path = new_path.decode("utf-8", "surrogateescape")
        lines = _ADDED.findall(section, hunks) if hunks >= 0 else []
        before = result.get(path, [])
        if before is None or any(b"\0" in ln for ln in lines):
            result[path] = None
        else:
            result[path] = before + lines
    return result


def index_added(repo: git.Repo, base: str, env: Mapping[str, str] | None = None) -> Added:
    """What the index adds to ``base``."""
    return parse_patch(repo.git("diff-index", "--cached", *DIFF_OPTIONS, base, env=env))


def steady_env() -> dict[str, str]:
    """This environment less git's variables that change what a patch of ``DIFF_OPTIONS``
    with pathspecs holds: what a pathspec means (with ``GIT_LITERAL_PATHSPECS``, which
    magit's ``--literal-pathspecs`` exports, ``:(exclude)x`` names a file of that name and
    the patch holds nothing; with ``GIT_ICASE_PATHSPECS`` ``:(exclude,literal).tg-git/`` also
    leaves out ``.TG-GIT/``), and ``GIT_DIFF_OPTS`` (its context beats ``-U0``)."""
    return {k: v for k, v in os.environ.items() if not _steers(k)}


def _steers(name: str) -> bool:
    return name == "GIT_DIFF_OPTS" or (name.startswith("GIT_") and name.endswith("_PATHSPECS"))


def commits_added(
    repo: git.Repo, pairs: Sequence[tuple[str, str | None]], exclude: Sequence[str] = ()
) -> list[Added]:
    """What each commit adds to the parent paired with it (None: a root commit, against the
    empty tree), in order, leaving out the paths in ``exclude``: one ``git diff-tree --stdin``
    for them all, however many. With ``--always`` git heads each pair's patch with the
    commit's id even when it is empty, and no patch line is a bare id, so the output splits
    at those lines."""
    if not pairs:
        return []
    lines = "".join(f"{c} {p}\n" if p else f"{c}\n" for c, p in pairs).encode("ascii")
    spec = [f":(exclude){path}" for path in exclude]
    out = repo.git(
        "diff-tree", "--stdin", "--always", "--root", "-r", *DIFF_OPTIONS, "--", *spec,
        input=lines, env=steady_env(),
    )  # fmt: skip
    result: list[Added] = []
    pos = 0
    for n, (sha, _parent) in enumerate(pairs):
        start = pos + len(sha) + 1  # past this pair's header line
        nxt = pairs[n + 1][0] if n + 1 < len(pairs) else None
        end = out.find(b"\n%s\n" % nxt.encode(), start - 1) + 1 if nxt else len(out)
        if end <= 0:  # a git that printed something else: never guess
            raise GitError.from_key("git_odd_output", command="diff-tree --stdin")
        result.append(parse_patch(out[start:end]))
        pos = end
    return result


def new_to_both(ours: Added, theirs: Added) -> Added:
    """Lines added against both sides (parents of a merge, or a tip already counted): the
    resolution, nothing either side wrote."""
    result: Added = {}
    for path, lines in ours.items():
        other = theirs.get(path, [])
        if lines is None:
            result[path] = None
        elif other is None:
            result[path] = []  # binary on their side: nothing textual is new to both
        else:
            result[path] = list((Counter(lines) & Counter(other)).elements())
    return result


def staged_counts(
    repo: git.Repo,
    config: Config,
    env: Mapping[str, str] | None = None,
    head: str | None = _UNKNOWN,
    tips: Sequence[str] | None = None,
) -> list[FileCount]:
    """Per-file estimate of what the index adds to HEAD (the empty tree on an unborn branch),
    counting only lines new to each of ``tips`` too (MERGE_HEAD by default): commits whose
    work was counted already. ``head`` may be passed by a caller that resolved it already.
    Without tips the patch is read as git writes it, one file at a time (``count_stream``)."""
    if head == _UNKNOWN:
        head = git.head(repo)
    if tips is None:
        from tg_git.repo import gitquery  # lazy: 0.6 ms (the hooks pass their tips)

        found = gitquery.rev_parse(repo, "MERGE_HEAD", peel=None)
        tips = [found] if found else []
    base = head or repo.empty_tree
    if not tips:
        args = ("diff-index", "--cached", *DIFF_OPTIONS, base)
        return count_stream(git.stream(args, repo.top, env), config)
    added = index_added(repo, base, env)
    for tip in tips:
        if not added:
            break
        added = new_to_both(added, index_added(repo, tip, env))
    return count_all(added, config)


def count_all(added: Added, config: Config, exact: bool | None = None) -> list[FileCount]:
    """Every file's count. The tier is chosen by the whole commit's size, so one estimator
    counts a commit (its id goes into the ledger event) and a 100 MB commit of many small
    files takes a large text's tier; ``exact`` as for ``estimator.tier`` (verify re-counts a
    commit with the estimator it was counted with)."""
    counting = _Counting(config, exact)
    for path, lines in added.items():
        counting.start(path)
        if lines is None:
            counting.binary = True
        else:
            counting.add(lines)
    return counting.finish()


def count_stream(chunks: Iterable[bytes], config: Config) -> list[FileCount]:
    """``count_all`` of a patch (``DIFF_OPTIONS``) read in pieces as they come: at most one
    file's added text is held at once, and once the change is past the vocabulary tier a
    large file is counted a piece at a time (cut where the count adds up: ``safe_cut``)."""
    counting = _Counting(config, None)
    reading = _PatchReader(counting)
    pending = bytearray(b"\n")  # every line starts after a newline, the first one too
    for chunk in chunks:
        last = chunk.rfind(b"\n")
        if last < 0:
            pending += chunk
            continue
        pending += chunk[:last]
        reading.block(bytes(pending))
        pending = bytearray(chunk[last:])
    reading.block(bytes(pending))
    return counting.finish()


def _paths(header: bytes) -> tuple[bytes | None, bytes | None]:
    """The new and old paths a section's header names (``+++`` and ``---``; None for none)."""
    new_path = old_path = None
    for line in header.split(b"\n"):
        if line.startswith(b"--- "):
            source = unquote(line[4:].rstrip(b"\t"))
            old_path = source[2:] if source.startswith(b"a/") else source
        if line.startswith(b"+++ "):
            target = unquote(line[4:].rstrip(b"\t"))
            if target != b"/dev/null":
                new_path = target[2:] if target.startswith(b"b/") else target
            break
    return new_path, old_path


class _PatchReader:
    """``parse_patch`` for a patch handed over in blocks of whole lines, each but the first
    starting with the newline that ends the line before it."""

    def __init__(self, counting: _Counting) -> None:
        self.counting = counting
        self.header: bytearray | None = None  # a section's header until its first hunk
        self.counted = False  # whether the current section's added lines count

    def block(self, data: bytes) -> None:
        pos = 0
        while True:
            nxt = data.find(b"\ndiff --git ", pos)
            self._part(data, pos, len(data) if nxt < 0 else nxt)
            if nxt < 0:
                return
            self.header, self.counted = bytearray(), False
            pos = nxt + len(b"\ndiff --git ")

    def _part(self, data: bytes, pos: int, end: int) -> None:
        if self.header is not None:
            hunks = data.find(b"\n@@", pos, end)
            self.header += data[pos : end if hunks < 0 else hunks]
            if hunks < 0:
                return
            self._begin(bytes(self.header))
            self.header, pos = None, hunks
        if self.counted:
            self.counting.add(_ADDED.findall(data, pos, end))

    def _begin(self, header: bytes) -> None:
        new_path, old_path = _paths(header)
        if new_path is None:
            gone = (old_path or b"").decode("utf-8", "surrogateescape")
            if is_ledger_file(gone):  # a ledger file staged for deletion: the hook must know
                self.counting.start(gone)
            return
        self.counting.start(new_path.decode("utf-8", "surrogateescape"))
        self.counted = True


_PIECE = 1 << 18  # a large commit's file is counted in pieces of at most this many bytes


class _Counting:
    """Files' added lines in, file by file; their counts out (``finish``). While the change
    may still fit the vocabulary tier, its files' texts wait (at most ``VOCAB_MAX_BYTES``);
    once it is past, each file is counted in the large tier as it is read."""

    def __init__(self, config: Config, exact: bool | None) -> None:
        self.profile, self.counts, self.exact = config.profile, config.counts, exact
        first = tier(self.profile, 0, exact)
        self.chosen: str | None = None if first == "vocab" else first  # None: still open
        self.done: dict[str, FileCount | None] = {}  # None: waiting for the tier
        self.waiting: list[tuple[str, str, int]] = []
        self.size = 0  # the waiting texts' UTF-8 bytes
        self.path: str | None = None
        self.binary, self.lines, self.buf = False, 0, bytearray()
        self.tally: Tally | None = None

    def start(self, path: str) -> None:
        if path != self.path:
            self._end()
            self.path, self.binary, self.lines = path, False, 0
            self.buf, self.tally = bytearray(), None

    def add(self, lines: list[bytes]) -> None:
        if not lines or self.binary:
            return
        data = b"\n".join(lines)
        if b"\0" in data:  # git's own test of a binary file
            self.binary, self.buf, self.tally = True, bytearray(), None
            return
        if self.path is None or not self.counts(self.path):
            self.lines += len(lines)
            return
        if self.lines:
            self.buf += b"\n"
        self.lines += len(lines)
        self.buf += data
        if self.tally is None and (self.chosen or self.size + len(self.buf) > VOCAB_MAX_BYTES):
            # past the vocabulary tier (UTF-8 decoding never shrinks a text) unless binary
            chosen = self.chosen or tier(self.profile, VOCAB_MAX_BYTES + 1, self.exact)
            self.tally = Tally(chosen, self.profile, self.path)
        while self.tally is not None and len(self.buf) >= _PIECE:
            cut = safe_cut(self.buf, _PIECE) or safe_cut(self.buf)  # else read on for one
            if not cut:
                return
            self.tally.feed(self.buf[:cut].decode("utf-8", "replace"))
            del self.buf[:cut]

    def _end(self) -> None:
        path = self.path
        if path is None:
            return
        old = self.done.get(path)
        if self.binary or (old is not None and old.binary):
            self.done[path] = FileCount(path, 0, 0, binary=True, counted=self.counts(path))
        elif not self.counts(path):
            self.done[path] = FileCount(path, 0, self.lines + (old.lines if old else 0),
                                        counted=False)  # fmt: skip
        else:
            self._text(path, self.buf.decode("utf-8", "replace"))
        self.path, self.buf, self.tally = None, bytearray(), None

    def _text(self, path: str, text: str) -> None:
        tally = self.tally
        if tally is None and self.chosen is None:
            size = utf8_size(text)
            if self.size + size <= VOCAB_MAX_BYTES:
                self.waiting.append((path, text, self.lines))
                self.done.setdefault(path, None)
                self.size += size
                return
        if self.chosen is None:
            self._decide(
                tally.chosen if tally else tier(self.profile, VOCAB_MAX_BYTES + 1, self.exact)
            )
        tally = tally or Tally(self.chosen or "", self.profile, path)
        tally.feed(text)
        self._put(path, tally.total(), self.lines)

    def _decide(self, chosen: str) -> None:
        self.chosen = chosen
        for path, text, lines in self.waiting:
            tally = Tally(chosen, self.profile, path)
            tally.feed(text)
            self._put(path, tally.total(), lines)
        self.waiting = []

    def _put(self, path: str, tokens: int, lines: int) -> None:
        old = self.done.get(path)  # a second section of one path (a file<->link change)
        if old is not None:
            tokens, lines = tokens + old.tokens, lines + old.lines
        self.done[path] = FileCount(path, tokens, lines)

    def finish(self) -> list[FileCount]:
        self._end()
        if self.chosen is None:
            self._decide("vocab")
        name = tier_id(self.profile, self.chosen or "")
        return [
            c._replace(estimator=name) if c.counted and not c.binary else c
            for c in self.done.values()
            if c is not None
        ]
