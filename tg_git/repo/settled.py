"""A long session's commit without reading the whole session: its settled files replayed once.

A session's files (``layout.segment_file``) are *settled* when the session has a later one:
tg-git never writes them again, so HEAD's blob ids of them key a replay of their events
(``memo.Base``), and a commit reads, decides and writes only the session's last file, the
journal since the base was made, and the pending file; its cost is the same at 100 or
100,000 events. Anything that could make the settled files' events differ from the base's
takes the full read instead: a settled file staged or changed in a commit the hook reads
(ORIG_HEAD, HEAD@{1}, HEAD^2), a merge or pick under way, the journal rewritten, another
line of work's journal grown, an event older than the base's newest.
"""

from __future__ import annotations

from tg_git.domain import eventlog, gitobjects, layout
from tg_git.domain.typed import NamedTuple
from tg_git.repo import git, ledger, reflogs

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from tg_git.domain.decide import FileCount
    from tg_git.repo.memo import Base, State


def _high(path: str) -> str:
    return path.rsplit("/", 2)[-2]


def specs(rel: str, files: Sequence[str], revs: Sequence[str], landed: Sequence[str]) -> list[str]:
    """What ``fast_view`` needs beyond the hook's own reads (``files``: the session's files in
    the work tree; ``revs``: every commit the hook reads; ``landed``: those whose events
    landed, ORIG_HEAD, HEAD@{1}, HEAD^2): HEAD's folders of the session, the last two
    files' folders in the landed commits, the last file everywhere."""
    if len(files) < 2:
        return []
    folder = rel.removesuffix(".toml")
    last, before = files[-1], files[-2]
    highs = sorted({_high(p) for p in files[1:]})
    near = sorted({_high(p) for p in (last, before) if p != rel})
    return [
        *(f"HEAD:{folder}/{h}" for h in highs),
        *(f"{rev}:{folder}/{h}" for rev in landed for h in near),
        *(f"{rev}:{before}" for rev in ["HEAD", *landed]),
        *(f"{rev}:{last}" for rev in [*revs, ""]),
    ]


STALE = "stale"


class Fast(NamedTuple):
    """The fast view of a commit: the session's last file, its settled files' base, and the
    journal as the hook reads it (the base's lines of the last file and all that came after)."""

    last: str
    settled: list[tuple[str, str]]  # the settled files and HEAD's blob ids of them
    base: Base
    journal: str
    away: str

    def staged(self, counts: Sequence[FileCount]) -> bool:
        """Whether the commit stages a settled file (then they must all be read)."""
        paths = {path for path, _ in self.settled}
        return any(c.path in paths for c in counts)


def _ids(
    found: dict[str, git.Object | None], rev: str, rel: str, highs: Sequence[str]
) -> dict[str, str] | None:
    """The session's file and the files ``rev`` holds in its folders ``highs`` (path -> blob
    id; the callers compare the paths with the work tree's segments, whose names are
    checked); None when a folder of ``highs`` cannot be read or holds a folder."""
    folder = rel.removesuffix(".toml")
    ids = {}
    top = found.get(f"{rev}:{rel}")
    if top is not None:
        ids[rel] = top.id
    for high in highs:
        tree = found.get(f"{rev}:{folder}/{high}")
        if tree is None:
            continue
        try:
            entries = tree.entries()
        except ValueError:
            return None
        for entry in entries:
            if entry.kind != "blob":
                return None
            ids[f"{folder}/{high}/{entry.path}"] = entry.id
    return ids


def _folders(obj: git.Object | None) -> dict[str, str] | None:
    if obj is None:
        return {}
    try:
        return {e.path: e.id for e in obj.entries()}
    except ValueError:
        return None


def _lines_within(found: dict[str, git.Object | None], older: str, newer: str) -> bool:
    """Whether every line of the blob ``older`` names is in the one ``newer`` names."""

    old, new = found.get(older), found.get(newer)
    if old is None or new is None:
        return old is None
    have = set(eventlog.event_lines(new.data.decode("utf-8", "replace")))
    return all(ln in have for ln in eventlog.event_lines(old.data.decode("utf-8", "replace")))


def in_head(
    found: dict[str, git.Object | None], rel: str, files: Sequence[str]
) -> dict[str, str] | None:
    """HEAD's blob ids of a session's files (from ``specs``), when HEAD holds exactly the
    files the work tree does (``files``); else None."""
    folder = rel.removesuffix(".toml")
    heads = _folders(found.get(f"HEAD:{folder}"))
    highs = sorted({_high(p) for p in files[1:]})
    if heads is None or sorted(heads) != highs or found.get(f"HEAD:{rel}") is None:
        return None  # HEAD's folders are not the work tree's
    head_ids = _ids(found, "HEAD", rel, highs)
    if head_ids is None or set(head_ids) != set(files):
        return None  # HEAD's files are not the work tree's
    return head_ids


def fast_view(
    repo: git.Repo,
    rel: str,
    files: Sequence[str],
    found: dict[str, git.Object | None],
    landed: Sequence[str],
    measured: bool,
) -> Fast | str | None:
    """The fast view when nothing could make the settled files' events differ from their
    base's, else None (the hook then reads every file), or ``STALE`` when the base fits but
    the journal since it holds lines the last file lacks (a read makes the base again)."""
    from tg_git.repo import journal, memo  # lazy: 2.8 ms

    if len(files) < 2 or any(found.get(r) for r in ("MERGE_HEAD", "CHERRY_PICK_HEAD")):
        return None
    folder = rel.removesuffix(".toml")
    last, before = files[-1], files[-2]
    heads = _folders(found.get(f"HEAD:{folder}"))
    head_ids = in_head(found, rel, files)
    if heads is None or head_ids is None:
        return None
    settled = list(files[:-1])
    near = sorted({_high(p) for p in (last, before) if p != rel})
    for rev in dict.fromkeys(landed):
        theirs = _folders(found.get(f"{rev}:{folder}"))
        if theirs is None:
            return None
        if any(heads.get(h) != tree for h, tree in theirs.items() if h not in near):
            return None  # a settled folder differs (an older one's missing ones are fine)
        held = _ids(found, rev, rel, near)
        if held is None:
            return None
        for path, blob in held.items():
            if path not in head_ids:
                return None  # a file HEAD lacks (a reset took it away): read it all
            if blob == head_ids[path] or path == last:
                continue
            if path != before or not _lines_within(found, f"{rev}:{path}", f"HEAD:{path}"):
                return None
    ids = [(p, head_ids[p]) for p in settled]
    key = memo.base_key(rel, ids, measured)
    base = memo.load_base(repo, key)
    if base is None or journal.elsewhere_sizes(repo, rel) != base.elsewhere:
        return None
    tail = journal.read_after(repo, rel, base.journal)
    live = _live(found, rel, last, landed)
    live.update(eventlog.event_lines(eventlog.decode(ledger.held_bytes(repo, rel))))
    if tail is None or not live.issuperset(eventlog.event_lines(tail)):
        # Journaled since the base and in none of the last file's versions: lines a full
        # read journaled (a fresh clone's first read), or lost twice over: read it all.
        return STALE
    known = "".join(f"{ln}\n" for ln in base.journaled) + tail
    return Fast(last, ids, base, known, "\n".join(base.away))


def _live(
    found: dict[str, git.Object | None], rel: str, last: str, landed: Sequence[str]
) -> set[str]:
    """Every line of the last file and the pending file in the versions ``found`` holds."""

    pending = layout.pending_file(rel)
    specs = [f"{r}:{last}" for r in ("HEAD", "", *landed)] + [f":{pending}", f"HEAD:{pending}"]
    lines: set[str] = set()
    for spec in specs:
        obj = found.get(spec)
        if obj is not None:
            lines.update(eventlog.event_lines(obj.data.decode("utf-8", "replace")))
    return lines


def recent(repo: git.Repo, found: dict[str, git.Object | None], landed: list[str]) -> list[str]:
    """``landed`` (ORIG_HEAD, HEAD@{1}, HEAD^2) without ORIG_HEAD when it is another branch's:
    only a reset or rebase of this branch makes its events this line of work's."""
    orig = found.get("ORIG_HEAD")
    return landed if orig and orig.id in reflogs.recent_tips(repo) else landed[1:]


def view(
    repo: git.Repo, rel: str, files: Sequence[str], measured: bool
) -> tuple[Fast | str | None, dict[str, git.Object | None], list[str]]:
    """The fast view of a session as the work tree and HEAD hold it (one ``cat-file``), for
    a reader outside a commit; with what it read and the landed commits it considered."""

    previous = reflogs.previous_head(repo) or "HEAD"
    revs = ["HEAD", "ORIG_HEAD", previous, "MERGE_HEAD", "CHERRY_PICK_HEAD", "HEAD^2"]
    landed = ["ORIG_HEAD", previous, "HEAD^2"]
    folder = rel.removesuffix(".toml")
    pending = layout.pending_file(rel)
    wanted = [
        *revs,
        *(f"{r}:{rel}" for r in revs),
        *(f"{r}:{folder}" for r in revs),
        f":{pending}",
        f"HEAD:{pending}",
        *specs(rel, files, revs, landed),
    ]
    found = dict(zip(wanted, git.read_objects(repo, wanted)))
    landed = recent(repo, found, landed)
    return fast_view(repo, rel, files, found, landed, measured), found, landed


def read(
    repo: git.Repo,
    rel: str,
    view: tuple[Fast, dict[str, git.Object | None], list[str]],
    sources: tuple[bytes | None, ...],
    fingerprint: Callable[[], str],
) -> State | None:
    """A long session read outside a commit (an agent turn, status) from its settled files'
    base and its last file's sources (``Workspace._sources`` of the fast view: the journal
    since the base, ..., the pending file, the last file); None when an event is older than
    the base's newest (replay sorts by time: read every file instead). ``fingerprint``: the
    memo key of ``sources``, asked for only when the read changed nothing."""
    from tg_git.domain import eventlog, layout, replay  # lazy: 0.7 ms
    from tg_git.repo import journal, memo  # lazy: 2.8 ms

    fast, found, landed = view
    session_id = fast.base.session.id
    texts = [
        o.data.decode("utf-8", "replace")
        for r in ["HEAD", *landed]
        if (o := found.get(f"{r}:{fast.last}")) is not None
    ]
    known = (sources[0] or b"").decode("utf-8", "replace")
    committed = eventlog.union(known, *texts, fast.away)
    added = journal.record(repo, rel, eventlog.union(*texts), known)
    pending = eventlog.decode(sources[4], layout.pending_file(rel))
    worktree = eventlog.decode(sources[5], fast.last)
    every = "\n".join(eventlog.union(known, *texts, worktree, pending, fast.away))
    _lines, events, dropped = eventlog.clean_events(every)
    landed_keys = {eventlog.key_of(ln) for ln in committed}
    mine = {
        k: e
        for k, e in events.items()
        if (e.get("kind") != "commit" or k in landed_keys) and e.get("session") == session_id
    }
    if replay.may_be_settled(mine.items(), fast.base.newest, fast.base.at_newest):
        return None
    usage = {k for k, e in mine.items() if e.get("kind") == "usage"}
    newest = max([fast.base.newest, *(str(e.get("at", "")) for e in mine.values())])
    return memo.State(
        replay.resumed(fast.base.session, mine),
        frozenset(fast.base.usage_keys) | usage,
        newest,
        "" if added or dropped else fingerprint(),
    )


def settle(
    repo: git.Repo,
    rel: str,
    files: Sequence[str],
    found: dict[str, git.Object | None],
    measured: bool,
    read: Callable[[str], str | None],
    again: bool = False,
) -> bool:
    """Keep the base of a long session's settled files when none fits (no commit made one:
    a fresh clone, a session grown by hand), from the work tree's files (``read``) when they
    are exactly HEAD's and hold every journaled event; returns whether it did. Once: reads
    after it take the fast view. ``again``: make it anew (``STALE``)."""
    from tg_git.repo import journal, memo  # lazy: 2.8 ms

    ids = in_head(found, rel, files)
    if ids is None:
        return False
    held = [(p, ids[p]) for p in files[:-1]]
    if not again and memo.load_base(repo, memo.base_key(rel, held, measured)) is not None:
        return False  # there is one: something else keeps the fast view off
    texts = [read(p) or "" for p in files]
    if any(gitobjects.hash_text(t, repo.object_format) != ids[p] for p, t in zip(files, texts)):
        return False
    pending = read(layout.pending_file(rel))
    waiting = eventlog.decode(ledger.held_bytes(repo, rel))
    keys = {
        eventlog.key_of(ln) for t in [*texts, pending, waiting] for ln in eventlog.event_lines(t)
    }
    known = journal.read(repo, rel)
    if any(eventlog.key_of(ln) not in keys for ln in eventlog.event_lines(known)):
        return False  # journaled events the files lack: the next commit restores them first
    away = eventlog.event_lines(journal.read_elsewhere(repo, rel))
    away = [ln for ln in away if eventlog.key_of(ln) not in keys]
    remember(repo, rel, held, texts[:-1], texts[-1], known, away, measured)
    return True


def remember(
    repo: git.Repo,
    rel: str,
    settled: list[tuple[str, str]],
    fresh: list[str],
    last: str,
    known: str,
    away: list[str],
    measured: bool,
    base: Base | None = None,
) -> None:
    """Keep the base of the files a commit leaves settled (``settled``: their paths and blob
    ids as the commit will hold them, in order): ``base`` plus the ``fresh`` texts (the files
    newly settled, a fast commit that started a segment), or with no base all settled texts
    replayed (a full read). ``last``: the session's last file's text; ``known``: the journal
    as the commit read it; ``away``: the session's lines on other lines of work, not here."""
    from tg_git.domain import eventlog, replay  # lazy: 0.8 ms
    from tg_git.repo import journal, memo  # lazy: 2.8 ms

    events = eventlog.parse("\n".join(ln for text in fresh for ln in eventlog.event_lines(text)))
    if base is None:
        session = replay.replay(events, use_measured=measured)
        newest_before, at_before = "", []
    elif replay.may_be_settled(events.items(), base.newest, base.at_newest):
        return  # out of order, or a line the base holds: the next commit reads in full
    else:
        session = replay.resumed(base.session, events)
        newest_before, at_before = base.newest, base.at_newest
    if session is None:
        return
    mine = {k: str(e.get("at", "")) for k, e in events.items() if e.get("session") == session.id}
    newest = max([newest_before, *mine.values()])
    at_newest = replay.keys_at_newest(
        [
            *(at_before if newest == newest_before else ()),
            *(k for k, at in mine.items() if at == newest),
        ]
    )
    usage = sorted(
        {
            *(base.usage_keys if base else ()),
            *(k for k, e in events.items() if e.get("kind") == "usage"),
        }
    )
    last_lines = eventlog.event_lines(last)
    gone = set(journal.missing(last_lines, known))
    memo.store_base(
        repo,
        memo.Base(
            memo.base_key(rel, settled, measured),
            session.copy(outputs=[]),
            newest,
            journal.mark(repo, rel),
            [ln for ln in last_lines if ln not in gone],
            away,
            journal.elsewhere_sizes(repo, rel),
            usage,
            at_newest,
        ),
    )
