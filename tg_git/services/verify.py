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

What verify cannot see it says, and does not call drift: commits at a shallow clone's
boundary (their parents are not here), and commits counted with an estimator version this
tg-git does not have. One ``git log`` lists the commits, one ``git cat-file`` process reads
every ledger tree, ledger blob and config blob; each distinct blob is split once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tg_git.domain import config as config_mod
from tg_git.domain import eventlog, layout
from tg_git.domain.config import Config
from tg_git.domain.errors import TgGitError
from tg_git.domain.layout import (
    CHECKPOINT_JSON,
    CHECKPOINT_MD,
    CONFIG_PATH,
    LEDGER_DIR,
    LEDGER_PATH,
)
from tg_git.domain.refs import LEVEL_TRAILER as CHECKPOINT_TRAILER  # one home: refs.py
from tg_git.domain.tomltext import parse_toml
from tg_git.repo import git, gitquery, journal
from tg_git.repo.staged import Added, commits_added, count_all, new_to_both
from tg_git.repo.workspace import Workspace
from tg_git.text import messages

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import CommitEvent

CHECKPOINT_FILES = frozenset({CHECKPOINT_JSON, CHECKPOINT_MD})


def _in_one_folder(changes: Iterable[str]) -> bool:
    """A save's two files in its `checkpoint.dir`: both names, in one folder, nothing else."""
    paths = sorted(changes)
    folders = {p.rpartition("/")[0] for p in paths}
    names = {p.rpartition("/")[2] for p in paths}
    return len(folders) == 1 and names <= CHECKPOINT_FILES and len(names) == len(paths)


@dataclass(frozen=True)
class Drift:
    commit: str
    subject: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {"commit": self.commit, "subject": self.subject, "reason": self.reason}


@dataclass(frozen=True)
class Outside:
    commit: str
    subject: str
    estimate: int

    def as_dict(self) -> dict[str, object]:
        return {"commit": self.commit, "subject": self.subject, "estimate": self.estimate}


@dataclass
class Report:
    base: str
    tip: str = "HEAD"
    checked: int = 0
    drift: list[Drift] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)  # what could not be checked, and why
    balance: int = 0  # tokens claimed minus tokens estimated so far
    outside: list[Outside] = field(default_factory=list)  # made where no tg-git hook ran
    policy: str = "report"  # `verify.outside`

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
        from tg_git.services.recount import accept_command

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
            say("verify_accept_hint", command=accept_command([d.commit for d in self.drift])),
        ]


class _History:
    """Ledger files, their lines and the config of every commit verify looks at."""

    def __init__(self, ws: Workspace, shas: list[str]) -> None:
        self.ws = ws
        # depth 3: a session's segments are two folders below its own (`layout.segment_file`)
        paths = (LEDGER_DIR, LEDGER_PATH, CONFIG_PATH)
        found = gitquery.files_at(ws.repo, shas, paths, depth=3)
        self.files: dict[str, dict[str, str] | None] = {}  # commit -> ledger file -> blob
        self.config_blob: dict[str, str | None] = {}
        blobs: dict[str, bytes] = {}
        ledger: dict[str, bool] = {}  # path -> a ledger file? (a long session's segments
        # are in every commit: each path is looked at once)
        for sha, held in zip(shas, found):
            for path in held.keys() - ledger.keys():
                ledger[path] = path != CONFIG_PATH and layout.is_ledger_file(path)
            files = {path: obj.id for path, obj in held.items() if ledger[path]}
            blobs.update((obj.id, obj.data) for obj in held.values())
            config = held.get(CONFIG_PATH)
            set_up = files or any(path != CONFIG_PATH for path in held) or config is not None
            self.files[sha] = files if set_up else None
            self.config_blob[sha] = config.id if config else None
        self._raw = blobs
        self._lines: dict[str, frozenset[str]] = {}
        self._configs: dict[str | None, Config] = {}

    def lines(self, blob: str) -> frozenset[str]:
        if blob not in self._lines:
            text = self._raw.get(blob, b"").decode("utf-8", "replace")
            self._lines[blob] = frozenset(eventlog.event_lines(text))
        return self._lines[blob]

    def config(self, sha: str) -> Config:
        """The config as it was in ``sha`` (its globs and profile counted that commit)."""
        blob = self.config_blob.get(sha)
        if blob not in self._configs:
            try:
                text = self._raw[blob].decode("utf-8") if blob else ""
                self._configs[blob] = (
                    config_mod.from_mapping(parse_toml(text, CONFIG_PATH, ""))
                    if text
                    else self.ws.config
                )
            except (TgGitError, UnicodeDecodeError):
                self._configs[blob] = self.ws.config
        return self._configs[blob]

    def has(self, sha: str, line: str) -> bool:
        return any(line in self.lines(b) for b in (self.files.get(sha) or {}).values())


def _shallow(ws: Workspace) -> set[str]:
    try:
        text = ws.repo.git_path("shallow").read_text(encoding="ascii")
    except OSError:
        return set()
    return set(text.split())


def verify_history(ws: Workspace, base: str | None = None, tip: str = "HEAD") -> Report:
    """Check every commit in ``base..tip`` (the current session's base by default)."""
    if base is None:
        session = ws.session()
        base = session.base if session else ""
    report = Report(base=base or "", tip=tip, policy=ws.config.verify_outside)
    tip_sha = gitquery.rev_parse(ws.repo, tip)
    if tip_sha is None:
        return report
    if base and not gitquery.exists(ws.repo, f"{base}^{{commit}}"):
        report.unseen.append(
            f"the session's base {base[:12]} is not in this clone (shallow or rewritten): "
            "every commit here was checked instead."
        )
        base = ""
        report.base = ""
    commits = gitquery.log(ws.repo, [f"^{base}", tip] if base else [tip], reverse=True)
    shallow = _shallow(ws)
    shas = list(dict.fromkeys(s for c in commits for s in (c.sha, *c.parents)))
    history = _History(ws, shas)
    final = _final_lines(ws, history, tip_sha)
    first_seen: dict[str, str] = {}
    for name in journal.names(ws.repo):
        for line in eventlog.event_lines(journal.read(ws.repo, name)):
            first_seen.setdefault(eventlog.key_of(line), line)
    accepted = _recounted(history, tip_sha)
    set_up = {sha for sha, files in history.files.items() if files is not None}
    checked = []
    for c in commits:  # oldest first: a commit made after .tg-git/ was removed is checked too
        if c.sha in set_up or set_up.intersection(c.parents):
            set_up.add(c.sha)
            checked.append(c)
    report.checked += sum(1 for c in checked if c.sha in accepted)  # counted by a recount event
    checked = [c for c in checked if c.sha not in accepted]
    boundary = sum(1 for c in checked if c.sha in shallow)
    checked = [c for c in checked if c.sha not in shallow]
    changes = _changes(ws.repo, checked)
    made: list[set[str] | None] = []  # the commits this clone made: read once, when needed
    for commit in checked:
        report.checked += 1
        reason = _check(ws, history, commit, final, report, first_seen, changes[commit.sha])
        if isinstance(reason, Outside):
            made = made or [_made_here(ws.repo)]
            if made[0] is not None and commit.sha not in made[0]:
                _outside(ws, report, reason)
                continue
            reason = _uncounted(ws, report, reason.estimate)
        if reason:
            report.drift.append(Drift(commit.sha, commit.subject, reason))
    if boundary:
        report.unseen.append(messages.text(ws.config.language, "verify_shallow", n=boundary))
    return report


# What moves a ref of this clone to a commit without making it: checking out, resetting,
# creating a branch, cloning, fetching and pushing, fast-forwards, a rebase's start and end.
# Any other reflog entry (a commit, an amend, a merge made here, a rebase's or pick's copy,
# a revert, `git am`, and whatever git may add) counts as made here: drift, as before.
_ARRIVED = ("checkout:", "reset:", "branch:", "clone:", "fetch", "update by push",
            "initial pull")  # fmt: skip
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


def _changes(repo: git.Repo, commits: list[gitquery.Commit]) -> dict[str, Added]:
    """What each commit adds, from one ``git diff-tree`` process for all of them: against its
    first parent, and for a merge only the lines new to every parent (its resolution)."""
    pairs = [(c.sha, p) for c in commits for p in (c.parents or (None,))]
    found = iter(commits_added(repo, pairs))
    result: dict[str, Added] = {}
    for commit in commits:
        changes = next(found)
        for _other in commit.parents[1:]:
            changes = new_to_both(changes, next(found))
        result[commit.sha] = changes
    return result


def _final_lines(ws: Workspace, history: _History, tip_sha: str) -> set[str]:
    """Every event line that still exists: in the tip's ledger files, the work tree's (each
    session's segments too) and this clone's journal. A removed line found here was restored
    (or will be, by the next commit)."""
    lines: set[str] = set()
    for blob in (history.files.get(tip_sha) or {}).values():
        lines |= history.lines(blob)
    for rel in ws.all_ledger_files():
        lines.update(eventlog.event_lines(ws.file_text(rel)))
    for name in journal.names(ws.repo):
        lines.update(eventlog.event_lines(journal.read(ws.repo, name)))
    return lines


def _recounted(history: _History, tip_sha: str) -> set[str]:
    """The commits that recount events in the tip's ledger count (pushed with it)."""
    from tg_git.services.recount import recounted

    blobs = (history.files.get(tip_sha) or {}).values()
    return recounted("\n".join(line for b in blobs for line in history.lines(b)))


def _estimator_of(events: Sequence[CommitEvent], config: Config) -> tuple[Config, str]:
    """The config to re-estimate with (the profile the events name) and the estimator id
    they recorded ("" when they name none: counted before ids were recorded)."""
    for event in events:
        name = str(event.get("estimator", ""))
        profile = name.partition("/")[0]
        from tg_git.estimate.estimator import PROFILE_NAMES

        if name and profile in PROFILE_NAMES:
            return config._replace(profile=profile), name
        if name:
            return config, name
    return config, ""


def _check(
    ws: Workspace,
    history: _History,
    commit: gitquery.Commit,
    final: set[str],
    report: Report,
    first_seen: dict[str, str],
    changes: Added,
) -> str | Outside | None:
    after = history.files.get(commit.sha) or {}
    befores = [history.files.get(p) or {} for p in commit.parents]
    # Lines this commit added to any ledger file, and lines it took away.
    added: set[str] = set()
    removed: set[str] = set()
    # Only the files the commit changed (a long session's earlier segments never change).
    touched = (
        set().union(*(after.items() - b.items() for b in befores)) if befores else after.items()
    )
    for rel, blob in touched:
        # New to every parent: a merge's union brings the other side's events, not its own.
        # (Lines of the same file in a parent are out at once, with one set difference: the
        # per-line look through every file is left for the few that remain.)
        same_file = [history.lines(b) for b in (x.get(rel) for x in befores) if b]
        fresh = history.lines(blob).difference(*same_file)
        added |= {ln for ln in fresh if not any(history.has(p, ln) for p in commit.parents)}
    for before in befores:
        for rel, blob in before.items() - after.items():
            now = after.get(rel)
            gone = history.lines(blob) - (history.lines(now) if now else frozenset())
            removed |= {ln for ln in gone if not history.has(commit.sha, ln)}
    lang = ws.config.language
    changed = [ln for ln in added if first_seen.get(eventlog.key_of(ln), ln) != ln]
    if changed:
        return messages.text(lang, "drift_changed", n=len(changed))
    lost = removed - final
    if lost:
        return messages.text(lang, "drift_lost", n=len(lost))
    try:
        new_events = eventlog.parse("\n".join(sorted(added)))
    except Exception as exc:  # a corrupt or smuggled line in history is drift too
        said = exc.text(lang) if isinstance(exc, TgGitError) else str(exc)
        return messages.text(lang, "drift_unreadable", error=said[:120])
    claims = [e for e in new_events.values() if e["kind"] == "commit" and "recount" not in e]
    claimed = sum(int(e.get("tokens", 0)) for e in claims)
    config, recorded = _estimator_of(claims, history.config(commit.sha))
    if commit.message.startswith("checkpoint:") and CHECKPOINT_TRAILER in commit.message:
        if set(changes) <= CHECKPOINT_FILES or _in_one_folder(changes):
            report.checked -= 1
            return None  # a real checkpoint: adds no events by design
        if not claims:
            return messages.text(lang, "drift_checkpoint_like")
    exact = "/exact-" in recorded  # re-counted by the backend that counted it, if it is here
    counts = [c for c in count_all(changes, config, exact) if c.counted and not c.binary]
    if recorded and counts and counts[0].estimator != recorded:
        report.unseen.append(
            messages.text(lang, "verify_other_estimator", commit=commit.sha[:12],
                          recorded=recorded, ours=counts[0].estimator)
        )  # fmt: skip
        return None
    estimate = sum(c.tokens for c in counts)
    if not (claims or added or removed) and estimate and history.files.get(commit.sha) is not None:
        return Outside(commit.sha, commit.subject, estimate)  # unless this clone made it
    # A running balance, in commit order: a reordering rebase or a restore moves events to a
    # neighbouring commit, which must not cry wolf; work nobody claimed still shows.
    report.balance += claimed - estimate
    if report.balance >= 0:
        return None
    deficit, report.balance = -report.balance, 0
    if claims and deficit * 5 <= estimate:
        return None  # a counted commit whose lines a rebase resolved anew (no hook runs then)
    if not claims and history.files.get(commit.sha) is None:
        return f"not counted: committed while .tg-git/ was removed (its change estimates {estimate:,} tokens)"
    if not claims:
        return messages.text(lang, "drift_uncounted", estimate=estimate)
    return messages.text(lang, "drift_short", claimed=claimed, estimate=estimate)
