"""What a commit adds: the ``+`` lines of a change, estimated per file.

One diff call gives both the file list (``--numstat -z``: binary files show ``-``) and the
patch; files come in the same order in both. While a merge is being concluded only the
lines new to *both* parents count (the resolution), so a merge never counts the other
branch's work twice: that branch's own commits already did.
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
DIFF_OPTIONS = (
    "-p", "-U0", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", "--numstat", "-z",
    "--ignore-submodules=all",
)  # fmt: skip
_UNKNOWN = "?"

Added = dict[str, "list[bytes] | None"]


@dataclass(frozen=True)
class FileCount:
    path: str
    tokens: int
    lines: int
    binary: bool = False
    counted: bool = True  # False for excluded paths (lock files, .tg-git/, checkpoints)


def parse_patch(out: bytes) -> Added:
    """Added lines per path from ``--numstat -z -p`` output; None for binary files."""
    if not out:
        return {}
    stats, _, patch = out.partition(b"\0\0")
    entries = [e.decode("utf-8", "surrogateescape") for e in stats.split(b"\0") if e]
    sections = re.split(rb"(?:^|\n)diff --git ", patch)[1:]
    result: Added = {}
    for index, entry in enumerate(entries):
        added, _deleted, path = entry.split("\t", 2)
        if added == "-":
            result[path] = None
            continue
        section = sections[index] if index < len(sections) else b""
        hunks = section.find(b"\n@@")
        result[path] = _ADDED.findall(section, hunks) if hunks >= 0 else []
    return result


def index_added(repo: git.Repo, base: str, env: Mapping[str, str] | None = None) -> Added:
    """What the index adds to ``base``."""
    return parse_patch(repo.git("diff-index", "--cached", *DIFF_OPTIONS, base, env=env))


def commit_added(repo: git.Repo, old: str, new: str) -> Added:
    """What commit (or tree) ``new`` adds to ``old``."""
    return parse_patch(repo.git("diff-tree", "-r", *DIFF_OPTIONS, old, new))


def new_to_both(ours: Added, theirs: Added) -> Added:
    """Lines added against both parents of a merge: the resolution, nothing either side wrote."""
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
    merge_head: str | None = _UNKNOWN,
) -> list[FileCount]:
    """Per-file estimate of what the index adds to HEAD (the empty tree on an unborn branch).
    ``head`` and ``merge_head`` may be passed by a caller that resolved them already."""
    if head == _UNKNOWN:
        head = git.head(repo)
    if merge_head == _UNKNOWN:
        found = repo.git("rev-parse", "-q", "--verify", "MERGE_HEAD", check=False).strip()
        merge_head = found.decode() or None
    added = index_added(repo, head or git.EMPTY_TREE, env)
    if merge_head and added:
        added = new_to_both(added, index_added(repo, merge_head, env))
    return count_all(added, config)


def count_all(added: Added, config: Config) -> list[FileCount]:
    return [count_lines(path, lines, config) for path, lines in added.items()]


def count_lines(path: str, lines: list[bytes] | None, config: Config) -> FileCount:
    if lines is None:
        return FileCount(path, 0, 0, binary=True, counted=config.counts(path))
    if not config.counts(path):
        return FileCount(path, 0, len(lines), counted=False)
    text = b"\n".join(lines).decode("utf-8", "replace")
    return FileCount(path, estimate_tokens(text, path, config.profile), len(lines))
