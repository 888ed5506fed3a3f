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
lists the commits, one ``git cat-file --batch-check`` finds each one's config, one ``git
diff-tree`` reads what each did to the ledger's event lines (its patches: ``repo.ledgerdiff``)
and one more what it changed to count. A line is looked up in an index of where history added
it; only a line another commit added too is looked for in the files (one ``git cat-file``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from tg_git.domain import config as config_mod
from tg_git.domain import eventlog
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
from tg_git.estimate.estimator import PROFILE_NAMES
from tg_git.repo import git, gitquery, journal, ledgerdiff
from tg_git.repo.staged import Added, count_all, new_to_both, parse_patch
from tg_git.repo.workspace import Workspace
from tg_git.services import recount
from tg_git.text import messages

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import CommitEvent, Event

CHECKPOINT_FILES = frozenset({CHECKPOINT_JSON, CHECKPOINT_MD})


def _in_one_folder(changes: Iterable[str]) -> bool:
    """A save's two files in its `checkpoint.dir`: both names, in one folder, nothing else."""
    paths = sorted(changes)
    folders = {p.rpartition("/")[0] for p in paths}
    names = {p.rpartition("/")[2] for p in paths}
    return len(folders) == 1 and names <= CHECKPOINT_FILES and len(names) == len(paths)


@dataclass(frozen=True)
class _Finding:  # what verify found about one commit; as_dict: its fields in order
    commit: str
    subject: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Drift(_Finding):
    reason: str


@dataclass(frozen=True)
class Outside(_Finding):
    estimate: int


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


_RECOUNT = f'"{recount.FIELD}"'  # in a recount event's line (`recount.recounted` looks alike)
_AT = (CONFIG_PATH, LEDGER_DIR, LEDGER_PATH)  # a commit holding any of them is set up


class _History:
    """The commits of a range and their parents: which are set up (hold ``.tg-git/``), the
    config each was counted with, and what each did to the ledger's event lines, with an
    index of where history ever added each line. A line is looked up there, and in the few
    files it names, never in every ledger file of a commit (a long session has hundreds)."""

    def __init__(self, ws: Workspace, commits: list[gitquery.Commit]) -> None:
        self.ws = ws
        self.where: dict[str, str] = {}  # line -> the ledger file history first added it to
        self.more: dict[str, set[str]] = {}  # line -> the other files it was added to
        self.adder: dict[str, str] = {}  # line -> the one commit that added it ("": several)
        self.shared: set[str] = set()  # lines the edge holds, or several commits added
        folders = self._objects(commits)
        pairs = [(c.sha, p) for c in commits for p in c.parents or (None,)]
        patches, held = ledgerdiff.patches(ws.repo, pairs, folders)
        for changes in held:  # the edge's folders, as added to an empty tree
            self._index(changes, "")
        each = iter(ledgerdiff.split(patch) for patch in patches)
        self.rest: dict[str, list[bytes]] = {}  # per commit and parent: the patch to count
        self.changes: dict[str, list[list[ledgerdiff.Change]]] = {}  # ... and its ledger's
        for commit in commits:  # one patch a parent (a root commit's: one)
            found = [next(each) for _ in commit.parents or (None,)]
            self.rest[commit.sha] = [rest for rest, _ in found]
            self.changes[commit.sha] = [changes for _, changes in found]
            self._index(self.changes[commit.sha][0], commit.sha)
        self._held: dict[tuple[str, str], frozenset[str]] = {}  # (commit, file) -> its lines
        self._lines: dict[str, frozenset[str]] = {}
        self._configs: dict[str | None, Config] = {}

    def _objects(self, commits: list[gitquery.Commit]) -> list[str]:
        """Which commits are set up and their configs, and the edge's ledger (the parents
        outside the range): its single ledger file indexed, its folders' tree ids returned
        (``ledgerdiff.patches`` reads them)."""
        shas = list(dict.fromkeys(s for c in commits for s in (c.sha, *c.parents)))
        found = gitquery.object_ids(self.ws.repo, [f"{s}:{path}" for s in shas for path in _AT])
        self.set_up = {sha for n, sha in enumerate(shas) if any(found[3 * n : 3 * n + 3])}
        self.config_blob = {sha: _blob(found[3 * n]) for n, sha in enumerate(shas)}
        ranged = {c.sha for c in commits}
        edge = [n for n, sha in enumerate(shas) if sha not in ranged]
        folders = [t[0] for n in edge if (t := found[3 * n + 1]) and t[1] == "tree"]
        singles = list(dict.fromkeys(b for n in edge if (b := _blob(found[3 * n + 2]))))
        blobs = [b for b in dict.fromkeys(self.config_blob.values()) if b]
        read = git.read_objects(self.ws.repo, blobs + singles) if blobs or singles else []
        self._raw = {b: obj.data for b, obj in zip(blobs, read) if obj}
        for obj in read[len(blobs) :]:  # tg-git 0.1's single ledger file
            text = obj.data.decode("utf-8", "replace") if obj else ""
            self._index([ledgerdiff.Change(LEDGER_PATH, eventlog.event_lines(text), [])], "")
        return list(dict.fromkeys(folders))

    def _index(self, changes: list[ledgerdiff.Change], sha: str) -> None:
        """Where ``sha`` ("": the edge) added each line of ``changes``."""
        for change in changes:
            if self.where.keys().isdisjoint(change.added):  # new to history: at C speed
                self.where.update(dict.fromkeys(change.added, change.path))
                self.adder.update(dict.fromkeys(change.added, sha))
                if not sha:
                    self.shared.update(change.added)
            else:
                for line in change.added:
                    if self.adder.setdefault(line, sha) != sha or not sha:
                        self.adder[line] = ""
                        self.shared.add(line)
                    self._place(line, change.path)
            for line in change.removed:  # there already (history added it): kept exact
                self._place(line, change.path)

    def _place(self, line: str, path: str) -> None:
        if self.adder.setdefault(line, "") == "":  # held where no commit added it: the edge
            self.shared.add(line)
        if self.where.setdefault(line, path) != path:
            self.more.setdefault(line, set()).add(path)

    def paths(self, line: str) -> tuple[str, ...]:
        """The ledger files history ever added ``line`` to."""
        first = self.where.get(line)
        return (first, *self.more.get(line, ())) if first else ()

    def _added(self, commit: gitquery.Commit) -> tuple[set[str], set[str]]:
        """The lines ``commit`` added to its ledger files, and those of them that some other
        commit (or the edge) added as well: the only ones a parent may hold."""
        found = set().union(*(c.added for c in self.changes[commit.sha][0]))
        return found, found & self.shared

    def _asks(self, commit: gitquery.Commit, tip: str) -> Iterator[tuple[str, str]]:
        """The files (commit, path) whose lines ``lines_of(commit)`` looks into."""
        for line in self._added(commit)[1]:
            yield from ((p, path) for p in commit.parents for path in self.paths(line))
        for changes in self.changes[commit.sha]:
            for line in (line for change in changes for line in change.removed):
                yield from ((at, path) for at in (commit.sha, tip) for path in self.paths(line))

    def read(self, tip: str, commits: list[gitquery.Commit]) -> None:
        """Read, in one ``cat-file`` process, every file the checks of ``commits`` and the
        recount events at ``tip`` look into."""
        wanted = dict.fromkeys(ask for c in commits for ask in self._asks(c, tip))
        recounts = [line for line in self.where if _RECOUNT in line]
        wanted.update(dict.fromkeys((tip, path) for ln in recounts for path in self.paths(ln)))
        asks = list(wanted)
        found = git.read_objects(self.ws.repo, [f"{sha}:{path}" for sha, path in asks])
        for ask, obj in zip(asks, found):
            if obj is None or obj.kind != "blob":
                self._held[ask] = frozenset()
            elif obj.id not in self._lines:
                text = obj.data.decode("utf-8", "replace")
                self._held[ask] = self._lines[obj.id] = frozenset(eventlog.event_lines(text))
            else:
                self._held[ask] = self._lines[obj.id]

    def has(self, sha: str, line: str) -> bool:
        """Whether ``line`` is in a ledger file of ``sha`` (asked through ``read``)."""
        return any(line in self._held.get((sha, path), ()) for path in self.paths(line))

    def lines_of(self, commit: gitquery.Commit) -> tuple[set[str], set[str]]:
        """The event lines ``commit`` added to the ledger (in no file of any parent) and those
        it took away (in no file of its own)."""
        added, doubt = self._added(commit)
        added -= {ln for ln in doubt if any(self.has(p, ln) for p in commit.parents)}
        removed = {
            line
            for changes in self.changes[commit.sha]
            for change in changes
            for line in change.removed
            if not self.has(commit.sha, line)
        }
        return added, removed

    def recounted(self, tip: str) -> set[str]:
        """The commits that recount events in the tip's ledger count (pushed with it)."""
        lines = sorted(ln for ln in self.where if _RECOUNT in ln and self.has(tip, ln))
        return recount.recounted("\n".join(lines)) if lines else set()

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
            except (TgGitError, UnicodeDecodeError, KeyError):
                self._configs[blob] = self.ws.config
        return self._configs[blob]


def _blob(found: tuple[str, str] | None) -> str | None:
    return found[0] if found and found[1] == "blob" else None


class _Kept:
    """Whether an event line still exists: in the tip's ledger files, the work tree's (each
    session's segments too) or this clone's journal. A removed line found here was restored
    (or will be, by the next commit). The work tree and the journal are read at the first
    line the tip does not hold."""

    def __init__(self, ws: Workspace, history: _History, tip: str) -> None:
        self.ws, self.history, self.tip = ws, history, tip
        self.local: set[str] | None = None

    def __contains__(self, line: object) -> bool:
        if not isinstance(line, str):
            return False
        if self.history.has(self.tip, line):
            return True
        if self.local is None:
            self.local = set()
            for rel in self.ws.all_ledger_files():
                self.local.update(eventlog.event_lines(self.ws.file_text(rel)))
            for name in journal.names(self.ws.repo):
                self.local.update(eventlog.event_lines(journal.read(self.ws.repo, name)))
        return line in self.local


def _shallow(ws: Workspace) -> set[str]:
    try:
        text = ws.repo.git_path("shallow").read_text(encoding="ascii")
    except OSError:
        return set()
    return set(text.split())


def verify_history(ws: Workspace, base: str | None = None, tip: str = "HEAD") -> Report:
    """Check every commit in ``base..tip`` (the current session's base by default)."""
    if base is None:
        base = _session_base(ws)
    report = Report(base=base or "", tip=tip, policy=ws.config.verify_outside)
    tip_sha = gitquery.rev_parse(ws.repo, tip)
    if tip_sha is None:
        return report
    base = _present_base(ws, base or "", report)
    commits = gitquery.log(ws.repo, [f"^{base}", tip] if base else [tip], reverse=True)
    history = _History(ws, commits)
    checked, boundary = _to_check(ws, history, commits, tip_sha, report)
    changes = _changes(history, checked)
    run = _Run(ws, history, report, _Kept(ws, history, tip_sha), _Seen(ws))
    lines = {c.sha: history.lines_of(c) for c in checked}
    run.parsed = _parse_all(ln for added, _ in lines.values() for ln in added)
    made: list[set[str] | None] = []  # the commits this clone made: read once, when needed
    for commit in checked:
        report.checked += 1
        reason = _check(run, commit, *lines[commit.sha], changes[commit.sha])
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


def _present_base(ws: Workspace, base: str, report: Report) -> str:
    """``base``, or "" (every commit) when this clone does not have it."""
    if base and not gitquery.exists(ws.repo, f"{base}^{{commit}}"):
        report.unseen.append(
            f"the session's base {base[:12]} is not in this clone (shallow or rewritten): "
            "every commit here was checked instead."
        )
        report.base = ""
        return ""
    return base


def _to_check(
    ws: Workspace, history: _History, commits: list[gitquery.Commit], tip: str, report: Report
) -> tuple[list[gitquery.Commit], int]:
    """The commits to check, oldest first, and how many sit at a shallow clone's boundary:
    those made where ``.tg-git/`` was set up (or after it was removed: checked too), less
    those a recount event at the tip counts (counted as checked)."""
    set_up = set(history.set_up)
    found = []
    for c in commits:  # oldest first: a commit made after .tg-git/ was removed is checked too
        if c.sha in set_up or set_up.intersection(c.parents):
            set_up.add(c.sha)
            found.append(c)
    history.read(tip, found)
    accepted = history.recounted(tip)
    report.checked += sum(1 for c in found if c.sha in accepted)
    shallow = _shallow(ws)
    found = [c for c in found if c.sha not in accepted]
    return [c for c in found if c.sha not in shallow], sum(1 for c in found if c.sha in shallow)


class _Seen:
    """This clone's journal: each event key's line as it first recorded it."""

    def __init__(self, ws: Workspace) -> None:
        self.first: dict[str, str] = {}
        for name in journal.names(ws.repo):
            for line in eventlog.event_lines(journal.read(ws.repo, name)):
                self.first.setdefault(eventlog.key_of(line), line)
        self.lines = set(self.first.values())

    def changed(self, added: set[str]) -> list[str]:
        """The lines of ``added`` whose event the journal recorded otherwise."""
        return [ln for ln in added - self.lines if self.first.get(eventlog.key_of(ln), ln) != ln]


def _parse_all(lines: Iterable[str]) -> dict[str, Event] | None:
    """Each line's event, every line parsed at once (a parse a commit costs ~0.1 ms each);
    None when they do not read as that many events (the commits are parsed one by one)."""
    found = sorted(set(lines))
    try:
        events = eventlog.parse("\n".join(found))
    except Exception:  # a corrupt or smuggled line: its commit's own parse words it
        return None
    return dict(zip(found, events.values())) if len(events) == len(found) else None


@dataclass
class _Run:
    """What checking each commit of a range reads."""

    ws: Workspace
    history: _History
    report: Report
    kept: _Kept
    seen: _Seen
    parsed: dict[str, Event] | None = None


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


def _changes(history: _History, commits: list[gitquery.Commit]) -> dict[str, Added]:
    """What each commit adds: against its first parent, and for a merge only the lines new
    to every parent (its resolution)."""
    result: dict[str, Added] = {}
    for commit in commits:
        changes, *others = (parse_patch(patch) for patch in history.rest[commit.sha])
        for other in others:
            changes = new_to_both(changes, other)
        result[commit.sha] = changes
    return result


def _estimator_of(events: Sequence[CommitEvent], config: Config) -> tuple[Config, str]:
    """The config to re-estimate with (the profile the events name) and the estimator id
    they recorded ("" when they name none: counted before ids were recorded)."""
    for event in events:
        name = str(event.get("estimator", ""))
        profile = name.partition("/")[0]
        if name and profile in PROFILE_NAMES:
            return config._replace(profile=profile), name
        if name:
            return config, name
    return config, ""


def _check(
    run: _Run, commit: gitquery.Commit, added: set[str], removed: set[str], changes: Added
) -> str | Outside | None:
    """Why ``commit`` drifts (``added`` and ``removed``: its ledger lines), None when it
    does not, or what it is when no tg-git hook may have run (``Outside``)."""
    claims = _claims(run, added, removed)
    if isinstance(claims, str):
        return claims
    return _count(run.ws, run.history, commit, run.report, claims, bool(added or removed), changes)


def _claims(run: _Run, added: set[str], removed: set[str]) -> str | list[CommitEvent]:
    """The commit events the lines a commit added claim its change with, or why its ledger
    lines drift: an event this clone recorded otherwise, a line removed that is nowhere
    now, a line that does not read as an event."""
    lang = run.ws.config.language
    changed = run.seen.changed(added)
    if changed:
        return messages.text(lang, "drift_changed", n=len(changed))
    lost = [ln for ln in removed if ln not in run.kept]
    if lost:
        return messages.text(lang, "drift_lost", n=len(lost))
    if run.parsed is not None:
        events: Iterable[Event] = (run.parsed[ln] for ln in sorted(added))
    else:
        try:
            events = eventlog.parse("\n".join(sorted(added))).values()
        except Exception as exc:  # a corrupt or smuggled line in history is drift too
            said = exc.text(lang) if isinstance(exc, TgGitError) else str(exc)
            return messages.text(lang, "drift_unreadable", error=said[:120])
    return [e for e in events if e["kind"] == "commit" and "recount" not in e]


def _count(
    ws: Workspace,
    history: _History,
    commit: gitquery.Commit,
    report: Report,
    claims: list[CommitEvent],
    in_ledger: bool,
    changes: Added,
) -> str | Outside | None:
    """Re-estimate a commit's change with the estimator its events name and weigh it against
    what they claim (``in_ledger``: it added or removed ledger lines)."""
    lang = ws.config.language
    config, recorded = _estimator_of(claims, history.config(commit.sha))
    if commit.message.startswith("checkpoint:") and CHECKPOINT_TRAILER in commit.message:
        if (set(changes) <= CHECKPOINT_FILES or _in_one_folder(changes)) and not history.changes[
            commit.sha
        ][0]:
            report.checked -= 1
            return None  # a real checkpoint: adds no events by design
        if not claims:
            return messages.text(lang, "drift_checkpoint_like")
    exact = "/exact-" in recorded  # re-counted by the backend that counted it, if it is here
    counts = [c for c in count_all(changes, config, exact) if c.counted and not c.binary]
    if recorded and counts and counts[0].estimator != recorded:
        values = {"commit": commit.sha[:12], "recorded": recorded, "ours": counts[0].estimator}
        report.unseen.append(messages.text(lang, "verify_other_estimator", **values))
        return None
    estimate = sum(c.tokens for c in counts)
    set_up = commit.sha in history.set_up
    if not (claims or in_ledger) and estimate and set_up:
        return Outside(commit.sha, commit.subject, estimate)  # unless this clone made it
    return _balance(lang, report, claims, estimate, set_up)


def _balance(
    lang: str, report: Report, claims: list[CommitEvent], estimate: int, set_up: bool
) -> str | None:
    """A running balance, in commit order: a reordering rebase or a restore moves events to
    a neighbouring commit, which must not cry wolf; work nobody claimed still shows."""
    claimed = sum(int(e.get("tokens", 0)) for e in claims)
    report.balance += claimed - estimate
    if report.balance >= 0:
        return None
    deficit, report.balance = -report.balance, 0
    if claims and deficit * 5 <= estimate:
        return None  # a counted commit whose lines a rebase resolved anew (no hook runs then)
    if not claims and not set_up:
        return messages.text(lang, "drift_while_removed", estimate=estimate)
    if not claims:
        return messages.text(lang, "drift_uncounted", estimate=estimate)
    return messages.text(lang, "drift_short", claimed=claimed, estimate=estimate)
