"""The checkpoint save: the two files as their own commit and tag, the guard of the automatic
saves, the race with a user's commit, and the recovery of a save that was killed.

The document comes from ``tg_git.services.checkpoint_document``, its text from
``tg_git.domain.checkpoint_text``, the tags already made from ``tg_git.repo.checkpoints``.

The commit is built with plumbing on a temporary index (read-tree HEAD, two blobs,
write-tree, commit-tree, update-ref checked against the old HEAD), so the user's staged
and unstaged changes are never touched; afterwards only the two files are put into the
real index and the work tree. The tag name starts with a UTC timestamp, so name order is
time order, and ends with the session and level, so a save is never made twice.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import partial
from typing import Any

from tg_git.domain import budget, checkpoint_text, levels, refs, replay
from tg_git.domain.errors import TgGitError
from tg_git.domain.layout import CHECKPOINT_JSON, CHECKPOINT_MD
from tg_git.repo import checkpoints, git, gitquery, journal, ledger, regular
from tg_git.repo.checkpoints import already_saved, saved_tags
from tg_git.repo.gitquery import on_index
from tg_git.repo.workspace import SAVING, Workspace
from tg_git.services.checkpoint_document import build
from tg_git.services.failpoint import hit as _failpoint
from tg_git.text import messages, term

MANUAL = "manual"
IN_PROGRESS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply")


def operation_in_progress(ws: Workspace) -> bool:
    return any(ws.repo.git_path(name).exists() for name in IN_PROGRESS)


def _say(ws: Workspace, key: str, **values: Any) -> None:
    print(messages.text(ws.config.language, key, **values), file=sys.stderr)


def _interrupted(ws: Workspace, session: replay.Session, level: str) -> str | None:
    """A checkpoint commit of this session and level that a killed save left without its tag.
    Only the commits since the session started are searched."""
    since = [f"^{session.base}"] if session.base else []
    session_line = refs.trailers(session.id, level).splitlines()[0]
    found = gitquery.log(
        ws.repo, ["HEAD", *since], limit=50, grep=session_line, fixed=True, check=False
    )
    tagged = set(saved_tags(ws).values())
    level_line = refs.trailers(session.id, level).splitlines()[1]
    for commit in found:
        if level_line in commit.message.splitlines() and commit.sha not in tagged:
            return commit.sha
    return None


def due(
    ws: Workspace, level: str | None = None, *, merged: bool = False
) -> tuple[replay.Session, str] | None:
    """The automatic save's one guard (the git hooks' and the agent hooks'): the session and
    level to save at force-save or halt (``level`` as a commit found it, else the session's
    level now), once per session and level, never while a merge, pick, revert or rebase is
    under way. ``merged``: git runs post-merge before it removes MERGE_HEAD, so a MERGE_HEAD
    whose commits are all parents of HEAD is a merge already committed, not one under way."""
    session = ws.session()
    if session is None:
        return None
    level = level or budget.session_level(session, ws.config)
    if level not in (levels.FORCE_SAVE, levels.HALT):
        return None
    busy = [n for n in IN_PROGRESS if ws.repo.git_path(n).exists()]
    if busy == ["MERGE_HEAD"] and merged and _merge_committed(ws.repo):
        busy = []
    if busy or already_saved(ws, session.id, level):
        return None
    return session, level


def _merge_committed(repo: git.Repo) -> bool:
    """MERGE_HEAD names only parents of HEAD: the merge commit is made (octopus too)."""
    try:
        merging = repo.git_path("MERGE_HEAD").read_text(encoding="utf-8").split()
    except OSError:
        return False
    parents = gitquery.parents(repo) if merging else []
    return bool(merging) and set(merging) <= set(parents)


def auto_save(ws: Workspace, level: str) -> str | None:
    """The agent hooks' turn-end save (see ``due``); the tag, or None when nothing was due."""
    found = due(ws, level)
    return save(ws, *found) if found else None


def _signs(repo: git.Repo) -> bool:
    return gitquery.config_get(repo, "commit.gpgsign", as_bool=True) == "true"


def _commit_tree(ws: Workspace, tree: str, parents: list[str], body: str) -> str:
    """commit-tree, signed when commit.gpgsign asks; unsigned, with a clear line, when it fails."""
    repo = ws.repo
    sign = _signs(repo)
    try:
        return gitquery.commit_tree(repo, tree, parents, body, sign=sign)
    except TgGitError as exc:
        if not sign:
            raise
        _say(ws, "not_signed", why=str(exc))
        return gitquery.commit_tree(repo, tree, parents, body)


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")


def _tag(ws: Workspace, commit: str, session_id: str, level: str, title: str) -> str:
    # Microseconds keep name order equal to time order even for saves in the same second.
    existing = saved_tags(ws)
    while True:
        tag = refs.tag_name(_stamp(), session_id, level)
        if tag not in existing:
            break
    gitquery.annotated_tag(ws.repo, tag, commit, title)
    return tag


def _keep(ws: Workspace, path: str, data: bytes | None, where: str, link: str = "") -> None:
    """Copy a user's edit of a checkpoint file (or a symlink of theirs) aside before a save
    replaces it."""
    kept = ws.repo.git_path("tg-git") / "kept" / f"{_stamp()}-{path.replace('/', '_')}"
    kept.parent.mkdir(parents=True, exist_ok=True)
    if link:
        os.symlink(link, kept)
    else:
        kept.write_bytes(data or b"")
    where_text = messages.text(ws.config.language, f"where.{where}")
    _say(ws, "kept_edit", where=where_text, path=path, kept=kept)


def _sync_files(ws: Workspace, commit: str) -> None:
    """Put the checkpoint files of ``commit`` into the real index and the work tree; nothing
    else. A version of either file that is neither the new one nor the one before the save
    (a user's staged or unstaged edit, or a symlink of theirs) is copied aside first, so no
    edit is lost."""
    repo = ws.repo
    paths = _saved_paths(repo, commit)
    found = git.read_objects(
        repo, [f"{rev}{path}" for path in paths for rev in (f"{commit}:", f"{commit}^:", ":")]
    )
    for n, path in enumerate(paths):
        new, old, staged = found[3 * n : 3 * n + 3]
        if new is None:
            continue
        ours = {new[1], old[1] if old else None}
        target = repo.root / path
        if target.is_symlink():  # a tracked or untracked link of the user's: keep the link
            _keep(ws, path, None, "symlink", link=os.readlink(target))
            target.unlink()
        elif staged is not None and staged[1] not in ours:
            _keep(ws, path, staged[1], "staged")
        if target.is_file() and not target.is_symlink():
            current = target.read_bytes()
            if current not in ours and (staged is None or current != staged[1]):
                _keep(ws, path, current, "unstaged")
        on_index(repo, ["update-index", "--add", "--cacheinfo", f"100644,{new[0]},{path}"])
        ledger.write_atomic(target, new[1].decode("utf-8"))
    gitquery.refresh_index(repo)


TEMP_INDEX = "tg-git-index-"


def _clean_orphans(repo: git.Repo) -> None:
    """Remove temporary index files (and their locks) that a killed save left in the git
    dir: their name carries the pid of the save, which is no longer running."""
    for leftover in repo.git_dir.glob(f"{TEMP_INDEX}*"):
        pid = leftover.name[len(TEMP_INDEX) :].split("-", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # a save still running
        except ProcessLookupError:
            leftover.unlink(missing_ok=True)
        except PermissionError:
            continue  # someone else's live process


def _check_paths(ws: Workspace) -> tuple[str, str]:
    """The two files' paths in ``checkpoint.dir``, checked: no link or file on the way, and
    neither path a folder."""
    paths = checkpoints.files(ws)
    for path in paths:
        target = ws.repo.root / path
        if target.is_dir() and not target.is_symlink():
            raise TgGitError(messages.text(ws.config.language, "checkpoint_path_dir", path=path))
    return paths


def _saved_paths(repo: git.Repo, commit: str) -> tuple[str, str]:
    """The two files' paths as the checkpoint ``commit`` saved them."""
    json_path = checkpoints.json_paths(repo, [commit])[commit]
    return json_path, checkpoints.md_path(json_path)


def save(
    ws: Workspace,
    session: replay.Session,
    level: str,
    message: str = "",
    usage: dict[str, Any] | None = None,
) -> str:
    """Commit the checkpoint files on top of HEAD and tag it; returns the tag name.

    A save killed half-way leaves either the two files staged with HEAD unmoved, or a
    checkpoint commit without its tag; the next save of that session and level makes the
    save, or finds that commit and tags it instead of making another."""
    repo = ws.repo
    _clean_orphans(repo)
    paths = _check_paths(ws)
    leftover = _interrupted(ws, session, level) if level != MANUAL else None
    if leftover:
        title = gitquery.log(repo, [leftover], limit=1)[0].subject
        tag = _tag(ws, leftover, session.id, level, title)
        if git.head(repo) == leftover:
            _sync_files(ws, leftover)
        _say(ws, "finished_interrupted", tag=tag)
        return tag
    data = build(ws, session, message, checkpoints.previous(ws), usage)
    return _write(ws, session, level, data, paths)


SAVE_TRIES = 3  # a user's commit that moved HEAD under a save: the save is made again on it


def _write(
    ws: Workspace, session: replay.Session, level: str, data: dict[str, Any], paths: tuple[str, str]
) -> str:
    for attempt in range(SAVE_TRIES):
        try:
            return _write_once(ws, session, level, data, paths)
        except HeadMoved:
            if attempt == SAVE_TRIES - 1:
                raise TgGitError(messages.text(ws.config.language, "save_raced")) from None
    raise AssertionError("unreachable")


class HeadMoved(Exception):
    """HEAD moved (a user's commit) between the save's read of it and its update-ref."""


def _alive(pid: Any) -> bool:
    if type(pid) is not int or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def in_flight(repo: git.Repo) -> dict[str, Any] | None:
    """The save under way in this work tree (its process alive), else None."""
    try:
        data = json.loads(regular.read_bytes(repo.git_file(SAVING)).decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) and _alive(data.get("pid")) else None


def recover(ws: Workspace) -> None:
    """After a save that was killed: when HEAD's history holds its commit, put its two files
    into the index and the work tree (a kill after the ref moved left them out) while HEAD
    still holds them, and tag the commit if untagged (a manual save too: there is no later
    save of its level to do it); then forget it. Called by every tg-git command that opens
    the repository; a save still running is left alone."""
    path = ws.repo.git_path(SAVING)
    try:
        data = json.loads(regular.read_bytes(str(path)).decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        data = None
    if isinstance(data, dict) and _alive(data.get("pid")):
        return
    commit, session_id, level = (
        (str(data.get(k, "")) for k in ("commit", "session", "level"))
        if isinstance(data, dict)
        else ("", "", "")
    )
    repo = ws.repo
    if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", commit) and gitquery.is_ancestor(repo, commit):
        if _partial_commit(repo):
            return  # git holds the real index until this commit ends: the next command
        if git.ok(
            ["diff", "--quiet", commit, "HEAD", "--", *_saved_paths(repo, commit)], repo.root
        ):
            _sync_files(ws, commit)
        if commit not in saved_tags(ws).values():
            title = gitquery.log(repo, [commit], limit=1)[0].subject
            tag = _tag(ws, commit, session_id, level or MANUAL, title)
            _say(ws, "finished_interrupted", tag=tag)
    path.unlink(missing_ok=True)


def _partial_commit(repo: git.Repo) -> bool:
    """In the hook of `git commit PATH`: git gives it a temporary index, and holds the real
    one locked until the commit ends."""
    index = os.environ.get("GIT_INDEX_FILE")
    real = {os.path.realpath(repo.git_dir / name) for name in ("index", "index.lock")}
    return bool(index) and os.path.realpath(str(index)) not in real


def _note_saving(
    ws: Workspace, commit: str, session: replay.Session, level: str, blobs: dict[str, str]
) -> None:
    path = ws.repo.git_path(SAVING)
    data = {
        "pid": os.getpid(),
        "commit": commit,
        "session": session.id,
        "level": level,
        "blobs": blobs,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def _write_once(
    ws: Workspace, session: replay.Session, level: str, data: dict[str, Any], paths: tuple[str, str]
) -> str:
    repo = ws.repo
    json_text = checkpoint_text.json_text(data)
    md_text = checkpoint_text.markdown_text(data, ws.config.language)
    old_head = git.head(repo)
    tmp_index = str(repo.git_dir / f"{TEMP_INDEX}{os.getpid()}-{os.urandom(3).hex()}")
    env = {**os.environ, "GIT_INDEX_FILE": tmp_index}
    try:
        if old_head:
            gitquery.read_tree(repo, old_head, env)
        _failpoint("in-temp-index")
        blobs = {}
        for path, text in zip(paths, (json_text, md_text)):
            blobs[path] = git.stage_file(repo, path, text.encode("utf-8"), env)
        tree = gitquery.write_tree(repo, env)
    finally:
        for name in (tmp_index, tmp_index + ".lock"):
            if os.path.exists(name):
                os.unlink(name)
    title = checkpoint_text.subject(data, level, ws.config.language)
    message = refs.neutral_message(term.strip_controls(data.get("message", "")))
    trailer = refs.trailers(session.id, level)
    body = f"{title}\n\n{message}\n\n{trailer}" if message else f"{title}\n\n{trailer}"
    commit = _commit_tree(ws, tree, [old_head] if old_head else [], body)
    # The ref first, then the files: the two files enter the index only once HEAD holds
    # them. A user's `git commit` reads the index after its pre-commit hook, where no hook
    # can look: files staged before the ref moved could enter that commit (the user's commit
    # wins the ref, the save is made again on top). A commit that starts on the save's HEAD
    # before the files are in the index takes them from HEAD (``keep_out_of_commit``), and
    # a save killed after the ref is finished by the next tg-git command (``recover``).
    saving = repo.git_path(SAVING)
    _note_saving(ws, commit, session, level, blobs)
    _failpoint("before-ref")
    with _index_quiet(repo, ws.config.language):
        moved = gitquery.update_ref(repo, "HEAD", commit, old_head or "0" * len(commit), title)
    if not moved:
        saving.unlink(missing_ok=True)  # nothing of this try is anywhere but in the odb
        raise HeadMoved
    _failpoint("before-files")
    _sync_files(ws, commit)
    _failpoint("before-tag")
    tag = _tag(ws, commit, session.id, level, title)
    saving.unlink(missing_ok=True)  # on a failure above it stays, for ``recover``
    _say(ws, "saved", tag=tag, title=title)
    return tag


INDEX_WAIT = 20.0  # seconds a save waits for a commit under way (a 100 MB commit's hooks: ~5 s)


@contextmanager
def _index_quiet(repo: git.Repo, language: str) -> Iterator[None]:
    """Hold the index's lock, as git does, with no `git commit` of this work tree running,
    while the save moves HEAD. A commit reads HEAD first and moves it last: moving HEAD in
    between made the commit fail at its very end ("cannot lock ref 'HEAD'"), after its hook
    had printed its count. So the save waits for a commit under way to end (then finds HEAD
    moved and makes itself again on top); a commit that starts while the save holds the
    lock meets git's own lock before any hook runs. The lock is taken only when no commit is
    seen, and the process table is looked at again under it: a plain `git commit` lets go of
    the lock before its hooks run, and a save that held it while it waited stood in the way
    of the hooks' staging (tg-git's ledger, a formatter's `git add`), which then failed and
    let the commit land without what they staged. After ``INDEX_WAIT`` (a git that was
    killed, an editor left open) the save gives up with one line."""
    lock = repo.git_path("index").with_name("index.lock")
    deadline = time.monotonic() + INDEX_WAIT
    delay = 0.005
    while True:
        held = None
        if _commit_running(repo):
            _failpoint("index-wait")
        else:
            try:
                held = _IndexLock.take(str(lock))
            except OSError:  # a read-only git dir: update-ref says what it can do
                yield
                return
        if held is not None and not _commit_running(repo):
            break
        if held is not None:  # a commit started in between: it goes first
            held.release()
        if time.monotonic() > deadline:
            raise TgGitError(messages.text(language, "save_raced"))
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    _failpoint("index-held")
    try:
        yield
    finally:
        held.release()


class _IndexLock:
    """Git's index lock, held by this process. The signals that end a process without a
    word (TERM, INT, HUP, and ALRM: an agent's timeout, tg-git's own bound on a hook run)
    wait while it is held and arrive the moment it is let go: a save ended in between left
    ``index.lock`` behind, and git refused every command until it was removed by hand (a
    SIGKILL still can: git's own stale-lock case, which git names)."""

    def __init__(self, path: str, fd: int, restore: Callable[[], object]) -> None:
        self.path, self.fd, self.restore = path, fd, restore

    @classmethod
    def take(cls, path: str) -> _IndexLock | None:
        """The lock, or None when another process holds it (``OSError``: it cannot be made)."""
        import signal  # lazy: 0.8 ms (and enum's 1.6 where nothing loaded it): a save is rare

        restore: Callable[[], object] = _nothing
        if hasattr(signal, "pthread_sigmask"):  # (not on Windows: no such signals to wait)
            ending = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM}
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, ending)
            restore = partial(signal.pthread_sigmask, signal.SIG_SETMASK, mask)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except BaseException as exc:
            restore()
            if isinstance(exc, FileExistsError):
                return None
            raise
        return cls(path, fd, restore)

    def release(self) -> None:
        try:
            os.close(self.fd)
            os.unlink(self.path)
        finally:
            self.restore()  # a signal that came meanwhile arrives here


def _nothing() -> None:
    return None


def _ancestors() -> set[str]:
    """This process and the processes it runs under (a hook's git among them)."""
    found, pid = set(), os.getpid()
    while pid > 1 and str(pid) not in found:
        found.add(str(pid))
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                pid = int(fh.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return found


def _commit_running(repo: git.Repo) -> bool:
    """Whether a `git commit` (or `git merge`, `git pull`, which commit too) runs in this work
    tree now, from the process table where the system has one (elsewhere: no)."""
    root = os.path.realpath(repo.root)
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return False
    mine = _ancestors()  # a save from a commit's own post-commit hook waits for no one
    for pid in pids:
        if pid in mine:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                args = fh.read().split(b"\0")
            if not args or not os.path.basename(args[0]).startswith(b"git"):
                continue
            if not {b"commit", b"merge", b"pull"} & set(args[1:]):
                continue
            where = os.path.realpath(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            continue
        if where == root or where.startswith(root + os.sep):
            return True
    return False


def keep_out_of_commit(repo: git.Repo, env: dict[str, str], head: str | None) -> None:
    """In a user's pre-commit hook, while a save runs: a commit on top of the save's commit
    (HEAD moved, the two files not yet in the index) takes the files from HEAD, so it neither
    deletes nor reverts them. (Before the save's ref moves, its files are in no index.)"""
    saving = in_flight(repo)
    if saving is None or head is None or saving.get("commit") != head:
        return
    blobs = saving.get("blobs")
    paths = tuple(p for p in blobs if isinstance(p, str)) if isinstance(blobs, dict) else ()
    paths = paths or (CHECKPOINT_JSON, CHECKPOINT_MD)
    in_head = {e.path: e for e in gitquery.ls_tree(repo, head, paths)}
    in_index = {e.path: e.id for e in gitquery.index_entries(repo, paths, env)}
    info = "".join(
        f"{in_head[p].mode} {in_head[p].id}\t{p}\n"
        for p in paths
        if p in in_head and in_index.get(p) != in_head[p].id
    )
    if info:
        on_index(repo, ["update-index", "--index-info"], env, info.encode())


def manual_save(ws: Workspace, message: str = "") -> tuple[str, bool]:
    """`tg-git checkpoint`: a save by hand at any level (not during a rebase or merge).
    Returns the tag and whether a new save was made: with nothing new since the newest
    checkpoint reachable from HEAD, that one's tag and False (no commit is added)."""
    session = ws.require_session()
    if operation_in_progress(ws):
        raise TgGitError(messages.text(ws.config.language, "busy_operation"))
    with journal.locked(ws.repo):  # a commit's hook writes and stages the ledger under it
        ws.check_ledger_staged()
    _clean_orphans(ws.repo)
    paths = _check_paths(ws)
    previous = checkpoints.previous(ws)
    data = build(ws, session, message, previous)
    if previous and checkpoint_text.same(data, previous[2]):
        _say(ws, "nothing_new", tag=previous[0])
        return previous[0], False
    return _write(ws, session, MANUAL, data, paths), True
