"""What verify found out about each commit, kept under the git dir so that the next verify
re-checks only the commits it has not seen (``.git/tg-git/verified/commits.memo``).

A commit never changes, so what verify reads of it alone never changes either: which lines its
patch adds to the ledger, which of them a parent held already, what its events claim, what its
change re-estimates to. That is a commit's ``Facts``, kept by commit id with its parents, the
config it was counted with when that was this clone's, and the whole memo under tg-git's
version, this format and the exact backend's version (``fingerprint``). What depends on more
than the commit (this clone's journal, its reflogs, the tip's ledger, the running balance, the
``verify.outside`` policy, the language) is never kept: it is weighed anew each time, from the
facts, exactly as for a commit read now.

It is a cache, not a trust anchor: a memo that is damaged (its CRC-32: ``repo.memo.pack``), of
another format or version, of the wrong shape, reached through a link, or a record whose
parents are not the commit's, is not read, and the commits are read from git again. Only
plain commits are kept: a commit that removed ledger lines, added one that does not read or a
recount event, is read again each time, and so is every commit of a repository with replace
refs or grafts (a commit's id no longer fixes what it reads).
"""

from __future__ import annotations

import hashlib
import os
import zlib
from collections.abc import Iterable
from typing import Any, cast

from tg_git import __version__
from tg_git.domain.typed import NamedTuple
from tg_git.estimate.estimator import exact_version
from tg_git.repo import git, ledgerdiff, memo

FORMAT = 2  # 2: the lines' digests made only where a journal needs them (``Memo.digested``)
FOLDER = "tg-git/verified"  # per worktree, beside tg-git's other memos
NAME = f"{FOLDER}/commits.memo"
SIZE = 16  # bytes of a line's digest
BOM = "\ufeff".encode()
KEEP_OTHERS = 1_000  # records of commits outside the range kept at least (other branches)


class Facts(NamedTuple):
    """What verify reads of one commit alone (every field from the commit and its parents)."""

    parents: tuple[str, ...]
    set_up: bool  # it holds .tg-git/
    keys: str  # the keys of the lines its first parent's patch adds to the ledger, by line
    digests: bytes  # each of those lines' digest (``digest``), in the same order; zeros in
    # a memo made where no journal needed them (``Memo.digested``)
    held: tuple[int, ...]  # those of them a parent holds already (not added): their places
    claims: int  # its commit events
    claimed: int  # the tokens they claim
    estimate: int  # its change re-estimated
    checkpoint: int  # 1: a checkpoint (not counted), 2: checkpoint-like, claims nothing;
    # UNREAD: not read (not checked in its range), COLD: read from git each time
    recorded: str  # the estimator its events name
    ours: str  # the estimator that re-counted it ("" when nothing counts)
    config: str  # "" counted with its own config, else this clone's (``config_key``)

    def lines(self) -> list[str]:
        """The keys of the lines its patch adds (``keys``), one a line."""
        return self.keys.split("\n") if self.digests else []

    @property
    def adds(self) -> bool:
        """Whether it added a line no parent held."""
        return len(self.digests) > len(self.held) * SIZE

    def added(self) -> list[tuple[str, bytes]]:
        """The key and digest of each line it added (those no parent held)."""
        keys = self.lines()
        held = set(self.held)
        return [
            (key, self.digests[n * SIZE : (n + 1) * SIZE])
            for n, key in enumerate(keys)
            if n not in held
        ]


class Edge(NamedTuple):
    """The parents a range starts from (outside it): which are set up, and their lines."""

    set_up: tuple[str, ...]
    keys: str  # the keys of every event line they hold, "\n"-joined
    recount: bool  # whether one of them is a recount event


UNREAD, COLD = -1, -2


def stub(parents: tuple[str, ...], kind: int) -> Facts:
    """A record of a commit whose facts are not kept (``UNREAD``, ``COLD``)."""
    return Facts(parents, False, "", b"", (), 0, 0, 0, kind, "", "", "")


_TYPES = (tuple, bool, str, bytes, tuple, int, int, int, int, str, str, str)


def digest(line: str) -> bytes:
    return hashlib.blake2b(line.encode("utf-8", "surrogatepass"), digest_size=SIZE).digest()


def digests(lines: list[str], made: bool = True) -> bytes:
    """``digest`` of each of ``lines``, joined (a commit's: one call, not one a line); zeros
    when not ``made`` (a tenth of a cold verify of 100,000 lines)."""
    if not made:
        return bytes(SIZE * len(lines))
    blake2b = hashlib.blake2b
    return b"".join(
        [blake2b(ln.encode("utf-8", "surrogatepass"), digest_size=SIZE).digest() for ln in lines]
    )


def config_key(config: object) -> str:
    """This clone's config, as a key of the commits it counted (those without their own)."""
    return hashlib.sha1(repr(config).encode()).hexdigest()


def edge_key(shas: Iterable[str]) -> str:
    return hashlib.sha1("\n".join(sorted(set(shas))).encode()).hexdigest()


def fingerprint() -> str:
    """Everything a commit's facts are computed with beyond the commit: tg-git's version
    (its estimator's tables and verify's reading) and the exact backend's, when here."""
    return f"{FORMAT}|{__version__}|{exact_version()}"


def usable(repo: git.Repo) -> bool:
    """Whether a commit's id fixes what it reads here: no replace refs, no grafts."""
    return not ledgerdiff.replaced(repo)


def _linked(repo: git.Repo) -> bool:
    return any(os.path.islink(repo.git_path(p)) for p in ("tg-git", FOLDER, NAME))


def _fits(record: object) -> bool:
    if type(record) is not tuple or len(record) != len(_TYPES):
        return False
    if tuple(map(type, record)) != _TYPES:
        return False
    parents, keys, digests, held = record[0], record[2], record[3], record[4]
    count, extra = divmod(len(digests), SIZE)
    return (
        all(type(p) is str for p in parents)
        and not extra
        and (keys.count("\n") + 1 == count if count else keys == "")
        and all(type(n) is int and 0 <= n < count for n in held)
    )


def _size(records: Iterable[tuple[object, ...]]) -> int:
    """About how many bytes ``records`` (sound ones: ``_fits``) take in the memo file."""
    return sum(len(cast("tuple[Any, ...]", r)[3]) * 3 + 200 for r in records)


class Memo:
    """The facts kept from earlier verifies, and those found now (``save`` writes them)."""

    def __init__(self, repo: git.Repo, journaled: bool = True) -> None:
        self.repo = repo
        # Whether the lines' digests are made: only a journal compares them (``_Seen``). A
        # memo made without them is not read where a journal is now.
        self.digested = journaled
        self.usable = usable(repo)
        self.commits: dict[str, tuple[object, ...]] = {}
        self.edges: dict[str, tuple[object, ...]] = {}
        self.journals: dict[str, tuple[object, ...]] = {}  # journal file -> what it held
        self.read_journals: set[str] = set()
        self.found: set[str] = set()  # the commits whose facts this verify put (``put``)
        self.new = False
        self.config = ""  # this clone's config (``config_key``), set by the caller
        if self.usable and not _linked(repo):
            self._load(journaled)

    def _load(self, journaled: bool) -> None:
        try:
            data = memo.read_data(self.repo, NAME)
        except Exception:  # missing, unreadable or damaged: read the commits from git
            return
        if not (isinstance(data, dict) and data.get("fingerprint") == fingerprint()):
            return
        digested = data.get("digested")
        if type(digested) is not bool or (journaled and not digested):
            return  # made without the lines' digests, which a journal here compares
        commits, edges, journals = data.get("commits"), data.get("edges"), data.get("journals")
        if type(commits) is dict and type(edges) is dict and type(journals) is dict:
            self.commits, self.edges, self.journals = commits, edges, journals
            self.digested = digested

    def get(self, sha: str, parents: tuple[str, ...]) -> Facts | None:
        """The facts kept for ``sha``, when sound and of these parents."""
        record = self.commits.get(sha)
        if not _fits(record) or not isinstance(record, tuple) or record[0] != parents:
            return None
        facts = Facts(*cast("tuple[Any, ...]", record))
        return facts if facts.config in ("", self.config) else None

    def edge(self, key: str) -> Edge | None:
        record = self.edges.get(key)
        if type(record) is not tuple or len(record) != 3:
            return None
        set_up, keys, recount = record
        if type(set_up) is not tuple or type(keys) is not str or type(recount) is not bool:
            return None
        return Edge(set_up, keys, recount) if all(type(s) is str for s in set_up) else None

    def journal(self, path: str, data: bytes) -> tuple[int, dict[str, bytes]]:
        """What a journal file (its bytes: ``data``) held when read before, as far as it is
        the same now (git appends to it): how many bytes of it, and each key's first line's
        digest in them; (0, {}) when none of it is known."""
        record = self.journals.get(path)
        if type(record) is not tuple or len(record) != 3:
            return 0, {}
        size, crc, first = record
        if type(size) is not int or type(crc) is not int or type(first) is not dict:
            return 0, {}
        if not 0 < size <= len(data) or zlib.crc32(data[:size]) != crc:
            return 0, {}
        if data[size - 1 : size] != b"\n" or b"\r" in data or data[size:].startswith(BOM):
            return 0, {}
        if not all(type(k) is str and type(v) is bytes for k, v in first.items()):
            return 0, {}
        return size, first

    def put_journal(self, path: str, data: bytes, first: dict[str, bytes]) -> None:
        """Keep what ``data`` (up to its last line end) holds: each key's first line."""
        size = data.rfind(b"\n") + 1
        record = (size, zlib.crc32(data[:size]), first)
        self.read_journals.add(path)
        if size and self.journals.get(path, ())[:2] != record[:2]:
            self.journals[path] = record
            self.new = True

    def put(self, sha: str, facts: Facts) -> None:
        record = tuple(facts)
        if self.commits.get(sha) != record:
            self.commits[sha] = record
            self.new = True
        self.found.add(sha)

    def put_edge(self, key: str, edge: Edge) -> None:
        if self.edges.get(key) != tuple(edge):
            self.edges[key] = tuple(edge)
            self.new = True

    def save(self, ranged: Iterable[str], edge: str) -> None:
        """Write the memo when something new was found: the range's records, and as many
        others (other branches, rewritten commits) as the range has, or ``KEEP_OTHERS``: it
        never grows much past the history it was made from. A link where the memo goes is
        taken away (never followed), and the memo is written whole or not at all."""
        if not (self.new and self.usable):
            return
        keep = dict.fromkeys(ranged)
        others = [sha for sha in reversed(self.commits) if sha not in keep]
        others = others[: max(len(keep), KEEP_OTHERS)]
        order = [*reversed(others), *keep]
        found, kept = self.found, self.commits  # what this verify found needs no check
        commits = {sha: kept[sha] for sha in order if sha in found or _fits(kept.get(sha))}
        if _size(commits.values()) > memo.MAX_BYTES:  # past what a read takes: never read
            return
        edges = {edge: self.edges[edge]} if edge in self.edges else {}
        try:
            if os.path.islink(self.repo.git_path("tg-git")):
                return
            for name in (FOLDER, NAME):
                if os.path.islink(self.repo.git_path(name)):
                    os.unlink(self.repo.git_path(name))
        except OSError:
            return
        data: dict[str, object] = {"fingerprint": fingerprint(), "commits": commits}
        data["digested"] = self.digested
        journals = {p: self.journals[p] for p in self.read_journals if p in self.journals}
        data["edges"], data["journals"] = edges, journals
        memo.write_data(self.repo, NAME, data)
