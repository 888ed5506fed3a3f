"""The checkpoints a repository holds: their tags newest first, the newest one HEAD reaches,
and the listing that ``tg-git log`` and the report show.

Reads only; the save (``tg_git.services.checkpoint``) makes them. A tag name starts with a UTC
time stamp (``tg_git.domain.refs``), so name order is time order.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any

from tg_git.domain import layout, refs
from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.domain.layout import CHECKPOINT_JSON
from tg_git.repo import git
from tg_git.repo.workspace import Workspace

MAX_JSON_BYTES = 1 << 20


def files(ws: Workspace, folder: str | None = None) -> tuple[str, str]:
    """Where a save writes ``harness_checkpoint.json`` and ``CHECKPOINT.md``: in ``folder``
    (``checkpoint.dir`` by default), once it is checked against what the work tree holds:
    no symbolic link and no file on the way (a clone can track either, and tg-git writes
    nothing outside the work tree). Raises with one sentence that says what to do."""

    from tg_git.text import messages  # lazy: 0.5 ms

    value = ws.config.checkpoint_dir if folder is None else folder
    lang = ws.config.language
    problem = layout.checkpoint_dir_problem(value)
    shown = ""
    if problem is None:
        value = layout.checkpoint_dir(value)
        current = ws.repo.root
        parts = () if value == layout.CHECKPOINT_ROOT else PurePosixPath(value).parts
        for part in parts:
            current = current / part
            shown = current.relative_to(ws.repo.root).as_posix()
            if current.is_symlink():
                problem = "checkpoint_dir.link"
                break
            if current.exists() and not current.is_dir():
                problem = "checkpoint_dir.file"
                break
    if problem:
        why = messages.text(lang, problem, path=shown)
        raise TgGitError(
            messages.text(lang, "checkpoint_dir_bad", value=value, why=why), ExitCode.USAGE
        )
    return layout.checkpoint_files(value)


def json_paths(repo: git.Repo, commits: list[str]) -> dict[str, str]:
    """Where each checkpoint commit saved its ``harness_checkpoint.json``: the file of that
    name the commit itself changed (its own diff, so a moved ``checkpoint.dir``, a fresh
    clone or a branch with another folder finds it), else the root's (an older save)."""
    unique = list(dict.fromkeys(commits))
    found: dict[str, str] = {}
    if unique:
        out = repo.git(
            "diff-tree",
            "--stdin",
            "-r",
            "--root",
            "--name-only",
            "-z",
            "--no-renames",
            input="".join(f"{c}\n" for c in unique).encode(),
            check=False,
        )
        current = ""
        for item in out.decode("utf-8", "surrogateescape").split("\0"):
            if item in unique:
                current = item
            elif current and item.rsplit("/", 1)[-1] == CHECKPOINT_JSON:
                found.setdefault(current, item)
    return {c: found.get(c, CHECKPOINT_JSON) for c in unique}


def md_path(json_path: str) -> str:
    """The ``CHECKPOINT.md`` beside a ``harness_checkpoint.json``."""
    folder, _, _ = json_path.rpartition("/")
    return f"{folder}/{layout.CHECKPOINT_MD}" if folder else layout.CHECKPOINT_MD


def previous(ws: Workspace) -> tuple[str, str, dict[str, Any]] | None:
    """The newest checkpoint reachable from HEAD whose JSON reads: (tag, commit, data).
    What a save carries over (completed files and tasks) and compares with."""
    if not git.head(ws.repo):
        return None
    pairs = list_tags(ws.repo, merged="HEAD", count=20)
    where = json_paths(ws.repo, [commit for _, commit in pairs])
    found = git.read_objects(ws.repo, [f"{commit}:{where[commit]}" for _, commit in pairs])
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
        "for-each-ref",
        "--sort=-refname",
        *options,
        "--format=%(refname:strip=2) %(objecttype) %(objectname) %(*objecttype) %(*objectname)",
        *(patterns or [refs.TAG_REFS]),
        check=False,
    ).decode("utf-8", "replace")
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


def listing(ws: Workspace) -> list[dict[str, Any]]:
    """Checkpoints newest first: tag, commit, time, used/max, completed files and tasks."""
    tags = list_tags(ws.repo)
    where = json_paths(ws.repo, [commit for _, commit in tags])
    found = git.read_objects(ws.repo, [f"{commit}:{where[commit]}" for _, commit in tags])
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
