"""`tg-git doctor`: is this repository guarded? Hooks, pre-commit wiring, config, ledger, and
whether the remote has the checkpoint tags. Each problem comes with its fix; exit 1 if any."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tg_git.domain import levels
from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.repo import git, gitquery
from tg_git.text import messages

LS_REMOTE_TIMEOUT = 20  # seconds; a remote that does not answer is reported, not waited on


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def _hooks(repo: git.Repo) -> list[Check]:
    from tg_git.githooks.install import (  # lazy: 11.9 ms
        HOOKS,
        hooks_dir,
        messages_in,
        uses_pre_commit_framework,
        wiring,
    )

    msg = messages_in(repo)
    found = wiring(repo)
    missing = [name for name in HOOKS if found[name] is None]
    checks = []
    if missing:
        fix = "`tg-git install`"
        if uses_pre_commit_framework(repo):
            types = " ".join(f"--hook-type {name}" for name in missing)
            fix += msg("doctor_or", command=f"`pre-commit install {types}`")
        detail = msg("doctor_hooks_missing", folder=hooks_dir(repo), hooks=", ".join(missing))
        if missing == ["post-merge"]:  # a repository installed before tg-git had post-merge
            detail += msg("doctor_no_post_merge")
        checks.append(Check(msg("doctor.hooks"), False, detail, msg("doctor_run", fix=fix)))
    else:
        who = msg("doctor_and").join(sorted({str(w) for w in found.values()}))
        checks.append(
            Check(
                msg("doctor.hooks"), True, msg("doctor_hooks_ok", hooks=", ".join(HOOKS), who=who)
            )
        )
    twice = _twice(repo, hooks_dir(repo))
    if twice:
        checks.append(
            Check(
                msg("doctor.twice"),
                False,
                msg("doctor_twice", hooks=", ".join(twice)),
                msg("doctor_twice_fix"),
            )
        )
    stale = _stale_shims(hooks_dir(repo), [n for n in HOOKS if found[n] == "tg-git"])
    if stale:
        checks.append(
            Check(
                msg("doctor.hook_python"),
                False,
                msg("doctor_stale_python", python=stale),
                msg("doctor_stale_python_fix"),
            )
        )
    if uses_pre_commit_framework(repo):
        from shutil import which  # lazy: 2.5 ms

        wired = [name for name in HOOKS if found[name] == "pre-commit"]
        if wired and which("tg-git") is None:
            checks.append(
                Check("pre-commit", False, msg("doctor_no_command"), msg("doctor_no_command_fix"))
            )
        else:
            checks.append(Check("pre-commit", True, msg("doctor_pre_commit_ok")))
    return checks


def _twice(repo: git.Repo, folder: Path) -> list[str]:
    """Hooks where the framework runs tg-git and a native shim of ours runs beside it (kept
    by the framework as *.legacy, or keeping the framework's script as *.pre-tg-git)."""
    from tg_git.githooks.install import HOOKS, KEPT, MARKER, PRE_COMMIT_MARKER  # lazy: 11.9 ms
    from tg_git.repo import framework  # lazy: 0.4 ms

    def has(path: Path, mark: str) -> bool:
        try:
            return mark in path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return False

    return [
        name
        for name in HOOKS
        if framework.runs(repo.root, name)
        and (
            (has(folder / name, PRE_COMMIT_MARKER) and has(folder / f"{name}.legacy", MARKER))
            or (has(folder / name, MARKER) and has(folder / (name + KEPT), PRE_COMMIT_MARKER))
        )
    ]


def _stale_shims(folder: Path, ours: list[str]) -> str:
    """The Python a shim was written for, when it is gone and no `tg-git` can stand in."""
    from shutil import which  # lazy: 2.5 ms

    for name in ours:
        for line in (folder / name).read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("TG_GIT_PYTHON="):
                python = line.split("=", 1)[1].strip().strip('"')
                if not os.access(python, os.X_OK) and which("tg-git") is None:
                    return python
    return ""


def _workspace(repo: git.Repo) -> list[Check]:
    from tg_git.githooks.install import messages_in  # lazy: 11.9 ms
    from tg_git.repo.configfile import language_of  # lazy: 2.0 ms
    from tg_git.services.startup import open_workspace  # lazy: 5.2 ms

    msg = messages_in(repo)
    try:
        ws = open_workspace(repo.root)
    except TgGitError as exc:
        from tg_git.domain.layout import CONFIG_PATH  # lazy: 0.3 ms

        gone = not (repo.root / CONFIG_PATH).exists()  # a sparse checkout left it out
        if gone and gitquery.exists(repo, f"HEAD:{CONFIG_PATH}"):
            return [
                Check(msg("doctor.config"), False, msg("doctor_sparse"), msg("doctor_sparse_fix"))
            ]
        detail = exc.text(language_of(repo.root))
        return [Check(msg("doctor.config"), False, detail, msg("doctor_config_fix"))]
    checks = [
        Check(
            msg("doctor.config"),
            True,
            msg("doctor_config_ok", budget=ws.config.max_tokens, profile=ws.config.profile),
        )
    ]
    try:
        ws.check_ledger_staged()
        session = ws.session()
    except TgGitError as exc:
        return [
            *checks,
            Check(
                msg("doctor.ledger"), False, exc.text(ws.config.language), msg("doctor_ledger_fix")
            ),
        ]
    if session is None:
        checks.append(
            Check(msg("doctor.ledger"), False, msg("doctor_no_session"), msg("doctor_start_fix"))
        )
    else:
        checks.append(
            Check(
                msg("doctor.ledger"),
                True,
                msg(
                    "doctor_ledger_ok",
                    id=session.id,
                    used=session.used,
                    max=session.max_tokens,
                    pct=levels.shown(session.used, session.max_tokens),
                ),
            )
        )
    return checks


def _remote(repo: git.Repo) -> list[Check]:
    from tg_git.domain.refs import TAG_PREFIX  # lazy: 3.7 ms
    from tg_git.githooks.install import messages_in  # lazy: 11.9 ms

    msg = messages_in(repo)
    on = gitquery.config_get(repo, "push.followTags", as_bool=True) == "true"
    checks = [
        Check(
            msg("doctor.push"),
            on,
            msg("doctor_follow_tags_on" if on else "doctor_follow_tags_off"),
            "" if on else msg("doctor_follow_tags_fix"),
        )
    ]
    tags = msg("doctor.remote_tags")
    local = {ref.short for ref in gitquery.refs(repo, [f"refs/tags/{TAG_PREFIX}"])}
    remote = _remote_name(repo)
    if remote is None:
        checks.append(Check(tags, True, msg("doctor_no_remote")))
        return checks
    proc = git.remote_tags(repo, remote, f"refs/tags/{TAG_PREFIX}*", LS_REMOTE_TIMEOUT)
    if proc is None:
        checks.append(
            Check(
                tags,
                False,
                msg("doctor_remote_silent", remote=remote, seconds=LS_REMOTE_TIMEOUT),
                msg("doctor_remote_silent_fix"),
            )
        )
        return checks
    if proc.returncode != 0:
        reason = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"]
        checks.append(
            Check(
                tags,
                False,
                msg("doctor_remote_failed", remote=remote, reason=reason[0]),
                msg("doctor_remote_failed_fix", remote=remote),
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
                tags,
                False,
                msg(
                    "doctor_tags_absent",
                    n=len(absent),
                    total=len(local),
                    remote=remote,
                    first=absent[0],
                ),
                msg("doctor_tags_absent_fix", remote=remote, prefix=TAG_PREFIX),
            )
        )
    else:
        checks.append(Check(tags, True, msg("doctor_tags_ok", remote=remote, total=len(local))))
    return checks


def _remote_name(repo: git.Repo) -> str | None:
    """The current branch's remote, else `origin`, else the only remote."""
    branch = gitquery.current_branch(repo)
    name = gitquery.config_get(repo, f"branch.{branch}.remote") if branch else None
    if name:
        return name
    remotes = gitquery.remotes(repo)
    if "origin" in remotes:
        return "origin"
    return remotes[0] if len(remotes) == 1 else None


def _agents(repo: git.Repo) -> list[Check]:
    """Each agent tg-git is wired into: where, which events, and whether the Python its
    hooks name still exists (a removed virtualenv would leave the agent unguarded)."""
    from tg_git.agents import wiring  # lazy: 13.2 ms
    from tg_git.repo.configfile import language_of  # lazy: 2.0 ms

    lang = language_of(repo.root)
    return [Check(*found) for found in wiring.diagnose(repo.root, lang)] + _codex_trust(repo, lang)


def _codex_trust(repo: git.Repo, lang: str) -> list[Check]:
    """Codex runs a project's or the user's hooks only once they are trusted (its config.toml
    keeps which): tg-git's hooks that are not are a problem, with the way to trust them."""
    from tg_git.agents import codextrust, wiring  # lazy: 12.8 ms
    from tg_git.agents.formats import settings_file  # lazy: 6.1 ms
    from tg_git.usage.discover import codex_home  # lazy: 0.8 ms

    checks = []
    for user in (False, True):
        path = settings_file("codex", repo.root, user)
        events = codextrust.untrusted(path, codex_home())
        if events:
            where = wiring.shown(path, repo.root)
            detail = messages.text(
                lang, "agent.check_codex_untrusted", where=where, events=", ".join(events)
            )
            checks.append(
                Check("agent codex", False, detail, messages.text(lang, "agent.check_codex_fix"))
            )
    return checks


def diagnose(repo: git.Repo) -> list[Check]:
    steps: list[Callable[[git.Repo], list[Check]]] = [_hooks, _workspace, _agents, _remote]
    checks: list[Check] = []
    for step in steps:
        checks.extend(step(repo))
    return checks


def doctor() -> int:
    from tg_git.githooks.install import messages_in  # lazy: 11.9 ms

    repo = git.find_repo()
    msg = messages_in(repo)
    checks = diagnose(repo)
    for check in checks:
        mark = msg("doctor_mark_ok") if check.ok else msg("doctor_mark_fix")
        print(f"{mark} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            print(msg("doctor_fix_line", fix=check.fix))
    problems = sum(not c.ok for c in checks)
    print(msg("doctor_summary" if problems != 1 else "doctor_summary_one", n=problems))
    return ExitCode.ERROR if problems else ExitCode.OK
