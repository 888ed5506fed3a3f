"""What a commit adds: the ``+`` lines of a change, estimated per file.

One ``git diff`` with ``-p`` gives every file's added lines. Files are keyed by the path in
each section's ``+++`` header, never by position: a file<->symlink type change is one path
but two sections (one deleting, one adding), and both land on that path.

``--text`` makes git print every file as text, so no ``.gitattributes`` line (``-diff``,
``binary``) can hide a change from the count; a file is binary when an added line holds a
NUL byte, which is git's own rule. While a merge (or a cherry-pick, a squash, a commit after
a reset) is being concluded, only the lines new to *every* counted tip count, so no work is
counted twice.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from tg_git.domain.config import Config
from tg_git.domain.decide import FileCount
from tg_git.domain.errors import GitError
from tg_git.domain.layout import is_ledger_file
from tg_git.estimate.estimator import (
    estimate_tokens,
    estimator_id,
    fitted_estimate,
    tier,
    utf8_size,
)
from tg_git.repo import git, gitquery

_ADDED = re.compile(rb"^\+(.*)$", re.M)
DIFF_OPTIONS = (
    "-p", "-U0", "--text", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv",
    "--ignore-submodules=all", "--src-prefix=a/", "--dst-prefix=b/",
)  # fmt: skip
_UNKNOWN = "?"

Added = dict[str, "list[bytes] | None"]


_ESCAPES = {b"a": 7, b"b": 8, b"t": 9, b"n": 10, b"v": 11, b"f": 12, b"r": 13, b'"': 34, b"\\": 92}


def unquote(name: bytes) -> bytes:
    """A path as git prints it in a patch header: C-quoted (``"a/\\303\\251"``) when it has
    unusual bytes, else as is."""
    if not (name.startswith(b'"') and name.endswith(b'"') and len(name) >= 2):
        return name
    out = bytearray()
    body, i = name[1:-1], 0
    while i < len(body):
        char = body[i : i + 1]
        if char != b"\\":
            out += char
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt.isdigit():
            out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            out.append(_ESCAPES.get(nxt, nxt[0] if nxt else 92))
            i += 2
    return bytes(out)


def parse_patch(out: bytes) -> Added:
    """Added lines per path from ``git diff -p`` output (``DIFF_OPTIONS``); None for binary
    files. Deleted files and sections without added lines (mode changes) add nothing; a
    deleted ledger file is there with no lines (never counted: the hook sees it staged)."""
    result: Added = {}
    for section in re.split(rb"(?:^|\n)diff --git ", out)[1:]:
        hunks = section.find(b"\n@@")
        header = section if hunks < 0 else section[:hunks]
        new_path = old_path = None
        for line in header.split(b"\n"):
            if line.startswith(b"--- "):
                source = unquote(line[4:].rstrip(b"\t"))
                old_path = source[2:] if source.startswith(b"a/") else source
            if line.startswith(b"+++ "):
                target = unquote(line[4:].rstrip(b"\t"))
                if target != b"/dev/null":
                    new_path = target[2:] if target.startswith(b"b/") else target
                break
        if new_path is None:
            gone = (old_path or b"").decode("utf-8", "surrogateescape")
            if is_ledger_file(gone):  # a ledger file staged for deletion: the hook must know
                result[gone] = []
            continue  # a deletion, or a section with nothing added (mode change, empty file)
        path = new_path.decode("utf-8", "surrogateescape")
        lines = _ADDED.findall(section, hunks) if hunks >= 0 else []
        before = result.get(path, [])
        if before is None or any(b"\0" in ln for ln in lines):
            result[path] = None
        else:
            result[path] = before + lines
    return result


def index_added(repo: git.Repo, base: str, env: Mapping[str, str] | None = None) -> Added:
    """What the index adds to ``base``."""
    return parse_patch(repo.git("diff-index", "--cached", *DIFF_OPTIONS, base, env=env))


def commits_added(
    repo: git.Repo, pairs: Sequence[tuple[str, str | None]], exclude: Sequence[str] = ()
) -> list[Added]:
    """What each commit adds to the parent paired with it (None: a root commit, against the
    empty tree), in order, leaving out the paths in ``exclude``: one ``git diff-tree --stdin``
    for them all, however many. With ``--always`` git heads each pair's patch with the
    commit's id even when it is empty, and no patch line is a bare id, so the output splits
    at those lines."""
    if not pairs:
        return []
    lines = "".join(f"{c} {p}\n" if p else f"{c}\n" for c, p in pairs).encode("ascii")
    spec = [f":(exclude){path}" for path in exclude]
    out = repo.git(
        "diff-tree", "--stdin", "--always", "--root", "-r", *DIFF_OPTIONS, "--", *spec,
        input=lines,
    )  # fmt: skip
    result: list[Added] = []
    pos = 0
    for n, (sha, _parent) in enumerate(pairs):
        start = pos + len(sha) + 1  # past this pair's header line
        nxt = pairs[n + 1][0] if n + 1 < len(pairs) else None
        end = out.find(b"\n%s\n" % nxt.encode(), start - 1) + 1 if nxt else len(out)
        if end <= 0:  # a git that printed something else: never guess
            raise GitError.from_key("git_odd_output", command="diff-tree --stdin")
        result.append(parse_patch(out[start:end]))
        pos = end
    return result


def new_to_both(ours: Added, theirs: Added) -> Added:
    """Lines added against both sides (parents of a merge, or a tip already counted): the
    resolution, nothing either side wrote."""
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
    tips: Sequence[str] | None = None,
) -> list[FileCount]:
    """Per-file estimate of what the index adds to HEAD (the empty tree on an unborn branch),
    counting only lines new to each of ``tips`` too (MERGE_HEAD by default): commits whose
    work was counted already. ``head`` may be passed by a caller that resolved it already."""
    if head == _UNKNOWN:
        head = git.head(repo)
    if tips is None:
        found = gitquery.rev_parse(repo, "MERGE_HEAD", peel=None)
        tips = [found] if found else []
    added = index_added(repo, head or repo.empty_tree, env)
    for tip in tips:
        if not added:
            break
        added = new_to_both(added, index_added(repo, tip, env))
    return count_all(added, config)


def count_all(added: Added, config: Config, exact: bool = True) -> list[FileCount]:
    """Every file's count. The tier is chosen by the whole commit's size, so one estimator
    counts a commit (its id goes into the ledger event) and a 100 MB commit of many small
    files takes the fast byte-count tier; ``exact=False`` leaves the compiled backend out
    (verify re-counts a commit with the estimator it was counted with)."""
    texts = {
        path: b"\n".join(lines).decode("utf-8", "replace")
        for path, lines in added.items()
        if lines is not None and config.counts(path)
    }
    size = sum(utf8_size(t) for t in texts.values())
    name = estimator_id(config.profile, size, exact)
    chosen = tier(config.profile, size, exact)
    result = []
    for path, lines in added.items():
        if lines is None:
            result.append(FileCount(path, 0, 0, binary=True, counted=config.counts(path)))
        elif path not in texts:
            result.append(FileCount(path, 0, len(lines), counted=False))
        else:
            text = texts[path]
            count = (
                fitted_estimate(text, path, config.profile)
                if chosen == "fit"
                else estimate_tokens(text, path, config.profile, exact)
            )
            result.append(FileCount(path, count, len(lines), estimator=name))
    return result
