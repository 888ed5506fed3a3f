"""`tg-git doctor`: is this repository guarded? Hooks, pre-commit wiring, config, ledger, and
whether the remote has the checkpoint tags. Each problem comes with its fix; exit 1 if any."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tg_git import git, levels
from tg_git.errors import ExitCode, TgGitError

LS_REMOTE_TIMEOUT = 20  # seconds; a remote that does not answer is reported, not waited on


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def _hooks(repo: git.Repo) -> list[Check]:
    from tg_git.commands.install import HOOKS, hooks_dir, uses_pre_commit_framework, wiring

    found = wiring(repo)
    missing = [name for name in HOOKS if found[name] is None]
    checks = []
    if missing:
        fix = "`tg-git install`"
        if uses_pre_commit_framework(repo):
            fix += (
                " (or `pre-commit install "
                + " ".join(f"--hook-type {name}" for name in missing)
                + "`)"
            )
        detail = f"not wired in {hooks_dir(repo)}: {', '.join(missing)}"
        if missing == ["post-merge"]:  # a repository installed before tg-git had post-merge
            detail += (
                " (without it, a merge or pull that crosses 90/95 % saves only at the next commit)"
            )
        checks.append(Check("hooks", False, detail, f"run {fix}."))
    else:
        who = sorted({str(w) for w in found.values()})
        checks.append(Check("hooks", True, f"{', '.join(HOOKS)} run by {' and '.join(who)}"))
    stale = _stale_shims(hooks_dir(repo), [n for n in HOOKS if found[n] == "tg-git"])
    if stale:
        checks.append(
            Check(
                "hook python",
                False,
                f"the hooks run {stale}, which no longer exists, and `tg-git` is not on PATH",
                "run `tg-git install` again with the tg-git you use now.",
            )
        )
    if uses_pre_commit_framework(repo):
        from shutil import which

        wired = [name for name in HOOKS if found[name] == "pre-commit"]
        if wired and which("tg-git") is None:
            checks.append(
                Check(
                    "pre-commit",
                    False,
                    "the pre-commit framework runs tg-git's hooks, but the `tg-git` "
                    "command is not on PATH for init/status/resume",
                    "install it once: `pipx install tg-git` (see README).",
                )
            )
        else:
            checks.append(Check("pre-commit", True, ".pre-commit-config.yaml lists tg-git"))
    return checks


def _stale_shims(folder: Path, ours: list[str]) -> str:
    """The Python a shim was written for, when it is gone and no `tg-git` can stand in."""
    from shutil import which

    for name in ours:
        for line in (folder / name).read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("TG_GIT_PYTHON="):
                python = line.split("=", 1)[1].strip().strip('"')
                if not os.access(python, os.X_OK) and which("tg-git") is None:
                    return python
    return ""


def _workspace(repo: git.Repo) -> list[Check]:
    from tg_git.workspace import Workspace

    try:
        ws = Workspace.open(repo.root)
    except TgGitError as exc:
        return [Check("config", False, str(exc), "fix the file it names, or `tg-git init`.")]
    checks = [
        Check("config", True, f"budget {ws.config.max_tokens:,}, profile {ws.config.profile}")
    ]
    try:
        ws.check_ledger_staged()
        session = ws.session()
    except TgGitError as exc:
        return [
            *checks,
            Check(
                "ledger",
                False,
                str(exc),
                "restore it from history (`git checkout HEAD -- .tg-git`).",
            ),
        ]
    if session is None:
        checks.append(
            Check("ledger", False, "no session has started", "run `tg-git session start`.")
        )
    else:
        checks.append(
            Check(
                "ledger",
                True,
                f"session {session.id}: ~{session.used:,}/"
                f"{session.max_tokens:,} tokens ({levels.shown(session.used, session.max_tokens)}%)",
            )
        )
    return checks


def _remote(repo: git.Repo) -> list[Check]:
    from tg_git.checkpoint import TAG_PREFIX

    follow = repo.git("config", "--bool", "--get", "push.followTags", check=False).strip()
    checks = [
        Check(
            "push",
            follow == b"true",
            "push.followTags is "
            + ("on" if follow == b"true" else "off")
            + " (checkpoint tags travel with a plain `git push` only when it is on)",
            ""
            if follow == b"true"
            else "run `tg-git install` or `git config push.followTags true`.",
        )
    ]
    local = set(
        repo.text("for-each-ref", "--format=%(refname:strip=2)", f"refs/tags/{TAG_PREFIX}").split()
    )
    remote = _remote_name(repo)
    if remote is None:
        checks.append(Check("remote tags", True, "no remote configured; nothing to compare"))
        return checks
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        proc = subprocess.run(
            ["git", "ls-remote", "--tags", remote, f"refs/tags/{TAG_PREFIX}*"],
            cwd=repo.root,
            capture_output=True,
            env=env,
            timeout=LS_REMOTE_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        checks.append(
            Check(
                "remote tags",
                False,
                f"{remote} did not answer in {LS_REMOTE_TIMEOUT} s",
                "check the network, then run doctor again.",
            )
        )
        return checks
    if proc.returncode != 0:
        reason = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"]
        checks.append(
            Check(
                "remote tags",
                False,
                f"cannot list {remote}'s tags ({reason[0]})",
                f"check `git remote -v` and access to {remote}.",
            )
        )
        return checks
    theirs = {
        line.split("\t", 1)[1].removeprefix("refs/tags/").removesuffix("^{}")
        for line in proc.stdout.decode("utf-8", "replace").splitlines()
        if "\t" in line
    }
    absent = sorted(local - theirs)
    if absent:
        checks.append(
            Check(
                "remote tags",
                False,
                f"{len(absent)} of {len(local)} checkpoint tags are not on {remote} "
                f"(first: {absent[0]})",
                f"run `git push {remote} --follow-tags` (or "
                f"`git push {remote} 'refs/tags/{TAG_PREFIX}*'`).",
            )
        )
    else:
        checks.append(Check("remote tags", True, f"{remote} has all {len(local)} checkpoint tags"))
    return checks


def _remote_name(repo: git.Repo) -> str | None:
    """The current branch's remote, else `origin`, else the only remote."""
    branch = repo.git("symbolic-ref", "-q", "--short", "HEAD", check=False).strip().decode()
    if branch:
        name = repo.git("config", "--get", f"branch.{branch}.remote", check=False).strip()
        if name:
            return name.decode("utf-8", "surrogateescape")
    remotes = repo.text("remote").split()
    if "origin" in remotes:
        return "origin"
    return remotes[0] if len(remotes) == 1 else None


def _agents(repo: git.Repo) -> list[Check]:
    """Each agent tg-git is wired into: where, which events, and whether the Python its
    hooks name still exists (a removed virtualenv would leave the agent unguarded)."""
    from tg_git import config
    from tg_git.agents import settings

    try:
        lang = config.load(repo.root).language
    except TgGitError:  # the config check reports it
        lang = "en"
    return [Check(*found) for found in settings.diagnose(repo.root, lang)]


def diagnose(repo: git.Repo) -> list[Check]:
    steps: list[Callable[[git.Repo], list[Check]]] = [_hooks, _workspace, _agents, _remote]
    checks: list[Check] = []
    for step in steps:
        checks.extend(step(repo))
    return checks


def doctor() -> int:
    repo = git.find_repo()
    checks = diagnose(repo)
    for check in checks:
        mark = "ok " if check.ok else "FIX"
        print(f"{mark} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            print(f"    fix: {check.fix}")
    problems = sum(not c.ok for c in checks)
    print(f"tg-git doctor: {problems} problem{'s' if problems != 1 else ''} found.")
    return ExitCode.ERROR if problems else ExitCode.OK
