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
import tempfile
from datetime import datetime, timezone
from typing import Any

from tg_git import git, ledger, levels
from tg_git.config import CHECKPOINT_JSON, CHECKPOINT_MD
from tg_git.workspace import Workspace

TAG_PREFIX = "checkpoint/"
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


def _dirty_files(ws: Workspace) -> list[str]:
    out = ws.repo.git("status", "--porcelain=v1", "-z", "--untracked-files=no")
    files = [entry[3:] for entry in git.split_z(out) if len(entry) > 3]
    return [p for p in files if ws.config.counts(p)]


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


def saved_tags(ws: Workspace) -> list[str]:
    out = ws.repo.git("for-each-ref", "--format=%(refname:strip=2)", f"refs/tags/{TAG_PREFIX}")
    return out.decode("utf-8", "replace").split()


def already_saved(ws: Workspace, session_id: str, level: str) -> bool:
    return any(tag.endswith(f"-{session_id}-{level}") for tag in saved_tags(ws))


def auto_save(ws: Workspace, level: str) -> str | None:
    """The post-commit save: once per session and level, never during a rebase or merge."""
    session = ws.session()
    if session is None or operation_in_progress(ws) or already_saved(ws, session.id, level):
        return None
    return save(ws, session, level)


def save(ws: Workspace, session: ledger.Session, level: str, message: str = "") -> str:
    """Commit the checkpoint files on top of HEAD and tag it; returns the tag name."""
    repo = ws.repo
    data = build(ws, session)
    json_text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    md_text = markdown(data, ws.config.language)
    old_head = git.head(repo)
    fd, tmp_index = tempfile.mkstemp(prefix="tg-git-index-", dir=repo.git_dir)
    os.close(fd)
    os.unlink(tmp_index)
    env = {**os.environ, "GIT_INDEX_FILE": tmp_index}
    try:
        if old_head:
            repo.git("read-tree", old_head, env=env)
        blobs = {
            path: git.stage_file(repo, path, text.encode("utf-8"), env)
            for path, text in ((CHECKPOINT_JSON, json_text), (CHECKPOINT_MD, md_text))
        }
        tree = repo.git("write-tree", env=env).decode().strip()
    finally:
        for leftover in (tmp_index, tmp_index + ".lock"):
            if os.path.exists(leftover):
                os.unlink(leftover)
    s = data["session"]
    pct = 100 * s["estimated_used"] / s["max_tokens"]
    title = (
        f"checkpoint: {level} at ~{s['estimated_used']:,}/{s['max_tokens']:,} tokens ({pct:.0f}%)"
    )
    body = (
        f"{title}\n\n{message + chr(10) + chr(10) if message else ''}"
        f"Tg-Git-Session: {session.id}\nTg-Git-Level: {level}\n"
    )
    sign = (
        ["-S"]
        if repo.git("config", "--bool", "commit.gpgsign", check=False).strip() == b"true"
        else []
    )
    parents = ["-p", old_head] if old_head else []
    commit = (
        repo.git("commit-tree", *sign, tree, *parents, input=body.encode("utf-8")).decode().strip()
    )
    repo.git("update-ref", "-m", title, "HEAD", commit, *([old_head] if old_head else []))
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    tag = f"{TAG_PREFIX}{stamp}-{session.id}-{level}"
    repo.git("tag", "-a", tag, commit, "-m", title, *(["-s"] if sign and _tag_sign(repo) else []))
    # Only the two checkpoint files change in the real index and the work tree.
    for path, text in ((CHECKPOINT_JSON, json_text), (CHECKPOINT_MD, md_text)):
        repo.git("update-index", "--add", "--cacheinfo", f"100644,{blobs[path]},{path}")
        ledger.write_atomic(repo.root / path, text)
    repo.git("update-index", "-q", "--refresh", check=False)
    print(f"tg-git: saved {tag} ({title})", file=sys.stderr)
    return tag


def _tag_sign(repo: git.Repo) -> bool:
    return repo.git("config", "--bool", "tag.gpgSign", check=False).strip() == b"true"
