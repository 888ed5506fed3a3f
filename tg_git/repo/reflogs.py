"""The current branch's reflog, read from its file without a process: where the branch was
before its last move, the commits it pointed at recently, and those a reset or a rebase left
behind (what a commit's ledger reads beside HEAD)."""

from __future__ import annotations

import os

from tg_git.repo.git import Repo, branch


def _reflog(repo: Repo, name: str) -> str:
    """The reflog file of the branch ``name`` (a string path: the hooks import no
    ``pathlib``)."""
    return os.path.join(repo.commondir, "logs", "refs", "heads", name)


def _reflog_tail(path: str, size: int = 16384) -> list[bytes]:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            start = max(0, fh.tell() - size)
            fh.seek(start)
            lines = fh.read().rstrip(b"\n").split(b"\n")
            return lines[1:] if start else lines  # a cut first line is not a line
    except OSError:
        return []


def recent_tips(repo: Repo) -> set[str]:
    """Commits the current branch pointed at recently (its reflog's tail, read without a
    process): a reset, rebase, amend or revert moved the branch away from them, but their
    events belong to this line of work. A checkout to another branch is not in there."""
    name = branch(repo)
    if name == "detached":
        return set()
    tips = set()
    for line in _reflog_tail(_reflog(repo, name)):
        for part in line.split(b" ", 2)[:2]:
            sha = part.decode("ascii", "replace")
            if len(sha) in (40, 64) and sha.strip("0"):
                tips.add(sha)
    return tips


def abandoned_tips(repo: Repo, head: str, limit: int = 12) -> list[str]:
    """When the current branch's last move was a reset or a rebase: the commits it pointed at
    in its last ``limit`` moves that HEAD no longer reaches, newest first (one ``rev-list``;
    nothing to run on any other commit). ORIG_HEAD alone forgets them after a second reset."""
    name = branch(repo)
    if name == "detached":
        return []
    lines = _reflog_tail(_reflog(repo, name))
    message = lines[-1].partition(b"\t")[2] if lines else b""
    if not message.startswith((b"reset:", b"rebase")):
        return []
    seen: dict[str, None] = {}
    for line in reversed(lines[-limit:]):
        for part in line.split(b" ", 2)[:2]:
            sha = part.decode("ascii", "replace")
            if len(sha) in (40, 64) and sha.strip("0") and sha != head:
                seen[sha] = None
    if not seen:
        return []
    out = repo.git("rev-list", "--ignore-missing", *seen, "--not", head, "--", check=False)
    unreachable = set(out.decode("ascii", "replace").split())
    return [sha for sha in seen if sha in unreachable]


def previous_head(repo: Repo) -> str | None:
    """Where the current branch was before its last move, when it was on this branch
    (``HEAD@{1}`` in a ``cat-file`` batch would end the batch when the reflog is short)."""
    name = branch(repo)
    if name == "detached":
        return None
    lines = _reflog_tail(_reflog(repo, name), 4096)
    if not lines:
        return None
    old = lines[-1].split(b" ", 1)[0].decode("ascii", "replace")
    return old if len(old) in (40, 64) and old.strip("0") else None
