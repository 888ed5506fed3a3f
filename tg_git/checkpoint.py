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
import sys
from datetime import datetime, timezone
from typing import Any

from tg_git import git, ledger, levels
from tg_git.config import CHECKPOINT_JSON, CHECKPOINT_MD
from tg_git.errors import TgGitError
from tg_git.workspace import Workspace

TAG_PREFIX = "checkpoint/"
MANUAL = "manual"
IN_PROGRESS = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply")


def _committed_files(ws: Workspace, session: ledger.Session) -> list[str]:
    head = git.head(ws.repo)
    if not head:
        return []
    base = (
        session.base
        if session.base and git.ok(["cat-file", "-e", session.base], ws.repo.root)
        else git.EMPTY_TREE
    )
    out = ws.repo.git("diff", "--name-only", "-z", "--no-renames", "--diff-filter=AM", base, head)
    return [p for p in git.split_z(out) if ws.config.counts(p)]


MAX_DIRTY = 100  # a checkpoint lists at most this many uncommitted files


def _dirty_files(ws: Workspace) -> list[str]:
    """Files with uncommitted changes, new untracked files included (ignored ones not)."""
    out = ws.repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
    files = [entry[3:] for entry in git.split_z(out) if len(entry) > 3]
    return [p for p in files if ws.config.counts(p)][:MAX_DIRTY]


def build(ws: Workspace, session: ledger.Session) -> dict[str, Any]:
    config = ws.config
    in_progress = [
        {"task": t.title, "stopping_point": t.stopping_point, "blockers": list(t.blockers)}
        for t in session.tasks.values()
        if t.status in ("in_progress", "blocked")
    ]
    known = {item["task"] for item in in_progress}
    in_progress += [
        {"task": p, "stopping_point": "uncommitted changes", "blockers": []}
        for p in _dirty_files(ws)
        if p not in known
    ]
    resume = {
        "en": "Read this JSON, resume each in_progress item from its stopping_point, keep pending "
        "as the queue; do not touch completed files. Run `tg-git resume`.",
        "ko": "이 JSON을 읽고 in_progress의 stopping_point부터 재개. completed 파일은 건드리지 않음. "
        "`tg-git resume` 실행.",
    }[config.language]
    return {
        "schema_version": "1.0",
        "session": {
            "timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "project_name": config.project_name or ws.repo.root.name,
            "project_root": str(ws.repo.root),
            "max_tokens": session.max_tokens,
            "estimated_used": session.used,
        },
        "token_thresholds": levels.thresholds(session.max_tokens, config),
        "status": {
            "completed": _committed_files(ws, session) + session.titles("done"),
            "in_progress": in_progress,
            "pending": session.titles("pending"),
        },
        "critical_context": list(config.critical_context)
        + session.context
        + [f"MAX_TOKENS: {session.max_tokens}"],
        "next_steps": list(session.next_steps),
        "resume_instructions": resume,
    }


def markdown(data: dict[str, Any], language: str) -> str:
    s = data["session"]
    pct = 100 * s["estimated_used"] / s["max_tokens"] if s["max_tokens"] else 0
    ko = language == "ko"
    h = (
        ("저장 시각", "토큰", "✅ 완료", "🔄 진행 중", "⏭️ 다음 단계", "🔑 필수 컨텍스트")
        if ko
        else (
            "Saved",
            "Tokens",
            "✅ Completed",
            "🔄 In progress",
            "⏭️ Next steps",
            "🔑 Critical context",
        )
    )
    none = "- (없음)" if ko else "- (none)"
    lines = [
        f"# CHECKPOINT — {s['project_name']}",
        f"> {h[0]}: {s['timestamp']} | {h[1]}: ~{s['estimated_used']:,}/{s['max_tokens']:,} ({pct:.0f}%)",
        "",
        f"## {h[2]}",
    ]
    lines += [f"- {c}" for c in data["status"]["completed"]] or [none]
    lines += ["", f"## {h[3]}"]
    lines += [
        f"- **{i['task']}** — {i['stopping_point']}" for i in data["status"]["in_progress"]
    ] or [none]
    lines += ["", f"## {h[4]}"]
    lines += [f"{n}. {step}" for n, step in enumerate(data["next_steps"], 1)] or [none]
    lines += ["", f"## {h[5]}"]
    lines += [f"- {c}" for c in data["critical_context"]] or [none]
    return "\n".join(lines) + "\n"


def operation_in_progress(ws: Workspace) -> bool:
    return any(ws.repo.git_path(name).exists() for name in IN_PROGRESS)


def saved_tags(ws: Workspace) -> dict[str, str]:
    """Checkpoint tags and the commits they point at."""
    out = ws.repo.git(
        "for-each-ref", "--format=%(refname:strip=2) %(*objectname)", f"refs/tags/{TAG_PREFIX}"
    )
    pairs = (line.split(" ", 1) for line in out.decode("utf-8", "replace").splitlines())
    return {name: target for name, target in pairs}


def already_saved(ws: Workspace, session_id: str, level: str) -> bool:
    return any(tag.endswith(f"-{session_id}-{level}") for tag in saved_tags(ws))


def _failpoint(name: str) -> None:
    """Fault injection for the tests: ``TG_GIT_FAILPOINT=NAME`` kills the process right here."""
    if os.environ.get("TG_GIT_FAILPOINT") == name:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def _interrupted(ws: Workspace, session: ledger.Session, level: str) -> str | None:
    """A checkpoint commit of this session and level that a killed save left without its tag.
    Only the commits since the session started are searched."""
    since = [f"^{session.base}"] if session.base else []
    out = ws.repo.git(
        "log", "-n", "50", "--format=%H", "--fixed-strings",
        f"--grep=Tg-Git-Session: {session.id}", "HEAD", *since, check=False,
    )  # fmt: skip
    tagged = set(saved_tags(ws).values())
    for commit in out.decode().split():
        body = ws.repo.text("log", "-1", "--format=%B", commit)
        if f"Tg-Git-Level: {level}" in body.splitlines() and commit not in tagged:
            return commit
    return None


def auto_save(ws: Workspace, level: str) -> str | None:
    """The post-commit save: once per session and level, never during a rebase or merge."""
    session = ws.session()
    if session is None or operation_in_progress(ws) or already_saved(ws, session.id, level):
        return None
    return save(ws, session, level)


def _sign_args(repo: git.Repo) -> list[str]:
    wanted = repo.git("config", "--bool", "commit.gpgsign", check=False).strip() == b"true"
    return ["-S"] if wanted else []


def _commit_tree(repo: git.Repo, tree: str, parents: list[str], body: str) -> str:
    """commit-tree, signed when commit.gpgsign asks; unsigned, with a clear line, when it fails."""
    sign = _sign_args(repo)
    try:
        return repo.git("commit-tree", *sign, tree, *parents, input=body.encode()).decode().strip()
    except TgGitError as exc:
        if not sign:
            raise
        print(
            f"tg-git: the checkpoint commit is NOT signed: commit.gpgsign is set but signing "
            f"failed ({exc}); check user.signingKey and gpg.program.",
            file=sys.stderr,
        )
        return repo.git("commit-tree", tree, *parents, input=body.encode()).decode().strip()


def _tag(ws: Workspace, commit: str, session_id: str, level: str, title: str) -> str:
    # Microseconds keep name order equal to time order even for saves in the same second.
    existing = saved_tags(ws)
    while True:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
        tag = f"{TAG_PREFIX}{stamp}-{session_id}-{level}"
        if tag not in existing:
            break
    ws.repo.git("tag", "-a", tag, commit, "-m", title)
    return tag


def _keep(ws: Workspace, path: str, data: bytes, where: str) -> None:
    """Copy a user's edit of a checkpoint file aside before a save replaces it."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    kept = ws.repo.git_path("tg-git") / "kept" / f"{stamp}-{path}"
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(data)
    print(f"tg-git: your {where} edit of {path} was kept at {kept}", file=sys.stderr)


def _sync_files(ws: Workspace, commit: str) -> None:
    """Put the checkpoint files of ``commit`` into the real index and the work tree; nothing
    else. A version of either file that is neither the new one nor the one before the save
    (a user's staged or unstaged edit) is copied aside first, so no edit is lost."""
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
        if staged is not None and staged[1] not in ours:
            _keep(ws, path, staged[1], "staged")
        target = repo.root / path
        if target.is_file() and not target.is_symlink():
            current = target.read_bytes()
            if current not in ours and (staged is None or current != staged[1]):
                _keep(ws, path, current, "unstaged")
        repo.git("update-index", "--add", "--cacheinfo", f"100644,{new[0]},{path}")
        ledger.write_atomic(target, new[1].decode("utf-8"))
    repo.git("update-index", "-q", "--refresh", check=False)


def save(ws: Workspace, session: ledger.Session, level: str, message: str = "") -> str:
    """Commit the checkpoint files on top of HEAD and tag it; returns the tag name.

    A save killed half-way leaves either the two files staged with HEAD unmoved, or a
    checkpoint commit without its tag; the next save of that session and level makes the
    save, or finds that commit and tags it instead of making another."""
    repo = ws.repo
    leftover = _interrupted(ws, session, level) if level != MANUAL else None
    if leftover:
        title = repo.text("log", "-1", "--format=%s", leftover)
        tag = _tag(ws, leftover, session.id, level, title)
        if git.head(repo) == leftover:
            _sync_files(ws, leftover)
        print(f"tg-git: finished an interrupted save: {tag}", file=sys.stderr)
        return tag
    data = build(ws, session)
    json_text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    md_text = markdown(data, ws.config.language)
    old_head = git.head(repo)
    tmp_index = str(repo.git_dir / f"tg-git-index-{os.getpid()}-{os.urandom(3).hex()}")
    env = {**os.environ, "GIT_INDEX_FILE": tmp_index}
    try:
        if old_head:
            repo.git("read-tree", old_head, env=env)
        for path, text in ((CHECKPOINT_JSON, json_text), (CHECKPOINT_MD, md_text)):
            git.stage_file(repo, path, text.encode("utf-8"), env)
        tree = repo.git("write-tree", env=env).decode().strip()
    finally:
        for name in (tmp_index, tmp_index + ".lock"):
            if os.path.exists(name):
                os.unlink(name)
    s = data["session"]
    pct = 100 * s["estimated_used"] / s["max_tokens"]
    title = (
        f"checkpoint: {level} at ~{s['estimated_used']:,}/{s['max_tokens']:,} tokens ({pct:.0f}%)"
    )
    trailer = f"Tg-Git-Session: {session.id}\nTg-Git-Level: {level}\n"
    body = (
        f"{title}\n\n{message.strip()}\n\n{trailer}" if message.strip() else f"{title}\n\n{trailer}"
    )
    commit = _commit_tree(repo, tree, ["-p", old_head] if old_head else [], body)
    # Files first, then the ref: a kill in between leaves the two files staged (the next
    # commit carries them) rather than a HEAD whose files the index would delete.
    _sync_files(ws, commit)
    _failpoint("before-ref")
    repo.git("update-ref", "-m", title, "HEAD", commit, old_head or "")
    _failpoint("before-tag")
    tag = _tag(ws, commit, session.id, level, title)
    print(f"tg-git: saved {tag} ({title})", file=sys.stderr)
    return tag


def manual_save(ws: Workspace, message: str = "") -> str:
    """`tg-git checkpoint`: a save by hand at any level (not during a rebase or merge)."""
    session = ws.require_session()
    if operation_in_progress(ws):
        raise TgGitError(
            "a merge, rebase, cherry-pick or revert is in progress; finish or abort it, then save."
        )
    ws.check_ledger_staged()
    return save(ws, session, MANUAL, message)


def listing(ws: Workspace) -> list[dict[str, Any]]:
    """Checkpoints newest first: tag, commit, time, used/max, completed count."""
    tags = sorted(saved_tags(ws).items(), reverse=True)  # names start with a UTC timestamp
    found = git.read_objects(ws.repo, [f"{commit}:{CHECKPOINT_JSON}" for _, commit in tags])
    rows = []
    for (tag, commit), obj in zip(tags, found):
        row: dict[str, Any] = {"tag": tag, "commit": commit}
        try:
            data = json.loads(obj[1]) if obj else {}
            session = data.get("session", {})
            row.update(
                timestamp=session.get("timestamp"),
                used=session.get("estimated_used"),
                max_tokens=session.get("max_tokens"),
                completed=len(data.get("status", {}).get("completed", [])),
            )
        except (ValueError, AttributeError):
            row["error"] = "unreadable harness_checkpoint.json"
        rows.append(row)
    return rows
