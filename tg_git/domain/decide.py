"""The commit decision, as a pure function: ledger texts and staged counts in, the new ledger
text, the level and refuse/save out. No git, no files: ``hooks_runner`` does the I/O.

The session's ledger file for the commit being made is the union of every version of it
this clone can see: HEAD's, the index's, the work tree's (when tg-git wrote it), the
journal's, the versions in commits whose events certainly landed (ORIG_HEAD, HEAD@{1}),
and the other side's while a merge, cherry-pick or squash is concluded; plus one event for
the staged change. What was lost by a revert, reset, rebase or hand edit comes back;
a line that is in none of those but is a commit event is left over from an attempt that
never landed (a failed commit-msg hook, an aborted `git commit PATH`) and is dropped, so a
retried or amended commit counts once. Lines that do not read as events (junk, conflict
markers) are dropped too, and the commit says how many.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tg_git.domain import budget, eventlog, levels, replay
from tg_git.domain.config import Config
from tg_git.domain.typed import NamedTuple

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

SKIP, COUNT, REFUSE, FULL = "skip", "count", "refuse", "full"  # full: ask again with every file
HALTED, UNSTAGED = "halt", "unstaged"
RANK = {levels.OK: 0, levels.WARNING: 1, levels.FORCE_SAVE: 2, levels.HALT: 3}


class FileCount(NamedTuple):
    path: str
    tokens: int
    lines: int
    binary: bool = False
    counted: bool = True  # False for excluded paths (lock files, tg-git's files, checkpoints)
    estimator: str = ""  # estimate.estimator_id of the commit's tier (one for all its files)


class Inputs(NamedTuple):  # a NamedTuple: built ~10x faster than a dataclass on the hook path
    session_id: str | None  # the work tree's current session; None before any
    head: str | None = None  # the session's ledger file in HEAD
    staged: str | None = None  # ... in the index being committed
    worktree: str | None = None  # ... in the work tree
    worktree_ours: bool = False  # the work tree's text is tg-git's own last write
    pending: str = ""  # the session's pending file (index and work tree): events to fold in
    journal: str = ""
    landed: Sequence[str] = ()  # ... in ORIG_HEAD and HEAD@{1}: events there have landed
    theirs: Sequence[str] = ()  # ... in MERGE_HEAD / CHERRY_PICK_HEAD / a squashed tip
    legacy: str = ""  # this session's lines of the tg-git 0.1 single ledger
    elsewhere: str = ""  # the session's journaled events on this clone's other branches
    counts: Sequence[FileCount] = ()
    estimator: str = ""
    allow_halt: bool = False
    merge_hook: bool = False  # pre-merge-commit: the tree is written, nothing may be staged
    restore: bool = True  # False mid-rebase: the sequencer's index must not change under it
    # The session's settled files replayed (``base``, newest event at ``base_at``): the texts
    # above are then its last file's alone. None: they are the whole session's.
    base: replay.Session | None = None
    base_at: str = ""
    base_keys: Collection[str] = ()  # the keys of the base's events at ``base_at``


class Decision(NamedTuple):
    action: str  # skip | count | refuse
    reason: str = ""  # why it skipped or refused
    text: str | None = None  # the new ledger file text; None: leave the file alone
    journal: Sequence[str] = ()  # landed lines to journal
    before: replay.Session | None = None
    after: replay.Session | None = None
    tokens: int = 0
    level: str = levels.OK
    crossed: str | None = None  # the level this commit newly reached
    override: bool = False
    repaired: int = 0  # lines dropped because they are not events


_clean = eventlog.clean_lines


def _kind(events: dict[str, eventlog.Event], line: str) -> str | None:
    event = events.get(eventlog.key_of(line))
    return event["kind"] if event else None


class _Clean(NamedTuple):
    """The inputs' texts as event lines, lines that do not read as events dropped."""

    head: list[str]
    staged: list[str]
    worktree: list[str]
    journal: list[str]
    legacy: list[str]
    pending: list[str]
    landed: list[list[str]]
    theirs: list[list[str]]
    repaired: int  # lines dropped (the journal's aside)


def _cleaned(inp: Inputs) -> _Clean:
    named = (inp.head, inp.staged, inp.worktree, inp.journal, inp.legacy, inp.pending)
    everything_raw = [*named, *inp.landed, *inp.theirs]
    if _clean("\n".join(eventlog.union(*everything_raw)))[1] == 0:
        # The common case: every line reads (one parse of the distinct lines): no line by line.
        texts = [eventlog.event_lines(text) for text in named]
        landed = [eventlog.event_lines(t) for t in inp.landed]
        theirs = [eventlog.event_lines(t) for t in inp.theirs]
        return _made(texts, landed, theirs, 0)
    repaired = 0
    texts = []
    for n, text in enumerate(named):
        lines, dropped = _clean(text)
        texts.append(lines)
        repaired += dropped if n != 3 else 0  # the journal's own lines are not the ledger's
    landed = [_clean(t)[0] for t in inp.landed]
    theirs = [_clean(t)[0] for t in inp.theirs]
    return _made(texts, landed, theirs, repaired)


def _made(
    texts: list[list[str]], landed: list[list[str]], theirs: list[list[str]], repaired: int
) -> _Clean:
    head, staged, worktree, journal, legacy, pending = texts
    return _Clean(head, staged, worktree, journal, legacy, pending, landed, theirs, repaired)


def _joined(lines: list[str]) -> str:
    return "\n".join(lines)


def _staged_lines(inp: Inputs, cleaned: _Clean) -> list[str] | None:
    """The index's lines with the work tree's (when tg-git wrote it) and the pending ones;
    None when the work tree holds a user's unstaged edit (the commit is refused)."""
    staged_lines = cleaned.staged
    if inp.worktree is not None and eventlog.normalise(inp.worktree) != eventlog.normalise(
        inp.staged or ""
    ):
        if not inp.worktree_ours and (inp.staged is not None or inp.head is not None):
            return None
        staged_lines = eventlog.union(_joined(staged_lines), _joined(cleaned.worktree))
    if cleaned.pending:  # recorded since the last commit: they land with this one
        staged_lines = eventlog.union(_joined(staged_lines), _joined(cleaned.pending))
    return staged_lines


def _landed_at(
    inp: Inputs,
    cleaned: _Clean,
    events: dict[str, eventlog.Event],
    elsewhere: dict[str, eventlog.Event],
    everyone: dict[str, eventlog.Event],
    before: replay.Session,
    config: Config,
    replayed: Callable[[dict[str, eventlog.Event]], replay.Session | None],
) -> tuple[str, bool, bool]:
    """The level the session's work landed at before this commit, whether the halt is
    overridden, and whether the commit is refused at the halt.

    The commit that first crosses the halt level lands (even when recorded input took the
    session there); once a commit of the session has landed at halt, the next is refused.
    Each line of work is judged on its own: a merge whose two sides reach the halt only
    together is the crossing commit, and lands (its post-commit saves the halt)."""
    ours = eventlog.union(_joined(cleaned.head), *map(_joined, cleaned.landed))
    ours_keys = {eventlog.key_of(ln) for ln in ours} | {
        eventlog.key_of(ln) for ln in cleaned.journal if _kind(events, ln) == "commit"
    }
    # Other lines of work: what their journals hold landed there, inputs up to the newest
    # commit journaled there (recorded later, they have not landed yet): a session halted on
    # one branch stays halted on every branch of this clone.
    # (All of them: a merge or a `cherry-pick -n` may stage their lines here too.)
    last = max(
        (str(e.get("at", "")) for e in elsewhere.values() if e.get("kind") == "commit"), default=""
    )
    ours_keys |= {
        k for k, e in elsewhere.items() if e.get("kind") != "input" or str(e.get("at", "")) <= last
    }
    theirs = cleaned.theirs
    sides = [ours_keys] + (
        [{eventlog.key_of(ln) for ln in eventlog.union(*map(_joined, theirs))}] if theirs else []
    )
    override = False
    landed_at = levels.OK
    for keys in sides:
        committed = replayed({k: e for k, e in everyone.items() if k in keys})
        if committed is None or committed.id != before.id:
            continue
        reached = budget.landed_level(committed, before, config)
        landed_at = max(landed_at, reached, key=RANK.__getitem__)
        if reached == levels.HALT:
            if not inp.allow_halt:
                return landed_at, override, True
            override = True
    return landed_at, override, False


def _commit_line(inp: Inputs, session_id: str, override: bool) -> tuple[str | None, int]:
    """The commit's own event line (None when it adds nothing counted and overrides nothing),
    and its tokens."""
    counts = [c for c in inp.counts if c.counted and not c.binary]
    tokens = sum(c.tokens for c in counts)
    if not (counts or override):
        return None, tokens
    extra: dict[str, Any] = {"override": True} if override else {}
    if counts:  # its first file and how many: two fields, never read back out of a label
        extra["path"] = counts[0].path
        # The label older tg-git versions read in a shared ledger ("path (+N)").
        more = f" (+{len(counts) - 1})" if len(counts) > 1 else ""
        extra["label"] = counts[0].path + more
    if inp.estimator:
        extra["estimator"] = inp.estimator
    _, line = eventlog.event_line(
        "commit", session=session_id, tokens=tokens, files=len(counts), **extra
    )
    return line.rstrip("\n"), tokens


def decide(inp: Inputs, config: Config) -> Decision:
    if inp.session_id is None:
        return Decision(SKIP, "no-session")
    cleaned = _cleaned(inp)
    repaired = cleaned.repaired
    staged_lines = _staged_lines(inp, cleaned)
    if staged_lines is None:
        return Decision(REFUSE, UNSTAGED)
    # The journal first: an event's first version is the true one, so a hand edit of a line
    # that was committed (a lower count) is undone by the next commit.
    sure = eventlog.union(
        _joined(cleaned.journal),
        _joined(cleaned.head),
        *map(_joined, cleaned.landed),
        *map(_joined, cleaned.theirs),
        _joined(cleaned.legacy),
    )
    everything = eventlog.union(_joined(sure), _joined(staged_lines))
    events = eventlog.parse(_joined(everything))
    sure_set = set(sure)
    stale = {ln for ln in everything if ln not in sure_set and _kind(events, ln) == "commit"}
    lines = [ln for ln in (everything if inp.restore else staged_lines) if ln not in stale]
    kept = {eventlog.key_of(ln) for ln in lines}
    events = {k: e for k, e in events.items() if k in kept}
    measured = config.budget_source != "estimate"
    # The session's spend on other branches counts toward its levels; it is not written here.
    elsewhere = eventlog.parse(_joined(_clean(inp.elsewhere)[0]))
    away = {k: e for k, e in elsewhere.items() if k not in events}
    settled = inp.base
    if settled is not None and replay.may_be_settled(
        (*events.items(), *away.items()), inp.base_at, inp.base_keys
    ):
        return Decision(FULL)  # an event older than the settled files', or theirs: replay all

    def replayed(chosen: dict[str, eventlog.Event]) -> replay.Session | None:
        if settled is None:
            return replay.replay(chosen, use_measured=measured)
        return replay.resumed(settled, chosen)

    before = replayed({**events, **away})
    if before is None or before.id != inp.session_id:
        return Decision(SKIP, "no-start", repaired=repaired)
    everyone = {**events, **away}
    landed_at, override, refused = _landed_at(
        inp, cleaned, events, elsewhere, everyone, before, config, replayed
    )
    if refused:
        return Decision(REFUSE, HALTED, before=before, after=before, level=levels.HALT)

    journaled = set(cleaned.journal)
    journal_new = [
        ln
        for ln in eventlog.union(_joined(cleaned.head), *map(_joined, cleaned.landed))
        if ln not in journaled
    ]
    if inp.merge_hook:  # git already wrote the merge's tree: staging now would leak
        level = budget.session_level(before, config)
        return Decision(
            SKIP,
            "merge",
            journal=journal_new,
            before=before,
            after=before,
            level=level,
            repaired=repaired,
        )

    line, tokens = _commit_line(inp, before.id, override)
    if line is not None:
        lines.append(line)
    after = before.copy(output=before.output + tokens)
    level = budget.session_level(after, config)
    # Crossed: this commit is the first to land there, even when recorded input (not landed
    # until a commit carries it) took the session there before it.
    crossed = level if RANK[level] > RANK[landed_at] else None
    base = inp.worktree if inp.worktree_ours and inp.worktree is not None else inp.staged
    text = eventlog.rewrite(base, lines)
    if not inp.restore and lines == staged_lines and inp.staged is not None and not inp.pending:
        text = inp.staged  # nothing to add: leave the file exactly as staged
    return Decision(
        COUNT,
        text=text,
        journal=journal_new,
        before=before,
        after=after,
        tokens=tokens,
        level=level,
        crossed=crossed,
        override=override,
        repaired=repaired,
    )
