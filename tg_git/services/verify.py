"""Recompute the ledger from history: every commit since a session's base is re-estimated, with
the estimator and file globs it was counted with, and compared with the events it added.

Drift is reported, never repaired: a commit whose changes count but that added no commit event
(``--no-verify``, no hooks), a commit whose events claim fewer tokens than its change, a
checkpoint-looking commit that changes more than the checkpoint files, ledger lines that do
not read as events (code smuggled into the ledger), and events a commit removed that are
nowhere now (a deleted or hand-edited ledger). Events that a revert, reset or rebase took out
and that this clone's journal or HEAD still holds are not drift: the next commit restores them.

A commit that no tg-git session made (a teammate's, pulled from a clone without tg-git) is
*outside* the budget, not drift: it claims nothing, touches no ledger file, and this clone's
reflogs show it arriving (a pull, a fetch, a fast-forward), never made here. ``verify.outside``
says what to do with it: ``report`` (listed apart, the default), ``ignore``, or ``refuse``
(drift, cleared like any other by ``tg-git verify --accept``). See ``_made_here``.
What verify cannot see (a shallow clone's boundary, an estimator version this tg-git does not
have) it says, and does not call drift.

The work grows with the history linearly, in a fixed number of git processes: one ``git log``
lists the commits, one ``git diff-tree --raw`` lists what each changed (with no memo, the log
lists that too: ``--raw``, and ``diff-tree`` only a merge's pairs; blob ids: each
commit's config is the one that listing puts at its path, along first parents, from the
parents outside the range, which one ``git cat-file --batch-check`` asks for; a commit the
listing tells none, as a submodule there, is asked too), and ``repo.ledgerdiff`` reads what each
did to the ledger's event lines: a ledger file a commit only appended to is cut from its
newest version (git's id of the old version checks the cut: two ``cat-file``), and so is a
code file it only appended to; one ``diff-tree`` gives the other code changes' patches (what
it changed to count), one more the ledger's where a change is not an append. A line is looked up in an index of where history added
it; only a line another commit added too is looked for in the files (one ``git cat-file``).
What a commit alone gives is kept under the git dir (``verify_memo``): the next verify reads
from git only the commits it has not seen (``verify_read.warm``).
"""

from __future__ import annotations

import gc
import json
from typing import Any

from tg_git.domain import errors, eventlog
from tg_git.domain.typed import NamedTuple
from tg_git.repo import git, gitquery, journal, ledgerdiff
from tg_git.repo.workspace import Workspace
from tg_git.services import recount, verify_memo, verify_read
from tg_git.services.verify_index import Kept
from tg_git.text import messages


class Drift(NamedTuple):
    """A commit whose ledger does not match its change, and why (plain classes here: the
    ``dataclasses`` import, with ``inspect``, costs each verify ~10 ms)."""

    commit: str
    subject: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self))


class Outside(NamedTuple):
    """A commit no tg-git session made, and what its change counts."""

    commit: str
    subject: str
    estimate: int

    def as_dict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self))


class Report:
    def __init__(self, base: str, tip: str = "HEAD", policy: str = "report") -> None:
        self.base, self.tip = base, tip
        self.checked = 0
        self.drift: list[Drift] = []
        self.unseen: list[str] = []  # what could not be checked, and why
        self.balance = 0  # tokens claimed minus tokens estimated so far
        self.outside: list[Outside] = []  # made where no tg-git hook ran
        self.policy = policy  # `verify.outside`

    @property
    def ok(self) -> bool:
        return not self.drift

    def as_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "base": self.base,
            "tip": self.tip,
            "checked": self.checked,
            "drift": [d.as_dict() for d in self.drift],
            "unchecked": self.unseen,
            "outside": [o.as_dict() for o in self.outside],
        }

    def lines(self, language: str = "en") -> list[str]:
        def say(key: str, **values: object) -> str:
            return messages.text(language, key, **values)

        notes = [say("verify_unseen", what=u) for u in self.unseen]
        notes += [
            say("verify_outside", commit=o.commit[:12], subject=o.subject, estimate=o.estimate)
            for o in self.outside
        ]
        if self.outside:
            notes.append(say("verify_outside_hint", n=len(self.outside)))
        if self.ok:
            return [*notes, say("verify_ok", n=self.checked)]
        return [
            *notes,
            *(
                say("verify_drift", commit=d.commit[:12], subject=d.subject, reason=d.reason)
                for d in self.drift
            ),
            say("verify_summary", n=len(self.drift), checked=self.checked),
            say(
                "verify_accept_hint", command=recount.accept_command([d.commit for d in self.drift])
            ),
        ]


def verify_history(ws: Workspace, base: str | None = None, tip: str = "HEAD") -> Report:
    """Check every commit in ``base..tip`` (the current session's base by default): the
    commits a verify before saw are taken from its memo (``verify_memo``), the others read
    from git (``verify_read``).

    Python's cycle collector is paused meanwhile: a range's lines, records and estimates
    are ~100,000 objects that live to the end and hold no cycles, and each of its passes
    walks them all to free nothing (~8 % of a cold verify)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _verify(ws, base, tip)
    finally:
        if enabled:
            gc.enable()


def _verify(ws: Workspace, base: str | None, tip: str) -> Report:
    if base is None:
        base = _session_base(ws)
    report = Report(base=base or "", tip=tip, policy=ws.config.verify_outside)
    tip_sha, present = _ends(ws, tip, base or "")
    if tip_sha is None:
        return report
    base = _present_base(ws, base or "", report, present)
    memo = verify_memo.Memo(ws.repo, bool(journal.names(ws.repo)))
    memo.config = verify_memo.config_key(ws.config)
    revs = [f"^{base}", tip] if base else [tip]
    listed: list[list[ledgerdiff.Entry] | None] | None = None
    if memo.usable and not memo.commits:  # nothing seen before: read cold, listed with the log
        commits, listed = ledgerdiff.log_listed(ws.repo, revs)
    else:
        commits = gitquery.log(ws.repo, revs, reverse=True)
    plan = verify_read.warm(ws, memo, commits) or verify_read.cold(
        ws, memo, commits, tip_sha, listed
    )
    report.checked += plan.accepted
    kept = Kept(ws, plan.history, tip_sha) if plan.history else None
    _weigh(ws, report, plan, kept, memo)
    memo.save((c.sha for c in commits), plan.edge)
    return report


def _weigh(
    ws: Workspace,
    report: Report,
    plan: verify_read.Plan,
    kept: Kept | None,
    memo: verify_memo.Memo,
) -> None:
    """Each checked commit's verdict, in commit order (the balance runs through them)."""
    seen = _Seen(ws, memo)
    made: list[set[str] | None] = []  # the commits this clone made: read once, when needed
    for commit in plan.checked:
        report.checked += 1
        reason = _verdict(ws, report, seen, kept, commit, plan.found[commit.sha])
        if isinstance(reason, Outside):
            made = made or [_made_here(ws.repo)]
            if made[0] is not None and commit.sha not in made[0]:
                _outside(ws, report, reason)
                continue
            reason = _uncounted(ws, report, reason.estimate)
        if reason:
            report.drift.append(Drift(commit.sha, commit.subject, reason))
    if plan.boundary:
        report.unseen.append(messages.text(ws.config.language, "verify_shallow", n=plan.boundary))


def _session_base(ws: Workspace) -> str:
    """The current session's base: its start event's, read from the session's own file (its
    first lines); when that file does not hold exactly one, from the session replayed (a
    long session's replay reads every one of its events: ~2/3 of a cold verify)."""
    session_id, rel = ws.current_session_id(), ws.current_ledger_file()
    mark = f'"id" = {json.dumps(session_id)}'
    starts = [ln for ln in eventlog.event_lines(ws.file_text(rel) if rel else "") if mark in ln]
    try:
        found = [e for e in eventlog.parse("\n".join(starts)).values() if e["kind"] == "session"]
    except Exception:  # a broken line: the replay reads around it
        found = []
    if len(found) == 1 and found[0].get("id") == session_id:
        return str(found[0].get("base", ""))
    session = ws.session()
    return session.base if session else ""


def _ends(ws: Workspace, tip: str, base: str) -> tuple[str | None, bool]:
    """``tip``'s commit (None: it names none) and whether ``base`` names a commit here, in
    one ``cat-file --batch-check`` (one git process less); a name with a line break (the
    base is the ledger's: data) or an option's dash is asked on its own, as before, and so
    are both when the batch dies on one (a reflog entry past the log's end, a path outside
    the repository: ``rev-parse`` and ``cat-file -e`` say no)."""
    specs = [f"{name}^{{commit}}" for name in (tip, base) if name]
    if tip.startswith("-") or any("\n" in spec or "\0" in spec for spec in specs):
        return _alone(ws, tip, base)
    try:
        found = [
            f[0] if f and f[1] == "commit" else None for f in gitquery.object_ids(ws.repo, specs)
        ]
    except errors.GitError:
        return _alone(ws, tip, base)
    return found[0], len(found) > 1 and found[1] is not None


def _alone(ws: Workspace, tip: str, base: str) -> tuple[str | None, bool]:
    """``_ends``, each name asked on its own; a name with a NUL names nothing (git takes
    none: the base is data)."""
    present = bool(base) and "\0" not in base and gitquery.exists(ws.repo, f"{base}^{{commit}}")
    return (gitquery.rev_parse(ws.repo, tip) if "\0" not in tip else None), present


def _present_base(ws: Workspace, base: str, report: Report, present: bool) -> str:
    """``base``, or "" (every commit) when this clone does not have it (``present``)."""
    if base and not present:
        report.unseen.append(
            f"the session's base {base[:12]} is not in this clone (shallow or rewritten): "
            "every commit here was checked instead."
        )
        report.base = ""
        return ""
    return base


class _Seen:
    """This clone's journal: each event key's line as it first recorded it (its digest). What
    a journal file held when a verify read it before is kept in the memo: only the lines
    appended since are read (a journal changed otherwise is read whole)."""

    def __init__(self, ws: Workspace, memo: verify_memo.Memo) -> None:
        self.first: dict[str, bytes] = {}
        # A memo without the lines' digests was read with no journal here: one made since
        # (a hook meanwhile) is this verify's to ignore, the next one's to read (cold).
        names = journal.names(ws.repo) if memo.digested else []
        for name in reversed(names):  # the first file's lines come first
            path, data = str(journal.path(ws.repo, name)), journal.read_bytes(ws.repo, name)
            size, known = memo.journal(path, data)
            cut = data.rfind(b"\n") + 1  # what is kept: whole lines
            found = _firsts(dict(known), data[size:cut])
            memo.put_journal(path, data, found)
            rest = (b"\n" if cut else b"") + data[cut:]  # a last line with no end, as in the whole
            self.first.update(_firsts(dict(found), rest) if cut < len(data) else found)

    def changed(self, facts: verify_memo.Facts) -> int:
        """How many of the lines a commit added the journal first recorded otherwise."""
        if not self.first:
            return 0
        first = self.first
        return sum(1 for key, line in facts.added() if first.get(key, line) != line)


def _firsts(found: dict[str, bytes], data: bytes) -> dict[str, bytes]:
    """``found`` with the digest of each key's first line in ``data`` it does not hold."""
    for line in eventlog.event_lines(data.decode("utf-8", "replace")):
        key = eventlog.key_of(line)
        if key not in found:
            found[key] = verify_memo.digest(line)
    return found


def _verdict(
    ws: Workspace,
    report: Report,
    seen: _Seen,
    kept: Kept | None,
    commit: gitquery.Commit,
    found: verify_read.Found,
) -> str | Outside | None:
    """Why ``commit`` drifts, None when it does not, or what it is when no tg-git hook may
    have run (``Outside``): an event this clone recorded otherwise, a line removed that is
    nowhere now, a line that does not read as an event, a checkpoint-like commit, claims
    short of the change."""
    lang, facts = ws.config.language, found.facts
    changed = seen.changed(facts)
    if changed:
        return messages.text(lang, "drift_changed", n=changed)
    lost = [ln for ln in found.removed if kept is None or ln not in kept]
    if lost:
        return messages.text(lang, "drift_lost", n=len(lost))
    if found.error is not None:
        return found.error
    if facts.checkpoint == 1:
        report.checked -= 1
        return None  # a real checkpoint: adds no events by design
    if facts.checkpoint == 2:
        return messages.text(lang, "drift_checkpoint_like")
    if facts.recorded and facts.ours and facts.ours != facts.recorded:
        values = {"commit": commit.sha[:12], "recorded": facts.recorded, "ours": facts.ours}
        report.unseen.append(messages.text(lang, "verify_other_estimator", **values))
        return None
    in_ledger = facts.adds or bool(found.removed)
    if not (facts.claims or in_ledger) and facts.estimate and facts.set_up:
        return Outside(commit.sha, commit.subject, facts.estimate)  # unless this clone made it
    return _balance(lang, report, facts)


def _balance(lang: str, report: Report, facts: verify_memo.Facts) -> str | None:
    """A running balance, in commit order: a reordering rebase or a restore moves events to
    a neighbouring commit, which must not cry wolf; work nobody claimed still shows."""
    claimed, estimate = facts.claimed, facts.estimate
    report.balance += claimed - estimate
    if report.balance >= 0:
        return None
    deficit, report.balance = -report.balance, 0
    if facts.claims and deficit * 5 <= estimate:
        return None  # a counted commit whose lines a rebase resolved anew (no hook runs then)
    if not facts.claims and not facts.set_up:
        return messages.text(lang, "drift_while_removed", estimate=estimate)
    if not facts.claims:
        return messages.text(lang, "drift_uncounted", estimate=estimate)
    return messages.text(lang, "drift_short", claimed=claimed, estimate=estimate)


# What moves a ref of this clone to a commit without making it: checking out, resetting,
# creating a branch, cloning, fetching and pushing, fast-forwards, a rebase's start and end.
# Any other reflog entry (a commit, an amend, a merge made here, a rebase's or pick's copy,
# a revert, `git am`, and whatever git may add) counts as made here: drift, as before.
_ARRIVED = ("checkout:", "reset:", "branch:", "clone:", "fetch", "update by push", "initial pull")
_ARRIVED_IN = ("ast-forward", "(start)", "(finish)")  # Fast-forward, fast-forward


def _made_here(repo: git.Repo) -> set[str] | None:
    """The commits a reflog of this clone (HEAD's, every local branch's) shows made here.
    A `git commit --no-verify` is there, and so is its copy by a rebase, a pick or an amend;
    a teammate's commit only arrives (pull, fetch, a merge's fast-forward). None when there
    is no reflog at all (turned off): then nothing is taken for outside."""
    out = repo.git("log", "-g", "--format=%H %gs", "HEAD", "--branches", "--", check=False)
    lines = out.decode("utf-8", "replace").splitlines()
    if not lines:
        return None
    return {
        sha
        for sha, _, said in (ln.partition(" ") for ln in lines)
        if not said.startswith(_ARRIVED) and not any(w in said for w in _ARRIVED_IN)
    }


def _outside(ws: Workspace, report: Report, found: Outside) -> None:
    """A commit no tg-git session made, as ``verify.outside`` says."""
    if report.policy == "report":
        report.outside.append(found)
    elif report.policy == "refuse":
        lang = ws.config.language
        reason = messages.text(lang, "drift_outside", estimate=found.estimate)
        report.drift.append(Drift(found.commit, found.subject, reason))


def _uncounted(ws: Workspace, report: Report, estimate: int) -> str | None:
    """A commit made here that claimed nothing: drift, once the running balance is spent."""
    report.balance -= estimate
    if report.balance >= 0:
        return None
    report.balance = 0
    return messages.text(ws.config.language, "drift_uncounted", estimate=estimate)
