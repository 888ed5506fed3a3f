"""Resume: find the newest checkpoint, validate it, rebuild the state from history, check
every completed file, brief, and start a new session that carries the plan over.

A checkpoint is data from a repository someone else may have written: it is size-limited,
depth-limited and schema-checked before use, and its paths are only ever resolved inside
the work tree (absolute paths, ``..`` and symlinks that leave the repository are
``rejected``; no file outside the repository is opened).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from tg_git.domain import gitobjects, levels, refs, replay, schema
from tg_git.domain.carry import plan_of
from tg_git.domain.checkpoint_text import writer_text
from tg_git.domain.errors import (
    BadCheckpoint,
    ExitCode,
    Message,
    NoCheckpoint,
    NotReady,
    TgGitError,
)
from tg_git.domain.eventlog import MAX_COUNT
from tg_git.domain.layout import CHECKPOINT_JSON, LEDGER_PATH, checkpoint_files
from tg_git.domain.replay import Session
from tg_git.repo import git, gitquery
from tg_git.repo.checkpoints import json_paths, list_tags
from tg_git.repo.workspace import Workspace
from tg_git.services import waiting
from tg_git.services.checkpoint_document import every_event, uncommitted
from tg_git.services.failpoint import hit
from tg_git.text import messages, term

if TYPE_CHECKING:
    from tg_git.domain.eventkinds import Plan

MAX_BYTES = 1 << 20  # 1 MiB: a real checkpoint is a few KiB
MAX_DEPTH = 16  # the schema needs 4
TAG_REFS = refs.TAG_REFS
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class Found:
    source: str  # tag | log | worktree
    tag: str | None
    commit: str | None
    raw: bytes


# ---- step 1: find ----------------------------------------------------------------------
def _read_committed(ws: Workspace, commit: str, source: str, tag: str | None) -> Found:
    path = json_paths(ws.repo, [commit])[commit]  # where that save put it, from its own diff
    spec = f"{commit}:{path}"
    size = gitquery.object_size(ws.repo, spec)
    if size is None:
        raise BadCheckpoint.from_key("checkpoint_bad.no_file", where=tag or commit[:12], file=path)
    if size > MAX_BYTES:
        raise BadCheckpoint.from_key(
            "checkpoint_bad.too_large_in",
            file=path,
            where=tag or commit[:12],
            size=size,
            most=MAX_BYTES,
        )
    return Found(source, tag, commit, gitquery.blob(ws.repo, spec) or b"")


MAX_TRIES = 20  # broken checkpoint tags skipped before resume gives up


def find(ws: Workspace, from_tag: str | None = None) -> Found:
    """The newest checkpoint: tags first, ``git log --grep`` second, the work-tree file last."""
    return find_and_load(ws, from_tag)[0]


def find_and_load(
    ws: Workspace, from_tag: str | None = None
) -> tuple[Found, dict[str, Any], list[dict[str, str]]]:
    """The newest checkpoint that loads, its document, and the newer ones skipped because
    they do not (``{tag, reason}``): a broken newest tag does not stop a resume. ``--from``
    names one checkpoint, and then its error is the answer."""
    repo = ws.repo
    if from_tag:
        name = from_tag.removeprefix("refs/tags/")
        peeled = gitquery.rev_parse(repo, f"refs/tags/{name}")
        if peeled is None:
            raise NoCheckpoint(messages.text(ws.config.language, "no_checkpoint_tag", name=name))
        found = _read_committed(ws, peeled, "tag", name)
        return found, load(found), []
    skipped: list[dict[str, str]] = []
    first_error: BadCheckpoint | None = None
    # A line of work resumes its own saves: another branch's newer checkpoint is not ours.
    merged = "HEAD" if git.head(repo) else None
    for tag, commit in _by_history(repo, list_tags(repo, merged=merged, count=MAX_TRIES)):
        try:
            found = _read_committed(ws, commit, "tag", tag)
            return found, load(found), skipped
        except BadCheckpoint as exc:
            first_error = first_error or exc
            skipped.append({"tag": tag, "reason": exc.text(ws.config.language)})
    if first_error is not None:
        raise first_error
    if git.head(repo):
        saves = gitquery.log(repo, ["HEAD"], limit=1, grep="^checkpoint:")
        if saves:
            found = _read_committed(ws, saves[0].sha, "log", None)
            return found, load(found), skipped
    path = _in_worktree(ws)
    if path.is_symlink():
        raise BadCheckpoint.from_key("checkpoint_bad.symlink", file=CHECKPOINT_JSON)
    if path.is_file():
        if path.stat().st_size > MAX_BYTES:
            raise BadCheckpoint.from_key(
                "checkpoint_bad.too_large_file",
                file=CHECKPOINT_JSON,
                size=path.stat().st_size,
                most=MAX_BYTES,
            )
        found = Found("worktree", None, None, path.read_bytes())
        return found, load(found), skipped
    raise NoCheckpoint(messages.text(ws.config.language, "no_checkpoint"))


def _in_worktree(ws: Workspace) -> Path:
    """A checkpoint file never committed: in ``checkpoint.dir`` when it is there, else at the
    root (where an older save, and the seed, put it)."""
    root = ws.repo.root
    json_path = checkpoint_files(ws.config.checkpoint_dir)[0]
    if json_path != CHECKPOINT_JSON and not _unsafe(root.resolve(), json_path):
        here = root / json_path
        if here.is_file() or here.is_symlink():
            return here
    return root / CHECKPOINT_JSON


def _by_history(repo: git.Repo, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Checkpoint tags (newest name first) with those no other one descends from first: name
    order is time order only while the clock is right, and a save made after the clock went
    back has the older name but the newer commit."""
    commits = list(dict.fromkeys(commit for _, commit in pairs))
    if len(commits) < 2:
        return pairs
    tips = gitquery.independent(repo, commits)
    return [p for p in pairs if p[1] in tips] + [p for p in pairs if p[1] not in tips]


# ---- step 2: validate --------------------------------------------------------------------
def _depth(value: Any, limit: int) -> int:
    if limit < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def load(found: Found) -> dict[str, Any]:
    where = found.tag or (found.commit[:12] if found.commit else CHECKPOINT_JSON)
    if len(found.raw) > MAX_BYTES:
        raise BadCheckpoint.from_key("checkpoint_bad.over_limit", where=where, most=MAX_BYTES)
    try:
        data = json.loads(found.raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadCheckpoint.from_key("checkpoint_bad.not_utf8", where=where) from None
    except RecursionError:
        raise BadCheckpoint.from_key("checkpoint_bad.too_deep", where=where) from None
    except ValueError as exc:
        at = {"line": getattr(exc, "lineno", "?"), "column": getattr(exc, "colno", "?")}
        reason = Message("json_reason", reason=exc, **at)
        raise BadCheckpoint.from_key(
            "checkpoint_bad.not_json", where=where, reason=reason
        ) from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise BadCheckpoint.from_key("checkpoint_bad.deeper", where=where, most=MAX_DEPTH)
    version = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(data, dict) and schema.minor(version) is None:
        raise BadCheckpoint.from_key(
            "checkpoint_bad.version", where=where, version=str(version)[:40]
        )
    problems = schema.checkpoint_errors(data)
    if problems:
        more = f" (+{len(problems) - 2} more)" if len(problems) > 2 else ""
        said = Message(
            "schema_problems", problems=f"{'; '.join(problems[:2])}{more}", n=len(problems)
        )
        raise BadCheckpoint.from_key(
            "checkpoint_bad.schema", where=where, version=str(version)[:40], problems=said
        )
    problem = _out_of_bounds(data)
    if problem:
        raise BadCheckpoint.from_key(problem.key, where=where, **problem.values)
    return data  # type: ignore[no-any-return]


def _out_of_bounds(data: dict[str, Any]) -> Message | None:
    """What the schema cannot say: a count no ledger reads back, a path no file system
    opens (either would make every resume from this checkpoint fail)."""

    numbers = [
        data["session"]["max_tokens"],
        data["session"]["estimated_used"],
        *data["token_thresholds"].values(),
    ]
    if any(n > MAX_COUNT for n in numbers):
        return Message("checkpoint_bad.count", most=f"{MAX_COUNT:.0e}")
    status = data["status"]
    paths = [*status["completed"], *(f["path"] for f in status.get("completed_files", []))]
    bad = next((p for p in paths if not schema.path_fits(p)), None)
    if bad is not None:
        return Message("checkpoint_bad.path", path=term.one_line(bad, 60))
    return None


# ---- step 4: completed files ---------------------------------------------------------------
def _escapes(root: Path, relative: PurePosixPath) -> bool:
    """Whether any component of ``relative`` is a symlink that leads out of ``root``."""
    current = root
    for part in relative.parts:
        current = current / part
        if current.is_symlink():
            target = current.resolve()
            if target != root and root not in target.parents:
                return True
    return False


def completed_files(data: dict[str, Any], ws: Workspace, commit: str | None) -> dict[str, str]:
    """The completed files of a checkpoint with the blob id each had: schema 1.1 records them;
    for 1.0, the paths of ``completed`` found in the checkpoint commit's tree (the rest of
    a 1.0 ``completed`` list are task titles)."""
    status = data["status"]
    if isinstance(status.get("completed_files"), list):
        return {f["path"]: f["blob"] for f in status["completed_files"]}
    tree_rev = commit or git.head(ws.repo)
    entries = gitquery.ls_tree(ws.repo, tree_rev, recursive=True) if tree_rev else []
    tree = {entry.path: entry.id for entry in entries}
    return {c: tree[c] for c in status["completed"] if c in tree}


def verify_files(ws: Workspace, data: dict[str, Any], commit: str | None) -> list[dict[str, str]]:
    """Each completed file: ``intact``, ``modified``, ``missing`` or ``rejected``; for a 1.0
    checkpoint, an entry that is no file of its commit is ``not-a-file`` (a task title)."""
    root = ws.repo.root.resolve()
    files = completed_files(data, ws, commit)
    names = list(files) if "completed_files" in data["status"] else data["status"]["completed"]
    index: dict[str, gitquery.IndexEntry] | None = None
    results = []
    for item in names:
        problem = _unsafe(root, item)
        if problem:
            results.append({"path": item, "status": problem})
            continue
        if item not in files:
            results.append({"path": item, "status": "not-a-file"})
            continue
        path = root / _relative(item)
        if path.is_dir() and not path.is_symlink():
            if index is None:  # a submodule: compare commits, never file bytes
                index = {entry.path: entry for entry in gitquery.index_entries(ws.repo)}
            results.append({"path": item, "status": _submodule(ws, path, item, files[item], index)})
            continue
        status = _file_status(path, files[item], ws.repo.object_format)
        results.append({"path": item, "status": status})
    return results


def _submodule(
    ws: Workspace, path: Path, item: str, recorded: str, index: dict[str, gitquery.IndexEntry]
) -> str:
    entry = index.get(item)
    if entry is None or entry.mode != "160000":
        return "modified"  # a directory where a file was completed
    current = entry.id
    if (path / ".git").exists():  # checked out: its HEAD is what the work tree holds
        with suppress(NotReady):  # a .git that names no repository: the index's commit
            current = gitquery.rev_parse(git.find_repo(path), "HEAD") or entry.id
    return "intact" if current == recorded else "modified"


def _unsafe(root: Path, item: str) -> str | None:
    if not item or "\0" in item:
        return "rejected"
    if item.startswith(("/", "\\")) or _DRIVE.match(item) or os.path.isabs(item):
        return "rejected"
    relative = PurePosixPath(item.replace("\\", "/"))  # `..\\` is refused on every system
    if ".." in relative.parts or _escapes(root, _relative(item)):
        return "rejected"
    return None


def _relative(item: str) -> PurePosixPath:
    """A checkpoint path as this system names it: a backslash separates folders on Windows
    only; elsewhere it is a character of the name (git allows it)."""
    return PurePosixPath(item.replace("\\", "/") if os.sep == "\\" else item)


def _file_status(path: Path, blob: str, object_format: str) -> str:
    if path.is_symlink():  # a symlink in the checkpoint: compare its target text
        current: bytes | None = os.readlink(path).encode("utf-8", "surrogateescape")
    elif not path.exists():
        return "missing"
    else:
        current = path.read_bytes() if path.is_file() else None
    if current is None:
        return "modified"
    return "intact" if gitobjects.blob_id(current, object_format) == blob else "modified"


# ---- steps 3 and 5 -----------------------------------------------------------------------
def _carried_context(data: dict[str, Any], ws: Workspace) -> list[str]:
    """Critical context the new session carries: not the config's own lines (every
    checkpoint adds those again) and not the budget line."""
    config_lines = set(ws.config.critical_context)
    return [
        c
        for c in data["critical_context"]
        if c not in config_lines and not c.startswith("MAX_TOKENS:")
    ]


def _left_staged(ws: Workspace) -> list[str]:
    """Files staged in the index (a refused commit leaves them), tg-git's own left out."""
    if not git.head(ws.repo):
        return []
    return [p for p in gitquery.staged_paths(ws.repo) if ws.config.counts(p)]


def _plan_since_the_save(previous: Session, carry: Plan) -> Plan:
    """The plan of the session the checkpoint saved, as it stands now: a task done, started
    or added after the save (at the halt, commits are refused, the plan commands are not)
    is not lost. The checkpoint's own in-progress files (uncommitted changes) stay."""
    plan = plan_of(previous)
    tasks = {t["task"] for t in plan["in_progress"]} | set(plan["pending"])
    files = [
        i
        for i in carry["in_progress"]
        if i.get("task") not in tasks and i.get("task") not in previous.tasks
    ]
    # A task this clone never saw (its events wait in the clone that saved) stays as saved.
    unseen = [p for p in carry["pending"] if p not in previous.tasks]
    return {
        "pending": plan["pending"] + unseen,
        "in_progress": plan["in_progress"] + files,
        "next": plan["next"],
    }


def _unfinished(carry: Plan, done: set[str]) -> Plan:
    """``carry`` without the tasks the ledger says are done (in any clone's session, merged
    here after the save) and the next steps that name one: no briefing carries finished work."""
    if not done:
        return carry
    steps = [s for s in carry["next"] if not any(replay.names_task(s, t) for t in done)]
    return {
        **carry,
        "pending": [p for p in carry["pending"] if p not in done],
        "in_progress": [i for i in carry["in_progress"] if i.get("task") not in done],
        "next": steps,
    }


def resume(
    ws: Workspace,
    from_tag: str | None = None,
    commit: bool = False,
    max_tokens: int | None = None,
    render: Callable[[dict[str, Any]], object] | None = None,
) -> dict[str, Any]:
    """Restore, verify and start the new session; returns what the briefing shows.
    Everything is read and checked, and ``render`` (the caller's output) run on the result
    with the session it would start, before the session starts: a resume that fails does
    so without having started one."""
    if max_tokens is not None:
        problem = levels.check_budget(max_tokens, ws.config)
        if problem:
            raise TgGitError(problem, ExitCode.USAGE)
    result, carry, origin, previous = _gather(ws, from_tag)
    reused = bool(previous and previous.resumed_from == origin and previous.activity == 0)
    budget = max_tokens or ws.config.max_tokens
    if render is not None:
        render({**result, "session": _session_part("s-new", budget, reused, ws)})
    hit("resume-briefed")
    if reused and previous is not None:
        session_id = previous.id
    else:
        ws.check_ledger_staged()
        session_id = ws.start_session(max_tokens, carry=carry)
    hit("resume-started")
    session = ws.require_session()
    if commit and not reused:
        # The subject avoids the word the README's `git log --grep checkpoint` matches.
        subject = messages.text(
            "en", "resume_commit", id=refs.safe_component(session_id), origin=origin[:12]
        )
        rel = ws.current_ledger_file() or LEDGER_PATH
        if not waiting.commit(ws, rel, subject):  # the start waits under the git dir
            raise TgGitError(messages.text(ws.config.language, "resume_not_committed"))
    return {**result, "session": _session_part(session_id, session.max_tokens, reused, ws)}


def _gather(
    ws: Workspace, from_tag: str | None
) -> tuple[dict[str, Any], Plan, str, Session | None]:
    """Everything a resume reads and checks, nothing started: what the briefing shows (the
    session aside), the plan the new session carries, where it resumes from, the session now."""
    from tg_git.services.verify import verify_history  # lazy: 9.0 ms

    found, data, skipped = find_and_load(ws, from_tag)
    integrity = verify_files(ws, data, found.commit)
    previous = ws.session()
    report = verify_history(ws, previous.base if previous else None) if previous else None
    origin = found.commit or "worktree"
    status = data["status"]
    blocked = [i.copy() for i in status.get("blocked", [])]
    carry: Plan = {
        "pending": list(status["pending"]),
        "in_progress": [i.copy() for i in status["in_progress"]] + blocked,
        "context": _carried_context(data, ws),
        "next": list(data["next_steps"]),
        "resumed_from": origin,
    }
    if from_tag is None and previous and previous.id == data["session"].get("id"):
        carry.update(_plan_since_the_save(previous, carry))
    # Done since the save, in any clone's session merged here (``--from``: that save's plan).
    done = replay.finished(every_event(ws)) if from_tag is None else set()
    carry = _unfinished(carry, done)
    blocked = [i for i in blocked if i["task"] not in done]
    drift = [d.as_dict() for d in report.drift] if report else []
    result = _result(ws, found, data, (integrity, drift, skipped), carry, blocked, done)
    return result, carry, origin, previous


def briefing_again(ws: Workspace, from_tag: str | None = None) -> str | None:
    """The briefing of the resume that started the current session, read and checked again
    (integrity as it stands now), for a model that has not seen it; nothing is started. None
    when the current session is no resume of that checkpoint (a newer one was saved since)."""
    result, _, origin, session = _gather(ws, from_tag)
    if session is None or session.resumed_from != origin:
        return None
    part = _session_part(session.id, session.max_tokens, True, ws)
    return briefing({**result, "session": part}, ws.config.language)


def _result(
    ws: Workspace,
    found: Found,
    data: dict[str, Any],
    checks: tuple[list[dict[str, str]], list[dict[str, str]], list[dict[str, str]]],
    carry: Plan,
    blocked: list[dict[str, Any]],
    done: set[str],
) -> dict[str, Any]:
    """What the briefing shows of a checkpoint (the new session aside); ``checks``: the
    completed files' integrity, the drift found, the newer checkpoints skipped."""
    integrity, drift, skipped = checks
    status = data["status"]
    files = completed_files(data, ws, found.commit)
    tasks = status.get("completed_tasks")
    return {
        "checkpoint": {
            "tag": found.tag,
            "commit": found.commit,
            "source": found.source,
            "timestamp": data["session"]["timestamp"],
            "estimated_used": data["session"]["estimated_used"],
            "max_tokens": data["session"]["max_tokens"],
            "schema_version": data["schema_version"],
            "message": data.get("message", ""),
            "written_by": data.get("written_by"),
        },
        "integrity": integrity,
        "completed": list(status["completed"]),
        "completed_file_count": len(files) + _omitted(data)
        if "completed_files" in status
        else sum(1 for i in integrity if i["status"] != "not-a-file"),
        "completed_since": _since(status),
        "completed_tasks": list(tasks)
        if isinstance(tasks, list)
        else [i["path"] for i in integrity if i["status"] == "not-a-file"],
        "in_progress": [dict(i) for i in status["in_progress"] if i["task"] not in done],
        "blocked": blocked,
        "pending": carry["pending"],
        "next_steps": carry["next"],
        "critical_context": list(data["critical_context"]),
        "done": data.get("done_this_session"),
        "drift": drift,
        "staged": _left_staged(ws),
        "agent_files": uncommitted(ws)[1],
        "skipped": skipped,
    }


_COMMIT_ID = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


def _since(status: dict[str, Any]) -> str | None:
    """Schema 1.3's ``completed_since`` when it is a commit id: the briefing shows it in a
    command, so a checkpoint's text never gets there."""
    since = status.get("completed_since")
    return since if isinstance(since, str) and _COMMIT_ID.match(since) else None


def _omitted(data: dict[str, Any]) -> int:
    """The completed files a checkpoint left out of its lists (schema 1.3's ``omitted``)."""
    omitted = data.get("omitted")
    count = omitted.get("completed_files", 0) if isinstance(omitted, dict) else 0
    return count if isinstance(count, int) and count > 0 else 0


def _session_part(session_id: str, max_tokens: int, reused: bool, ws: Workspace) -> dict[str, Any]:
    return {
        "id": session_id,
        "max_tokens": max_tokens,
        "reused": reused,
        "token_thresholds": levels.thresholds(max_tokens, ws.config),
    }


def briefing(result: dict[str, Any], language: str) -> str:
    """The seed's resume briefing (its five lines first), then everything else the JSON
    says: blocked work, every next step, the critical context, integrity, drift, files left
    staged, the new session's budget. Data is folded to one line each."""

    def t(key: str, **values: Any) -> str:
        return messages.text(language, key, **values)

    def join(values: list[str], sep: str = ", ") -> str:
        return sep.join(term.one_line(v) for v in values) or t("none")

    check = result["checkpoint"]
    n_files = result["completed_file_count"]
    done = t("brief.files", n=n_files)
    listed = len(result["integrity"])
    if result.get("completed_since") and n_files > listed:  # a large project's: summarised
        where = term.one_line(check["tag"] or check["commit"] or "HEAD")
        since = term.one_line(result["completed_since"])
        done = t("brief.files_more", n=n_files, listed=listed, since=since, where=where)
    if result["completed_tasks"]:
        tasks = result["completed_tasks"]
        done += "; " + t("brief.tasks", n=len(tasks), titles=join(tasks))
    where = term.one_line(check["tag"] or check["source"])
    lines = [
        t("brief.title"),
        f"{t('brief.checkpoint')}: {check['timestamp']} ({where})",
        f"{t('brief.completed')}: {done}",
    ]
    points = [f"{i['task']} — {i['stopping_point']}" for i in result["in_progress"]]
    lines.append(f"{t('brief.resume_at')}: {join(points, '; ')}")
    lines.append(f"{t('brief.remaining')}: {join(result['pending'])}")
    writer = writer_text(check.get("written_by"))
    if writer:
        lines.append(f"{t('brief.written_by')}: {writer}")
    if result["blocked"]:
        items = [f"{b['task']} ({'; '.join(b['blockers'])})" for b in result["blocked"]]
        lines.append(f"{t('brief.blocked')}: {join(items, '; ')}")
    if check.get("message"):
        lines.append(f"{t('brief.message')}: {term.one_line(check['message'], 2000)}")
    did = result.get("done")
    if isinstance(did, dict):
        commits = t("md.commits", n=did["commits"], tokens=did["output_tokens"])
        lines.append(f"{t('brief.done')}: {commits}")
    lines.append(f"{t('brief.next')}:")
    lines += [f"{n}. {term.one_line(s)}" for n, s in enumerate(result["next_steps"], 1)] or [
        f"- {t('none')}"
    ]
    lines.append(f"{t('brief.context')}:")
    lines += [f"- {term.one_line(c)}" for c in result["critical_context"]] or [f"- {t('none')}"]
    bad = [
        f"{term.one_line(i['path'])} ({t('status.' + i['status'])})"
        for i in result["integrity"]
        if i["status"] not in ("intact", "not-a-file")
    ]
    intact = sum(1 for i in result["integrity"] if i["status"] == "intact")
    lines.append(f"{t('brief.integrity')}: {', '.join(bad) or t('brief.integrity_ok', n=intact)}")
    if result["drift"]:
        drift = "; ".join(
            f"{d['commit'][:12]} {term.one_line(d['reason'])}" for d in result["drift"]
        )
        lines.append(f"{t('brief.drift')}: {drift}")
    if result["staged"]:
        lines.append(t("brief.staged", files=join(result["staged"])))
    if result.get("agent_files"):
        lines.append(t("brief.agent_files", files=join(result["agent_files"])))
    session = result["session"]
    budget = t(
        "brief.budget", id=session["id"], max=session["max_tokens"], **session["token_thresholds"]
    )
    lines.append(budget + (" " + t("brief.reused") if session["reused"] else ""))
    return "\n".join(lines)
