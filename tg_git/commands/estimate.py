"""`tg-git estimate`: files, directories, stdin, or exactly what the hook adds for the index."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from tg_git.domain import config as config_mod
from tg_git.domain.errors import NotReady, TgGitError, os_reason
from tg_git.estimate.estimator import PROFILE_NAMES, estimate_tokens
from tg_git.repo import configfile, git, gitquery, inputfile
from tg_git.text import messages

BINARY_SNIFF = 8000  # git's own rule: a NUL in the first 8000 bytes means binary


def _config() -> config_mod.Config:
    try:
        return configfile.load(git.find_repo().root)
    except NotReady:
        return config_mod.Config()  # outside a repository: the defaults


def _expand(path: str, msg: Callable[..., str]) -> list[Path]:
    target = Path(path)
    if not target.exists() and not target.is_symlink():
        raise TgGitError(msg("estimate_no_such_path", path=path))
    if not target.is_dir():
        return [target]
    try:  # inside a work tree: what git tracks or would track (ignored files skipped)
        repo = git.find_repo(target)
        folder = os.path.relpath(os.path.realpath(target), repo.root)
        return sorted(
            target / os.path.relpath(p, folder) for p in gitquery.work_files(repo, folder)
        )
    except TgGitError:
        files: list[Path] = []
        for folder, dirs, names in os.walk(target):  # never into linked folders
            dirs[:] = sorted(d for d in dirs if d != ".git")
            files.extend(Path(folder) / n for n in sorted(names))
        return files


def _read(path: Path, follow: bool, msg: Callable[..., str]) -> bytes:
    """A file's bytes. Inside a directory, a symlink is its link text (what git stores), never
    followed: a tracked link may point at /dev/zero, a pipe or a file outside the repository.
    A path named on the command line is followed, but only to a regular file of a bounded
    size (``tg_git.repo.inputfile``, which ``tg-git record --input-file`` reads with too)."""
    if not follow and path.is_symlink():
        return os.fsencode(os.readlink(path))
    try:
        return inputfile.read_regular(path)
    except inputfile.Refused as exc:
        raise TgGitError(msg(exc.key, path=path, limit=exc.limit)) from None


def _one(
    path: Path, profile: str, msg: Callable[..., str], follow: bool = True
) -> dict[str, object]:
    try:
        data = _read(path, follow, msg)
    except IsADirectoryError:
        raise TgGitError(msg("estimate_unreadable_dir", path=path)) from None
    except OSError as exc:
        reason = os_reason(exc)
        error = msg(reason.key, **reason.values)
        raise TgGitError(msg("estimate_unreadable", path=path, error=error)) from None
    if b"\0" in data[:BINARY_SNIFF]:
        return {"path": str(path), "tokens": 0, "binary": True}
    try:
        text = data.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        text, utf8 = data.decode("utf-8", "replace"), False
    entry: dict[str, object] = {
        "path": str(path),
        "tokens": estimate_tokens(text, str(path), profile),
        "binary": False,
    }
    if not utf8:
        entry["encoding"] = "not UTF-8 (undecodable bytes counted as U+FFFD)"  # for programs
    return entry


def estimate(*, paths: list[str], staged: bool, profile: str | None, as_json: bool) -> int:
    config = _config()
    msg = functools.partial(messages.text, config.language)
    profile = profile or config.profile
    if profile not in PROFILE_NAMES:
        raise TgGitError(msg("estimate_profile", profile=profile, names=", ".join(PROFILE_NAMES)))
    files: list[dict[str, object]] = []
    if staged:
        if paths:
            raise TgGitError(msg("estimate_staged_paths"))
        from tg_git.repo.staged import staged_counts  # lazy: 3.6 ms

        repo = git.find_repo()
        for c in staged_counts(repo, config._replace(profile=profile)):
            entry: dict[str, object] = {"path": c.path, "tokens": c.tokens, "binary": c.binary}
            if not c.counted:
                entry["excluded"] = True
            files.append(entry)
    else:
        if not paths:
            if sys.stdin is None or sys.stdin.isatty():
                raise TgGitError(msg("estimate_nothing"))
            paths = ["-"]
        for path in paths:
            if path == "-":
                text = sys.stdin.buffer.read().decode("utf-8", "replace")
                files.append(
                    {"path": "-", "tokens": estimate_tokens(text, None, profile), "binary": False}
                )
                continue
            named = Path(path)
            files.extend(_one(p, profile, msg, follow=p == named) for p in _expand(path, msg))
    total = sum(int(str(f["tokens"])) for f in files)
    if as_json:
        print(json.dumps({"profile": profile, "total": total, "files": files}, ensure_ascii=False))
        return 0
    total_label = msg("estimate_total")
    width = max([len(str(f["path"])) for f in files] + [len(total_label)])
    for f in files:
        kind = "binary" if f["binary"] else "excluded" if f.get("excluded") else ""
        note = f" ({msg(f'estimate_{kind}')})" if kind else ""
        print(f"{f['path']!s:{width}s} {int(str(f['tokens'])):>10,}{note}")
    print(f"{total_label:{width}s} {total:>10,}  ({profile})")
    return 0
