"""What a commit adds: the ``+`` lines of the staged change, estimated per file.

One ``git diff-index`` call gives both the file list (``--numstat -z``: binary files show
``-``) and the patch; files come in the same order in both. While a merge is being
concluded only the lines new to *both* parents count (the resolution), so a merge never
counts the other branch's work twice: that branch's own commits already did.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from tg_git import git
from tg_git.config import Config
from tg_git.estimate import estimate_tokens

_ADDED = re.compile(rb"^\+(.*)$", re.M)


@dataclass(frozen=True)
class FileCount:
    path: str
    tokens: int
    lines: int
    binary: bool = False
    counted: bool = True  # False for excluded paths (lock files, .tg-git/, checkpoints)


def _added_lines(
    repo: git.Repo, base: str, env: Mapping[str, str] | None
) -> dict[str, list[bytes] | None]:
    """Added lines per path against ``base``; None for binary files."""
    out = repo.git(
        "diff-index",
        "--cached",
        "-p",
        "-U0",
        "--no-renames",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--numstat",
        "-z",
        "--ignore-submodules=all",
        base,
        env=env,
    )
    if not out:
        return {}
    stats, _, patch = out.partition(b"\0\0")
    entries = [e.decode("utf-8", "surrogateescape") for e in stats.split(b"\0") if e]
    sections = re.split(rb"(?:^|\n)diff --git ", patch)[1:]
    result: dict[str, list[bytes] | None] = {}
    for index, entry in enumerate(entries):
        added, _deleted, path = entry.split("\t", 2)
        if added == "-":
            result[path] = None
            continue
        section = sections[index] if index < len(sections) else b""
        hunks = section.find(b"\n@@")
        result[path] = _ADDED.findall(section, hunks) if hunks >= 0 else []
    return result


_UNKNOWN = "?"


def staged_counts(
    repo: git.Repo,
    config: Config,
    env: Mapping[str, str] | None = None,
    head: str | None = _UNKNOWN,
    merge_head: str | None = _UNKNOWN,
) -> list[FileCount]:
    """Per-file estimate of what the index adds to HEAD (the empty tree on an unborn branch).
    ``head`` and ``merge_head`` may be passed by a caller that resolved them already."""
    if head == _UNKNOWN:
        head = git.head(repo)
    if merge_head == _UNKNOWN:
        found = repo.git("rev-parse", "-q", "--verify", "MERGE_HEAD", check=False).strip()
        merge_head = found.decode() or None
    added = _added_lines(repo, head or git.EMPTY_TREE, env)
    if merge_head and added:
        theirs = _added_lines(repo, merge_head, env)
        for path, lines in added.items():
            other = theirs.get(path, [])
            if lines is not None and other is not None:
                new_to_both = Counter(lines) & Counter(other)
                added[path] = list(new_to_both.elements())
            elif lines is not None:
                added[path] = []  # binary on their side: nothing textual is new to both
    return [count_lines(path, lines, config) for path, lines in added.items()]


def count_lines(path: str, lines: list[bytes] | None, config: Config) -> FileCount:
    if lines is None:
        return FileCount(path, 0, 0, binary=True, counted=config.counts(path))
    if not config.counts(path):
        return FileCount(path, 0, len(lines), counted=False)
    text = b"\n".join(lines).decode("utf-8", "replace")
    return FileCount(path, estimate_tokens(text, path, config.profile), len(lines))
