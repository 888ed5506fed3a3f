"""Checkpoints: ``harness_checkpoint.json`` + ``CHECKPOINT.md`` as their own commit and tag.

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
from datetime import datetime, timezone
from typing import Any

from tg_git.domain import budget, levels, refs, replay, schema
from tg_git.domain.errors import TgGitError
from tg_git.domain.layout import CHECKPOINT_JSON, CHECKPOINT_MD
from tg_git.repo import git, ledger
from tg_git.repo.workspace import SAVING, Workspace, on_index
from tg_git.text import messages, term

TAG_PREFIX = refs.TAG_PREFIX
tag_name = refs.tag_name  # the one home of the format: refs.py
MANUAL = "manual"
IN_PROGRESS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply")


def _previous(ws: Workspace) -> tuple[str, str, dict[str, Any]] | None:
    """The newest checkpoint reachable from HEAD whose JSON reads: (tag, commit, data).
    What a save carries over (completed files and tasks) and compares with."""
    if not git.head(ws.repo):
        return None
    pairs = list_tags(ws.repo, merged="HEAD", count=20)
    found = git.read_objects(ws.repo, [f"{commit}:{CHECKPOINT_JSON}" for _, commit in pairs])
    for (tag, commit), obj in zip(pairs, found):
        if obj is None or len(obj[1]) > MAX_JSON_BYTES:
            continue
        try:
            data = json.loads(obj[1].decode("utf-8"))
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict) and isinstance(data.get("status"), dict):
            return tag, commit, data
    return None


MAX_JSON_BYTES = 1 << 20
MAX_COMPLETED = 10000  # the schema's limit on completed files


def _tree_blobs(ws: Workspace, commit: str, paths: list[str]) -> dict[str, str]:
    if not paths:
        return {}
    out = ws.repo.git("ls-tree", "-r", "-z", "--full-tree", commit, check=False)
    wanted = set(paths)
    blobs = {}
    for entry in git.split_z(out):
        meta, _, path = entry.partition("\t")
        if path in wanted:
            blobs[path] = meta.split()[2]
    return blobs


def _carried_files(
    ws: Workspace, previous: tuple[str, str, dict[str, Any]] | None
) -> dict[str, str]:
    """Completed files of the previous checkpoint, path -> blob id (1.0 documents: looked up
    in that checkpoint's tree)."""
    if previous is None:
        return {}
    _, commit, data = previous
    status = data["status"]
    files = status.get("completed_files")
    if isinstance(files, list):
        return {
            f["path"]: f["blob"]
            for f in files
            if isinstance(f, dict)
            and isinstance(f.get("path"), str)
            and isinstance(f.get("blob"), str)
        }
    names = [c for c in status.get("completed", []) if isinstance(c, str)]
    return _tree_blobs(ws, commit, names)


def _committed_files(ws: Workspace, session: replay.Session) -> dict[str, str]:
    """Files added or changed by this session's commits, path -> blob id at HEAD (a
    submodule's "blob" is its commit id)."""
    head = git.head(ws.repo)
    if not head:
        return {}
    base = (
        session.base
        if session.base and git.ok(["cat-file", "-e", session.base], ws.repo.root)
        else ws.repo.empty_tree
    )
    out = ws.repo.git(
        "diff", "--raw", "-z", "--no-abbrev", "--no-renames", "--diff-filter=AMT", base, head
    )
    items = list(git.split_z(out))
    files = {}
    for meta, path in zip(items[::2], items[1::2]):
        fields = meta.split()
        if len(fields) >= 4 and ws.config.counts(path):
            files[path] = fields[3]
    return files


def _done_this_session(ws: Workspace, session: replay.Session) -> dict[str, Any]:
    """The session's own commits (checkpoint saves left out): count, subjects, tokens."""
    subjects: list[str] = []
    if git.head(ws.repo):
        since = [f"^{session.base}"] if session.base else []
        out = ws.repo.git("log", "-z", "--format=%s", "HEAD", *since, check=False)
        subjects = [
            term.one_line(s, 200)
            for s in out.decode("utf-8", "replace").split("\0")
            if s.strip() and not s.startswith(refs.SUBJECT_PREFIX)
        ]
    return {
        "commits": len(subjects),
        "output_tokens": session.output,
        "subjects": subjects[:MAX_SUBJECTS][::-1],  # oldest first, the newest kept
    }


MAX_SUBJECTS = 100
MAX_DIRTY = 100  # a checkpoint lists at most this many uncommitted files


def _dirty_files(ws: Workspace) -> list[str]:
    """Files with uncommitted changes, new untracked files included (ignored ones not);
    tg-git's own fresh agent wiring is not the user's work (see ``agent_wiring``)."""
    return uncommitted(ws)[0]


# In every agent settings entry tg-git writes (`tg-git hook agent ...`, or the interpreter's
# `-m tg_git hook agent ...`).
AGENT_HOOK_MARKS = (b"tg-git hook agent", b"tg_git hook agent")
SKILL_FILE = "skills/token-guard/SKILL.md"


def uncommitted(ws: Workspace) -> tuple[list[str], list[str]]:
    """The user's uncommitted files, and tg-git's own fresh agent wiring: untracked files
    that `tg-git agent install` writes (a settings file holding its hook entries, the
    token-guard skill), which the user has not decided to commit yet."""
    out = ws.repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
    entries = [(e[:2], e[3:]) for e in git.split_z(out) if len(e) > 3]
    theirs: list[str] = []
    ours: list[str] = []
    for code, path in entries:
        if not ws.config.counts(path):
            continue
        (ours if code == "??" and _agent_wiring(ws, path) else theirs).append(path)
    return theirs[:MAX_DIRTY], ours[:MAX_DIRTY]


def _agent_wiring(ws: Workspace, path: str) -> bool:
    if path.endswith(SKILL_FILE):
        return True
    if not path.endswith((".json", ".toml")) or "/" not in path:
        return False
    try:
        with open(ws.repo.root / path, "rb") as fh:
            head = fh.read(1_000_000)
        return any(mark in head for mark in AGENT_HOOK_MARKS)
    except OSError:
        return False


def _remote(ws: Workspace) -> str | None:
    """The origin's URL as an identity, without credentials; None for a local path."""
    url = (
        ws.repo.git("config", "--get", "remote.origin.url", check=False)
        .decode("utf-8", "replace")
        .strip()
    )
    if "://" in url:
        scheme, _, rest = url.partition("://")
        host_part, slash, path = rest.partition("/")
        if scheme == "file":
            return None
        return f"{scheme}://{host_part.rpartition('@')[2]}{slash}{path}"
    if re.match(r"^[\w.-]+@[\w.-]+:", url):  # scp-like git@host:path
        return url
    return None


def _task(t: replay.Task) -> dict[str, Any]:
    return {"task": t.title, "stopping_point": t.stopping_point, "blockers": list(t.blockers)}


def build(
    ws: Workspace,
    session: replay.Session,
    message: str = "",
    previous: tuple[str, str, dict[str, Any]] | None = None,
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The checkpoint document, schema 1.2 (1.1, ``written_by`` and ``budgets``): the seed's 1.0 keys, plus completed files with
    blob ids (carried over from the previous checkpoint) and completed tasks kept apart,
    blocked tasks with their blockers, what this session did, the ``-m`` message, and
    ``usage`` (measured figures, ``{source, measured_at, agent, model, window, spend: {input,
    cache_write, cache_read, output}, fill}``) when the caller has them; 1.2 adds ``budgets``
    (the context and spend budgets at the save, USD where known)."""
    config = ws.config
    tasks = session.tasks.values()
    in_progress = [_task(t) for t in tasks if t.status == "in_progress"]
    blocked = [_task(t) for t in tasks if t.status == "blocked"]
    known = {item["task"] for item in in_progress + blocked}
    in_progress += [
        {"task": p, "stopping_point": "uncommitted changes", "blockers": []}
        for p in _dirty_files(ws)
        if p not in known
    ]
    files = {**_carried_files(ws, previous), **_committed_files(ws, session)}
    files = {path: blob for path, blob in files.items() if schema.path_fits(path)}
    completed_files = [{"path": p, "blob": b} for p, b in sorted(files.items())][:MAX_COMPLETED]
    carried_tasks = previous[2]["status"].get("completed_tasks", []) if previous else []
    done_tasks = (
        [t for t in carried_tasks if isinstance(t, str)] if isinstance(carried_tasks, list) else []
    )
    done_tasks = list(dict.fromkeys(done_tasks + session.titles("done")))
    session_info: dict[str, Any] = {
        "timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "project_name": config.project_name or ws.repo.root.name,
        "project_root": ".",  # the repository itself: no path of the user's machine
        "max_tokens": session.max_tokens,
        "estimated_used": session.used,
        "id": session.id,
    }
    remote = _remote(ws)
    if remote:
        session_info["remote"] = remote
    document = {
        "schema_version": SCHEMA_VERSION,
        "session": session_info,
        "token_thresholds": levels.thresholds(session.max_tokens, config),
        "status": {
            "completed": [f["path"] for f in completed_files],
            "in_progress": in_progress,
            "pending": session.titles("pending"),
            "completed_files": completed_files,
            "completed_tasks": done_tasks,
            "blocked": blocked,
        },
        "critical_context": list(config.critical_context)
        + session.context
        + [f"MAX_TOKENS: {session.max_tokens}"],
        "next_steps": list(session.next_steps),
        "resume_instructions": messages.text(config.language, "resume_instructions"),
        "done_this_session": _done_this_session(ws, session),
        "message": message.strip(),
        **({"usage": usage} if usage else {}),
        **_written_by(ws, session),
        "budgets": _budgets(ws, session),
    }
    # Every field entered here is cut to the schema's bounds: tg-git's own checkpoints load.
    return schema.clamp(document, schema.checkpoint_schema(SCHEMA_VERSION))  # type: ignore[no-any-return]


def written_by(ws: Workspace, session: replay.Session) -> dict[str, str] | None:
    """The agent (and model) that served this session last: the newest of the live reading
    and the last measured usage, else the agent bound to the session; None for a person."""
    from tg_git.repo import readings

    live = readings.read_live(ws.repo.git_dir, session.id)
    measured = (session.measured_at, session.measured_agent, session.measured_model)
    newest = max(
        [measured] + ([(live.at, live.agent, live.model)] if live else []), key=lambda m: m[0]
    )
    if newest[1]:
        return {"agent": newest[1][:64], **({"model": newest[2][:200]} if newest[2] else {})}
    from tg_git.repo import bindings

    for agent, bound in bindings.read(ws.repo).items():  # agents; marks are not dicts
        if isinstance(bound, dict) and bound.get("session") == session.id:
            return {"agent": agent[:64]}
    return None


def writer_text(writer: Any) -> str:
    """``written_by`` as one line, ``agent (model)``; "" when absent or not in its shape."""
    if not isinstance(writer, dict) or not isinstance(writer.get("agent"), str):
        return ""
    model = writer.get("model")
    by = term.one_line(writer["agent"], 64)
    return by + (f" ({term.one_line(model, 200)})" if isinstance(model, str) and model else "")


def _written_by(ws: Workspace, session: replay.Session) -> dict[str, Any]:
    """Schema 1.2's ``written_by``: the agent (and model) that served the session, so that
    a hand-off to another agent can say so."""
    writer = written_by(ws, session)
    return {"written_by": writer} if writer else {}


def _budgets(ws: Workspace, session: replay.Session) -> dict[str, Any]:
    """Schema 1.2's ``budgets``: both budgets at the save (``tg_git.domain.budget``)."""
    from tg_git.domain import budget
    from tg_git.repo import readings

    found = budget.budgets(session, ws.config, readings.read_live(ws.repo.git_dir, session.id))

    def plain(one: budget.Budget) -> dict[str, Any]:
        data = {"used": one.used, "limit": one.limit, "percent": one.percent, "level": one.level,
                "source": one.source, "measured_at": one.measured_at, "usd": one.usd,
                "limit_usd": one.limit_usd}  # fmt: skip
        return {k: v for k, v in data.items() if v is not None and v != ""}

    spend = plain(found.spend)
    context = {k: v for k, v in plain(found.context).items() if k not in ("usd", "limit_usd")}
    halted = {"halted_by": found.halted_by} if found.halted_by else {}
    return {"level": found.level, **halted, "context": context, "spend": spend}


def _title_figures(data: dict[str, Any]) -> tuple[int, int]:
    """The used/limit pair the subject line shows: the budget that set the session's level
    (the spend where it halted or is the worse, else the context against the window in use),
    so a save at a context halt of a 1,000,000 window never reads "960,001/200,000"."""
    from tg_git.domain.budget import RANK

    s = data["session"]
    found = data.get("budgets") or {}
    context, spend = found.get("context") or {}, found.get("spend") or {}
    spend_first = found.get("halted_by") == "spend" or (
        RANK.get(spend.get("level", "ok"), 0) > RANK.get(context.get("level", "ok"), 0)
    )
    chosen = spend if spend_first and spend.get("limit") else context
    if isinstance(chosen.get("used"), int) and isinstance(chosen.get("limit"), int):
        return chosen["used"], chosen["limit"]
    return s["estimated_used"], s["max_tokens"]


SCHEMA_VERSION = "1.2"
MD_LIST_LIMIT = 200  # CHECKPOINT.md lists at most this many files; the JSON has them all


def markdown(data: dict[str, Any], language: str) -> str:
    """CHECKPOINT.md: the seed's template (title, saved line, completed, in progress, next
    steps, critical context), then blocked, pending and done this session. Data is folded
    to one line each, so a title cannot add headings of its own."""

    def t(key: str, **values: Any) -> str:
        return messages.text(language, key, **values)

    def items(values: list[str], numbered: bool = False) -> list[str]:
        shown = [
            f"{n}. {term.one_line(v)}" if numbered else f"- {term.one_line(v)}"
            for n, v in enumerate(values[:MD_LIST_LIMIT], 1)
        ]
        if len(values) > MD_LIST_LIMIT:
            shown.append(f"- {t('md.more', n=len(values) - MD_LIST_LIMIT)}")
        return shown or [f"- {t('md.none')}"]

    s = data["session"]
    status = data["status"]
    pct = 100 * s["estimated_used"] // s["max_tokens"] if s["max_tokens"] else 0
    files = status.get("completed_files")
    paths = [f["path"] for f in files] if isinstance(files, list) else status["completed"]
    tasks = status.get("completed_tasks", [])
    lines = [
        f"# CHECKPOINT — {term.one_line(s['project_name'])}",
        f"> {t('md.saved')}: {s['timestamp']} | {t('md.tokens')}: "
        f"~{s['estimated_used']:,}/{s['max_tokens']:,} ({pct}%)",
    ]
    if data.get("message"):
        lines.append(f"> {t('md.message')}: {term.one_line(data['message'], 2000)}")
    lines += ["", f"## {t('md.completed')}"]
    if tasks:
        lines += [f"**{t('md.files', n=len(paths))}**"]
    lines += items(paths)
    if tasks:
        lines += ["", f"**{t('md.tasks', n=len(tasks))}**", *items(tasks)]
    lines += ["", f"## {t('md.in_progress')}"]
    lines += [
        f"- **{term.one_line(i['task'])}** — {term.one_line(i['stopping_point'])}"
        for i in status["in_progress"]
    ] or [f"- {t('md.none')}"]
    lines += ["", f"## {t('md.next')}", *items(data["next_steps"], numbered=True)]
    lines += ["", f"## {t('md.context')}", *items(data["critical_context"])]
    blocked = status.get("blocked", [])
    if blocked:
        lines += ["", f"## {t('md.blocked')}"]
        lines += [
            f"- **{term.one_line(b['task'])}** — {t('md.blocked_by')}: "
            f"{term.one_line('; '.join(b['blockers']))}"
            for b in blocked
        ]
    lines += ["", f"## {t('md.pending')}", *items(status["pending"])]
    done = data.get("done_this_session")
    if isinstance(done, dict):
        lines += ["", f"## {t('md.done')}",
                  f"- {t('md.commits', n=done['commits'], tokens=done['output_tokens'])}"]  # fmt: skip
        lines += [f"  - {term.one_line(subject)}" for subject in done["subjects"]]
    return "\n".join(lines) + "\n"


def operation_in_progress(ws: Workspace) -> bool:
    return any(ws.repo.git_path(name).exists() for name in IN_PROGRESS)


def list_tags(
    repo: git.Repo, *, merged: str | None = None, count: int | None = None
) -> list[tuple[str, str]]:
    """Checkpoint tags newest first (name order is time order), each with the commit it
    names: the one home of tag listing. Annotated tags are peeled; a lightweight tag names
    its commit itself; a tag of anything but a commit is left out.

    git's ``--merged`` walks history down to the oldest tag it is asked about (a second at
    100,000 commits in a fresh clone), so it is asked about the newest ``count`` tags first,
    a short walk; all of them only when some of those are on other lines."""
    if merged and count:
        newest = [f"refs/tags/{tag}" for tag, _ in _tags(repo, [f"--count={count}"])]
        found = _tags(repo, [f"--merged={merged}", f"--count={count}"], newest)
        if len(found) == count or len(newest) < count:
            return found
    return _tags(
        repo,
        [*([f"--merged={merged}"] if merged else []), *([f"--count={count}"] if count else [])],
    )


def _tags(
    repo: git.Repo, options: list[str], patterns: list[str] | None = None
) -> list[tuple[str, str]]:
    out = repo.git(
        "for-each-ref", "--sort=-refname", *options,
        "--format=%(refname:strip=2) %(objecttype) %(objectname) %(*objecttype) %(*objectname)",
        *(patterns or [refs.TAG_REFS]), check=False,
    ).decode("utf-8", "replace")  # fmt: skip
    found = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] == "commit":
            found.append((fields[0], fields[2]))
        elif len(fields) == 5 and fields[3] == "commit":
            found.append((fields[0], fields[4]))
    return found


def saved_tags(ws: Workspace) -> dict[str, str]:
    """Checkpoint tags and the commits they point at."""
    return dict(list_tags(ws.repo))


def already_saved(ws: Workspace, session_id: str, level: str) -> bool:
    suffix = refs.tag_suffix(session_id, level)
    return any(tag.endswith(suffix) for tag in saved_tags(ws))


def _failpoint(name: str) -> None:
    """Fault injection for the tests: ``TG_GIT_FAILPOINT=NAME`` kills the process right here;
    ``NAME:stop`` stops it (SIGSTOP) once, until a SIGCONT, to open a race's window at will."""
    wanted, _, how = os.environ.get("TG_GIT_FAILPOINT", "").partition(":")
    if wanted == name:
        import signal

        if how == "stop":
            del os.environ["TG_GIT_FAILPOINT"]  # a retry runs on
        os.kill(os.getpid(), signal.SIGSTOP if how == "stop" else signal.SIGKILL)


def _say(ws: Workspace, key: str, **values: Any) -> None:
    print(messages.text(ws.config.language, key, **values), file=sys.stderr)


def _interrupted(ws: Workspace, session: replay.Session, level: str) -> str | None:
    """A checkpoint commit of this session and level that a killed save left without its tag.
    Only the commits since the session started are searched."""
    since = [f"^{session.base}"] if session.base else []
    session_line = refs.trailers(session.id, level).splitlines()[0]
    out = ws.repo.git(
        "log", "-n", "50", "--format=%H", "--fixed-strings",
        f"--grep={session_line}", "HEAD", *since, check=False,
    )  # fmt: skip
    tagged = set(saved_tags(ws).values())
    level_line = refs.trailers(session.id, level).splitlines()[1]
    for commit in out.decode().split():
        body = ws.repo.text("log", "-1", "--format=%B", commit)
        if level_line in body.splitlines() and commit not in tagged:
            return commit
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
    parents = repo.text("rev-parse", "HEAD^@").split() if merging else []
    return bool(merging) and set(merging) <= set(parents)


def auto_save(ws: Workspace, level: str) -> str | None:
    """The agent hooks' turn-end save (see ``due``); the tag, or None when nothing was due."""
    found = due(ws, level)
    return save(ws, *found) if found else None


def _sign_args(repo: git.Repo) -> list[str]:
    wanted = repo.git("config", "--bool", "commit.gpgsign", check=False).strip() == b"true"
    return ["-S"] if wanted else []


def _commit_tree(ws: Workspace, tree: str, parents: list[str], body: str) -> str:
    """commit-tree, signed when commit.gpgsign asks; unsigned, with a clear line, when it fails."""
    repo = ws.repo
    sign = _sign_args(repo)
    try:
        return repo.git("commit-tree", *sign, tree, *parents, input=body.encode()).decode().strip()
    except TgGitError as exc:
        if not sign:
            raise
        _say(ws, "not_signed", why=str(exc))
        return repo.git("commit-tree", tree, *parents, input=body.encode()).decode().strip()


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")


def _tag(ws: Workspace, commit: str, session_id: str, level: str, title: str) -> str:
    # Microseconds keep name order equal to time order even for saves in the same second.
    existing = saved_tags(ws)
    while True:
        tag = refs.tag_name(_stamp(), session_id, level)
        if tag not in existing:
            break
    ws.repo.git("tag", "-a", tag, commit, "-m", title)
    return tag


def _keep(ws: Workspace, path: str, data: bytes | None, where: str, link: str = "") -> None:
    """Copy a user's edit of a checkpoint file (or a symlink of theirs) aside before a save
    replaces it."""
    kept = ws.repo.git_path("tg-git") / "kept" / f"{_stamp()}-{path}"
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
    paths = (CHECKPOINT_JSON, CHECKPOINT_MD)
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
    repo.git("update-index", "-q", "--refresh", check=False)


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


def _check_paths(ws: Workspace) -> None:
    for path in (CHECKPOINT_JSON, CHECKPOINT_MD):
        target = ws.repo.root / path
        if target.is_dir() and not target.is_symlink():
            raise TgGitError(messages.text(ws.config.language, "checkpoint_path_dir", path=path))


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
    _check_paths(ws)
    leftover = _interrupted(ws, session, level) if level != MANUAL else None
    if leftover:
        title = repo.text("log", "-1", "--format=%s", leftover)
        tag = _tag(ws, leftover, session.id, level, title)
        if git.head(repo) == leftover:
            _sync_files(ws, leftover)
        _say(ws, "finished_interrupted", tag=tag)
        return tag
    data = build(ws, session, message, _previous(ws), usage)
    return _write(ws, session, level, data)


SAVE_TRIES = 3  # a user's commit that moved HEAD under a save: the save is made again on it


def _write(ws: Workspace, session: replay.Session, level: str, data: dict[str, Any]) -> str:
    for attempt in range(SAVE_TRIES):
        try:
            return _write_once(ws, session, level, data)
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
        data = json.loads(repo.git_path(SAVING).read_text(encoding="utf-8"))
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
        data = json.loads(path.read_text(encoding="utf-8"))
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
    if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", commit) and git.ok(
        ["merge-base", "--is-ancestor", commit, "HEAD"], repo.root
    ):
        if _partial_commit(repo):
            return  # git holds the real index until this commit ends: the next command
        if git.ok(["diff", "--quiet", commit, "HEAD", "--", CHECKPOINT_JSON, CHECKPOINT_MD],
                  repo.root):  # fmt: skip
            _sync_files(ws, commit)
        if commit not in saved_tags(ws).values():
            title = repo.text("log", "-1", "--format=%s", commit)
            tag = _tag(ws, commit, session_id, level or MANUAL, title)
            _say(ws, "finished_interrupted", tag=tag)
    path.unlink(missing_ok=True)


def _partial_commit(repo: git.Repo) -> bool:
    """In the hook of `git commit PATH`: git gives it a temporary index, and holds the real
    one locked until the commit ends."""
    index = os.environ.get("GIT_INDEX_FILE")
    real = {os.path.realpath(repo.git_dir / name) for name in ("index", "index.lock")}
    return bool(index) and os.path.realpath(str(index)) not in real


def _note_saving(ws: Workspace, commit: str, session: replay.Session, level: str,
                 blobs: dict[str, str]) -> None:  # fmt: skip
    path = ws.repo.git_path(SAVING)
    data = {"pid": os.getpid(), "commit": commit, "session": session.id, "level": level,
            "blobs": blobs}  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def _write_once(ws: Workspace, session: replay.Session, level: str, data: dict[str, Any]) -> str:
    repo = ws.repo
    json_text = _SURROGATE.sub(_escape, json.dumps(data, ensure_ascii=False, indent=2)) + "\n"
    md_text = _SURROGATE.sub("\ufffd", markdown(data, ws.config.language))
    old_head = git.head(repo)
    tmp_index = str(repo.git_dir / f"{TEMP_INDEX}{os.getpid()}-{os.urandom(3).hex()}")
    env = {**os.environ, "GIT_INDEX_FILE": tmp_index}
    try:
        if old_head:
            repo.git("read-tree", old_head, env=env)
        _failpoint("in-temp-index")
        blobs = {}
        for path, text in ((CHECKPOINT_JSON, json_text), (CHECKPOINT_MD, md_text)):
            blobs[path] = git.stage_file(repo, path, text.encode("utf-8"), env)
        tree = repo.git("write-tree", env=env).decode().strip()
    finally:
        for name in (tmp_index, tmp_index + ".lock"):
            if os.path.exists(name):
                os.unlink(name)
    used, limit = _title_figures(data)
    pct = 100 * used // limit if limit else 0
    lang = ws.config.language
    named = messages.has(f"level.{level}")  # a level without a name keeps its id
    title = messages.text(
        lang, "checkpoint_title", prefix=refs.SUBJECT_PREFIX, pct=pct, used=used,
        max=limit, level=messages.text(lang, f"level.{level}") if named else level,
    )  # fmt: skip
    message = refs.neutral_message(term.strip_controls(data.get("message", "")))
    trailer = refs.trailers(session.id, level)
    body = f"{title}\n\n{message}\n\n{trailer}" if message else f"{title}\n\n{trailer}"
    commit = _commit_tree(ws, tree, ["-p", old_head] if old_head else [], body)
    # The ref first, then the files: the two files enter the index only once HEAD holds
    # them. A user's `git commit` reads the index after its pre-commit hook, where no hook
    # can look: files staged before the ref moved could enter that commit (the user's commit
    # wins the ref, the save is made again on top). A commit that starts on the save's HEAD
    # before the files are in the index takes them from HEAD (``keep_out_of_commit``), and
    # a save killed after the ref is finished by the next tg-git command (``recover``).
    saving = repo.git_path(SAVING)
    _note_saving(ws, commit, session, level, blobs)
    _failpoint("before-ref")
    if not git.ok(["update-ref", "-m", title, "HEAD", commit, old_head or "0" * len(commit)],
                  repo.root):  # fmt: skip
        saving.unlink(missing_ok=True)  # nothing of this try is anywhere but in the odb
        raise HeadMoved
    _failpoint("before-files")
    _sync_files(ws, commit)
    _failpoint("before-tag")
    tag = _tag(ws, commit, session.id, level, title)
    saving.unlink(missing_ok=True)  # on a failure above it stays, for ``recover``
    _say(ws, "saved", tag=tag, title=title)
    return tag


def keep_out_of_commit(repo: git.Repo, env: dict[str, str], head: str | None) -> None:
    """In a user's pre-commit hook, while a save runs: a commit on top of the save's commit
    (HEAD moved, the two files not yet in the index) takes the files from HEAD, so it neither
    deletes nor reverts them. (Before the save's ref moves, its files are in no index.)"""
    saving = in_flight(repo)
    if saving is None or head is None or saving.get("commit") != head:
        return
    paths = (CHECKPOINT_JSON, CHECKPOINT_MD)
    listed = repo.git("ls-tree", "-z", head, "--", *paths)
    in_head = {e.split("\t", 1)[1]: e.split("\t", 1)[0].split() for e in git.split_z(listed)}
    staged = repo.git("ls-files", "-s", "-z", "--", *paths, env=env)
    in_index = {e.split("\t", 1)[1]: e.split()[1] for e in git.split_z(staged)}
    info = "".join(
        f"{in_head[p][0]} {in_head[p][2]}\t{p}\n"
        for p in paths
        if p in in_head and in_index.get(p) != in_head[p][2]
    )
    if info:
        on_index(repo, ["update-index", "--index-info"], env, info.encode())


# A file name that is not UTF-8 reaches Python as lone surrogates (surrogateescape). In the
# JSON they are written as \\udcXX escapes, which read back to the same name; in the
# Markdown, shown as U+FFFD.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match[0]):04x}"


def _same(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether two checkpoint documents say the same thing (their save times aside)."""

    def strip(doc: dict[str, Any]) -> dict[str, Any]:
        return {**doc, "session": {k: v for k, v in doc["session"].items() if k != "timestamp"}}

    try:
        return strip(new) == strip(old)
    except (KeyError, AttributeError, TypeError):
        return False


def manual_save(ws: Workspace, message: str = "") -> tuple[str, bool]:
    """`tg-git checkpoint`: a save by hand at any level (not during a rebase or merge).
    Returns the tag and whether a new save was made: with nothing new since the newest
    checkpoint reachable from HEAD, that one's tag and False (no commit is added)."""
    session = ws.require_session()
    if operation_in_progress(ws):
        raise TgGitError(messages.text(ws.config.language, "busy_operation"))
    ws.check_ledger_staged()
    _clean_orphans(ws.repo)
    _check_paths(ws)
    previous = _previous(ws)
    data = build(ws, session, message, previous)
    if previous and _same(data, previous[2]):
        _say(ws, "nothing_new", tag=previous[0])
        return previous[0], False
    return _write(ws, session, MANUAL, data), True


def listing(ws: Workspace) -> list[dict[str, Any]]:
    """Checkpoints newest first: tag, commit, time, used/max, completed files and tasks."""
    tags = list_tags(ws.repo)
    found = git.read_objects(ws.repo, [f"{commit}:{CHECKPOINT_JSON}" for _, commit in tags])
    rows = []
    for (tag, commit), obj in zip(tags, found):
        row: dict[str, Any] = {"tag": tag, "commit": commit}
        try:
            data = json.loads(obj[1]) if obj else {}
            session = data.get("session", {})
            status = data.get("status", {})
            files = status.get("completed_files")
            tasks = status.get("completed_tasks")
            row.update(
                timestamp=session.get("timestamp"),
                used=session.get("estimated_used"),
                max_tokens=session.get("max_tokens"),
                completed=len(status.get("completed", [])),
                completed_files=len(files) if isinstance(files, list) else None,
                completed_tasks=len(tasks) if isinstance(tasks, list) else None,
                message=data.get("message") or "",
            )
        except (ValueError, AttributeError, TypeError):
            row["error"] = "unreadable harness_checkpoint.json"
        rows.append(row)
    return rows
