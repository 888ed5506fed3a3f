"""What verify reads of a range's history: which commits are set up, the config each was
counted with, what each did to the ledger's event lines (``repo.ledgerdiff``), with an index of
where history ever added each line, and whether a line still exists (``Kept``)."""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from itertools import compress, repeat

from tg_git.domain import config as config_mod
from tg_git.domain import eventlog
from tg_git.domain.config import Config
from tg_git.domain.errors import TgGitError
from tg_git.domain.layout import CONFIG_PATH, LEDGER_DIR, LEDGER_PATH
from tg_git.domain.tomltext import parse_toml
from tg_git.repo import git, gitquery, journal, ledgerdiff
from tg_git.repo.workspace import Workspace
from tg_git.services import recount

RECOUNT = f'"{recount.FIELD}"'  # in a recount event's line (`recount.recounted` looks alike)
_AT = (CONFIG_PATH, LEDGER_DIR, LEDGER_PATH)  # a commit holding any of them is set up


class History:
    """The commits of a range and their parents: which are set up (hold ``.tg-git/``), the
    config each was counted with, and what each did to the ledger's event lines, with an
    index of where history ever added each line. A line is looked up there, and in the few
    files it names, never in every ledger file of a commit (a long session has hundreds)."""

    def __init__(
        self,
        ws: Workspace,
        commits: list[gitquery.Commit],
        edge: bool = True,
        listed: list[list[ledgerdiff.Entry] | None] | None = None,
    ) -> None:
        self.ws = ws
        self.edge: list[str] = []  # the lines the edge (the parents outside the range) holds
        # line -> the ledger file history first added it to, and the one commit that added
        # it ("": several, or the edge): one record a line, made once for a commit's file
        self.where: dict[str, tuple[str, str]] = {}
        self.more: dict[str, set[str]] = {}  # line -> the other files it was added to
        self.shared: set[str] = set()  # lines the edge holds, or several commits added
        pairs = [(c.sha, p) for c in commits for p in c.parents or (None,)]
        # One pair: ``read`` lists no paths (one patch, unless the edge has ledger folders),
        # so the commit's own places are asked with its parent's, in one process.
        alone = [c.sha for c in commits] if len(pairs) == 1 else []
        folders, singles = self._outside(commits, edge, alone)
        listing: list[list[ledgerdiff.Entry]] = []  # what each pair changed (``read``)
        read, held = ledgerdiff.read(ws.repo, pairs, folders, listing, texts=False, given=listed)
        self._ranged([c for c in commits if c.sha not in alone], listing)
        self._read(singles)
        for changes in held:  # the edge's folders, as added to an empty tree
            self._index(changes, "")
            self.edge += (line for change in changes for line in change.added)
        each = iter(read)
        self._removing: dict[str, list[str]] = {}  # commit -> the lines its patches take away
        self.rest: dict[str, list[bytes]] = {}  # per commit and parent: the patch to count
        self.changes: dict[str, list[list[ledgerdiff.Change]]] = {}  # ... and its ledger's
        rests, changed, removing, index = self.rest, self.changes, self._removing, self._index
        for commit in commits:  # one patch a parent (a root commit's: one)
            sha = commit.sha
            if len(commit.parents) > 1:
                found = [next(each) for _ in commit.parents]
                rests[sha] = [rest for rest, _ in found]
                changed[sha] = [changes for _, changes in found]
            else:
                rest, changes = next(each)
                rests[sha], changed[sha] = [rest], [changes]
            index(changed[sha][0], sha)
            gone = [line for pair in changed[sha] for change in pair for line in change.removed]
            if gone:
                removing[sha] = gone
        self._added_by: dict[str, frozenset[str]] = {}  # commit -> what its patch adds (``raw``)
        self._recounts: set[str] | None = None
        self._held: dict[tuple[str, str], frozenset[str]] = {}  # (commit, file) -> its lines
        self._lines: dict[str, frozenset[str]] = {}
        self._configs: dict[str | None, Config] = {}
        self._profiled: dict[tuple[int, str], Config] = {}  # (id of a config, profile) -> it
        self.fallback: set[str | None] = set()  # config blobs that did not read: ws.config

    def _outside(
        self, commits: list[gitquery.Commit], read_edge: bool, also: list[str]
    ) -> tuple[list[str], list[str]]:
        """Which parents outside the range are set up and their configs (and those of the
        commits ``also`` names), and the edge's ledger (those parents): its folders' tree ids
        (``ledgerdiff.read`` reads them) and its single ledger file's blob ids; ``read_edge``
        False: the edge's ledger is not asked."""
        ranged = {c.sha for c in commits}
        outside = list(dict.fromkeys(p for c in commits for p in c.parents if p not in ranged))
        shas = outside + also
        edge = set(outside) if read_edge else set()
        found = _places(self.ws.repo, shas, edge)
        self.set_up = {sha for n, sha in enumerate(shas) if any(found[3 * n : 3 * n + 3])}
        self.config_blob = {sha: _blob(found[3 * n]) for n, sha in enumerate(shas)}
        self.edge_set_up = self.set_up.difference(also)
        at = [n for n, sha in enumerate(shas) if sha in edge]
        folders = [t[0] for n in at if (t := found[3 * n + 1]) and t[1] == "tree"]
        singles = list(dict.fromkeys(b for n in at if (b := _blob(found[3 * n + 2]))))
        return list(dict.fromkeys(folders)), singles

    def _ranged(self, commits: list[gitquery.Commit], listed: list[list[ledgerdiff.Entry]]) -> None:
        """Which commits of the range are set up, and their configs: a config's blob id as
        git's listing of each commit's paths (``listed``: one a parent, as ``read`` pairs
        them) tells it along first parents, from the parents outside the range; asked of
        git (``_places``) for a commit the listing gives none (no listing: every commit)."""
        derived = _configs(commits, listed, self.config_blob) if listed else {}
        asked = [c.sha for c in commits if derived.get(c.sha) is None]
        found = _places(self.ws.repo, asked, set(asked) if listed else set())
        for n, sha in enumerate(asked):
            self.config_blob[sha] = _blob(found[3 * n])
            if any(found[3 * n : 3 * n + 3]):
                self.set_up.add(sha)
        for sha, blob in derived.items():
            if blob is not None:
                self.config_blob[sha] = blob
                self.set_up.add(sha)

    def _read(self, singles: list[str]) -> None:
        """The configs' texts and the edge's single ledger file (tg-git 0.1's), indexed: one
        ``cat-file`` (none for nothing)."""
        blobs = [b for b in dict.fromkeys(self.config_blob.values()) if b]
        read = git.read_objects(self.ws.repo, blobs + singles) if blobs or singles else []
        self._raw = {b: obj.data for b, obj in zip(blobs, read) if obj and obj.kind == "blob"}
        for obj in read[len(blobs) :]:  # tg-git 0.1's single ledger file
            text = obj.data.decode("utf-8", "replace") if obj else ""
            self.edge += eventlog.event_lines(text)
            self._index([ledgerdiff.Change(LEDGER_PATH, eventlog.event_lines(text), [])], "")

    def _index(self, changes: list[ledgerdiff.Change], sha: str) -> None:
        """Where ``sha`` ("": the edge) added each line of ``changes``."""
        where = self.where
        for change in changes:
            if where.keys().isdisjoint(change.added):  # new to history: at C speed
                where.update(zip(change.added, repeat((change.path, sha))))
                if not sha:
                    self.shared.update(change.added)
            else:
                for line in change.added:
                    self._add(line, change.path, sha)
            for line in change.removed:  # there already (history added it): kept exact
                self._place(line, change.path)

    def _add(self, line: str, path: str, sha: str) -> None:
        """``sha`` ("": the edge) added ``line`` to ``path``, and history may have before."""
        known = self.where.setdefault(line, (path, sha))
        if known[1] != sha or not sha:  # another commit added it too, or the edge holds it
            self.where[line] = (known[0], "")
            self.shared.add(line)
        self._also(line, known[0], path)

    def _place(self, line: str, path: str) -> None:
        """``line`` held in ``path`` where no commit of the range added it (the edge's)."""
        known = self.where.setdefault(line, (path, ""))
        if not known[1]:
            self.shared.add(line)
        self._also(line, known[0], path)

    def _also(self, line: str, first: str, path: str) -> None:
        if first != path:
            self.more.setdefault(line, set()).add(path)

    def paths(self, line: str) -> tuple[str, ...]:
        """The ledger files history ever added ``line`` to."""
        known = self.where.get(line)
        return (known[0], *self.more.get(line, ())) if known else ()

    def raw(self, commit: gitquery.Commit) -> frozenset[str]:
        """The lines ``commit``'s patch (against its first parent) adds to ledger files."""
        found = self._added_by.get(commit.sha)
        if found is None:
            changes = self.changes[commit.sha][0]
            found = self._added_by[commit.sha] = (
                frozenset(changes[0].added)
                if len(changes) == 1
                else frozenset().union(*(c.added for c in changes))
            )
        return found

    @property
    def recounts(self) -> set[str]:
        """The lines history added that hold a recount event."""
        if self._recounts is None:  # a search in C a line, no loop in Python and no copy
            lines = self.where.keys()  # of every line as one text (~30 MB at 100,000 events)
            self._recounts = set(compress(lines, map(str.__contains__, lines, repeat(RECOUNT))))
        return self._recounts

    def _doubt(self, commit: gitquery.Commit) -> frozenset[str]:
        """The lines ``commit`` added that some other commit (or the edge) added as well: the
        only ones a parent may hold."""
        return self.raw(commit) & self.shared

    def _asks(self, commit: gitquery.Commit, tip: str) -> Iterator[tuple[str, str]]:
        """The files (commit, path) whose lines ``lines_of(commit)`` looks into."""
        for line in self._doubt(commit):
            yield from ((p, path) for p in commit.parents for path in self.paths(line))
        for line in self._removing.get(commit.sha, ()):
            yield from ((at, path) for at in (commit.sha, tip) for path in self.paths(line))

    def read(self, tip: str, commits: list[gitquery.Commit]) -> None:
        """Read, in one ``cat-file`` process, every file the checks of ``commits`` and the
        recount events at ``tip`` look into."""
        shared, removing = self.shared, self._removing  # what a commit's lines may ask
        doubted = (
            [c for c in commits if c.sha in removing or not shared.isdisjoint(self.raw(c))]
            if shared or removing
            else []
        )
        wanted = dict.fromkeys(ask for c in doubted for ask in self._asks(c, tip))
        wanted.update(dict.fromkeys((tip, path) for ln in self.recounts for path in self.paths(ln)))
        asks = list(wanted)
        specs = [f"{sha}:{path}" for sha, path in asks]
        found = git.read_objects(self.ws.repo, specs) if specs else []  # none: no process
        for ask, obj in zip(asks, found):
            if obj is None or obj.kind != "blob":
                self._held[ask] = frozenset()
            elif obj.id not in self._lines:
                text = obj.data.decode("utf-8", "replace")
                self._held[ask] = self._lines[obj.id] = frozenset(eventlog.event_lines(text))
            else:
                self._held[ask] = self._lines[obj.id]

    def has(self, sha: str, line: str) -> bool:
        """Whether ``line`` is in a ledger file of ``sha`` (asked through ``read``)."""
        return any(line in self._held.get((sha, path), ()) for path in self.paths(line))

    def lines_of(self, commit: gitquery.Commit) -> tuple[AbstractSet[str], set[str]]:
        """The event lines ``commit`` added to the ledger (in no file of any parent) and those
        it took away (in no file of its own)."""
        raw, removing = self.raw(commit), self._removing.get(commit.sha)
        if not removing and self.shared.isdisjoint(raw):  # no line another commit added
            return raw, set()
        added, doubt = set(raw), self._doubt(commit)
        if doubt:
            added -= {ln for ln in doubt if any(self.has(p, ln) for p in commit.parents)}
        if not removing:
            return added, set()
        removed = {line for line in removing if not self.has(commit.sha, line)}
        return added, removed

    def recounted(self, tip: str) -> set[str]:
        """The commits that recount events in the tip's ledger count (pushed with it)."""
        lines = sorted(ln for ln in self.recounts if self.has(tip, ln))
        return recount.recounted("\n".join(lines)) if lines else set()

    def config(self, sha: str) -> Config:
        """The config as it was in ``sha`` (its globs and profile counted that commit)."""
        blob = self.config_blob.get(sha)
        if blob not in self._configs:
            try:
                text = self._raw[blob].decode("utf-8") if blob else ""
                if not text:
                    self.fallback.add(blob)
                self._configs[blob] = _Counts(
                    *(
                        config_mod.from_mapping(parse_toml(text, CONFIG_PATH, ""))
                        if text
                        else self.ws.config
                    )
                )
            except (TgGitError, UnicodeDecodeError, KeyError):
                self.fallback.add(blob)
                self._configs[blob] = _Counts(*self.ws.config)
        return self._configs[blob]

    def profiled(self, config: Config, profile: str) -> Config:
        """``config`` with ``profile``: one for each, so that its paths' answers are kept."""
        key = (id(config), profile)
        if key not in self._profiled:
            self._profiled[key] = config._replace(profile=profile)
        return self._profiled[key]

    def counted_with(self, sha: str) -> tuple[Config, bool]:
        """``config(sha)``, and whether ``sha`` was counted with its own config (else this
        clone's)."""
        blob = self.config_blob.get(sha)
        found = self._configs.get(blob)
        if found is None:
            found = self.config(sha)
        return found, blob not in self.fallback


class _Counts(Config):
    """A config that answers whether a path counts once for each path: verify asks it for
    each file of each commit (~10 µs an answer, its globs), and a history's commits touch
    the same files again and again."""

    def counts(self, path: str) -> bool:
        known: dict[str, bool] = self.__dict__.setdefault("known", {})
        found = known.get(path)
        if found is None:
            found = known[path] = Config.counts(self, path)
        return found


_BLOB_MODES = ("100644", "100755", "120000")  # a file or a link: a blob at the path


def _configs(
    commits: list[gitquery.Commit],
    listed: list[list[ledgerdiff.Entry]],
    known: dict[str, str | None],
) -> dict[str, str | None]:
    """Each commit's config blob id as git's listing of its paths against its first parent
    tells it (``listed``: one a parent, in ``commits``' order; a root's against the empty
    tree): the blob the listing puts at the config's path, else its first parent's (from
    ``known`` outside the range); None where no blob is there (or a submodule, which the
    listing leaves out: such a commit is asked of git)."""
    changed: dict[str, str | None] = {}  # commit -> what the listing puts at the path
    parent: dict[str, str] = {}  # commit -> its first parent, where the listing tells none
    at = 0
    for c in commits:
        change = None
        for e in listed[at]:
            if e.path == CONFIG_PATH:
                change = e
                break
        if change is not None or not c.parents:  # a root's listing holds every path
            changed[c.sha] = (
                change.new or None if change and change.new_mode in _BLOB_MODES else None
            )
        else:
            parent[c.sha] = c.parents[0]
        at += len(c.parents) or 1
    found: dict[str, str | None] = {}
    for c in commits:
        chain, sha = [], c.sha  # back along first parents to one whose config is told
        while sha not in found:
            if sha in changed:
                found[sha] = changed[sha]
            elif parent[sha] not in changed and parent[sha] not in parent:  # outside the range
                found[sha] = known.get(parent[sha])
            else:
                chain.append(sha)
                sha = parent[sha]
        for sha in reversed(chain):  # each after its parent
            found[sha] = found[parent[sha]]
    return found


def _places(repo: git.Repo, shas: list[str], edge: set[str]) -> list[tuple[str, str] | None]:
    """What each of ``shas`` holds at each path of ``_AT`` (three a commit, in order). The
    ledger's two paths are asked only of ``edge`` (whose ledger is read) and of a commit
    whose config is not there, None elsewhere: a commit with its config is set up whatever
    its ledger, and git walks a commit's trees anew for each path (a third of the time
    each). One ``cat-file`` asks the configs and the edge's ledger; one more only when a
    config is missing."""
    ids = gitquery.object_ids
    found = iter(ids(repo, [f"{sha}:{path}" for sha in shas for path in _asked(sha in edge)]))
    places: dict[str, list[tuple[str, str] | None]] = {}
    for sha in shas:
        places[sha] = [next(found) for _ in _asked(sha in edge)]
        places[sha] += [None] * (len(_AT) - len(places[sha]))
    missing = [sha for sha in shas if sha not in edge and places[sha][0] is None]
    more = iter(ids(repo, [f"{sha}:{path}" for sha in missing for path in _AT[1:]]))
    for sha in missing:
        places[sha][1:] = [next(more), next(more)]
    return [place for sha in shas for place in places[sha]]


def _asked(edge: bool) -> tuple[str, ...]:
    """The paths of ``_AT`` asked first: all three of the edge, the config of the others."""
    return _AT if edge else _AT[:1]


def _blob(found: tuple[str, str] | None) -> str | None:
    return found[0] if found and found[1] == "blob" else None


class Kept:
    """Whether an event line still exists: in the tip's ledger files, the work tree's (each
    session's segments too) or this clone's journal. A removed line found here was restored
    (or will be, by the next commit). The work tree and the journal are read at the first
    line the tip does not hold."""

    def __init__(self, ws: Workspace, history: History, tip: str) -> None:
        self.ws, self.history, self.tip = ws, history, tip
        self.local: set[str] | None = None

    def __contains__(self, line: object) -> bool:
        if not isinstance(line, str):
            return False
        if self.history.has(self.tip, line):
            return True
        if self.local is None:
            self.local = set()
            for rel in self.ws.all_ledger_files():
                self.local.update(eventlog.event_lines(self.ws.file_text(rel)))
            for name in journal.names(self.ws.repo):
                self.local.update(eventlog.event_lines(journal.read(self.ws.repo, name)))
        return line in self.local


def shallow(ws: Workspace) -> set[str]:
    try:
        text = ws.repo.git_path("shallow").read_text(encoding="ascii")
    except OSError:
        return set()
    return set(text.split())
