"""What verify reads of each commit of a range: its ``Facts`` (the lines it added, what its
events claim, what its change re-estimates to), from git (``cold``: the whole range in a fixed
number of git processes) or from the memo of earlier verifies (``warm``: only the commits the
memo has not seen are read from git, and only when reading them alone gives what a whole read
would; else the range is read whole).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain, repeat
from operator import itemgetter
from typing import TYPE_CHECKING

from tg_git.domain import eventlog
from tg_git.domain.config import Config
from tg_git.domain.counts import count
from tg_git.domain.errors import TgGitError
from tg_git.domain.layout import CHECKPOINT_JSON, CHECKPOINT_MD
from tg_git.domain.refs import LEVEL_TRAILER as CHECKPOINT_TRAILER  # one home: refs.py
from tg_git.estimate.estimator import (
    PROFILE_NAMES,
    VOCAB_MAX_BYTES,
    Tally,
    tier,
    tier_id,
    utf8_size,
)
from tg_git.repo import gitquery, ledgerdiff
from tg_git.repo.staged import Added, count_all, new_to_both
from tg_git.repo.workspace import Workspace
from tg_git.services import verify_memo
from tg_git.services.verify_index import RECOUNT, History, shallow
from tg_git.services.verify_memo import COLD, UNREAD, Edge, Facts, Memo, edge_key, stub
from tg_git.text import messages

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import CommitEvent, Event

CHECKPOINT_FILES = frozenset({CHECKPOINT_JSON, CHECKPOINT_MD})


class Found:
    """One commit as this verify reads it: its facts, the ledger lines it removed (those
    its own files no longer hold) and why its lines do not read, if they do not. (Plain
    classes here: ``dataclasses``, with ``inspect``, costs each verify a few ms to import.)"""

    __slots__ = ("error", "facts", "removed")

    def __init__(
        self, facts: Facts, removed: set[str] | None = None, error: str | None = None
    ) -> None:
        self.facts = facts
        self.removed: set[str] = set() if removed is None else removed
        self.error = error

    @property
    def plain(self) -> bool:  # what the memo keeps
        return not self.removed and self.error is None


class Plan:
    """The commits to check, oldest first, each one's ``Found``; how many sit at a shallow
    clone's boundary; the history read (None when every commit came from the memo)."""

    def __init__(
        self,
        checked: list[gitquery.Commit],
        found: dict[str, Found],
        boundary: int = 0,
        history: History | None = None,
        edge: str = "",
    ) -> None:
        self.checked, self.found, self.boundary = checked, found, boundary
        self.history = history
        self.edge = edge  # the key of the range's edge (``verify_memo.edge_key``)
        self.accepted = 0  # commits a recount event at the tip counts (checked, not read)


def _in_one_folder(changes: Iterable[str]) -> bool:
    """A save's two files in its `checkpoint.dir`: both names, in one folder, nothing else."""
    paths = sorted(changes)
    folders = {p.rpartition("/")[0] for p in paths}
    names = {p.rpartition("/")[2] for p in paths}
    return len(folders) == 1 and names <= CHECKPOINT_FILES and len(names) == len(paths)


def reach(set_up: set[str], commits: list[gitquery.Commit]) -> list[gitquery.Commit]:
    """The commits made where ``.tg-git/`` was set up, oldest first, and those made after it
    was removed (checked too)."""
    set_up = set(set_up)
    found = []
    for c in commits:
        if c.sha in set_up or set_up.intersection(c.parents):
            set_up.add(c.sha)
            found.append(c)
    return found


def _edge_of(commits: list[gitquery.Commit]) -> str:
    ranged = {c.sha for c in commits}
    return edge_key(p for c in commits for p in c.parents if p not in ranged)


def cold(
    ws: Workspace,
    memo: Memo,
    commits: list[gitquery.Commit],
    tip: str,
    listed: list[list[ledgerdiff.Entry] | None] | None = None,
) -> Plan:
    """Every commit of the range read from git (``listed``: what each pair changed, where the
    log listed it: ``ledgerdiff.log_listed``); what is plain is kept in ``memo``."""
    history = History(ws, commits, listed=listed)
    found = reach(history.set_up, commits)
    history.read(tip, found)
    accepted = history.recounted(tip)
    cut = shallow(ws)
    counted = [c for c in found if c.sha not in accepted]
    checked = [c for c in counted if c.sha not in cut]
    plan = Plan(checked, _read(ws, history, checked, memo), len(counted) - len(checked), history)
    plan.edge, plan.accepted = _edge_of(commits), len(found) - len(counted)
    edge = history.edge
    keys = "\n".join(eventlog.key_of(line) for line in edge)
    recount = any(RECOUNT in line for line in edge)
    memo.put_edge(plan.edge, Edge(tuple(sorted(history.edge_set_up)), keys, recount))
    checking = {c.sha for c in found}
    for c in commits:
        if c.sha not in checking:
            memo.put(c.sha, stub(c.parents, UNREAD))
        elif c.sha in accepted or c.sha in cut or not _keeps(history, c, plan.found[c.sha]):
            memo.put(c.sha, stub(c.parents, COLD))
        else:
            memo.put(c.sha, plan.found[c.sha].facts)
    return plan


def _keeps(history: History, commit: gitquery.Commit, found: Found) -> bool:
    """Whether the memo may keep what ``commit`` was found to be (``Found.plain``, and it
    adds no recount event: what that counts depends on the tip)."""
    return found.plain and history.recounts.isdisjoint(history.raw(commit))


def _read(
    ws: Workspace, history: History, commits: list[gitquery.Commit], memo: Memo
) -> dict[str, Found]:
    """Each commit's ``Found``, read from ``history``."""
    changes = _changes(history, commits)
    lines = [history.lines_of(c) for c in commits]
    # In commit order, a line several commits added once each (``written`` keys its result
    # by line): ~30 ms less at 100,000 lines than one set of them (lines read in the order
    # they were made, and no set built)
    every = list(chain.from_iterable(added for added, _ in lines))
    written = eventlog.written(every)
    parsed = _Parsed(written, False) if written is not None else _Parsed(_parse_all(every), True)
    read = _Reader(ws.config.language, history, parsed, memo)
    return {c.sha: read(c, *found, changes[c.sha]) for c, found in zip(commits, lines)}


class _Parsed:
    """The events of the lines the commits added, by line: every line's (``whole``), or only
    the commit events' when every line is as tg-git writes it (``eventlog.written``: the
    others claim nothing). None: parse each commit's lines on their own."""

    def __init__(self, events: dict[str, Event] | None, whole: bool) -> None:
        self.events, self.whole = events, whole

    def claims(self, added: AbstractSet[str], keys: list[str]) -> Iterable[Event] | None:
        """The events of ``added`` that may claim, in line order; None when its lines must be
        parsed together (a key twice among them: the parse words it)."""
        events = self.events
        if events is None:
            return None
        twice = not self.whole and len(set(keys)) < len(keys)  # keys: of lines ``added`` is in
        if twice and len({eventlog.key_of(ln) for ln in added}) < len(added):
            return None
        return map(events.__getitem__, sorted(events.keys() & added))  # the few that may claim


def warm(ws: Workspace, memo: Memo, commits: list[gitquery.Commit]) -> Plan | None:
    """The range from the memo, the commits it has not seen read from git alone; None when
    that would not give what a whole read gives (a cold read then): a commit that removed
    ledger lines, added a line some other commit of the range added (a merge, a
    restore), a recount event or a line that does not read; a shallow clone."""
    if not memo.usable or shallow(ws):
        return None
    plan = Plan([], {}, edge=_edge_of(commits))
    edge = memo.edge(plan.edge)
    if edge is None or edge.recount:
        return None
    facts: dict[str, Facts] = {}
    new = []
    for c in commits:
        kept = memo.get(c.sha, c.parents)
        if kept is None:
            new.append(c)
        elif kept.checkpoint == COLD:
            return None
        else:
            facts[c.sha] = kept
    set_up = {sha for sha, f in facts.items() if f.set_up} | set(edge.set_up)
    if new:
        history = _new(ws, memo, new, facts, edge)
        if history is None:
            return None
        set_up |= history.set_up
        found = _read(ws, history, new, memo)
        if not all(_keeps(history, c, found[c.sha]) for c in new):
            return None
        for c in new:
            memo.put(c.sha, found[c.sha].facts)
            facts[c.sha] = found[c.sha].facts
    plan.checked = reach(set_up, commits)
    if any(facts[c.sha].checkpoint == UNREAD for c in plan.checked):
        return None
    plan.found = {c.sha: Found(facts[c.sha]) for c in plan.checked}
    return plan


def _new(
    ws: Workspace, memo: Memo, new: list[gitquery.Commit], facts: dict[str, Facts], edge: Edge
) -> History | None:
    """The commits the memo has not seen, read from git alone (their patches, their configs),
    or None when one of them removed a ledger line, or added one that the edge or another
    commit of the range holds or added: then only a whole read knows where it is."""
    history = History(ws, new, edge=False)
    known = set(edge.keys.split("\n")) if edge.keys else set()
    for f in facts.values():
        known.update(f.lines())
    for c in new:
        if any(change.removed for changes in history.changes[c.sha] for change in changes):
            return None
        keys = [eventlog.key_of(line) for line in history.raw(c)]
        if not known.isdisjoint(keys):
            return None
        known.update(keys)
    return history


def _changes(history: History, commits: list[gitquery.Commit]) -> dict[str, Added]:
    """What each commit adds: against its first parent, and for a merge only the lines new
    to every parent (its resolution)."""
    result: dict[str, Added] = {}
    rests, added = history.rest, ledgerdiff.added
    for commit in commits:
        patches = rests[commit.sha]
        changes = added(patches[0])
        for patch in patches[1:]:
            changes = new_to_both(changes, added(patch))
        result[commit.sha] = changes
    return result


def _parse_all(lines: Iterable[str]) -> dict[str, Event] | None:
    """Each line's event, every line parsed at once (a parse a commit costs ~0.1 ms each);
    None when they do not read as that many events (the commits are parsed one by one)."""
    found = sorted(set(lines))
    try:
        events = eventlog.parse("\n".join(found))
    except Exception:  # a corrupt or smuggled line: its commit's own parse words it
        return None
    return dict(zip(found, events.values())) if len(events) == len(found) else None


class _Reader:
    """Each commit read (``__call__``): what does not change from one commit to the next,
    looked up once (a range's commits are read ~10 µs each)."""

    def __init__(self, language: str, history: History, parsed: _Parsed, memo: Memo) -> None:
        self.language, self.history, self.parsed = language, history, parsed
        self.config, self.digested, self.set_up = memo.config, memo.digested, history.set_up

    def __call__(
        self, commit: gitquery.Commit, added: AbstractSet[str], removed: set[str], changes: Added
    ) -> Found:
        """``commit`` read: its lines (``added`` and ``removed``), its claims, its estimate."""
        history = self.history
        raw = sorted(history.raw(commit))
        each = _keys(raw)
        digests = verify_memo.digests(raw, self.digested)
        held = (
            ()
            if len(added) == len(raw)
            else tuple(n for n, ln in enumerate(raw) if ln not in added)
        )
        sha = commit.sha
        config, own = history.counted_with(sha)
        kept = "" if own else self.config
        lines = (commit.parents, sha in self.set_up, "\n".join(each), digests, held)
        claims = _claims(self.language, added, self.parsed.claims(added, each))
        if isinstance(claims, str):
            return Found(Facts(*lines, 0, 0, 0, 0, "", "", kept), removed, claims)
        claimed = 0
        try:  # a count as replay reads it: a string, a boolean, a negative number is no claim
            for event in claims:
                claimed += count(event, "tokens")
        except TgGitError as exc:
            lang = self.language
            error = messages.text(lang, "drift_unreadable", error=exc.text(lang))
            return Found(Facts(*lines, 0, 0, 0, 0, "", "", kept), removed, error)
        facts = _count(history, config, commit, claims, changes, lines, kept, claimed)
        return Found(facts, removed)


def _keys(lines: list[str]) -> list[str]:
    """``eventlog.key_of`` of each of ``lines``, each step at C speed (no loop in Python)."""
    return list(map(str.strip, map(_FIRST, map(str.partition, lines, repeat("=")))))


_FIRST = itemgetter(0)


def _claims(
    lang: str, added: AbstractSet[str], parsed: Iterable[Event] | None
) -> str | list[CommitEvent]:
    """The commit events the lines a commit added claim its change with (``parsed``: their
    events, None: parse them), or why they do not read as events."""
    events: Iterable[Event]
    if parsed is not None:
        events = parsed
    else:
        try:
            events = eventlog.parse("\n".join(sorted(added))).values()
        except Exception as exc:  # a corrupt or smuggled line in history is drift too
            said = exc.text(lang) if isinstance(exc, TgGitError) else str(exc)
            return messages.text(lang, "drift_unreadable", error=said[:120])
    return [e for e in events if e["kind"] == "commit" and "recount" not in e]


def _estimator_of(
    events: Sequence[CommitEvent], config: Config, history: History
) -> tuple[Config, str]:
    """The config to re-estimate with (the profile the events name) and the estimator id
    they recorded ("" when they name none: counted before ids were recorded)."""
    for event in events:
        name = str(event.get("estimator", ""))
        profile = name.partition("/")[0]
        if name and profile in PROFILE_NAMES:
            return history.profiled(config, profile), name
        if name:
            return config, name
    return config, ""


def _count(
    history: History,
    config: Config,
    commit: gitquery.Commit,
    claims: list[CommitEvent],
    changes: Added,
    lines: tuple[tuple[str, ...], bool, str, bytes, tuple[int, ...]],
    own: str,
    claimed: int,
) -> Facts:
    """The commit's ``Facts``: what its ``lines`` are (their fields), its ``claims`` and the
    tokens they claim (``claimed``), and its change re-estimated by the estimator its events
    name: ``estimate``, ``checkpoint``, ``recorded`` and ``ours`` (made once: a commit costs
    each copy a few microseconds)."""
    config, recorded = _estimator_of(claims, config, history)
    told = len(claims)
    if commit.message.startswith("checkpoint:") and CHECKPOINT_TRAILER in commit.message:
        if (set(changes) <= CHECKPOINT_FILES or _in_one_folder(changes)) and not history.changes[
            commit.sha
        ][0]:  # a real checkpoint: adds no events by design
            return Facts(*lines, told, claimed, 0, 1, "", "", own)
        if not claims:
            return Facts(*lines, told, claimed, 0, 2, "", "", own)
    exact = "/exact-" in recorded  # re-counted by the backend that counted it, if it is here
    ours, estimate = estimate_change(changes, config, exact)
    return Facts(*lines, told, claimed, estimate, 0, recorded, ours, own)


_VOCAB: dict[str, str] = {}  # profile -> ``_vocab(profile, False)``


def _vocab(profile: str, exact: bool) -> str:
    """The vocabulary tier's id where ``tier`` counts a small text with it, else "" (not
    ``exact``: the tables' answer, told once a profile; ``exact``: the backend's, if here)."""
    found = None if exact else _VOCAB.get(profile)
    if found is None:
        found = tier_id(profile, "vocab") if tier(profile, 0, exact) == "vocab" else ""
        if not exact:
            _VOCAB[profile] = found
    return found


def estimate_change(changes: Added, config: Config, exact: bool) -> tuple[str, int]:
    """The estimator that counts ``changes`` and the tokens it counts (``staged.count_all``
    of the counted files that are not binary; "" and 0 when none is). A commit that added
    text to one counted file, small enough for the vocabulary tier (most of a session's
    commits), is counted as ``count_all`` counts it, without its bookkeeping for many files,
    binary ones and large texts: a third of the time a commit."""
    if len(changes) == 1:
        ((path, lines),) = changes.items()
        if lines and config.counts(path):
            data = b"\n".join(lines)
            if b"\0" not in data:  # else binary, as git tells it
                text = data.decode("utf-8", "replace")
                if utf8_size(text) <= VOCAB_MAX_BYTES and (vocab := _vocab(config.profile, exact)):
                    tally = Tally("vocab", config.profile, path)
                    tally.feed(text)
                    return vocab, tally.total()
    counts = [c for c in count_all(changes, config, exact) if c.counted and not c.binary]
    return (counts[0].estimator if counts else ""), sum(c.tokens for c in counts)
