"""What the report reads from git: the ledger files at branch heads, the commit that added
each costly event, what a commit added per file, and the checkpoint tags.

Every read goes through the git gateway's typed queries (``gitquery.log``, ``gitquery.refs``,
``git.read_objects``, ``staged.commits_added``): this module starts no process itself. The
costs stay flat in the ledger's length: one ``cat-file --batch`` for all the branch heads'
ledgers, one ``log`` of the commits that changed a ledger file, a ``cat-file`` a round of
candidate commits (at most ``CANDIDATES``), one ``diff-tree --stdin`` for every commit
re-estimated per file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from tg_git.domain import eventlog
from tg_git.domain.gitobjects import TreeEntry
from tg_git.domain.layout import (
    CONFIG_DIR,
    LEDGER_DIR,
    LEDGER_PATH,
    is_ledger_file,
    ledger_file,
    segment_number,
)
from tg_git.repo import git, gitquery
from tg_git.repo.checkpoints import listing
from tg_git.repo.ledger import segment_paths
from tg_git.repo.staged import commits_added, count_all
from tg_git.repo.workspace import Workspace

CANDIDATES = 8  # commits near an event's time checked for it
MAX_BRANCHES = 50  # most recently committed branches compared


# ---- ledgers at revisions -------------------------------------------------------------------
def ledger_blobs(repo: git.Repo, revs: Sequence[str]) -> dict[str, list[bytes] | None]:
    """The ledger files at each revision: the single ``.tg-git/ledger.toml`` and the
    per-session files under ``.tg-git/ledger/`` and their later segments (both layouts are
    read; a link or a folder there is no ledger file); None where there is neither. Two
    ``git cat-file`` processes for all revisions, two more where sessions have segments."""
    # The trailing slash names only a folder: a file at that path reads as missing.
    specs = [f"{rev}:{path}" for rev in revs for path in (LEDGER_PATH, f"{LEDGER_DIR}/")]
    found = git.read_objects(repo, specs) if specs else []
    wanted: list[str] = []
    layout: dict[str, tuple[bytes | None, list[str]]] = {}
    folders: dict[str, list[tuple[str, str]]] = {}  # rev -> its sessions' folders: (path, tree)
    for n, rev in enumerate(revs):
        file, folder = found[2 * n], found[2 * n + 1]
        entries = _entries(folder)
        blobs = [e.id for e in entries if e.mode.startswith("100") and _in_folder(e.path)]
        wanted += blobs
        layout[rev] = (file.data if file else None, blobs)
        folders[rev] = [(f"{LEDGER_DIR}/{e.path}", e.id) for e in entries if e.kind == "tree"]
    for rev, segments in _segment_blobs(repo, folders).items():
        layout[rev][1].extend(segments)
        wanted += segments
    contents = dict(zip(wanted, git.read_objects(repo, wanted))) if wanted else {}
    result: dict[str, list[bytes] | None] = {}
    for rev, (single, blobs) in layout.items():
        parts = [single] if single is not None else []
        for oid in blobs:
            obj = contents.get(oid)
            if obj is not None:
                parts.append(obj.data)
        result[rev] = parts if parts else None
    return result


def _entries(tree: git.Object | None) -> list[TreeEntry]:
    try:
        return tree.entries() if tree is not None else []
    except ValueError:
        return []  # a truncated tree: nothing to read there


def _segment_blobs(
    repo: git.Repo, folders: dict[str, list[tuple[str, str]]]
) -> dict[str, list[str]]:
    """The blobs of the segments in each revision's session ``folders`` (two folder levels
    down, ``layout.segment_file``), in order; a link or a name of another shape is none.
    One ``cat-file`` a level for every revision, each tree read once."""
    found: dict[str, list[str]] = {rev: [] for rev in folders}
    level = folders
    for deepest in (False, True):
        ids = list(dict.fromkeys(tree for trees in level.values() for _, tree in trees))
        if not ids:
            break
        trees = dict(zip(ids, git.read_objects(repo, ids)))
        below: dict[str, list[tuple[str, str]]] = {}
        for rev, held in level.items():
            below[rev] = []
            for path, tree in held:
                for e in _entries(trees.get(tree)):
                    name = f"{path}/{e.path}"
                    if not deepest and e.kind == "tree":
                        below[rev].append((name, e.id))
                    elif deepest and e.mode.startswith("100") and segment_number(name):
                        found[rev].append(e.id)
        level = below
    return found


def _in_folder(name: str) -> bool:
    return is_ledger_file(f"{LEDGER_DIR}/{name}")


def parse_ledgers(parts: Iterable[bytes], where: str) -> dict[str, eventlog.Event]:
    text = "\n".join(p.decode("utf-8", "replace") for p in parts)
    return eventlog.parse(text, where)


def branch_heads(repo: git.Repo) -> tuple[list[tuple[str, str]], str]:
    """The most recently committed branches (name, commit id), and the one checked out
    (``""`` when HEAD is detached)."""
    heads = gitquery.refs(repo, ["refs/heads"], sort="-committerdate", count=MAX_BRANCHES)
    named = [(r.name.removeprefix("refs/heads/"), r.id) for r in heads]
    return named, gitquery.current_branch(repo) or ""


# ---- the commits behind events --------------------------------------------------------------
def _epoch(at: str) -> int | None:
    try:
        stamp = datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return None
    return int(stamp.replace(tzinfo=timezone.utc).timestamp())


def _ledger_commits(repo: git.Repo, since: int) -> list[gitquery.Commit]:
    """Commits since ``since`` (newest first) that changed a ledger file: only those can have
    added an event."""
    if git.head(repo) is None:
        return []
    paths = (LEDGER_PATH, LEDGER_DIR)
    return gitquery.log(repo, ["HEAD"], paths, since=since, limit=20000, no_merges=True)


def subject(commit: gitquery.Commit) -> str:
    """A commit's subject as ``git log --format=%s`` gives it: its first paragraph, one line."""
    return " ".join(commit.message.strip("\n").split("\n\n", 1)[0].split("\n")).strip()


def find_commits(
    ws: Workspace, wanted: Mapping[str, tuple[str, str]]
) -> dict[str, gitquery.Commit]:
    """The git commit that added each ledger event (key -> its ``at`` and session): the oldest
    commit that changed the ledger in the minutes after the event and holds it (the hook
    writes the event just before git makes the commit). Candidates are read in rounds, each
    key's likeliest first, and of each only the event's own session file (and a 0.1 single
    ledger), so most keys cost one session file's blob. Events not found (a rebased commit, a
    merge resolution) are left out."""
    times = {key: (t, sid) for key, (at, sid) in wanted.items() if (t := _epoch(at)) is not None}
    if not times:
        return {}
    commits = _ledger_commits(ws.repo, min(t for t, _ in times.values()) - 60)
    order = {c.sha: n for n, c in enumerate(commits)}  # newest first
    queue: dict[str, list[gitquery.Commit]] = {}
    for key, (t, _sid) in times.items():
        near = [c for c in commits if t - 5 <= c.time <= t + 900]
        near.sort(key=lambda c: (c.time, -order[c.sha]))  # oldest first
        queue[key] = near[:CANDIDATES]
    found: dict[str, gitquery.Commit] = {}
    homes = _segment_homes(ws, times)
    for round_ in range(CANDIDATES):
        trying = {key: near[round_] for key, near in queue.items() if len(near) > round_}
        if not trying:
            break
        specs = list(
            dict.fromkeys(
                f"{c.sha}:{path}"
                for key, c in trying.items()
                for path in (homes.get(key) or ledger_file(times[key][1]), LEDGER_PATH)
            )
        )
        blobs = dict(zip(specs, git.read_objects(ws.repo, specs)))
        for key, c in trying.items():
            needle = f"{key} = {{".encode()
            paths = (homes.get(key) or ledger_file(times[key][1]), LEDGER_PATH)
            if any((obj := blobs[f"{c.sha}:{p}"]) and needle in obj.data for p in paths):
                found[key] = c
                del queue[key]
    return found


def _segment_homes(ws: Workspace, times: Mapping[str, tuple[int, str]]) -> dict[str, str]:
    """The later segment each event (key -> its time and session) sits in, in the work tree,
    where it is in one: a segment's lines never move, so the commit that added the event
    holds it there too (one segment's blob read a candidate, not the whole session)."""
    homes: dict[str, str] = {}
    for sid in {sid for _, sid in times.values()}:
        for path in segment_paths(ws.repo.root, ledger_file(sid))[1:]:
            for line in eventlog.event_lines(ws.file_text(path)):
                if (key := eventlog.key_of(line)) in times:
                    homes[key] = path
    return homes


def files_of(ws: Workspace, commits: Iterable[gitquery.Commit]) -> dict[str, list[tuple[str, int]]]:
    """What each commit adds (by id), re-estimated per file (the ledger's own folder left
    out: a diff of a large ledger would cost more than the rest): one ``diff-tree`` for all."""
    unique = {c.sha: c.parents[0] if c.parents else None for c in commits}
    added = commits_added(ws.repo, list(unique.items()), exclude=(CONFIG_DIR,))
    return {
        sha: [(c.path, c.tokens) for c in count_all(a, ws.config) if c.counted and not c.binary]
        for sha, a in zip(unique, added)
    }


# ---- checkpoints ------------------------------------------------------------------------------
def checkpoints(ws: Workspace, session_ids: Iterable[str]) -> list[dict[str, Any]]:
    """Checkpoint tags oldest first, each with its session (named in the tag) and level."""
    ids = list(session_ids)
    rows = []
    for row in reversed(listing(ws)):
        tag = str(row.get("tag", ""))
        sid = next((s for s in ids if f"-{s}-" in tag), "")
        used = row.get("used")
        stamp = row.get("timestamp")
        rows.append(
            {
                "tag": tag,
                "commit": str(row.get("commit", "")),
                "timestamp": stamp if isinstance(stamp, str) else "",
                "used": used if type(used) is int else None,
                "session": sid,
                "level": tag.split(f"-{sid}-", 1)[1] if sid else tag.rsplit("-", 1)[-1],
            }
        )
    return rows
