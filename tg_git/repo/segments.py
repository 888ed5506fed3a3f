"""A session's later segments as git holds them: in commits and in the index.

A session's events are in its file (``.tg-git/ledger/<session>.toml``) and, once that holds
``layout.SEGMENT_LINES`` lines, in segments below ``.tg-git/ledger/<session>/``
(``layout.segment_file``). A commit writes one small segment, not the whole session, so the
object store grows by about the new events whatever the session's length. Readers see a
session as its files joined (``ledger.join``); this module finds the segments' versions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tg_git.repo import git, gitquery, ledger


def folder(rel: str) -> str:
    """The folder of a session's segments (``rel``: the session's file)."""
    return rel.removesuffix(".toml")


def in_revs(
    repo: git.Repo,
    rel: str,
    revs: Sequence[str],
    worktree: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> tuple[dict[str, dict[str, git.Object]], list[str]]:
    """The segments each of ``revs`` holds (``":"``: the index, whose candidates are every
    segment a revision or the ``worktree`` paths name), path -> blob, and every segment path
    seen, in order."""
    commits = [rev for rev in revs if rev != ":"]
    held = gitquery.files_at(repo, commits, [folder(rel)], env, depth=2) if commits else []
    per_rev = dict(zip(commits, held))
    seen = {path for found in held for path in found} | set(worktree)
    paths = ledger.segment_paths_of(rel, dict.fromkeys(seen))[1:]
    if ":" in revs:
        objects = git.read_objects(repo, [f":{path}" for path in paths], env) if paths else []
        per_rev[":"] = {path: obj for path, obj in zip(paths, objects) if obj}
    return {
        rev: {p: o for p, o in found.items() if p in paths} for rev, found in per_rev.items()
    }, paths


def joined_object(
    first: git.Object | None, later: Mapping[str, git.Object], paths: Sequence[str]
) -> git.Object | None:
    """A session's file and its later segments as one blob-like object (its id: the file's)."""
    parts = [first.data if first else None, *(later[p].data if p in later else None for p in paths)]
    data = ledger.join(parts)
    if data is None:
        return None
    return git.Object(first.id if first else "", data, "blob")
