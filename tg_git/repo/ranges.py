"""A range of commits as ``git log A..B`` lists it, with each commit's author: what a range's
receipt and the CI gate read from git (through the gateway, one ``log`` process)."""

from __future__ import annotations

from tg_git.domain.errors import GitError
from tg_git.domain.layout import LEDGER_DIR, LEDGER_PATH, is_ledger_file
from tg_git.domain.typed import NamedTuple
from tg_git.repo.git import Repo

# Neither a name, an address nor a subject can hold a NUL (git cuts there): NULs split fields.
_FORMAT = "--format=%H%x00%P%x00%an%x00%ae%x00%ct%x00%s"
_FIELDS = 6


class Authored(NamedTuple):
    """One commit of a range: its id, parents, author, committer time and subject."""

    sha: str
    parents: tuple[str, ...]
    author: str
    email: str
    time: int
    subject: str


class Range(NamedTuple):
    """What ``A..B`` (or one revision: everything it reaches) names, resolved."""

    spec: str
    base: str  # the commit id of A ("" for a single revision)
    tip: str  # the commit id of B
    commits: list[Authored]  # oldest first
    shallow: list[str]  # commits of the range whose parents this clone does not have


def _resolve(repo: Repo, rev: str, spec: str) -> str:
    out = repo.git(
        "rev-parse", "-q", "--verify", "--end-of-options", f"{rev}^{{commit}}", check=False
    ).strip()
    if not out:
        raise GitError.from_key("range_unknown", spec=spec, rev=rev)
    return out.decode("ascii")


def shallow_commits(repo: Repo) -> set[str]:
    """The commits at a shallow clone's boundary (``.git/shallow``): their parents are not
    here, so what they added cannot be told from what they hold."""
    try:
        text = repo.git_path("shallow").read_text(encoding="ascii")
    except OSError:
        return set()
    return set(text.split())


def resolve(repo: Repo, spec: str) -> Range:
    """The commits of ``spec`` (``A..B``, or a revision), oldest first; an end that names no
    commit here is a ``GitError`` that says how to fetch it."""
    base_rev, dots, tip_rev = spec.partition("..")
    if not dots:
        base_rev, tip_rev = "", spec
    if tip_rev.startswith(".") or (dots and not base_rev) or not tip_rev:
        raise GitError.from_key("range_malformed", spec=spec)
    tip = _resolve(repo, tip_rev, spec)
    base = _resolve(repo, base_rev, spec) if base_rev else ""
    revs = [f"^{base}", tip] if base else [tip]
    out = repo.git("log", "-z", "--reverse", _FORMAT, *revs, "--")
    fields = out.split(b"\0")
    commits = []
    for n in range(0, len(fields) - _FIELDS + 1, _FIELDS):
        sha, parents, author, email, time, subject = (
            f.decode("utf-8", "replace") for f in fields[n : n + _FIELDS]
        )
        commits.append(
            Authored(sha.strip("\n"), tuple(parents.split()), author, email, int(time), subject)
        )
    boundary = shallow_commits(repo)
    return Range(spec, base, tip, commits, [c.sha for c in commits if c.sha in boundary])


def ledger_changes(repo: Repo, shas: list[str]) -> dict[str, list[tuple[str, str]]]:
    """What each commit (not a merge: git lists none for one) changed in the ledger against
    its parent, as (old blob, new blob) per ledger file ("" where a file is absent); one
    ``diff-tree --stdin`` for all. A commit that changed no ledger file is absent."""
    if not shas:
        return {}
    out = repo.git(
        "diff-tree",
        "--stdin",
        "-r",
        "-z",
        "--root",
        "--no-renames",
        "--raw",
        "--",
        LEDGER_PATH,
        LEDGER_DIR,
        input="".join(f"{s}\n" for s in shas).encode(),
    )
    changes: dict[str, list[tuple[str, str]]] = {}
    items = [item for item in out.split(b"\0") if item]
    commit, n = "", 0
    while n < len(items):
        item = items[n].decode("utf-8", "surrogateescape")
        if not item.startswith(":"):
            commit, n = item.strip(), n + 1
            continue
        path = items[n + 1].decode("utf-8", "surrogateescape") if n + 1 < len(items) else ""
        n += 2
        _modes, old, new = _ids(item)
        if is_ledger_file(path):
            changes.setdefault(commit, []).append((_present(old), _present(new)))
    return changes


def _ids(meta: str) -> tuple[str, str, str]:
    """``:MODE MODE OLD NEW STATUS``: the modes, old and new ids."""
    fields = meta[1:].split()
    return f"{fields[0]} {fields[1]}", fields[2], fields[3]


def _present(oid: str) -> str:
    return "" if set(oid) == {"0"} else oid
