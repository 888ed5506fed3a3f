"""What the git hooks run: ``tg-git hook pre-commit | pre-merge-commit | post-commit | post-merge
| pre-push``.

The pre-commit hook gathers what the decision needs (the session's ledger file in HEAD, the
index, the work tree, the journal, ORIG_HEAD, HEAD@{1} and the other side of a merge, all
through one ``git cat-file``; the staged change's counts), lets ``decide.decide`` choose, and
writes and stages the result under tg-git's lock. pre-merge-commit (a clean `git merge`)
stages nothing: git has written the merge's tree already, and ``merge=union`` made its
ledger files the union of both sides.

post-commit and post-merge share one save (``save_due``): at force-save or halt, once per
session and level. post-merge is the only hook git runs after a clean merge or a fast-forward
(no post-commit), so a merge or pull whose ledgers take the session across 90 / 95 % saves
at once, as a commit does.

A tool error prints one line and lets the commit through (exit 0). Only two refusals exist,
both on purpose: the halt level, and an unstaged edit of the ledger (which a write would
otherwise destroy).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tg_git.domain.errors import ExitCode, TgGitError

if TYPE_CHECKING:  # the hot path imports nothing it does not use
    from tg_git.domain import decide
    from tg_git.domain.config import Config
    from tg_git.repo import git
    from tg_git.repo.workspace import Workspace

MARKER = "tg-git/post-commit.json"
JOURNAL_DUE = "tg-git/journal-due"  # the lines post-commit journals once the commit exists
SAVE_LEVELS = ("force-save", "halt")  # levels.FORCE_SAVE, levels.HALT, without importing them
SQUASH_ENV = "PRE_COMMIT_IS_SQUASH_MERGE"  # the pre-commit framework's post-merge argument


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def run_hook(args: list[str]) -> int:
    name = args[0] if args else ""
    handlers = {
        "pre-commit": pre_commit,
        "pre-merge-commit": lambda: pre_commit(merge_hook=True),
        "post-commit": post_commit,
        "post-merge": lambda: post_merge(args[1:2] == ["1"]),
        "pre-push": pre_push,
    }
    if name not in handlers:
        from tg_git.repo.configfile import language_of
        from tg_git.text import messages

        _say(messages.text(language_of(Path.cwd()), "hook_unknown", name=name))
        return ExitCode.USAGE
    if name == "post-commit" and SQUASH_ENV in os.environ:
        # The pre-commit framework runs tg-git-checkpoint's one entry at post-commit and at
        # post-merge; it sets this variable (to git's squash flag) only at post-merge.
        name = "post-merge"
        handlers[name] = lambda: post_merge(os.environ[SQUASH_ENV] == "1")
    if os.environ.get("PRE_COMMIT_RUNNING_LEGACY") and _framework_runs_it(name):
        return 0  # a native copy the framework runs as its legacy hook: it counts already
    try:
        return handlers[name]()
    except TgGitError as exc:
        from tg_git.repo.configfile import language_of

        said = exc.text(language_of(Path.cwd())) if exc.key else str(exc)
        _say(f"tg-git: {said} ({_not_blocked(name)})")
        return _uncounted(name)
    except OSError as exc:  # a file tg-git could not write (a full disk, a read-only .git)
        from tg_git.domain.errors import os_fix, os_reason
        from tg_git.repo.configfile import language_of

        where = f" ({exc.filename})" if exc.filename else ""
        lang = language_of(Path.cwd())
        why = os_reason(exc).text(lang)
        _say(f"tg-git: {why}{where}; {os_fix(exc, lang)} ({_not_blocked(name)}).")
        return _uncounted(name)
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except Exception as exc:  # never block a commit on a bug
        if os.environ.get("TG_GIT_DEBUG"):
            raise
        from tg_git.repo.configfile import language_of
        from tg_git.text import messages

        _say(messages.text(language_of(Path.cwd()), "hook_crash", name=name,
                           error=f"{type(exc).__name__}: {exc}"))  # fmt: skip
        return _uncounted(name)


def _framework_runs_it(name: str) -> bool:
    """This native shim runs as the pre-commit framework's legacy hook, and the framework's
    config runs tg-git at this hook too: step aside (tg-git would run twice), and say so
    once per clone."""
    from tg_git.repo import framework

    if not framework.runs(Path.cwd(), name):  # hooks run at the top of the work tree
        return False
    git_dir = _git_dir_fast()
    flag = git_dir / "tg-git" / "warned-twice" if git_dir else None
    if flag is not None and not flag.exists():
        from tg_git.repo.configfile import language_of
        from tg_git.text import messages

        _say(messages.text(language_of(Path.cwd()), "hook_twice"))
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
            (git_dir / MARKER).parent.mkdir(parents=True, exist_ok=True)
            (git_dir / MARKER).write_text(json.dumps({"uncounted": True}), encoding="utf-8")
    except (OSError, TgGitError):
        pass  # nowhere to write: `tg-git repair` or `verify --accept` still count it
    return 0


def _not_blocked(name: str) -> str:
    """What the failed hook left as it was, in the config's language (read afresh: the error
    may be the config itself, whose language is still known)."""
    from tg_git.repo.configfile import language_of
    from tg_git.text import messages

    if name in ("pre-commit", "pre-merge-commit"):  # it failed before the ledger was staged
        key = "hook_not_counted"
    elif name in ("post-merge", "pre-push"):
        key = f"hook_not_blocked.{name}"
    else:
        key = "hook_not_blocked"
    return messages.text(language_of(Path.cwd()), key)


def _git_dir_fast() -> Path | None:
    """The git dir of the work tree we run in, from git: the native shim passes what
    `git rev-parse --absolute-git-dir` said (so this costs no process); otherwise ask git.
    Never a `./.git` guess: GIT_DIR, --separate-git-dir and worktrees put it elsewhere."""
    known = os.environ.get("TG_GIT_HOOK_GIT_DIR")
    if known:
        return Path(known)
    from tg_git.repo import git

    proc = git.spawn(["rev-parse", "--absolute-git-dir"])  # a missing git: one clear line
    out = proc.stdout.decode("utf-8", "surrogateescape").strip()
    return Path(out) if proc.returncode == 0 and out else None


class Refusal(Exception):
    """A deliberate refusal of the commit; the message is printed as is."""


def _index_file(repo_index: str) -> tuple[dict[str, str], bool]:
    """The environment for git calls on the index being committed, and whether this is a
    partial commit (`git commit PATH` builds it in a temporary next-index-*.lock)."""
    env = dict(os.environ)
    index_file = env.get("GIT_INDEX_FILE")
    if not index_file:
        return env, False
    env["GIT_INDEX_FILE"] = index_file = os.path.abspath(index_file)  # hooks may chdir
    return env, index_file != repo_index and not index_file.endswith("index.lock")


def _landed_and_tips(
    repo: git.Repo, rel: str, found: dict[str, git.Object | None], head: str | None
) -> tuple[list[str], list[str], list[str]]:
    """The ledger file's text in commits whose events landed (ORIG_HEAD, HEAD@{1}), the other
    side's texts, and the tips whose work is counted already (only lines new to them count)."""
    from tg_git.repo import git

    def text(spec: str) -> str | None:
        obj = found.get(spec)
        return obj[1].decode("utf-8", "replace") if obj else None

    recent = git.recent_tips(repo)
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
        tips += [t for t in git.abandoned_tips(repo, head)[:4] if t not in tips]
        if (
            orig
            and orig[0] != head
            and orig[0] not in tips
            and text(f"ORIG_HEAD:{rel}")
            and not git.ok(["merge-base", "--is-ancestor", orig[0], head], repo.root)
        ):
            tips.append(orig[0])
    return landed, theirs, tips


def _squash_tip(repo: git.Repo) -> str | None:
    """`git merge --squash` leaves no MERGE_HEAD; SQUASH_MSG names the squashed tip first."""
    try:
        text = repo.git_path("SQUASH_MSG").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("commit ") and len(line.split()) >= 2:
            return line.split()[1]
    return None


def _merging_by_env() -> bool:
    """A clean `git merge`/`git pull` runs pre-merge-commit before MERGE_HEAD exists; through
    the pre-commit framework the hook cannot know its own name, but git's reflog action says."""
    action = os.environ.get("GIT_REFLOG_ACTION", "")
    return action.startswith(("merge", "pull")) and "rebase" not in action


def pre_commit(merge_hook: bool = False) -> int:
    from tg_git.domain import decide, eventlog
    from tg_git.domain.layout import CONFIG_PATH, LEDGER_PATH, ledger_file
    from tg_git.repo import git, journal
    from tg_git.repo.staged import staged_counts
    from tg_git.repo.workspace import SAVING, stage, unstaged_message
    from tg_git.services.startup import open_workspace

    if os.environ.get("TG_GIT_FAILPOINT") == "hook-crash":  # for the tests: a bug in the hook
        raise RuntimeError("failpoint hook-crash")
    ws = open_workspace(require_init=False)
    repo, config = ws.repo, ws.config
    if not ws.initialised:
        if git.ok(["cat-file", "-e", f"HEAD:{CONFIG_PATH}"], repo.root):
            _say("tg-git: THIS COMMIT IS NOT COUNTED: .tg-git/ is not in this work tree (a sparse "
                 "checkout?); run `git sparse-checkout add .tg-git` so commits are counted.")  # fmt: skip
        elif journal.used_here(repo):
            from tg_git.text import messages

            _say(messages.text(config.language, "not_counted_no_tg_git"))
        elif not (merge_hook or _merging_by_env()):  # a merge brings no work of its own
            from tg_git.text import messages

            _say(messages.text(config.language, "hook_not_init"))
        return 0
    merge_hook = merge_hook or _merging_by_env()
    real_index = str(repo.git_path("index"))
    env, partial = _index_file(real_index)
    with journal.locked(repo):
        session_id = ws.current_session_id()
        if session_id is None:
            from tg_git.text import messages

            _say(messages.text(config.language, "hook_no_session"))
            return 0
        rel = ledger_file(session_id)
        late = _catch_up(ws, session_id)
        squash = _squash_tip(repo)
        previous = git.previous_head(repo) or "HEAD"  # HEAD@{1}, on this branch
        # HEAD^2: a merge whose strategy kept only our tree (`-s ours`) still brought its events
        specs = ["HEAD", f"HEAD:{rel}", f":{rel}", "ORIG_HEAD", f"ORIG_HEAD:{rel}",
                 f"{previous}:{rel}", "MERGE_HEAD", f"MERGE_HEAD:{rel}", "CHERRY_PICK_HEAD",
                 f"CHERRY_PICK_HEAD:{rel}", f"HEAD^2:{rel}"]  # fmt: skip
        if squash:
            specs += [squash, f"{squash}:{rel}"]
        objects = git.read_objects(repo, specs, env)
        found = dict(zip(specs, objects))
        if squash:
            found["SQUASH_TIP"], found[f"SQUASH_TIP:{rel}"] = (
                found[squash],
                found[f"{squash}:{rel}"],
            )
        found["PREVIOUS:" + rel] = found[f"{previous}:{rel}"]
        head = found["HEAD"][0] if found["HEAD"] else None

        def text(spec: str) -> str | None:
            obj = found.get(spec)
            return obj[1].decode("utf-8", "replace") if obj else None

        worktree = ws.file_text(rel)
        ours = ws.is_ours(rel, worktree)
        if not ours and partial and worktree is not None:
            # `git commit PATH`: the real index holds the events recorded since HEAD
            real = git.blob_at_env(repo, rel, {**env, "GIT_INDEX_FILE": real_index})
            ours = (
                real is not None and eventlog.normalise(real.decode("utf-8", "replace")) == worktree
            )
        if repo.git_path(SAVING).exists():  # a checkpoint being saved right now
            from tg_git.services import checkpoint

            checkpoint.keep_out_of_commit(repo, env, head)
        landed, theirs, tips = _landed_and_tips(repo, rel, found, head)
        legacy = ws.file_text(LEDGER_PATH) or ""
        if legacy:
            legacy = "\n".join(ln for ln in eventlog.event_lines(legacy) if f'"{session_id}"' in ln)
        counts = [] if merge_hook else staged_counts(repo, config, env, head, tips)
        counted = [c for c in counts if c.counted and not c.binary]
        known = journal.read(repo, rel)
        inputs = decide.Inputs(
            session_id=session_id, head=text(f"HEAD:{rel}"), staged=text(f":{rel}"),
            worktree=worktree, worktree_ours=ours,
            journal=known + journal.held(repo, rel),  # held: a failed write
            landed=landed, theirs=theirs, legacy=legacy, counts=counts,
            elsewhere=journal.read_elsewhere(repo, rel),
            estimator=counted[0].estimator if counted else "",
            allow_halt=os.environ.get("TG_GIT_ALLOW_HALT") == "1", merge_hook=merge_hook,
            restore=not any(repo.git_path(d).exists() for d in ("rebase-merge", "rebase-apply")),
        )  # fmt: skip
        result = decide.decide(inputs, config)
        if result.journal:
            journal.record(repo, rel, result.journal)
        if result.action == decide.REFUSE:
            if result.reason == decide.UNSTAGED:
                from tg_git.text import messages

                refused = unstaged_message(rel, config.language)
                _say(messages.text(config.language, "hook_refused", reason=refused))
                return 1
            _say(_refusal(config))
            from tg_git.domain import levels
            from tg_git.services import checkpoint

            if result.before and not checkpoint.already_saved(ws, result.before.id, levels.HALT):
                # A clean merge crossed the halt: git runs no post-commit for it, so no save yet.
                _say(levels.text(config, "hook_no_halt_save"))
            return ExitCode.HALT
        if result.action == decide.SKIP:
            if result.reason == "no-start":
                from tg_git.text import messages

                _say(messages.text(config.language, "hook_no_start", path=rel))
            return 0
        assert result.text is not None and result.after is not None
        paths = ws.migrate() if legacy or (repo.root / LEDGER_PATH).is_file() else []
        if result.text != text(f":{rel}") or result.text != worktree or paths:
            ws.write_file(rel, result.text, durable=False)
            stage(repo, [rel, *paths], env)
        journal.release(repo, rel)
        _leave_journal_due(repo, rel, result.text, head, known, list(result.journal))
    if result.repaired:
        from tg_git.text import messages

        _say(messages.text(config.language, "hook_repaired", path=rel, n=result.repaired))
    _say(_report(result, config))
    if late:
        from tg_git.text import messages

        for sha, tokens in late:
            _say(messages.text(config.language, "recounted_late", commit=sha[:12], n=tokens))
    # Leave post-commit work only when there is some: the shim then skips Python entirely.
    if partial or result.level in SAVE_LEVELS:
        _leave_marker(repo, result.text, rel, partial, result.level)
    else:
        repo.git_path(MARKER).unlink(missing_ok=True)
    return 0


def _blob_id(text: str, head: str | None) -> str:
    """The blob id git gives ``text`` in this repository (SHA-256 ones have 64-digit ids)."""
    from tg_git.domain import gitobjects

    if head is None or len(head) != 64:
        return gitobjects.hash_text(text)
    import hashlib

    data = text.encode("utf-8")
    return hashlib.sha256(b"blob %d\0" % len(data) + data).hexdigest()


def _leave_journal_due(
    repo: git.Repo, rel: str, text: str, head: str | None, known: str, journaled: list[str]
) -> None:
    """Leave post-commit the lines of the ledger being committed that the journal lacks (this
    commit's event, above all): the shim appends them to the journal once HEAD holds this very
    ledger, so a commit that leaves history before tg-git next runs (two resets, a revert of
    both, a deleted branch) keeps its event. Plain text, for the shell: the blob id, the
    ledger file, the journal's path, then the lines (a first blank one after a torn line)."""
    from tg_git.domain import eventlog
    from tg_git.repo import journal

    due = repo.git_path(JOURNAL_DUE)
    lines = journal.missing(eventlog.event_lines(text), "\n".join([known, *journaled]))
    target = str(journal.path(repo, rel))
    if not lines or "\n" in target:
        due.unlink(missing_ok=True)
        return
    torn = [""] if known and not known.endswith("\n") else []
    head_lines = [_blob_id(text, head), rel, target, *torn, *lines]
    due.parent.mkdir(parents=True, exist_ok=True)
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    due.write_text("".join(f"{ln}\n" for ln in head_lines), encoding="utf-8")


def journal_due(git_dir: Path) -> None:
    """What the shim does at post-commit, for hooks run without it (the pre-commit
    framework): journal the lines ``_leave_journal_due`` left when HEAD holds them."""
    due = git_dir / JOURNAL_DUE
    try:
        blob, rel, target, *lines = due.read_text(encoding="utf-8").split("\n")
    except (OSError, ValueError, UnicodeDecodeError):
        return
    from tg_git.repo import git

    try:
        proc = git.spawn(["rev-parse", "-q", "--verify", f"HEAD:{rel}"])
        if proc.stdout.decode("utf-8", "replace").strip() == blob:
            with open(target, "a", encoding="utf-8", newline="\n") as fh:
                fh.write("\n".join(lines))
    finally:
        due.unlink(missing_ok=True)


def _catch_up(ws: Workspace, session_id: str) -> list[tuple[str, int]]:
    """Commits whose hook failed earlier, counted now (journaled: this commit carries them)."""
    from tg_git.services import recount

    if not ws.repo.git_path(recount.PENDING).is_file():
        return []
    return recount.catch_up(ws, session_id)


def _leave_marker(repo: git.Repo, text: str, rel: str, partial: bool, level: str) -> None:
    """Tell post-commit what is due (a save, an index repair) for the commit with ``text``."""
    from tg_git.domain import gitobjects

    marker = repo.git_path(MARKER)
    marker.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "ledger": gitobjects.hash_text(text, repo.object_format),
        "file": rel,
        "partial": partial,
        "level": level,
    }
    marker.write_text(json.dumps(data), encoding="utf-8")


def _refusal(config: Config) -> str:
    from tg_git.domain import gauge

    return gauge.refusal(config)


def _report(result: decide.Decision, config: Config) -> str:
    """What the hook prints after counting a commit."""
    from tg_git.domain import gauge, levels

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
        from tg_git.repo import git
        from tg_git.services import recount

        head = git.run(["rev-parse", "HEAD"]).decode().strip()
        recount.remember(marker.parent.parent, head)
        return 0
    if not info.get("partial") and info.get("level") not in SAVE_LEVELS:
        return 0  # the usual commit: nothing to heal, nothing to save
    from tg_git.domain import levels
    from tg_git.services.startup import open_workspace

    ws = open_workspace(require_init=False)
    repo = ws.repo
    rel = str(info.get("file", ""))
    head_blob = repo.git("rev-parse", "-q", "--verify", f"HEAD:{rel}", check=False).strip().decode()
    if not rel or head_blob != info.get("ledger"):
        return 0  # the marker is from an attempt that did not become this commit
    from tg_git.domain import eventlog
    from tg_git.repo import journal

    landed = repo.git("cat-file", "blob", head_blob, check=False).decode("utf-8", "replace")
    journal.record(repo, rel, eventlog.event_lines(landed))  # a save level: keep it, whatever comes
    if info.get("partial"):
        _heal_index(ws, rel, head_blob)
    if info.get("level") in (levels.FORCE_SAVE, levels.HALT):
        save_due(ws, info["level"])
    return 0


def save_due(ws: Workspace, level: str | None = None, *, merged: bool = False) -> str | None:
    """The hooks' automatic save (its guard: ``checkpoint.due``); after a merge no pre-commit
    hook spoke, so it first says what a crossing commit says. The tag, or None."""
    from tg_git.domain import gauge
    from tg_git.services import checkpoint

    found = checkpoint.due(ws, level, merged=merged)
    if found is None:
        return None
    session, level = found
    if merged:
        current = ", ".join(session.titles("in_progress"))
        report = gauge.commit_report(
            session, ws.config, delta=0, current=current, crossed=level, override=False
        )
        _say(report)
    return checkpoint.save(ws, session, level)


def post_merge(squash: bool) -> int:
    """After `git merge` / `git pull` that merged or fast-forwarded: git runs no post-commit
    there, so the save a commit's post-commit would make happens here, on top of the merge.
    `git merge --squash` (``squash``) commits nothing: the commit that follows counts and saves."""
    if squash:
        return 0
    from tg_git.services.startup import open_workspace

    ws = open_workspace(require_init=False)
    if not ws.initialised:
        return 0
    save_due(ws, merged=True)
    return 0


def _heal_index(ws: Workspace, rel: str, head_blob: str) -> None:
    """After `git commit PATH` the real index still holds the ledger from before the commit;
    point it at the committed one when the work tree has that too."""
    from tg_git.domain import gitobjects
    from tg_git.repo import git

    worktree = ws.file_text(rel)
    if worktree is None or gitobjects.hash_text(worktree, ws.repo.object_format) != head_blob:
        return
    env = {**os.environ, "GIT_INDEX_FILE": str(ws.repo.git_path("index"))}
    if git.index_entry(ws.repo, rel, env) != head_blob:
        ws.repo.git("update-index", "--add", "--cacheinfo", f"100644,{head_blob},{rel}", env=env)
        ws.repo.git("update-index", "-q", "--refresh", env=env, check=False)


def pre_push() -> int:
    """Refuse a push whose commits drift from the ledger (``tg-git verify``): every ref the
    push sends (git gives them on stdin), not only HEAD."""
    from tg_git.services.startup import open_workspace
    from tg_git.services.verify import verify_history

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
                _say(line)
    if drifted:
        from tg_git.services.recount import accept_command
        from tg_git.text import messages

        command = accept_command(drifted)
        _say(messages.text(ws.config.language, "push_refused", command=command))
        return int(ExitCode.DRIFT)
    return 0
