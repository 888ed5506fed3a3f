"""`tg-git estimate`: files, directories, stdin, or exactly what the hook adds for the index."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

from tg_git import config as config_mod
from tg_git import git
from tg_git.errors import NotReady, TgGitError
from tg_git.estimate import PROFILE_NAMES, estimate_tokens

BINARY_SNIFF = 8000  # git's own rule: a NUL in the first 8000 bytes means binary


def _config() -> config_mod.Config:
    try:
        return config_mod.load(git.find_repo().root)
    except NotReady:
        return config_mod.Config()  # outside a repository: the defaults


def _expand(path: str) -> list[Path]:
    target = Path(path)
    if not target.exists() and not target.is_symlink():
        raise TgGitError(f"{path}: no such file or directory; check the path.")
    if not target.is_dir():
        return [target]
    try:  # inside a work tree: what git tracks or would track (ignored files skipped)
        out = git.run(["ls-files", "-z", "-co", "--exclude-standard", "--", "."], target)
        return sorted(target / p for p in git.split_z(out))
    except TgGitError:
        files: list[Path] = []
        for folder, dirs, names in os.walk(target):  # never into linked folders
            dirs[:] = sorted(d for d in dirs if d != ".git")
            files.extend(Path(folder) / n for n in sorted(names))
        return files


def _read(path: Path, follow: bool) -> bytes:
    """A file's bytes. Inside a directory, a symlink is its link text (what git stores), never
    followed: a tracked link may point at /dev/zero, a pipe or a file outside the repository.
    A path named on the command line is followed, but only to a regular file."""
    if not follow and path.is_symlink():
        return os.fsencode(os.readlink(path))
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise TgGitError(
            f"{path}: not a regular file (a device, a pipe or a socket); tg-git reads only files."
        )
    return path.read_bytes()


def _one(path: Path, profile: str, follow: bool = True) -> dict[str, object]:
    try:
        data = _read(path, follow)
    except IsADirectoryError:
        raise TgGitError(f"{path}: is a directory that cannot be read; check the path.") from None
    except OSError as exc:
        raise TgGitError(f"cannot read {path} ({exc.strerror}); check its permissions.") from None
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
        entry["encoding"] = "not UTF-8 (undecodable bytes counted as U+FFFD)"
    return entry


def estimate(*, paths: list[str], staged: bool, profile: str | None, as_json: bool) -> int:
    config = _config()
    profile = profile or config.profile
    if profile not in PROFILE_NAMES:
        raise TgGitError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILE_NAMES)}.")
    files: list[dict[str, object]] = []
    if staged:
        if paths:
            raise TgGitError("--staged takes no paths; it estimates the whole index against HEAD.")
        from tg_git.staged import staged_counts

        repo = git.find_repo()
        for c in staged_counts(repo, config._replace(profile=profile)):
            entry: dict[str, object] = {"path": c.path, "tokens": c.tokens, "binary": c.binary}
            if not c.counted:
                entry["excluded"] = True
            files.append(entry)
    else:
        if not paths:
            if sys.stdin is None or sys.stdin.isatty():
                raise TgGitError("give a PATH, `-` for standard input, or --staged.")
            paths = ["-"]
        for path in paths:
            if path == "-":
                text = sys.stdin.buffer.read().decode("utf-8", "replace")
                files.append(
                    {"path": "-", "tokens": estimate_tokens(text, None, profile), "binary": False}
                )
                continue
            named = Path(path)
            files.extend(_one(p, profile, follow=p == named) for p in _expand(path))
    total = sum(int(str(f["tokens"])) for f in files)
    if as_json:
        print(json.dumps({"profile": profile, "total": total, "files": files}, ensure_ascii=False))
        return 0
    width = max([len(str(f["path"])) for f in files] + [5])
    for f in files:
        note = " (binary)" if f["binary"] else " (excluded)" if f.get("excluded") else ""
        print(f"{f['path']!s:{width}s} {int(str(f['tokens'])):>10,}{note}")
    print(f"{'total':{width}s} {total:>10,}  ({profile})")
    return 0
