"""Typed queries over the git gateway: what tg-git asks git, each answer parsed here once.

Every query starts at most one git process through ``git.run`` (the same one the raw call it
replaced started: the hook paths count their processes), asks for ``-z`` output where git
offers it, and decodes paths with ``surrogateescape``, so that a name that is not UTF-8 goes
back to git unchanged. Object ids come back as git prints them: 40 hex digits in a SHA-1
repository, 64 in a SHA-256 one. What is in progress is read from the git dir, no process.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from tg_git.domain import errors
from tg_git.domain.gitobjects import TreeEntry as TreeEntry  # re-exported: ls_tree's type
from tg_git.domain.typed import NamedTuple
from tg_git.repo.git import Object, Repo, read_objects, run, spawn
from tg_git.repo.ledger import STAGE_TRIES as STAGE_TRIES  # where the commit hook stages
from tg_git.repo.ledger import on_index as on_index
from tg_git.repo.ledger import stage as stage

TYPE_CHECKING = False  # the hooks' paths are strings: ``pathlib`` costs a commit ~5 ms
if TYPE_CHECKING:
    from pathlib import Path

# %B cannot hold a NUL (git cuts a message there), so NULs split a record's fields as well.
_LOG_FORMAT = "--format=%H%x00%P%x00%ct%x00%B"


def _path(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _items(out: bytes) -> list[bytes]:
    """``-z`` output's items (the last one's terminator leaves an empty tail)."""
    return [item for item in out.split(b"\0") if item]


class Commit(NamedTuple):
    """One commit as ``log`` reads it."""

    sha: str
    parents: tuple[str, ...]
    time: int  # committer time, seconds since the epoch
    message: str  # the whole message, as written (bytes that are not UTF-8 replaced)

    @property
    def subject(self) -> str:
        return self.message.splitlines()[0] if self.message else ""


def log(
    repo: Repo,
    revs: Sequence[str],
    paths: Sequence[str] = (),
    *,
    limit: int | None = None,
    reverse: bool = False,
    since: int | None = None,
    no_merges: bool = False,
    grep: str | None = None,
    fixed: bool = False,
    check: bool = True,
) -> list[Commit]:
    """``git log REVS -- PATHS``: the commits, newest first (``reverse``: oldest first), each
    with its parents, committer time and message. ``since`` is seconds since the epoch;
    ``grep`` a pattern the message must match (``fixed``: a plain string)."""
    args = ["log", "-z", _LOG_FORMAT]
    if limit is not None:
        args.append(f"--max-count={limit}")
    if since is not None:
        args.append(f"--since=@{since}")
    if grep is not None:
        args += [f"--grep={grep}", *(["--fixed-strings"] if fixed else [])]
    args += ["--no-merges"] * no_merges + ["--reverse"] * reverse
    fields = repo.git(*args, *revs, "--", *paths, check=check).split(b"\0")
    commits = []
    for n in range(0, len(fields) - 3, 4):
        sha, parents, time, message = fields[n : n + 4]
        commits.append(
            Commit(
                sha.decode("ascii"),
                tuple(parents.decode("ascii").split()),
                int(time),
                message.decode("utf-8", "replace"),
            )
        )
    return commits


class Entry(NamedTuple):
    """One path a pair changed, as ``diff-tree --raw`` lists it (``ledgerdiff.raw``)."""

    old_mode: str
    new_mode: str
    old: str  # blob ids ("" where the path is absent)
    new: str
    status: str
    path: str


# A range's commits and what each changed, in one ``git log --raw`` (as ``log`` reads the
# commits, and ``ledgerdiff.raw`` each pair's paths): one git process and one walk of the commits less
# than ``log`` then ``diff-tree``. A porcelain command, so every setting that would change what
# it lists is overridden (each path in full, as found, in git's order; no signature, no colour).
# Newest first, turned here: git's ``--reverse`` diffs the trees oldest first, against the
# order its packs store them in (~25 % more of git's time at 10,000 commits).
_LOGGED = (
    "log", "-z", "--raw", "-r", "--root", "--no-renames", "--no-abbrev", "--ignore-submodules=all",
    "--no-show-signature", "--no-color", "-O/dev/null", _LOG_FORMAT,
)  # fmt: skip


def log_listed(repo: Repo, revs: Sequence[str]) -> tuple[list[Commit], list[list[Entry] | None]]:
    """``log(repo, revs, reverse=True)``, and each pair's changed paths as ``ledgerdiff.raw``
    lists them (a pair a parent, a root's against the empty tree), None for a merge's pairs
    (``log`` lists none: ``ledgerdiff.read`` asks ``diff-tree``). Each record is the commit's four
    fields, then, when it changed a path, a line end and two items a path: ``:MODES IDS
    STATUS`` and the path (no field or path is a NUL; no id starts with ``:`` or a line end)."""
    out = repo.git(*_LOGGED, *revs, "--", env={**os.environ, "GIT_FLUSH": "0"})  # buffered
    items = out.decode("utf-8", "surrogateescape").split("\0")
    commits: list[Commit] = []
    listing: list[list[list[Entry] | None]] = []  # each commit's, newest first
    n, last = 0, len(items) - 1  # the last item: what follows the last NUL (nothing)
    while n < last:
        if n + 4 > last:
            raise errors.GitError.from_key("git_odd_output", command="log --raw")
        sha, parents, time, message = items[n : n + 4]
        n += 4
        if not message.isascii():  # as ``gitquery.log`` decodes it: what is not UTF-8 replaced
            message = message.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        commit = Commit(sha, tuple(parents.split()), int(time), message)
        commits.append(commit)
        entries: list[Entry] = []
        if n < last and items[n][:2] == "\n:":
            items[n] = items[n][1:]
            while n < last and items[n][:1] == ":":
                if n + 1 >= last:
                    raise errors.GitError.from_key("git_odd_output", command="log --raw")
                m = items[n][1:].split()
                old, new = m[2], m[3]  # all 0: none
                old = old if old.strip("0") else ""
                new = new if new.strip("0") else ""
                entries.append(Entry(m[0], m[1], old, new, m[4][:1], items[n + 1]))
                n += 2
        if len(commit.parents) > 1:  # a merge's are asked pair by pair
            listing.append([None] * len(commit.parents))
        else:
            listing.append([entries])
    if items[last] or not all(len(c.sha) in (40, 64) and c.sha.isalnum() for c in commits):
        raise errors.GitError.from_key("git_odd_output", command="log --raw")
    commits.reverse()
    return commits, [pair for pairs in reversed(listing) for pair in pairs]


def ls_tree(
    repo: Repo, rev: str, paths: Sequence[str] = (), *, recursive: bool = False, check: bool = True
) -> list[TreeEntry]:
    """``git ls-tree`` of ``rev`` (paths from the top of the tree, whatever the directory):
    the entries of its top level, or every blob and submodule below it (``recursive``)."""
    args = ["ls-tree", "-z", "--full-tree", *(["-r"] if recursive else []), rev, "--", *paths]
    entries = []
    for item in _items(repo.git(*args, check=check)):
        meta, _, path = item.partition(b"\t")
        mode, kind, oid = meta.decode("ascii").split()
        entries.append(TreeEntry(mode, kind, oid, _path(path)))
    return entries


_PARSED: dict[str, list[TreeEntry]] = {}  # tree id -> entries: history shares most trees


def _entries(obj: Object) -> list[TreeEntry]:
    if obj.kind == "tree" and obj.id in _PARSED:
        return _PARSED[obj.id]
    try:
        entries = obj.entries()
    except ValueError:
        return []  # a truncated tree (a damaged repository): nothing to read there
    if obj.kind == "tree":
        _PARSED[obj.id] = entries
    return entries


def files_at(
    repo: Repo,
    revs: Sequence[str],
    paths: Sequence[str],
    env: Mapping[str, str] | None = None,
    depth: int = 0,
) -> list[dict[str, Object]]:
    """What each of ``revs`` holds at ``paths``, path -> blob: a file's blob, or each blob
    inside a folder, as ``folder/name``, down to ``depth`` folders below it (a session's
    segments are two below its folder; ``:`` alone: the index, which has no folders). One
    ``cat-file`` process a level plus one for the blobs, for any number of revisions; an
    object that several revisions share is read once."""
    specs = [f"{rev}:{path}" if rev != ":" else f":{path}" for rev in revs for path in paths]
    found = read_objects(repo, specs, env) if specs else []
    held: list[dict[str, str]] = []
    blobs: dict[str, Object] = {}
    folders: list[list[tuple[str, str]]] = []  # per revision: (path, tree id) to look into
    for n in range(len(revs)):
        ids: dict[str, str] = {}
        trees: list[tuple[str, str]] = []
        for path, obj in zip(paths, found[n * len(paths) : (n + 1) * len(paths)]):
            if obj is None:
                continue
            if obj.kind == "blob":
                ids[path], blobs[obj.id] = obj.id, obj
            _into(obj, path.rstrip("/"), ids, trees if depth > 0 else None)
        held.append(ids)
        folders.append(trees)
    known: dict[str, Object] = {}
    for _level in range(depth):
        wanted = list(dict.fromkeys(i for trees in folders for _, i in trees if i not in known))
        if not wanted:
            break
        known.update((obj.id, obj) for obj in read_objects(repo, wanted, env) if obj)
        deeper = _level + 1 < depth
        for ids, trees in zip(held, folders):
            below: list[tuple[str, str]] = []
            for path, tree in trees:
                if tree in known:
                    _into(known[tree], path, ids, below if deeper else None)
            trees[:] = below
    wanted = list(dict.fromkeys(i for ids in held for i in ids.values() if i not in blobs))
    if wanted:
        blobs.update((obj.id, obj) for obj in read_objects(repo, wanted, env) if obj)
    return [{path: blobs[i] for path, i in ids.items() if i in blobs} for ids in held]


def _into(obj: Object, path: str, ids: dict[str, str], trees: list[tuple[str, str]] | None) -> None:
    """The blobs right inside the folder ``obj`` (at ``path``) into ``ids``; its folders into
    ``trees`` (when given)."""
    for entry in _entries(obj):
        if entry.kind == "blob":
            ids[f"{path}/{entry.path}"] = entry.id
        elif entry.kind == "tree" and trees is not None:
            trees.append((f"{path}/{entry.path}", entry.id))


def rev_parse(
    repo: Repo | None, rev: str, peel: str | None = "commit", env: Mapping[str, str] | None = None
) -> str | None:
    """The object id ``rev`` names (peeled to a ``peel`` object: a commit by default; None to
    take it as it is, e.g. ``HEAD:path``'s blob), or None when it names none. ``repo`` None:
    the repository git finds from here (a hook that has not looked for it yet)."""
    if rev.startswith("-"):
        return None  # an option, not a revision (``--end-of-options`` needs git 2.30)
    spec = f"{rev}^{{{peel}}}" if peel else rev
    where = repo.top if repo is not None else None
    out = run(["rev-parse", "-q", "--verify", spec], where, env=env, check=False)
    return out.decode("ascii", "replace").strip() or None


def object_size(repo: Repo, spec: str) -> int | None:
    """The size in bytes of the object ``spec`` names (read before a large one is), or None."""
    out = repo.git("cat-file", "-s", spec, check=False).strip()
    return int(out) if out.isdigit() else None


def blob(repo: Repo, spec: str, env: Mapping[str, str] | None = None) -> bytes | None:
    """The content of the blob ``spec`` names (``rev:path``, ``:path`` for the index git is
    using or ``env``'s), None when it names no blob."""
    proc = spawn(["cat-file", "blob", spec], cwd=repo.top, env=dict(env) if env else None)
    return proc.stdout if proc.returncode == 0 else None


def object_ids(repo: Repo, specs: Sequence[str]) -> list[tuple[str, str] | None]:
    """The id and type (``blob``, ``tree``, ...) of the object each spec (``rev:path``,
    ``rev^{tree}``; no line break in it) names, None where it names none: one ``cat-file
    --batch-check`` for any number of them, nothing read."""
    if not specs:
        return []
    asked = "".join(f"{spec}\n" for spec in specs).encode("utf-8", "surrogateescape")
    # --buffer: no flush an answer (the input is all there; ``git.spawn`` reads as it writes)
    out = repo.git("cat-file", "--buffer", "--batch-check=%(objectname) %(objecttype)", input=asked)
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) <= len(specs):  # one a spec, then the last one's line end
        raise errors.GitError.from_key("git_odd_output", command="cat-file --batch-check")
    found: list[tuple[str, str] | None] = []
    for line in lines[: len(specs)]:
        oid, _, kind = line.rpartition(" ")  # "SPEC missing" (a spec may hold spaces)
        found.append((oid, kind) if kind in ("blob", "tree", "commit", "tag") else None)
    return found


def object_sizes(repo: Repo, ids: Sequence[str]) -> dict[str, int]:
    """The size in bytes of each object of ``ids`` (object ids) this repository has: one
    ``cat-file --batch-check`` for any number of them, nothing read."""
    asked = "".join(f"{oid}\n" for oid in ids).encode("ascii")
    out = repo.git("cat-file", "--buffer", "--batch-check=%(objectname) %(objectsize)", input=asked)
    found = {}
    for line in out.decode("ascii", "replace").split("\n"):
        oid, _, size = line.partition(" ")
        if size.isdigit():
            found[oid] = int(size)
    return found


def blobs(repo: Repo, ids: Sequence[str]) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """The content of each blob of ``ids`` (object ids) this repository has, as one
    ``cat-file --batch`` output and where in it each one's content is (start, size): no copy
    of each (a range's newest ledger versions are ~30 MB, each page one fault more)."""
    proc = spawn(
        ["cat-file", "--buffer", "--batch"],
        cwd=repo.top,
        input="".join(f"{oid}\n" for oid in ids).encode("ascii"),
    )
    if proc.returncode != 0:
        raise errors.GitError.from_key("git_failed", command="cat-file", reason="--batch")
    out, pos, found = proc.stdout, 0, {}
    for _ in ids:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()  # "ID TYPE SIZE", or "ID missing"
        pos = end + 1
        if len(header) != 3 or not header[2].isdigit():
            continue
        size = int(header[2])
        if header[1] == b"blob":
            found[header[0].decode("ascii")] = (pos, size)
        pos += size + 1
    return out, found


def exists(repo: Repo, spec: str) -> bool:
    """Whether ``spec`` (an object id, a revision, ``rev:path``) names an object here."""
    return repo.status("cat-file", "-e", spec) == 0


def is_ancestor(repo: Repo, ancestor: str, descendant: str = "HEAD") -> bool:
    """Whether ``ancestor`` is ``descendant`` or reachable from it."""
    return repo.status("merge-base", "--is-ancestor", ancestor, descendant) == 0


def independent(repo: Repo, commits: Sequence[str]) -> set[str]:
    """Of ``commits``, those that no other of them reaches (``merge-base --independent``)."""
    return set(repo.git("merge-base", "--independent", *commits).decode("ascii").split())


# What ``in_progress`` reports, and the file in the git dir that tells each.
OPERATIONS = (
    ("merge", "MERGE_HEAD"),
    ("cherry-pick", "CHERRY_PICK_HEAD"),
    ("revert", "REVERT_HEAD"),
    ("rebase", "rebase-merge"),
    ("bisect", "BISECT_LOG"),
)


def in_progress(repo: Repo) -> tuple[str, ...]:
    """The operations under way in this work tree, as git's own prompt names them: merge,
    cherry-pick, revert, rebase, am, bisect (a conflicted rebase can show two). No process:
    git keeps each one's state in a file of the work tree's git dir."""
    found = [name for name, path in OPERATIONS if os.path.exists(repo.git_file(path))]
    apply = repo.git_file("rebase-apply")
    if os.path.isdir(apply):  # `git am` and the apply backend of `git rebase` share the folder
        found.append("am" if os.path.exists(os.path.join(apply, "applying")) else "rebase")
    return tuple(found)


class IndexEntry(NamedTuple):
    """One index entry (``ls-files -s``); ``stage`` 1-3 while a path is in conflict."""

    mode: str
    id: str
    stage: int
    path: str


def index_entries(
    repo: Repo, paths: Sequence[str] = (), env: Mapping[str, str] | None = None
) -> list[IndexEntry]:
    """The entries of the index git is using (or ``env``'s ``GIT_INDEX_FILE``) at ``paths``
    (pathspecs from the top; all when none)."""
    entries = []
    for item in _items(repo.git("ls-files", "-s", "-z", "--", *paths, env=env)):
        meta, _, path = item.partition(b"\t")
        mode, oid, stage = meta.decode("ascii").split()
        entries.append(IndexEntry(mode, oid, int(stage), _path(path)))
    return entries


def work_files(repo: Repo, folder: str = ".") -> list[str]:
    """Tracked and untracked (not ignored) files under ``folder`` (relative to the top),
    as paths from the top."""
    out = repo.git("ls-files", "-z", "-co", "--exclude-standard", "--full-name", "--", folder)
    return [_path(item) for item in _items(out)]


def staged_paths(repo: Repo, base: str = "HEAD") -> list[str]:
    """Paths whose staged content differs from ``base`` (renames as a delete and an add)."""
    out = repo.git("diff", "--cached", "--name-only", "-z", "--no-renames", base, "--")
    return [_path(item) for item in _items(out)]


class RawChange(NamedTuple):
    """One path a diff changes (``diff --raw``): status letter A, M, T, D, ...; ids in full."""

    status: str
    old_mode: str
    new_mode: str
    old_id: str
    new_id: str
    path: str


def diff_raw(repo: Repo, base: str, head: str, *, diff_filter: str = "") -> list[RawChange]:
    """What changes from ``base`` to ``head`` (trees or commits), path by path, renames as a
    delete and an add; ``diff_filter`` keeps only those status letters (``AMT``)."""
    args = ["diff", "--raw", "-z", "--no-abbrev", "--no-renames"]
    args += [f"--diff-filter={diff_filter}"] * bool(diff_filter)
    items = repo.git(*args, base, head, "--").split(b"\0")
    changes = []
    for meta, path in zip(items[0::2], items[1::2]):
        old_mode, new_mode, old_id, new_id, status = meta.decode("ascii").lstrip(":").split()
        changes.append(RawChange(status, old_mode, new_mode, old_id, new_id, _path(path)))
    return changes


class StatusEntry(NamedTuple):
    """One path ``git status`` names: its two-letter code (`` M``, ``A ``, ``??``, ...)."""

    code: str
    path: str


def status_entries(repo: Repo) -> list[StatusEntry]:
    """Every changed, staged or untracked path of the work tree (renames as a delete and an
    add; untracked folders listed file by file)."""
    out = repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
    return [StatusEntry(_path(i[:2]), _path(i[3:])) for i in _items(out) if len(i) > 3]


def parents(repo: Repo, rev: str = "HEAD") -> list[str]:
    """The parents of the commit ``rev`` names (``rev^@``), none for a root commit."""
    return repo.git("rev-parse", f"{rev}^@").decode("ascii").split()


def is_clean(repo: Repo, paths: Sequence[str]) -> bool:
    """Whether the work tree's ``paths`` are as staged (untracked files do not count)."""
    return repo.status("diff", "--quiet", "--", *paths) == 0


def config_get(repo: Repo, key: str, *, as_bool: bool = False) -> str | None:
    """A config value as git reads it (all scopes; ``as_bool``: "true"/"false"), None when
    unset (or, ``as_bool``, not a boolean)."""
    out = repo.git("config", *(["--bool"] if as_bool else []), "--get", key, check=False)
    return _path(out.rstrip(b"\n")) if out else None


def config_set(repo: Repo, key: str, value: str) -> None:
    """Set ``key`` in the repository's own config (``.git/config``)."""
    repo.git("config", "--local", key, value)


def config_unset(repo: Repo, key: str) -> None:
    """Remove ``key`` from the repository's own config (nothing when it is not set)."""
    repo.git("config", "--local", "--unset", key, check=False)


class Ref(NamedTuple):
    """A ref and the object it names; ``target`` is the commit an annotated tag points at
    (the object itself for any other ref), "" when that is no commit."""

    name: str  # refs/heads/main, refs/tags/v1
    id: str
    target: str

    @property
    def short(self) -> str:
        """The name without its ``refs/heads/``-like prefix."""
        return self.name.split("/", 2)[-1]


def refs(
    repo: Repo,
    patterns: Sequence[str],
    *,
    sort: str | None = None,
    count: int | None = None,
    merged: str | None = None,
) -> list[Ref]:
    """``git for-each-ref PATTERNS``: refs matching (``sort``: a git sort key such as
    ``-committerdate``; ``merged``: only refs whose commit ``merged`` reaches)."""
    args = [
        "for-each-ref",
        "--format=%(refname)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)",
    ]
    args += [f"--sort={sort}"] * bool(sort) + [f"--count={count}"] * (count is not None)
    args += [f"--merged={merged}"] * bool(merged)
    found = []
    for line in repo.git(*args, "--", *patterns, check=False).split(b"\n"):
        fields = line.split(b"\0")
        if len(fields) != 5:
            continue
        name, kind, oid, peeled_kind, peeled = (
            f.decode("utf-8", "surrogateescape") for f in fields
        )
        target = oid if kind == "commit" else peeled if peeled_kind == "commit" else ""
        found.append(Ref(name, oid, target))
    return found


def current_branch(repo: Repo) -> str | None:
    """The branch HEAD names (``symbolic-ref``), None when HEAD is detached (mid-rebase too)."""
    out = repo.git("symbolic-ref", "-q", "--short", "HEAD", check=False)
    return _path(out.strip()) or None


def resolved_git_path(repo: Repo, name: str) -> Path:
    """``git rev-parse --git-path NAME``: where git itself reads NAME, with what can move it
    (``core.hooksPath`` for ``hooks``; ``Repo.git_path`` knows tg-git's own names only)."""
    from pathlib import Path  # lazy: 5.1 ms

    path = Path(_path(repo.git("rev-parse", "--git-path", name).strip()))
    return path if path.is_absolute() else repo.root / path


def remotes(repo: Repo) -> list[str]:
    """The names of the repository's remotes."""
    return _path(repo.git("remote")).split()


# ---- writes -----------------------------------------------------------------------------------
def stage_paths(repo: Repo, paths: Sequence[str]) -> None:
    """``git add`` of ``paths`` (from the top of the work tree)."""
    repo.git("add", "--", *paths)


def unstage(repo: Repo, paths: Sequence[str], *, recursive: bool = False) -> None:
    """Take ``paths`` out of the index, leaving the work tree (nothing for a path not there)."""
    repo.git(
        "rm", *(["-r"] if recursive else []), "-q", "--cached", "--ignore-unmatch", "--", *paths
    )


def stage_blob(
    repo: Repo, path: str, blob: str, *, mode: str = "100644", env: Mapping[str, str] | None = None
) -> None:
    """Stage the existing object ``blob`` at ``path`` (in ``env``'s index when given)."""
    repo.git("update-index", "--add", "--cacheinfo", f"{mode},{blob},{path}", env=env)


def set_index(
    repo: Repo, entries: Sequence[tuple[str, str, str]], env: Mapping[str, str] | None = None
) -> None:
    """Set index entries, (mode, object id, path) each; mode "0" takes the path out."""
    info = "".join(f"{mode} {oid}\t{path}\n" for mode, oid, path in entries)
    repo.git("update-index", "--index-info", input=info.encode("utf-8", "surrogateescape"), env=env)


def refresh_index(repo: Repo, env: Mapping[str, str] | None = None) -> None:
    """Refresh the index's stat data, so that ``git status`` shows no false changes."""
    repo.git("update-index", "-q", "--refresh", env=env, check=False)


def read_tree(repo: Repo, rev: str, env: Mapping[str, str]) -> None:
    """Fill ``env``'s index with ``rev``'s tree."""
    repo.git("read-tree", rev, env=env)


def write_tree(repo: Repo, env: Mapping[str, str] | None = None) -> str:
    """The tree of the index (``env``'s when given), written to the object store."""
    return repo.git("write-tree", env=env).decode("ascii").strip()


def commit_tree(
    repo: Repo, tree: str, parent_ids: Sequence[str], message: str, *, sign: bool = False
) -> str:
    """A commit of ``tree`` with these parents and message (``sign``: ``-S``); its id."""
    args = ["commit-tree", *(["-S"] if sign else []), tree]
    args += [arg for parent in parent_ids for arg in ("-p", parent)]
    return repo.git(*args, input=message.encode("utf-8")).decode("ascii").strip()


def update_ref(repo: Repo, ref: str, new: str, old: str, message: str) -> bool:
    """Move ``ref`` to ``new`` only if it is at ``old`` (all zeros: only if it does not
    exist); whether it moved."""
    return repo.status("update-ref", "-m", message, ref, new, old) == 0


def annotated_tag(repo: Repo, name: str, commit: str, message: str) -> None:
    """Tag ``commit`` as ``name`` with an annotated tag (fails when the tag exists)."""
    repo.git("tag", "-a", name, commit, "-m", message)


def commit_paths(repo: Repo, message: str, paths: Sequence[str], *, check: bool = True) -> bool:
    """Commit ``paths`` alone, as they are in the work tree (whatever else is staged stays
    staged), with the hooks; whether git made the commit (``check``: a failure raises)."""
    args = ("commit", "-q", "-m", message, "--", *paths)
    if check:
        repo.git(*args)
        return True
    return repo.status(*args) == 0
