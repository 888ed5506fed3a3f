"""Recompute the ledger from history: every commit since a session's base is re-estimated
and compared with the events the ledger gained in that commit.

Drift is reported, never repaired: a commit whose changes count but that added no commit
event (made with ``--no-verify``, or where the hook was not installed), a commit whose
events claim fewer tokens than its change estimates, and a commit that removed or altered
ledger lines (a hand edit). GitPython reads the many ledger blobs through one long-lived
``git cat-file`` process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tg_git import git, ledger
from tg_git.config import LEDGER_PATH
from tg_git.staged import commit_added, count_all, new_to_both
from tg_git.workspace import Workspace

CHECKPOINT_TRAILER = "Tg-Git-Level: "


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


def _event_lines(text: str) -> set[str]:
    return {
        ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")
    }


def _ledger_at(commit: Any) -> str | None:
    try:
        blob = commit.tree / LEDGER_PATH
    except KeyError:
        return None
    data: bytes = blob.data_stream.read()
    return data.decode("utf-8", "replace")


def verify_history(ws: Workspace, base: str | None = None) -> Report:
    """Check every commit in ``base..HEAD`` (the current session's base by default)."""
    import git as gitpython  # GitPython: only on this cold path

    if base is None:
        session = ws.session()
        base = session.base if session else ""
    report = Report(base=base or "")
    if git.head(ws.repo) is None:
        return report
    rev = f"{base}..HEAD" if base else "HEAD"
    with gitpython.Repo(ws.repo.root) as repo:
        for commit in repo.iter_commits(rev, reverse=True):
            message = str(commit.message)
            if CHECKPOINT_TRAILER in message and message.startswith("checkpoint:"):
                continue  # checkpoint commits add no events by design
            after = _ledger_at(commit)
            if after is None:
                continue  # before tg-git was set up
            report.checked += 1
            subject = message.splitlines()[0] if message else ""
            drift = _check(ws, commit, after)
            if drift:
                report.drift.append(Drift(commit.hexsha, subject, drift))
    return report


def _check(ws: Workspace, commit: Any, after: str) -> str | None:
    parents = list(commit.parents)
    befores = [t for t in (_ledger_at(p) for p in parents) if t is not None]
    after_lines = _event_lines(after)
    for before in befores:
        lost = _event_lines(before) - after_lines
        if lost:
            return f"the ledger lost or changed {len(lost)} event line(s) (edited by hand?)"
    try:
        after_events = ledger.parse(after)
    except Exception as exc:  # a corrupt ledger in history is drift too
        return f"the ledger does not parse ({exc})"
    known: set[str] = set()
    for before in befores:
        known |= set(ledger.parse(before))
    claimed = sum(
        int(e.get("tokens", 0))
        for k, e in after_events.items()
        if k not in known and e["kind"] == "commit"
    )
    has_event = any(k not in known and e["kind"] == "commit" for k, e in after_events.items())
    repo = ws.repo
    first = parents[0].hexsha if parents else git.EMPTY_TREE
    added = commit_added(repo, first, commit.hexsha)
    for other in parents[1:]:
        added = new_to_both(added, commit_added(repo, other.hexsha, commit.hexsha))
    estimate = sum(c.tokens for c in count_all(added, ws.config) if c.counted)
    if estimate and not has_event:
        return f"not counted: its change estimates {estimate:,} tokens but it added no ledger event (--no-verify?)"
    if claimed < estimate:
        return f"the ledger claims {claimed:,} tokens, the change estimates {estimate:,}"
    return None
