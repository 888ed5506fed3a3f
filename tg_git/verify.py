"""Recompute the ledger from history: every commit since a session's base is re-estimated
and compared with the events the ledger gained in that commit.

Drift is reported, never repaired: a commit whose changes count but that added no commit
event (made with ``--no-verify``, or where the hook was not installed), a commit whose
events claim fewer tokens than its change estimates, and a commit that removed or altered
ledger lines (a hand edit). One ``git log`` lists the commits and one ``git cat-file``
process reads every ledger blob.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tg_git import git, ledger
from tg_git.config import LEDGER_PATH
from tg_git.refs import LEVEL_TRAILER as CHECKPOINT_TRAILER  # one home: refs.py
from tg_git.staged import commit_added, count_all, new_to_both
from tg_git.workspace import Workspace


@dataclass(frozen=True)
class Drift:
    commit: str
    subject: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"commit": self.commit, "subject": self.subject, "reason": self.reason}


@dataclass
class Report:
    base: str
    checked: int = 0
    drift: list[Drift] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.drift

    def lines(self) -> list[str]:
        if self.ok:
            return [f"tg-git: ledger matches history ({self.checked} commits checked)."]
        return [
            f"tg-git: drift in {d.commit[:12]} ({d.subject}): {d.reason}" for d in self.drift
        ] + [
            f"tg-git: {len(self.drift)} of {self.checked} commits drift from the ledger; "
            "recount them with a new commit or accept them, as your team prefers."
        ]


def _events_only(lines: set[str]) -> set[str]:
    """Drop blank and comment lines (users may add and remove comments freely)."""
    return {ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")}


@dataclass(frozen=True)
class _Commit:
    sha: str
    parents: tuple[str, ...]
    message: str


def _commits(ws: Workspace, rev: str) -> list[_Commit]:
    """The commits of ``rev``, oldest first, with parents and messages: one git call."""
    out = ws.repo.git("log", "-z", "--reverse", "--format=%H %P%n%B", rev)
    commits = []
    for record in out.decode("utf-8", "replace").split("\0"):
        if not record.strip():
            continue
        shas, _, message = record.partition("\n")
        sha, *parents = shas.split()
        commits.append(_Commit(sha, tuple(parents), message))
    return commits


def _ledgers(ws: Workspace, commits: list[_Commit]) -> dict[str, frozenset[str] | None]:
    """The ledger's lines at every commit and parent, through one ``git cat-file`` process,
    each distinct blob split once."""
    shas = list(dict.fromkeys(s for c in commits for s in (c.sha, *c.parents)))
    found = git.read_objects(ws.repo, [f"{sha}:{LEDGER_PATH}" for sha in shas])
    by_blob: dict[str, frozenset[str]] = {}
    result: dict[str, frozenset[str] | None] = {}
    for sha, obj in zip(shas, found):
        if obj is None:
            result[sha] = None
            continue
        blob, data = obj
        if blob not in by_blob:
            by_blob[blob] = frozenset(data.decode("utf-8", "replace").split("\n"))
        result[sha] = by_blob[blob]
    return result


def verify_history(ws: Workspace, base: str | None = None) -> Report:
    """Check every commit in ``base..HEAD`` (the current session's base by default)."""
    if base is None:
        session = ws.session()
        base = session.base if session else ""
    report = Report(base=base or "")
    if git.head(ws.repo) is None:
        return report
    if base and not git.ok(["cat-file", "-e", f"{base}^{{commit}}"], ws.repo.root):
        base = ""  # the base is gone (a shallow clone, rewritten history): check it all
        report = Report(base="")
    commits = _commits(ws, f"{base}..HEAD" if base else "HEAD")
    ledgers = _ledgers(ws, commits)
    for commit in commits:
        if commit.message.startswith("checkpoint:") and CHECKPOINT_TRAILER in commit.message:
            continue  # checkpoint commits add no events by design
        after = ledgers[commit.sha]
        if after is None:
            continue  # before tg-git was set up
        report.checked += 1
        befores = [b for b in (ledgers.get(p) for p in commit.parents) if b is not None]
        drift = _check(ws, commit, after, befores)
        if drift:
            subject = commit.message.splitlines()[0] if commit.message else ""
            report.drift.append(Drift(commit.sha, subject, drift))
    return report


def _check(
    ws: Workspace, commit: _Commit, after: frozenset[str], befores: list[frozenset[str]]
) -> str | None:
    for before in befores:
        lost = _events_only(set(before - after))
        if lost:
            return f"the ledger lost or changed {len(lost)} event line(s) (edited by hand?)"
    # Only the lines this commit added are parsed: a ledger of thousands of events is
    # never parsed once per commit.
    added_lines = set(after).difference(*befores)
    try:
        new_events = ledger.parse("\n".join(sorted(_events_only(added_lines))))
    except Exception as exc:  # a corrupt ledger in history is drift too
        return f"the ledger does not parse ({exc})"
    commits = [e for e in new_events.values() if e["kind"] == "commit"]
    claimed = sum(int(e.get("tokens", 0)) for e in commits)
    has_event = bool(commits)
    repo = ws.repo
    first = commit.parents[0] if commit.parents else git.EMPTY_TREE
    added = commit_added(repo, first, commit.sha)
    for other in commit.parents[1:]:
        added = new_to_both(added, commit_added(repo, other, commit.sha))
    estimate = sum(c.tokens for c in count_all(added, ws.config) if c.counted)
    if estimate and not has_event:
        return f"not counted: its change estimates {estimate:,} tokens but it added no ledger event (--no-verify?)"
    if claimed < estimate:
        return f"the ledger claims {claimed:,} tokens, the change estimates {estimate:,}"
    return None
