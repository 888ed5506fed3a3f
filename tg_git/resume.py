"""Resume: find the newest checkpoint, validate it, rebuild the state from history, check
every completed file, brief, and start a new session that carries the plan over.

A checkpoint is data from a repository someone else may have written: it is size-limited,
depth-limited and schema-checked before use, and its paths are only ever resolved inside
the work tree (absolute paths, ``..`` and symlinks that leave the repository are
``rejected``; no file outside the repository is opened).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from tg_git import git, schema
from tg_git.config import CHECKPOINT_JSON, LEDGER_PATH
from tg_git.errors import BadCheckpoint, NoCheckpoint
from tg_git.workspace import Workspace

MAX_BYTES = 1 << 20  # 1 MiB: a real checkpoint is a few KiB
MAX_DEPTH = 16  # the schema needs 4
TAG_REFS = "refs/tags/checkpoint/"
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class Found:
    source: str  # tag | log | worktree
    tag: str | None
    commit: str | None
    raw: bytes


# ---- step 1: find ----------------------------------------------------------------------
def _read_committed(ws: Workspace, commit: str, source: str, tag: str | None) -> Found:
    spec = f"{commit}:{CHECKPOINT_JSON}"
    size = ws.repo.git("cat-file", "-s", spec, check=False).strip()
    if not size:
        raise BadCheckpoint(
            f"{tag or commit[:12]} has no {CHECKPOINT_JSON}; pick another with --from."
        )
    if int(size) > MAX_BYTES:
        raise BadCheckpoint(
            f"{CHECKPOINT_JSON} in {tag or commit[:12]} is {int(size):,} bytes, over the "
            f"{MAX_BYTES:,}-byte limit; it is not a tg-git checkpoint, pick another with --from."
        )
    return Found(source, tag, commit, ws.repo.git("cat-file", "blob", spec))


def find(ws: Workspace, from_tag: str | None = None) -> Found:
    """The newest checkpoint: tags first, ``git log --grep`` second, the work-tree file last."""
    repo = ws.repo
    if from_tag:
        name = from_tag.removeprefix("refs/tags/")
        commit = repo.git(
            "rev-parse", "-q", "--verify", f"refs/tags/{name}^{{commit}}", check=False
        )
        if not commit.strip():
            raise NoCheckpoint(f"no checkpoint tag {name!r}; list them with `tg-git log`.")
        return _read_committed(ws, commit.decode().strip(), "tag", name)
    newest = repo.git(
        "for-each-ref", "--sort=-refname", "--count=1",
        "--format=%(refname:strip=2) %(*objectname) %(objectname)", TAG_REFS,
    ).decode().split()  # fmt: skip
    if newest:  # name order is time order: no history walk
        peeled = newest[1] if len(newest) == 3 else newest[-1]  # annotated tags peel
        return _read_committed(ws, peeled, "tag", newest[0])
    if git.head(repo):
        commit_id = repo.text("log", "-1", "--format=%H", "--grep=^checkpoint:", "HEAD")
        if commit_id:
            return _read_committed(ws, commit_id, "log", None)
    path = repo.root / CHECKPOINT_JSON
    if path.is_symlink():
        raise BadCheckpoint(
            f"{CHECKPOINT_JSON} is a symbolic link; tg-git reads only a regular file there."
        )
    if path.is_file():
        if path.stat().st_size > MAX_BYTES:
            raise BadCheckpoint(
                f"{CHECKPOINT_JSON} is {path.stat().st_size:,} bytes, over the {MAX_BYTES:,}-byte "
                "limit; it is not a tg-git checkpoint."
            )
        return Found("worktree", None, None, path.read_bytes())
    raise NoCheckpoint(
        "no checkpoint found (no checkpoint/ tag, no `checkpoint:` commit, no "
        f"{CHECKPOINT_JSON}); save one with `tg-git checkpoint`, or fetch tags with `git fetch --tags`."
    )


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
        raise BadCheckpoint(f"the checkpoint in {where} is over the {MAX_BYTES:,}-byte limit.")
    try:
        data = json.loads(found.raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadCheckpoint(
            f"the checkpoint in {where} is not UTF-8 text; pick another with --from."
        ) from None
    except RecursionError:
        raise BadCheckpoint(f"the checkpoint in {where} is nested too deeply to be one.") from None
    except ValueError as exc:
        raise BadCheckpoint(
            f"the checkpoint in {where} is not valid JSON ({exc}); pick another with --from."
        ) from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise BadCheckpoint(f"the checkpoint in {where} is nested deeper than {MAX_DEPTH} levels.")
    if isinstance(data, dict) and data.get("schema_version") != "1.0":
        raise BadCheckpoint(
            f"the checkpoint in {where} has schema_version {data.get('schema_version')!r}; "
            'tg-git reads "1.0".'
        )
    problems = schema.errors(data, schema.checkpoint_schema())
    if problems:
        more = f" (+{len(problems) - 2} more)" if len(problems) > 2 else ""
        raise BadCheckpoint(
            f"the checkpoint in {where} does not match schema 1.0: {'; '.join(problems[:2])}{more}."
        )
    return data  # type: ignore[no-any-return]


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


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def verify_files(ws: Workspace, completed: list[str], commit: str | None) -> list[dict[str, str]]:
    root = ws.repo.root.resolve()
    tree_rev = commit or git.head(ws.repo)
    tree: dict[str, tuple[str, str]] = {}
    if tree_rev:
        for entry in git.split_z(ws.repo.git("ls-tree", "-r", "-z", "--full-tree", tree_rev)):
            meta, _, path = entry.partition("\t")
            mode, _kind, blob = meta.split()
            tree[path] = (mode, blob)
    results = []
    for item in completed:
        results.append({"path": item, "status": _status(root, item, tree)})
    return results


def _status(root: Path, item: str, tree: dict[str, tuple[str, str]]) -> str:
    if not item or "\0" in item:
        return "rejected"
    if item.startswith(("/", "\\")) or _DRIVE.match(item) or os.path.isabs(item):
        return "rejected"
    relative = PurePosixPath(item.replace("\\", "/"))
    if ".." in relative.parts:
        return "rejected"
    if _escapes(root, relative):
        return "rejected"
    key = relative.as_posix()
    if key not in tree:
        return "not-a-file"
    mode, blob = tree[key]
    path = root / key
    if not path.exists() and not path.is_symlink():
        return "missing"
    if mode == "120000":  # a symlink in the checkpoint: compare its target text
        current = os.readlink(path).encode() if path.is_symlink() else None
    else:
        current = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    if current is None:
        return "modified"
    return "intact" if _blob_id(current) == blob else "modified"


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


def resume(
    ws: Workspace, from_tag: str | None = None, commit: bool = False, max_tokens: int | None = None
) -> dict[str, Any]:
    from tg_git.verify import verify_history

    found = find(ws, from_tag)
    data = load(found)
    integrity = verify_files(ws, data["status"]["completed"], found.commit)
    previous = ws.session()
    report = verify_history(ws, previous.base if previous else None) if previous else None
    origin = found.commit or "worktree"
    status = data["status"]
    carry = {
        "pending": list(status["pending"]),
        "in_progress": [dict(i) for i in status["in_progress"]],
        "context": _carried_context(data, ws),
        "next": list(data["next_steps"]),
        "resumed_from": origin,
    }
    reused = bool(previous and previous.resumed_from == origin and previous.activity == 0)
    if reused and previous is not None:
        session_id = previous.id
    else:
        ws.check_ledger_staged()
        session_id = ws.start_session(max_tokens, carry=carry)
    session = ws.require_session()
    if commit and not reused:
        ws.repo.git(
            "commit",
            "-q",
            "-m",
            f"tg-git: resume from {found.tag or origin[:12]}",
            "--",
            LEDGER_PATH,
        )
    return {
        "checkpoint": {
            "tag": found.tag, "commit": found.commit, "source": found.source,
            "timestamp": data["session"]["timestamp"],
            "estimated_used": data["session"]["estimated_used"],
            "max_tokens": data["session"]["max_tokens"],
        },
        "integrity": integrity,
        "completed": list(status["completed"]),
        "in_progress": carry["in_progress"],
        "pending": carry["pending"],
        "next_steps": carry["next"],
        "critical_context": list(data["critical_context"]),
        "drift": [d.as_dict() for d in report.drift] if report else [],
        "session": {"id": session_id, "max_tokens": session.max_tokens, "reused": reused},
    }  # fmt: skip


BRIEF = {
    "en": ("## 🔄 Session resumed", "**Checkpoint**", "**Completed**", "{n} file{s}", "**Resume at**",
           "**Remaining**", "**Next**", "**Integrity**", "**Drift**", "none"),
    "ko": ("## 🔄 세션 재개", "**체크포인트**", "**완료**", "{n}개 파일", "**재개 지점**",
           "**남은 작업**", "**다음 단계**", "**무결성**", "**불일치**", "없음"),
}  # fmt: skip


def briefing(result: dict[str, Any], language: str) -> str:
    title, cp, done, files, at, remaining, nxt, integrity, drift, none = BRIEF[language]
    check = result["checkpoint"]
    n_files = sum(1 for i in result["integrity"] if i["status"] != "not-a-file")
    lines = [title, f"{cp}: {check['timestamp']} ({check['tag'] or check['source']})",
             f"{done}: {files.format(n=n_files, s='' if n_files == 1 else 's')}"]  # fmt: skip
    points = [f"{i['task']} — {i['stopping_point']}" for i in result["in_progress"]]
    lines.append(f"{at}: {'; '.join(points) or none}")
    lines.append(f"{remaining}: {', '.join(result['pending']) or none}")
    lines.append(f"{nxt}: {result['next_steps'][0] if result['next_steps'] else none}")
    bad = [
        f"{i['path']} ({i['status']})"
        for i in result["integrity"]
        if i["status"] not in ("intact", "not-a-file")
    ]
    lines.append(f"{integrity}: {', '.join(bad) or 'ok'}")
    if result["drift"]:
        lines.append(
            f"{drift}: " + "; ".join(f"{d['commit'][:12]} {d['reason']}" for d in result["drift"])
        )
    return "\n".join(lines)
