"""What the git hooks run: ``tg-git hook pre-commit | pre-merge-commit | post-commit | post-merge
| pre-push``: the entry every hook goes through (``run_hook``), the hooks after a commit or
merge, and pre-push.

pre-commit and pre-merge-commit count the commit (``tg_git.githooks.precommit``) and leave
post-commit what is due (``tg_git.githooks.markers``). post-commit and post-merge share
one save (``save_due``): at force-save or halt, once per session and level. post-merge is
the only hook git runs after a clean merge or a fast-forward (no post-commit), so a merge or
pull whose ledgers take the session across 90 / 95 % saves at once, as a commit does.

A tool error prints one line and lets the commit through (exit 0): ``failed``, which
``tg_git.main``'s one error path calls. Only two refusals exist,
both on purpose: the halt level, and an unstaged edit of the ledger (which a write would
otherwise destroy).
"""

from __future__ import annotations

import atexit
import json
import os
import sys

from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.domain.layout import EXPORT_ON
from tg_git.githooks.markers import MARKER, SAVE_LEVELS, emit, journal_due, mark_uncounted
from tg_git.githooks.precommit import collect_from_here, pre_commit
from tg_git.repo.configfile import language_of
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:  # the hot path imports nothing it does not use
    from pathlib import Path
    from typing import Any, NoReturn

    from tg_git.repo.workspace import Workspace

SQUASH_ENV = "PRE_COMMIT_IS_SQUASH_MERGE"  # the pre-commit framework's post-merge argument


def run_hook(args: list[str]) -> int:
    """`tg-git hook NAME ARGS...`; an error is said by ``failed`` (through ``tg_git.main``)."""
    name = _name(args)
    if name in ("-h", "--help"):
        print(messages.text(language_of(os.getcwd()), "help.hook_page"))
        return ExitCode.OK
    handlers = {
        "pre-commit": pre_commit,
        "pre-merge-commit": lambda: pre_commit(merge_hook=True),
        "post-commit": post_commit,
        "post-merge": lambda: post_merge(_squash(args)),
        "pre-push": pre_push,
    }
    if name not in handlers:
        emit(messages.text(language_of(os.getcwd()), "hook_unknown", name=name))
        return ExitCode.USAGE
    if os.environ.get("PRE_COMMIT_RUNNING_LEGACY") and _framework_runs_it(name):
        return 0  # a native copy the framework runs as its legacy hook: it counts already
    if name not in ("pre-commit", "pre-merge-commit"):
        collect_from_here()  # pre-commit turns it on where its own work starts
    sys.stdout, sys.stderr = _unread(sys.stdout), _unread(sys.stderr)
    code = handlers[name]()
    if name == "post-commit":
        export_after_commit()
    return code


class _Unread:
    """A hook's output stream: a line that cannot be written (a pipe whose reader went away, a
    full disk) is dropped, not an error: the hook's work goes on and its exit code stays its
    own (an error there would refuse the commit for a line nobody could read)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        try:
            return int(self.inner.write(text))
        except OSError:
            return len(text)

    def flush(self) -> None:
        try:  # noqa: SIM105 (contextlib: ~1 ms of every commit)
            self.inner.flush()
        except OSError:
            pass

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding...
        return getattr(self.inner, name)


def _unread(stream: Any) -> Any:
    """``stream`` as ``_Unread``; None (a stream that was closed when Python started) stays."""
    return None if stream is None else _Unread(stream)


def leave(code: int) -> NoReturn:
    """End the hook's Python with ``code`` (the native shim calls this with what
    ``tg_git.main.main`` returned): the exit handlers run and what it printed goes out, as at
    any exit, and then the process ends without the interpreter's teardown, which frees every
    module and object the hook loaded one by one (about 1.5 ms of every commit, for nothing:
    the hook's files are written and closed, its git processes waited for). An output that
    cannot be flushed (a pipe nobody reads any more, a full disk) ends with ``code`` too:
    Python's own exit would make it status 120, which refuses the commit for a line nobody
    could read. With another thread alive, Python ends as usual."""
    threading = sys.modules.get("threading")
    if threading is None or threading.active_count() == 1:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                try:  # noqa: SIM105 (contextlib: ~1 ms of every commit)
                    stream.flush()
                except (OSError, ValueError):
                    pass  # nobody reads it (or it is closed): what it held has nowhere to go
        os._exit(code)
    sys.exit(code)


def _name(args: list[str]) -> str:
    """The hook that runs: the framework's post-commit entry at post-merge is post-merge."""
    # The pre-commit framework runs tg-git-checkpoint's one entry at post-commit and at
    # post-merge; it sets SQUASH_ENV only at post-merge.
    name = args[0] if args else ""
    return "post-merge" if name == "post-commit" and SQUASH_ENV in os.environ else name


def _squash(args: list[str]) -> bool:
    """Whether a post-merge hook runs after `git merge --squash`: git's argument, or, for the
    pre-commit framework's post-commit entry, the variable it sets (to git's squash flag)."""
    if args[:1] == ["post-commit"]:
        return os.environ[SQUASH_ENV] == "1"
    return args[1:2] == ["1"]


def failed(args: list[str], kind: str, reason: str) -> int:
    """A hook's error (``tg_git.main``'s one error path): one line that says the commit, merge
    or push went on; a pre-commit hook's commit is left for the next one to count."""
    name = _name(args)
    if kind == "interrupted":
        return ExitCode.INTERRUPTED
    language = language_of(os.getcwd())  # afresh: the error may be the config's own
    if kind == "crash":
        emit(messages.text(language, "hook_crash", name=name, error=reason))
    else:
        emit(messages.text(language, "hook_failed", reason=reason, what=_not_blocked(name)))
    return _uncounted(name)


# ---- the opt-in metrics push after a commit ([export] in the config; docs/team.md) ---------
def export_after_commit() -> None:
    """Push the metrics where ``[export]`` says, in bounded time, in a clone that opted in
    (``tg-git metrics --hook on``: a file under the git dir); a commit elsewhere pays one
    ``stat``. A clone's tracked config alone never sends anything anywhere."""

    git_dir = _git_dir_fast()
    if git_dir is None or not (git_dir / EXPORT_ON).is_file():
        return
    from tg_git.report import metrics  # lazy: 63.3 ms
    from tg_git.services.startup import open_workspace  # lazy: 6.0 ms

    metrics.after_commit(open_workspace(), emit)


def _framework_runs_it(name: str) -> bool:
    """This native shim runs as the pre-commit framework's legacy hook, and the framework's
    config runs tg-git at this hook too: step aside (tg-git would run twice), and say so
    once per clone."""
    from pathlib import Path  # lazy: 5.1 ms

    from tg_git.repo import framework  # lazy: 0.5 ms

    if not framework.runs(Path.cwd(), name):  # hooks run at the top of the work tree
        return False
    git_dir = _git_dir_fast()
    flag = git_dir / "tg-git" / "warned-twice" if git_dir else None
    if flag is not None and not flag.exists():
        emit(messages.text(language_of(os.getcwd()), "hook_twice"))
        try:
            flag.parent.mkdir(parents=True, exist_ok=True)
            flag.touch()
        except OSError:
            pass  # said again next time: no harm
    return True


def _uncounted(name: str) -> int:
    """After a failed pre-commit hook: tell post-commit to note the commit, so that the next
    commit counts it (tg_git.services.recount). Best effort; the commit goes on (exit 0)."""
    if name != "pre-commit":
        return 0
    try:
        git_dir = _git_dir_fast()
        if git_dir is not None:
            mark_uncounted(git_dir)
    except (OSError, TgGitError):
        pass  # nowhere to write: `tg-git repair` or `verify --accept` still count it
    return 0


def _not_blocked(name: str) -> str:
    """What the failed hook left as it was, in the config's language (read afresh: the error
    may be the config itself, whose language is still known)."""
    if name in ("pre-commit", "pre-merge-commit"):  # it failed before the ledger was staged
        key = "hook_not_counted"
    elif name in ("post-merge", "pre-push"):
        key = f"hook_not_blocked.{name}"
    else:
        key = "hook_not_blocked"
    return messages.text(language_of(os.getcwd()), key)


def _git_dir_fast() -> Path | None:
    """The git dir of the work tree we run in, from git: the native shim passes what
    `git rev-parse --absolute-git-dir` said (so this costs no process); otherwise ask git.
    Never a `./.git` guess: GIT_DIR, --separate-git-dir and worktrees put it elsewhere."""
    from pathlib import Path  # lazy: 5.1 ms

    known = os.environ.get("TG_GIT_HOOK_GIT_DIR")
    if known:
        return Path(known)
    from tg_git.repo import git  # lazy: 1.4 ms

    found = git.git_dir_here()  # a missing git: one clear line
    return Path(found) if found is not None else None


def post_commit() -> int:
    git_dir = _git_dir_fast()
    if git_dir is not None and "TG_GIT_HOOK_GIT_DIR" not in os.environ:  # the shim did it
        journal_due(git_dir)
    marker = git_dir / MARKER if git_dir else None
    if marker is None or not marker.is_file():
        return 0  # nothing was counted by our pre-commit: nothing to heal or save
    try:
        info = json.loads(marker.read_text(encoding="utf-8"))
    finally:
        marker.unlink(missing_ok=True)
    if info.get("uncounted"):  # the pre-commit hook failed: the next commit counts this one
        from tg_git.repo import gitquery  # lazy: 2.1 ms
        from tg_git.services import recount  # lazy: 6.0 ms

        head = gitquery.rev_parse(None, "HEAD")
        if head:
            recount.remember(marker.parent.parent, head)
        return 0
    if not info.get("partial") and info.get("level") not in SAVE_LEVELS:
        return 0  # the usual commit: nothing to heal, nothing to save
    from tg_git.domain import levels  # lazy: 0.2 ms
    from tg_git.services.startup import open_workspace  # lazy: 6.0 ms

    ws = open_workspace(require_init=False)
    repo = ws.repo
    rel = str(info.get("file", ""))
    from tg_git.repo import gitquery  # lazy: 2.1 ms

    head_blob = gitquery.rev_parse(repo, f"HEAD:{rel}", peel=None) if rel else None
    if not head_blob or head_blob != info.get("ledger"):
        return 0  # the marker is from an attempt that did not become this commit
    from tg_git.domain import eventlog, layout  # lazy: 0.3 ms
    from tg_git.repo import journal  # lazy: 1.7 ms

    session_rel = layout.session_file_of(rel) or rel  # ``rel``: the segment the hook wrote last
    # The commit's lines may have filled a segment and opened the next (``also``): all of them.
    also = [p for p in info.get("also", []) if isinstance(p, str) and layout.is_ledger_file(p)]
    held = [
        (rel, head_blob),
        *((p, gitquery.rev_parse(repo, f"HEAD:{p}", peel=None)) for p in also),
    ]
    landed = "".join(
        (gitquery.blob(repo, blob) or b"").decode("utf-8", "replace") + "\n"
        for _, blob in held
        if blob
    )
    journal.record(repo, session_rel, eventlog.event_lines(landed))  # a save level: keep it
    if info.get("partial"):
        for path, blob in held:
            if blob:
                _heal_index(ws, path, blob)
        _drop_folded(ws, session_rel, landed)
    if info.get("level") in (levels.FORCE_SAVE, levels.HALT):
        save_due(ws, info["level"])
    return 0


def save_due(ws: Workspace, level: str | None = None, *, merged: bool = False) -> str | None:
    """The hooks' automatic save (its guard: ``checkpoint.due``); after a merge no pre-commit
    hook spoke, so it first says what a crossing commit says. The tag, or None."""
    from tg_git.domain import gauge  # lazy: 1.8 ms
    from tg_git.services import checkpoint  # lazy: 34.3 ms

    found = checkpoint.due(ws, level, merged=merged)
    if found is None:
        return None
    session, level = found
    if merged:
        current = ", ".join(session.titles("in_progress"))
        report = gauge.commit_report(
            session, ws.config, delta=0, current=current, crossed=level, override=False
        )
        emit(report)
    return checkpoint.save(ws, session, level)


def post_merge(squash: bool) -> int:
    """After `git merge` / `git pull` that merged or fast-forwarded: git runs no post-commit
    there, so the save a commit's post-commit would make happens here, on top of the merge.
    `git merge --squash` (``squash``) commits nothing: the commit that follows counts and saves."""
    if squash:
        return 0
    from tg_git.services.startup import open_workspace  # lazy: 6.0 ms

    ws = open_workspace(require_init=False)
    if not ws.initialised:
        return 0
    save_due(ws, merged=True)
    return 0


def _heal_index(ws: Workspace, rel: str, head_blob: str) -> None:
    """After `git commit PATH` the real index still holds the ledger from before the commit;
    point it at the committed one when the work tree has that too."""
    from tg_git.domain import gitobjects  # lazy: 0.4 ms
    from tg_git.repo import gitquery  # lazy: 2.1 ms

    worktree = ws.file_text(rel)
    if worktree is None or gitobjects.hash_text(worktree, ws.repo.object_format) != head_blob:
        return
    env = {**os.environ, "GIT_INDEX_FILE": str(ws.repo.git_path("index"))}
    if [e.id for e in gitquery.index_entries(ws.repo, [rel], env)][:1] != [head_blob]:
        gitquery.stage_blob(ws.repo, rel, head_blob, env=env)
        gitquery.refresh_index(ws.repo, env)


def _drop_folded(ws: Workspace, rel: str, landed: str) -> None:
    """After `git commit PATH` the real index still holds the session's pending file the
    hook folded (and took out of the work tree): take it out of that index too, when every
    line of it is in the committed ledger file (nothing a user kept there is dropped)."""
    from tg_git.domain import eventlog, layout  # lazy: 0.3 ms
    from tg_git.repo import gitquery  # lazy: 2.1 ms

    pending = layout.pending_file(rel)
    env = {**os.environ, "GIT_INDEX_FILE": str(ws.repo.git_path("index"))}
    staged = gitquery.blob(ws.repo, f":{pending}", env)
    if staged is None or (ws.repo.root / pending).exists():
        return
    done = set(eventlog.event_lines(landed))
    if all(ln in done for ln in eventlog.event_lines(staged.decode("utf-8", "replace"))):
        ws.repo.git("rm", "-q", "--cached", "--", pending, env=env)


def pre_push() -> int:
    """Refuse a push whose commits drift from the ledger (``tg-git verify``): every ref the
    push sends (git gives them on stdin), not only HEAD."""
    from tg_git.services.startup import open_workspace  # lazy: 6.0 ms
    from tg_git.services.verify import verify_history  # lazy: 37.2 ms

    ws = open_workspace(require_init=False)
    if not ws.initialised:
        return 0
    tips = []
    for line in sys.stdin.read().splitlines() if not sys.stdin.isatty() else []:
        parts = line.split()
        if len(parts) == 4 and parts[1].strip("0"):  # a deletion sends zeros: nothing to check
            tips.append(parts[1])
    drifted: list[str] = []
    for tip in dict.fromkeys(tips or ["HEAD"]):
        report = verify_history(ws, tip=tip)
        if not report.ok:
            drifted += [d.commit for d in report.drift]
            for line in report.lines(ws.config.language):
                emit(line)
    if drifted:
        from tg_git.services.recount import accept_command  # lazy: 6.0 ms

        command = accept_command(drifted)
        emit(messages.text(ws.config.language, "push_refused", command=command))
        return int(ExitCode.DRIFT)
    return 0
