"""What the git hooks run: ``tg-git hook pre-commit | pre-merge-commit | post-commit | pre-push``.

The pre-commit hook writes the new ledger into the commit being made: the ledger as staged
(HEAD's plus the events recorded since), without any commit event a failed earlier attempt
left, plus one event for the staged change. Retries and amends therefore count once.

A tool error prints one line and lets the commit through (exit 0). Only two refusals exist,
both on purpose: the halt level, and an unstaged edit of the ledger (which a write would
otherwise destroy).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tg_git.errors import ExitCode, TgGitError

if TYPE_CHECKING:  # the hot path imports nothing it does not use
    from tg_git.workspace import Workspace

MARKER = "tg-git/post-commit.json"
SAVE_LEVELS = ("force-save", "halt")  # levels.FORCE_SAVE, levels.HALT, without importing them


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def run_hook(args: list[str]) -> int:
    name = args[0] if args else ""
    handlers = {
        "pre-commit": pre_commit,
        "pre-merge-commit": pre_commit,
        "post-commit": post_commit,
        "pre-push": pre_push,
    }
    if name not in handlers:
        _say(
            f"tg-git: unknown hook {name!r}; use pre-commit, pre-merge-commit, post-commit or pre-push."
        )
        return ExitCode.USAGE
    try:
        return handlers[name]()
    except TgGitError as exc:
        _say(f"tg-git: {exc} (the commit was not blocked)")
        return 0
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except Exception as exc:  # never block a commit on a bug
        _say(
            f"tg-git: internal error in the {name} hook ({type(exc).__name__}: {exc}); "
            "the commit was not blocked; please report it."
        )
        return 0


def _git_dir_fast() -> Path | None:
    """The git dir of the work tree we run in, from git: the native shim passes what
    `git rev-parse --absolute-git-dir` said (so this costs no process); otherwise ask git.
    Never a `./.git` guess: GIT_DIR, --separate-git-dir and worktrees put it elsewhere."""
    known = os.environ.get("TG_GIT_HOOK_GIT_DIR")
    if known:
        return Path(known)
    import subprocess

    proc = subprocess.run(["git", "rev-parse", "--absolute-git-dir"], capture_output=True)
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


def pre_commit() -> int:
    from dataclasses import replace

    from tg_git import git, ledger, levels
    from tg_git.config import LEDGER_PATH
    from tg_git.staged import staged_counts
    from tg_git.workspace import UNSTAGED_LEDGER, Workspace

    ws = Workspace.open(require_init=False)
    if not ws.initialised:
        return 0
    repo, config = ws.repo, ws.config
    real_index = str(repo.git_path("index"))
    env, partial = _index_file(real_index)

    # One cat-file process answers every lookup the hook needs.
    merging = repo.git_path("MERGE_HEAD").exists()
    specs = ["HEAD", f"HEAD:{LEDGER_PATH}", f":{LEDGER_PATH}"]
    if merging:
        specs += ["MERGE_HEAD", f"MERGE_HEAD:{LEDGER_PATH}"]
    found = git.read_objects(repo, specs, env)
    text = [obj[1].decode("utf-8", "replace") if obj else None for obj in found]
    head = found[0][0] if found[0] else None
    head_text, staged = text[1], text[2]
    merge_head = found[3][0] if merging and found[3] else None
    theirs = text[4] if merging else None

    # The ledger to build on: the staged one, which tg-git's commands keep equal to the
    # work tree's. A difference is the user's own unstaged edit: refuse rather than lose it.
    worktree = ws.ledger_text()
    base = staged
    if worktree is not None and worktree != staged:
        real = git.blob_at_env(repo, LEDGER_PATH, {**env, "GIT_INDEX_FILE": real_index})
        if partial and real is not None and worktree.encode("utf-8") == real:
            base = worktree  # `git commit PATH`: the real index holds the recorded events
        else:
            _say(f"tg-git: commit refused: {UNSTAGED_LEDGER}")
            return 1
    if base is None:
        return 0

    # One parse: HEAD's events are the staged ledger's lines that HEAD has too (the ledger
    # only grows by lines). Commit events on lines in neither HEAD nor (while merging) the
    # other side are left over from an attempt that failed after this hook: drop them.
    events = ledger.parse(base)
    old_lines = set(head_text.split("\n")) if head_text else set()
    known_lines = old_lines | set(theirs.split("\n")) if theirs else old_lines
    added = {
        key
        for line in base.split("\n")
        if line not in known_lines and (key := line.split("=", 1)[0].strip()) in events
    }
    stale = {k for k in added if events[k]["kind"] == "commit"}
    before = ledger.replay({k: e for k, e in events.items() if k not in stale})
    if before is None:
        _say("tg-git: no session has started, so this commit is not counted; "
             "run `tg-git session start`.")  # fmt: skip
        return 0

    # Refuse once a commit of this session has landed at the halt level: the commit that
    # first crosses (even when recorded input took the session there) still lands.
    committed = ledger.replay({k: e for k, e in events.items() if k not in added})
    override = False
    if (
        committed is not None
        and committed.id == before.id
        and levels.level(committed.used, committed.max_tokens, config) == levels.HALT
    ):
        if os.environ.get("TG_GIT_ALLOW_HALT") != "1":
            _say(levels.halt_block(config))
            _say(levels.text(config, "halt_fix"))
            return ExitCode.HALT
        override = True

    counts = [
        c for c in staged_counts(repo, config, env, head, merge_head) if c.counted and not c.binary
    ]
    tokens = sum(c.tokens for c in counts)
    new_text = "\n".join(ln for ln in base.split("\n") if ln.split("=", 1)[0].strip() not in stale)
    if counts or override:
        label = (
            counts[0].path + (f" (+{len(counts) - 1})" if len(counts) > 1 else "") if counts else ""
        )
        extra: dict[str, Any] = {"override": True} if override else {}
        _, line = ledger.event_line(
            "commit", session=before.id, tokens=tokens, files=len(counts), label=label, **extra
        )
        new_text = ledger.appended(new_text, [line])
    if new_text != staged or new_text != worktree:
        ledger.write_atomic(ws.ledger_path, new_text)
        repo.git("add", "--", LEDGER_PATH, env=env)

    after = replace(before, output=before.output + tokens) if counts else before
    level = levels.level(after.used, after.max_tokens, config)
    _say(levels.gauge_line(after, config, tokens))
    if level != levels.OK:
        current = ", ".join(after.titles("in_progress")) or (counts[0].path if counts else "")
        _say(levels.warning_block(after, config, current))
    # Leave post-commit work only when there is some: the shim then skips Python entirely.
    marker = repo.git_path(MARKER)
    if partial or level in SAVE_LEVELS:
        marker.parent.mkdir(parents=True, exist_ok=True)
        data = {"ledger": git.hash_text(new_text), "partial": partial, "level": level}
        marker.write_text(json.dumps(data), encoding="utf-8")
    else:
        marker.unlink(missing_ok=True)
    return 0


def post_commit() -> int:
    git_dir = _git_dir_fast()
    marker = git_dir / MARKER if git_dir else None
    if marker is None or not marker.is_file():
        return 0  # nothing was counted by our pre-commit: nothing to heal or save
    try:
        info = json.loads(marker.read_text(encoding="utf-8"))
    finally:
        marker.unlink(missing_ok=True)
    if not info.get("partial") and info.get("level") not in SAVE_LEVELS:
        return 0  # the usual commit: nothing to heal, nothing to save, nothing imported
    from tg_git import checkpoint, levels
    from tg_git.config import LEDGER_PATH
    from tg_git.workspace import Workspace

    ws = Workspace.open(require_init=False)
    repo = ws.repo
    head_blob = (
        repo.git("rev-parse", "-q", "--verify", f"HEAD:{LEDGER_PATH}", check=False).strip().decode()
    )
    if head_blob != info.get("ledger"):
        return 0  # the marker is from an attempt that did not become this commit
    if info.get("partial"):
        _heal_index(ws, head_blob)
    if info.get("level") in (levels.FORCE_SAVE, levels.HALT):
        checkpoint.auto_save(ws, info["level"])
    return 0


def _heal_index(ws: Workspace, head_blob: str) -> None:
    """After `git commit PATH` the real index still holds the ledger from before the commit;
    point it at the committed one when the work tree has that too."""
    from tg_git import git
    from tg_git.config import LEDGER_PATH

    worktree = ws.ledger_text()
    if worktree is None or git.hash_text(worktree) != head_blob:
        return
    env = {**os.environ, "GIT_INDEX_FILE": str(ws.repo.git_path("index"))}
    if git.index_entry(ws.repo, LEDGER_PATH, env) != head_blob:
        ws.repo.git(
            "update-index", "--add", "--cacheinfo", f"100644,{head_blob},{LEDGER_PATH}", env=env
        )
        ws.repo.git("update-index", "-q", "--refresh", env=env, check=False)


def pre_push() -> int:
    """Refuse a push whose history drifts from the ledger (``tg-git verify``)."""
    from tg_git.verify import verify_history
    from tg_git.workspace import Workspace

    ws = Workspace.open(require_init=False)
    if not ws.initialised:
        return 0
    report = verify_history(ws)
    if report.ok:
        return 0
    for line in report.lines():
        _say(line)
    _say("tg-git: push refused; inspect with `tg-git verify`, or push with --no-verify.")
    return int(ExitCode.DRIFT)
