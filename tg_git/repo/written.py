"""What tg-git itself last wrote to each ledger file of a work tree (per worktree, local).

A ledger file whose text is tg-git's own last write is never taken for a user's unstaged edit
(which would block the next commit); only its length and CRC are kept.
"""

from __future__ import annotations

import json
import os

from tg_git.repo import git, memo, regular

WRITTEN = (
    "tg-git/written.json"  # per worktree: length and CRC of the ledger texts tg-git last wrote
)


def _written(repo: git.Repo) -> dict[str, str]:
    try:
        data = json.loads(regular.read_bytes(repo.git_file(WRITTEN)).decode("utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def mark(repo: git.Repo, rel: str, text: str, digest: str = "") -> bool:
    """Remember what tg-git wrote to ``rel``, so it never takes its own write for a user's
    (``digest``: the text's, when the caller knows it). Returns whether it was noted."""
    data = _written(repo)
    data[rel] = digest or memo.digest(text)
    target = repo.git_file(WRITTEN)  # strings: the hooks import no ``pathlib`` (~5 ms)
    tmp = os.path.join(os.path.dirname(target), f".written.{os.getpid()}.tmp")
    try:  # local bookkeeping: a lost update only costs one "unstaged edits" question
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data))
        os.replace(tmp, target)
    except OSError:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        return False
    return True


def is_ours(repo: git.Repo, rel: str, text: bytes | str | None) -> bool:
    """Whether ``rel`` holds (``text``: its text or bytes) what tg-git last wrote there,
    or, for a write that was noted before it was made ("after|before"), the text before
    it plus a torn last line (a crash mid-append): the next commit repairs that line."""
    if text is None:
        return False
    after, _, before = str(_written(repo).get(rel, "")).partition("|")
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    if memo.digest(data) == after or memo.digest(data) == before:
        return True  # before: an append that failed and was cut back (a full disk)
    size = before.partition(":")[0]
    if not size.isdigit() or data.endswith(b"\n"):
        return False
    return memo.digest(data[: int(size)]) == before
