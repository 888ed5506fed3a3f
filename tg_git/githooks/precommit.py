"""The pre-commit hook (and pre-merge-commit, a clean `git merge`): count the commit.

It gathers what the decision needs (the session's ledger file in HEAD, the index, the work
tree, the journal, ORIG_HEAD, HEAD@{1} and the other side of a merge, all through one
``git cat-file``; the staged change's counts), lets ``decide.decide`` choose, and writes and
stages the result under tg-git's lock; then it leaves post-commit what is due
(``tg_git.githooks.markers``). The session's pending file (what commands recorded since the
last commit, ``layout.pending_file``) is folded in: its events go into the session's file,
and the file leaves the index and the work tree in the same step (after `git commit PATH`,
whose real index git holds locked, post-commit takes it out of that index), so no commit holds
it, and a commit of records alone is not empty. One that reached a commit anyway (``--no-verify``) has landed; it is folded too.
pre-merge-commit stages nothing: git has written the merge's tree already, and
``merge=union`` made its ledger files the union of both sides.
"""

from __future__ import annotations

import gc
import os

from tg_git.domain.errors import ExitCode
from tg_git.domain.typed import NamedTuple
from tg_git.githooks.gathering import (
    all_ours,
    catch_up,
    commit_asked_for_one,
    edited,
    fold_others,
    index_file,
    join_segments,
    landed_and_tips,
    merging_by_env,
    pending_text,
    reader,
    remember,
    session_files,
    squash_tip,
)
from tg_git.githooks.markers import MARKER, SAVE_LEVELS, emit, leave_journal_due, leave_marker
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:  # the hot path imports nothing it does not use
    from tg_git.domain import decide
    from tg_git.domain.config import Config
    from tg_git.domain.replay import Session
    from tg_git.repo import git
    from tg_git.repo.settled import Fast
    from tg_git.repo.workspace import Workspace


class Gathered(NamedTuple):
    """What git holds for the commit being made, read once (one ``cat-file`` of every
    version of the session's ledger file the decision weighs)."""

    session_id: str
    rel: str  # the session's ledger file
    pending: str  # an older tg-git's pending file beside it (the index may hold one)
    squash: str | None  # the tip `git merge --squash` squashed
    previous: str  # HEAD@{1} on this branch
    revs: list[str]  # the revisions whose versions of the session are read
    found: dict[str, git.Object | None]  # spec -> object, as read
    head: str | None  # HEAD's commit id
    legacy: str  # the session's lines of the 0.1 single ledger
    files: list[str]  # the session's files the commit reads (``rel`` first)
    fast: Fast | None  # the settled files' base, when nothing could make it differ
    held: bytes | None  # the events waiting under the git dir since the last commit
    own: git.Object | None  # the index's ``rel`` alone (``found``'s ``:rel`` may be joined)
    measured: bool


class Read(NamedTuple):
    """One reading of the session for the decision: its files' texts in the work tree and
    the index, and what the pure decision is given."""

    found: dict[str, git.Object | None]
    files: list[str]
    fast: Fast | None
    mine: dict[str, str | None]  # each file's work-tree text
    worktree: str | None  # the work tree's files joined
    staged: dict[str, str | None]  # each file's text in the index being committed
    ours: bool  # the work tree's files are tg-git's own writes (or as staged)
    recorded: str | None  # the events to fold; None: a user's unstaged edit of the pending file
    known: str  # the journal as read
    landed: list[str]  # ``landed_and_tips``: texts whose events landed, the other side's,
    theirs: list[str]  # and the tips whose work is counted already
    tips: list[str]
    inputs: decide.Inputs
    result: decide.Decision


def pre_commit(merge_hook: bool = False) -> int:
    from tg_git.domain import decide  # lazy: 4.2 ms
    from tg_git.repo import journal  # lazy: 3.6 ms
    from tg_git.services.startup import open_workspace  # lazy: 10.4 ms

    if os.environ.get("TG_GIT_FAILPOINT") == "hook-crash":  # for the tests: a bug in the hook
        raise RuntimeError("failpoint hook-crash")
    ws = open_workspace(require_init=False)
    if not ws.initialised:
        return _not_set_up(ws, merge_hook)
    merge_hook = merge_hook or merging_by_env()
    real_index = ws.repo.git_file("index")
    env, partial = index_file(real_index)
    with journal.locked(ws.repo):
        session_id = ws.current_session_id()
        if session_id is None:
            emit(_text(ws.config, "hook_no_session"))
            return 0
        late = catch_up(ws, session_id)
        gathered = _gather(ws, session_id, env)
        read = _decide(ws, gathered, env, partial, real_index, merge_hook)
        result = read.result
        if result.journal:  # ``known``: what was read (in a fast view, since the base)
            read = read._replace(
                known=read.known + journal.record(ws.repo, gathered.rel, result.journal, read.known)
            )
        if result.action == decide.REFUSE:
            return _refuse(ws, gathered, read)
        if result.action == decide.SKIP:
            if result.reason == "no-start":
                emit(_text(ws.config, "hook_no_start", path=gathered.rel))
            return 0
        if _nothing_to_commit(ws, gathered, read, partial):
            return 0  # git makes no commit of an index equal to HEAD: nothing is staged
        texts, changed = _apply(ws, gathered, read, env)
    _speak(ws.config, gathered.rel, result, late)
    last = list(texts)[-1]  # the file with the commit's own event
    # Leave post-commit work only when there is some: the shim then skips Python entirely.
    if partial or result.level in SAVE_LEVELS:
        also = [p for p in changed if p != last]  # the lines filled a segment and opened one
        leave_marker(ws.repo, texts[last], last, partial, result.level, also)
    else:
        _discard(ws.repo.git_file(MARKER))
    return 0


def collect_from_here() -> None:
    """The native shim starts Python with the cyclic garbage collector off: the modules a
    hook loads make tens of thousands of objects and no garbage, and the collector's passes
    over them cost a commit about 5 % of its instructions. From the point where the work
    starts whose objects grow with the change (or with the history, in the other hooks), it
    runs again, over new objects only (what was loaded is frozen: never examined again)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _text(config: Config, key: str, **values: object) -> str:

    return messages.text(config.language, key, **values)


def _not_set_up(ws: Workspace, merge_hook: bool) -> int:
    """A work tree without ``.tg-git``: a sparse checkout that left it out (the index still
    holds it) is refused with its fix (its commits could never be counted); elsewhere, a
    commit that removes it too, one line says why nothing is (`verify` flags such work)."""
    from tg_git.domain.layout import CONFIG_PATH  # lazy: 0.3 ms
    from tg_git.repo import gitquery, journal  # lazy: 4.5 ms

    tracked = gitquery.exists(ws.repo, f"HEAD:{CONFIG_PATH}")
    if tracked and gitquery.exists(ws.repo, f":{CONFIG_PATH}"):
        emit(_text(ws.config, "hook_sparse"))
        return 0 if merge_hook or merging_by_env() else 1  # a merge brings no work of its own
    if journal.used_here(ws.repo):  # said in the clone's language: this branch has no config
        from tg_git.repo.configfile import MEMO, remembered_language  # lazy: 4.0 ms

        language = remembered_language(ws.repo.git_file(MEMO)) or ws.config.language
        emit(messages.text(language, "not_counted_no_tg_git"))
    elif not (merge_hook or merging_by_env()):  # a merge brings no work of its own
        emit(_text(ws.config, "hook_not_init"))
    return 0


def _gather(ws: Workspace, session_id: str, env: dict[str, str]) -> Gathered:
    """Read what git holds for the session's file in one ``cat-file``: HEAD's, the index's,
    ORIG_HEAD's, HEAD@{1}'s, the other side's, the older pending file's; the fast view of
    the settled files when it holds; the events waiting under the git dir."""
    from tg_git.domain import eventlog  # lazy: 0.8 ms
    from tg_git.domain.layout import LEDGER_PATH, ledger_file, pending_file  # lazy: 0.3 ms
    from tg_git.repo import git, ledger, reflogs  # lazy: 3.3 ms

    repo = ws.repo
    rel = ledger_file(session_id)
    pending = pending_file(rel)
    squash = squash_tip(repo)
    previous = reflogs.previous_head(repo) or "HEAD"  # HEAD@{1}, on this branch
    # HEAD^2: a merge whose strategy kept only our tree (`-s ours`) still brought its events
    revs = [
        "HEAD",
        "ORIG_HEAD",
        previous,
        "MERGE_HEAD",
        "CHERRY_PICK_HEAD",
        "HEAD^2",
        *([squash] if squash else []),
    ]
    folder = rel.removesuffix(".toml")  # the session's later segments, when it has any
    specs = [
        "HEAD",
        f"HEAD:{rel}",
        f":{rel}",
        "ORIG_HEAD",
        f"ORIG_HEAD:{rel}",
        f"{previous}:{rel}",
        "MERGE_HEAD",
        f"MERGE_HEAD:{rel}",
        "CHERRY_PICK_HEAD",
        f"CHERRY_PICK_HEAD:{rel}",
        f"HEAD^2:{rel}",
        f":{pending}",
        f"HEAD:{pending}",
        *(f"{rev}:{folder}" for rev in revs),
    ]
    if squash:
        specs += [squash, f"{squash}:{rel}"]
    files = ledger.segment_paths(repo.top, rel)  # the work tree's, ``rel`` first
    # ORIG_HEAD only when this branch was there (as ``landed_and_tips`` reads it)
    landed_revs = ["ORIG_HEAD", previous, "HEAD^2"]
    if len(files) > 1:  # settled files, read through their base (a session of one file has none)
        from tg_git.repo import settled  # lazy: 0.4 ms

        specs += settled.specs(rel, files, revs, landed_revs)
    found = dict(zip(specs, git.read_objects(repo, specs, env)))
    own = found[f":{rel}"]  # the index's ``rel`` alone (``:rel`` becomes the whole session)
    head = found["HEAD"][0] if found["HEAD"] else None
    legacy = ws.file_text(LEDGER_PATH) or ""
    if legacy:
        legacy = "\n".join(ln for ln in eventlog.event_lines(legacy) if f'"{session_id}"' in ln)
    measured = ws.config.budget_source != "estimate"
    fast = None
    if len(files) > 1 and not (legacy or squash):
        from tg_git.repo import settled  # lazy: 0.4 ms

        recent = settled.recent(repo, found, landed_revs)
        view = settled.fast_view(repo, rel, files, found, recent, measured)
        fast = view if isinstance(view, settled.Fast) else None  # else: read it all
    if fast is None and (len(files) > 1 or any(found[f"{rev}:{folder}"] for rev in revs)):
        files = join_segments(repo, rel, revs, found, files, env)
    held = ledger.held_bytes(repo, rel)
    return Gathered(
        session_id,
        rel,
        pending,
        squash,
        previous,
        revs,
        found,
        head,
        legacy,
        files,
        fast,
        held,
        own,
        measured,
    )


def _decide(
    ws: Workspace,
    g: Gathered,
    env: dict[str, str],
    partial: bool,
    real_index: str,
    merge_hook: bool,
) -> Read:
    """Decide on the fast view, or (it failing, or a settled file staged) on every file."""
    from tg_git.domain import decide  # lazy: 4.2 ms

    collect_from_here()
    counts: list[decide.FileCount] | None = None
    files, fast = g.files, g.fast
    while True:  # the settled files' replay and the last file; or, that failing, every file
        read = _read(ws, g, files, fast, env, partial, real_index)
        if counts is None:
            counts = [] if merge_hook else _counts(ws, g, read, env)
            if fast is not None and fast.staged(counts):
                fast = None  # a settled file is staged: read every file
                files = join_segments(
                    ws.repo, g.rel, g.revs, g.found, session_files(ws, g.rel), env
                )
                continue
        inputs = _inputs(ws, g, read, counts, merge_hook)
        result = (
            decide.decide(inputs, ws.config)
            if read.recorded is not None
            else decide.Decision(decide.REFUSE, decide.UNSTAGED)
        )
        if result.action != decide.FULL:
            return read._replace(inputs=inputs, result=result)
        fast = None
        files = join_segments(ws.repo, g.rel, g.revs, g.found, session_files(ws, g.rel), env)


def _counts(ws: Workspace, g: Gathered, read: Read, env: dict[str, str]) -> list[decide.FileCount]:
    from tg_git.repo.staged import staged_counts  # lazy: 11.2 ms

    return staged_counts(ws.repo, ws.config, env, g.head, read.tips)


def _read(
    ws: Workspace,
    g: Gathered,
    files: list[str],
    fast: Fast | None,
    env: dict[str, str],
    partial: bool,
    real_index: str,
) -> Read:
    """The session's files as the work tree and the index hold them (``fast``: its last
    file alone), and the events to fold."""
    from tg_git.domain import decide, eventlog  # lazy: 5.8 ms
    from tg_git.repo import journal, ledger  # lazy: 4.6 ms
    from tg_git.repo.workspace import SAVING  # lazy: 9.5 ms

    repo, rel = ws.repo, g.rel
    found = dict(g.found)
    if fast is not None:
        files = [fast.last]
        for rev in [*g.revs, ""]:
            found[f"{rev}:{rel}"] = found.get(f"{rev}:{fast.last}")
    if g.squash:
        found["SQUASH_TIP"], found[f"SQUASH_TIP:{rel}"] = (
            found[g.squash],
            found[f"{g.squash}:{rel}"],
        )
    found["PREVIOUS:" + rel] = found[f"{g.previous}:{rel}"]
    text = reader(found)
    raw = {path: ledger.read_bytes(ws.at(path), path) for path in files}
    worktree = eventlog.decode(ledger.join(list(raw.values())), rel)
    mine = {path: eventlog.decode(data, path) for path, data in raw.items()}
    staged_files = {path: text(f":{path}") for path in files}
    if fast is None:
        staged_files[rel] = g.own.data.decode("utf-8", "replace") if g.own else None
    ours = ws.is_ours(files[0], worktree) if len(files) == 1 else all_ours(ws, mine, staged_files)
    if not ours and partial and worktree is not None and files == [rel]:
        # `git commit PATH`: the real index holds the events recorded since HEAD
        from tg_git.repo import gitquery  # lazy: 0.6 ms

        real = gitquery.blob(repo, f":{rel}", {**env, "GIT_INDEX_FILE": real_index})
        ours = real is not None and eventlog.normalise(real.decode("utf-8", "replace")) == worktree
    if os.path.exists(repo.git_file(SAVING)):  # a checkpoint being saved right now
        from tg_git.services import checkpoint  # lazy: 36.1 ms

        checkpoint.keep_out_of_commit(repo, env, g.head)
    recorded = pending_text(ws, g.pending, text(f":{g.pending}"))
    if recorded is not None and g.held:  # waiting under the git dir: they ride in this commit
        recorded = "\n".join(t for t in (recorded, eventlog.decode(g.held)) if t)
    known = fast.journal if fast is not None else journal.read(repo, rel)
    landed, theirs, tips = landed_and_tips(repo, rel, found, g.head)
    inputs, result = decide.Inputs(None), decide.Decision(decide.SKIP)  # set by ``_decide``
    return Read(
        found,
        files,
        fast,
        mine,
        worktree,
        staged_files,
        ours,
        recorded,
        known,
        landed,
        theirs,
        tips,
        inputs,
        result,
    )


def _inputs(
    ws: Workspace, g: Gathered, read: Read, counts: list[decide.FileCount], merge_hook: bool
) -> decide.Inputs:
    from tg_git.domain import decide  # lazy: 4.2 ms
    from tg_git.repo import journal  # lazy: 3.6 ms

    repo, rel, fast = ws.repo, g.rel, read.fast
    text = reader(read.found)
    landed = [*read.landed, *(t for t in (text(f"HEAD:{g.pending}"),) if t)]  # without the hook
    counted = [c for c in counts if c.counted and not c.binary]
    return decide.Inputs(
        session_id=g.session_id,
        head=text(f"HEAD:{rel}"),
        staged=text(f":{rel}"),
        worktree=read.worktree,
        worktree_ours=read.ours,
        pending=read.recorded or "",
        journal=read.known + journal.held(repo, rel),  # held: a failed write
        landed=landed,
        theirs=read.theirs,
        legacy=g.legacy,
        counts=counts,
        elsewhere=fast.away if fast is not None else journal.read_elsewhere(repo, rel),
        estimator=counted[0].estimator if counted else "",
        allow_halt=os.environ.get("TG_GIT_ALLOW_HALT") == "1",
        merge_hook=merge_hook,
        restore=not any(os.path.exists(repo.git_file(d)) for d in ("rebase-merge", "rebase-apply")),
        base=fast.base.session if fast is not None else None,
        base_at=fast.base.newest if fast is not None else "",
        base_keys=fast.base.at_newest if fast is not None else (),
    )


def _refuse(ws: Workspace, g: Gathered, read: Read) -> int:
    """Say why the commit is refused: a user's unstaged edit of a ledger file (exit 1), or
    the halt (and, after a clean merge crossed it, that no save was made yet)."""
    from tg_git.domain import decide  # lazy: 4.2 ms

    config, result = ws.config, read.result
    if result.reason == decide.UNSTAGED:
        from tg_git.repo.ledger import unstaged_message  # lazy: 0.5 ms

        named = edited(ws, read.mine, read.staged) or g.rel
        where = g.pending if read.recorded is None else named
        emit(_text(config, "hook_refused", reason=unstaged_message(where, config.language)))
        return 1
    emit(_refusal(config, result.before))
    from tg_git.domain import levels  # lazy: 0.6 ms
    from tg_git.repo import checkpoints  # lazy: 16.5 ms

    if result.before and not checkpoints.already_saved(ws, result.before.id, levels.HALT):
        # A clean merge crossed the halt: git runs no post-commit for it, so no save yet.
        emit(levels.text(config, "hook_no_halt_save"))
    return ExitCode.HALT


def _nothing_to_commit(ws: Workspace, g: Gathered, read: Read, partial: bool) -> bool:
    """Whether git will make no commit: nothing staged (git decided that before this hook
    ran, and a file this hook staged would stay behind in the user's index), and neither
    ``--allow-empty`` nor ``--amend`` asked for one. The events wait for the next commit."""
    inputs = read.inputs
    if inputs.counts or inputs.merge_hook or not inputs.restore or partial or g.head is None:
        return False
    if g.found.get("MERGE_HEAD") or g.found.get(f":{g.pending}"):
        return False  # a merge is concluded; an older pending file is staged
    if ws.repo.status("diff-index", "--cached", "--quiet", "HEAD", "--") != 0:
        return False
    return not commit_asked_for_one()


def _apply(
    ws: Workspace, g: Gathered, read: Read, env: dict[str, str]
) -> tuple[dict[str, str], list[str]]:
    """Write and stage what the decision chose: the session's files (new lines to its last
    file, new segments), the older pending file out, the waiting events forgotten (they are
    in a staged file now), other sessions' waiting events into their files; keep the base."""
    from tg_git.domain import eventlog, segments  # lazy: 0.9 ms
    from tg_git.domain.layout import LEDGER_PATH  # lazy: 0.3 ms
    from tg_git.repo import journal, ledger  # lazy: 4.4 ms

    repo, rel, result = ws.repo, g.rel, read.result
    assert result.text is not None
    paths = ws.migrate() if g.legacy or os.path.isfile(ws.at(LEDGER_PATH)) else []
    older = g.found[f":{g.pending}"]
    fold = bool(read.recorded or older)
    bases = [
        (path, read.mine[path] if read.ours and read.mine[path] is not None else read.staged[path])
        for path in read.files
    ]
    texts = segments.split(rel, bases, eventlog.event_lines(result.text))
    changed = [p for p, t in texts.items() if t != read.staged.get(p) or t != read.mine.get(p)]
    others = fold_others(ws, rel) if read.inputs.restore else []
    if changed or paths or fold or others:
        if any(p not in read.mine for p in changed):  # a new segment: its merge=union line
            paths += ws.union_attributes()
        for path in changed:
            ws.write_file(path, texts[path], durable=False)
        if fold:  # its events are in ``rel`` now: the older pending file goes
            _discard(ws.at(g.pending))
            paths += [g.pending] if older else []
        staging = [*changed, *paths, *others]
        if staging:  # never `git add -A --` with no path: that would stage the whole tree
            if "TG_GIT_FAILPOINT" in os.environ:  # for the tests: a pause before the staging
                from tg_git.services.failpoint import hit  # lazy: 0.1 ms

                hit("before-stage")
            ledger.stage(repo, staging, env)
        if g.held:
            ledger.drop_held(repo, rel, g.held)
    journal.release(repo, rel)
    last = list(texts)[-1]  # the file with the commit's own event
    fast = read.fast
    remember(
        ws, rel, texts, changed, read.found, fast, read.known, read.inputs.elsewhere, g.measured
    )
    leave_journal_due(
        repo,
        rel,
        result.text,
        g.head,
        read.known,
        list(result.journal),
        checked=(last, texts[last]),
    )
    return texts, changed


def _speak(
    ws_config: Config, rel: str, result: decide.Decision, late: list[tuple[str, int]]
) -> None:
    """What the hook prints after counting a commit."""
    if result.repaired:
        emit(_text(ws_config, "hook_repaired", path=rel, n=result.repaired))
    emit(_report(result, ws_config))
    for sha, tokens in late:
        emit(_text(ws_config, "recounted_late", commit=sha[:12], n=tokens))


def _refusal(config: Config, session: Session | None = None) -> str:
    from tg_git.domain import gauge  # lazy: 2.5 ms

    return gauge.refusal(config, session)


def _report(result: decide.Decision, config: Config) -> str:
    """What the hook prints after counting a commit."""
    from tg_git.domain import gauge, levels  # lazy: 3.1 ms

    after = result.after
    assert after is not None
    return gauge.commit_report(
        after,
        config,
        delta=result.tokens,
        current=", ".join(after.titles("in_progress")),
        crossed=result.crossed if result.crossed in (levels.FORCE_SAVE, levels.HALT) else None,
        override=result.override,
    )


def _discard(path: str) -> None:
    """``Path.unlink(missing_ok=True)`` (the hooks import no ``pathlib``: ~5 ms a commit)."""
    try:  # noqa: SIM105 (contextlib: ~1 ms of every commit)
        os.unlink(path)
    except FileNotFoundError:
        pass
