"""What the pre-commit hook reads besides the one ``cat-file`` (``tg_git.githooks.precommit``):
the index being committed, the landed and counted tips, the session's files joined, whether
the work tree's ledger files are tg-git's own writes, the events to fold, the base kept for
the next commit, and other sessions' waiting events. Lazy imports: every commit loads it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:  # the hot path imports nothing it does not use
    from collections.abc import Callable

    from tg_git.repo import git
    from tg_git.repo.settled import Fast
    from tg_git.repo.workspace import Workspace


def index_file(repo_index: str) -> tuple[dict[str, str], bool]:
    """The environment for git calls on the index being committed, and whether this is a
    partial commit (`git commit PATH` builds it in a temporary next-index-*.lock)."""
    env = dict(os.environ)
    index_file = env.get("GIT_INDEX_FILE")
    if not index_file:
        return env, False
    env["GIT_INDEX_FILE"] = index_file = os.path.abspath(index_file)  # hooks may chdir
    return env, index_file != repo_index and not index_file.endswith("index.lock")


def landed_and_tips(
    repo: git.Repo, rel: str, found: dict[str, git.Object | None], head: str | None
) -> tuple[list[str], list[str], list[str]]:
    """The ledger file's text in commits whose events landed (ORIG_HEAD, HEAD@{1}), the other
    side's texts, and the tips whose work is counted already (only lines new to them count)."""
    from tg_git.repo import reflogs  # lazy: 0.2 ms

    def text(spec: str) -> str | None:
        obj = found.get(spec)
        return obj[1].decode("utf-8", "replace") if obj else None

    recent = reflogs.recent_tips(repo)
    orig = found.get("ORIG_HEAD")
    if orig and orig[0] not in recent:
        orig = None  # ORIG_HEAD from another branch's reset or rebase: not this line of work
    landed = [
        t
        for t in (
            text(f"ORIG_HEAD:{rel}") if orig else None,
            text(f"PREVIOUS:{rel}"),
            text(f"HEAD^2:{rel}"),
        )
        if t
    ]
    theirs, tips = [], []
    for name in ("MERGE_HEAD", "CHERRY_PICK_HEAD", "SQUASH_TIP"):
        obj = found.get(name)
        if obj:
            tips.append(obj[0])
            if text(f"{name}:{rel}"):
                theirs.append(text(f"{name}:{rel}") or "")
    # Tips HEAD no longer reaches (reset, rebase, drop; ORIG_HEAD and the branch's reflog):
    # their work was paid for, so re-committing it (a squash after `reset --soft`, however
    # many resets or stashes came between) costs nothing again.
    if head:
        tips += [t for t in reflogs.abandoned_tips(repo, head)[:4] if t not in tips]
        if orig and orig[0] != head and orig[0] not in tips and text(f"ORIG_HEAD:{rel}"):
            from tg_git.repo import gitquery  # lazy: 0.6 ms (a usual commit has no ORIG_HEAD)

            if not gitquery.is_ancestor(repo, orig[0], head):
                tips.append(orig[0])
    return landed, theirs, tips


def squash_tip(repo: git.Repo) -> str | None:
    """`git merge --squash` leaves no MERGE_HEAD; SQUASH_MSG names the squashed tip first."""
    try:
        with open(repo.git_file("SQUASH_MSG"), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("commit ") and len(line.split()) >= 2:
            return line.split()[1]
    return None


def merging_by_env() -> bool:
    """A clean `git merge`/`git pull` runs pre-merge-commit before MERGE_HEAD exists; through
    the pre-commit framework the hook cannot know its own name, but git's reflog action says."""
    action = os.environ.get("GIT_REFLOG_ACTION", "")
    return action.startswith(("merge", "pull")) and "rebase" not in action


def commit_asked_for_one() -> bool:
    """Whether the `git commit` this hook runs under was given ``--allow-empty`` or
    ``--amend`` (``tg_git.githooks.proctable``: no process table, no)."""
    from tg_git.githooks import proctable  # lazy: 0.2 ms

    return proctable.commit_asked_for_one()


def fold_others(ws: Workspace, rel: str) -> list[str]:
    """Other sessions' events waiting under the git dir (records that raced a new session's
    start): into their own files, to stage with this commit. A session whose file holds a
    user's unstaged edit keeps them waiting. Returns the paths written."""
    from tg_git.domain import eventlog, segments  # lazy: 1.7 ms
    from tg_git.domain.errors import TgGitError  # lazy: 0.6 ms
    from tg_git.repo import ledger  # lazy: 5.8 ms

    written: list[str] = []
    for other in ledger.held_sessions(ws.repo):
        if other == rel:
            continue
        held = ledger.held_bytes(ws.repo, other)
        files = ledger.segment_paths(ws.repo.top, other)
        bases = [(path, ws.file_text(path)) for path in files]
        try:
            for path, text in bases:
                ws.check_ledger_staged(path, text)
        except TgGitError:
            continue
        every = eventlog.union(*(text for _, text in bases), eventlog.decode(held))
        texts = segments.split(other, bases, every)
        changed = [path for path, text in texts.items() if text != dict(bases).get(path)]
        for path in changed:
            ws.write_file(path, texts[path], durable=False)
        if any(path not in dict(bases) for path in changed):
            written += ws.union_attributes()
        written += changed
        ledger.drop_held(ws.repo, other, held)
    return written


def reader(found: dict[str, git.Object | None]) -> Callable[[str], str | None]:
    """The text of what ``found`` holds for a spec (None for none)."""

    def text(spec: str) -> str | None:
        obj = found.get(spec)
        return obj[1].decode("utf-8", "replace") if obj else None

    return text


def session_files(ws: Workspace, rel: str) -> list[str]:
    from tg_git.repo import ledger  # lazy: 5.8 ms

    return ledger.segment_paths(ws.repo.top, rel)


def remember(
    ws: Workspace,
    rel: str,
    texts: dict[str, str],
    changed: list[str],
    found: dict[str, git.Object | None],
    fast: Fast | None,
    known: str,
    elsewhere: str,
    measured: bool,
) -> None:
    """Keep the base of the session's settled files for the next commit (``texts``: every
    file this commit leaves, ``changed`` those it wrote; ``found``: the index's versions of
    the others), when the commit leaves any settled."""
    paths = list(texts)
    if len(paths) < 2:
        return
    from tg_git.domain import eventlog, gitobjects  # lazy: 1.9 ms
    from tg_git.repo import settled  # lazy: 0.4 ms (a session of one file keeps no base)

    fmt = ws.repo.object_format

    def blob(path: str) -> str:
        obj = found.get(f":{path}")
        return gitobjects.hash_text(texts[path], fmt) if path in changed or obj is None else obj.id

    if fast is not None:
        ids = [*fast.settled, *((p, blob(p)) for p in paths[:-1])]
        away, base = fast.base.away, fast.base
        fresh = [texts[p] for p in paths[:-1]]
    else:
        ids, base = [(p, blob(p)) for p in paths[:-1]], None
        fresh = [texts[p] for p in paths[:-1]]
        keys = {eventlog.key_of(ln) for text in texts.values() for ln in eventlog.event_lines(text)}
        away = [ln for ln in eventlog.event_lines(elsewhere) if eventlog.key_of(ln) not in keys]
    settled.remember(ws.repo, rel, ids, fresh, texts[paths[-1]], known, away, measured, base)


def join_segments(
    repo: git.Repo,
    rel: str,
    revs: list[str],
    found: dict[str, git.Object | None],
    files: list[str],
    env: dict[str, str],
) -> list[str]:
    """Make each ``rev:rel`` (and ``:rel``) of ``found`` the session's file and later segments
    joined, as that revision holds them; the index's segments go into ``found`` one by one.
    Returns every file of the session, ``rel`` first (the work tree's and any revision's)."""
    from tg_git.repo import segments  # lazy: 8.2 ms

    held, paths = segments.in_revs(repo, rel, [*revs, ":"], files[1:], env)
    for rev in [*revs, ":"]:
        spec = f"{rev}:{rel}" if rev != ":" else f":{rel}"
        found[spec] = segments.joined_object(found.get(spec), held.get(rev, {}), paths)
    found.update((f":{path}", obj) for path, obj in held.get(":", {}).items())
    return [rel, *paths]


def edited(ws: Workspace, mine: dict[str, str | None], staged: dict[str, str | None]) -> str:
    """The first of a session's files whose work-tree text is a user's unstaged edit ("" for
    none): the one a refusal names, so that its fix (`git add` it) is the right one."""
    for path, text in mine.items():
        if not all_ours(ws, {path: text}, staged):
            return path
    return ""


def all_ours(ws: Workspace, mine: dict[str, str | None], staged: dict[str, str | None]) -> bool:
    """Whether every file of a session in the work tree is as staged or tg-git's own write."""
    from tg_git.domain import eventlog  # lazy: 2.1 ms

    return all(
        ws.is_ours(path, text)
        or (text is not None and eventlog.normalise(text) == eventlog.normalise(staged[path] or ""))
        for path, text in mine.items()
    )


def pending_text(ws: Workspace, rel: str, staged: str | None) -> str | None:
    """The pending file's events to fold (``staged``: its text in the index being committed):
    the index's and the work tree's, unless the work tree's is a user's unstaged edit (None:
    the commit is refused, as for the session's own file)."""
    from tg_git.domain import eventlog  # lazy: 2.1 ms

    worktree = ws.file_text(rel)
    if worktree is None or eventlog.normalise(worktree) == eventlog.normalise(staged or ""):
        return staged or ""
    if staged is not None and not ws.is_ours(rel, worktree):
        return None
    return "\n".join(t for t in (staged, worktree) if t)


UNCOUNTED = "tg-git/uncounted"  # recount.PENDING: a usual commit reads it without the module


def catch_up(ws: Workspace, session_id: str) -> list[tuple[str, int]]:
    """Commits whose hook failed earlier, counted now (journaled: this commit carries them)."""
    if not os.path.isfile(ws.repo.git_file(UNCOUNTED)):
        return []
    from tg_git.services import recount  # lazy: 0.6 ms; only after a hook that failed

    return recount.catch_up(ws, session_id)
