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

LS_REMOTE_TIMEOUT = 20  # seconds; a remote that does not answer is reported, not waited on


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def _hooks(repo: git.Repo) -> list[Check]:
    from tg_git.githooks.install import HOOKS, hooks_dir, speaker, uses_pre_commit_framework, wiring

    say = speaker(repo)
    found = wiring(repo)
    missing = [name for name in HOOKS if found[name] is None]
    checks = []
    if missing:
        fix = "`tg-git install`"
        if uses_pre_commit_framework(repo):
            types = " ".join(f"--hook-type {name}" for name in missing)
            fix += say("doctor_or", command=f"`pre-commit install {types}`")
        detail = say("doctor_hooks_missing", folder=hooks_dir(repo), hooks=", ".join(missing))
        if missing == ["post-merge"]:  # a repository installed before tg-git had post-merge
            detail += say("doctor_no_post_merge")
        checks.append(Check(say("doctor.hooks"), False, detail, say("doctor_run", fix=fix)))
    else:
        who = say("doctor_and").join(sorted({str(w) for w in found.values()}))
        checks.append(
            Check(
                say("doctor.hooks"), True, say("doctor_hooks_ok", hooks=", ".join(HOOKS), who=who)
            )
        )
    twice = _twice(repo, hooks_dir(repo))
    if twice:
        checks.append(
            Check(
                say("doctor.twice"),
                False,
                say("doctor_twice", hooks=", ".join(twice)),
                say("doctor_twice_fix"),
            )
        )
    stale = _stale_shims(hooks_dir(repo), [n for n in HOOKS if found[n] == "tg-git"])
    if stale:
        checks.append(
            Check(
                say("doctor.hook_python"),
                False,
                say("doctor_stale_python", python=stale),
                say("doctor_stale_python_fix"),
            )
        )
    if uses_pre_commit_framework(repo):
        from shutil import which

        wired = [name for name in HOOKS if found[name] == "pre-commit"]
        if wired and which("tg-git") is None:
            checks.append(
                Check("pre-commit", False, say("doctor_no_command"), say("doctor_no_command_fix"))
            )
        else:
            checks.append(Check("pre-commit", True, say("doctor_pre_commit_ok")))
    return checks


def _twice(repo: git.Repo, folder: Path) -> list[str]:
    """Hooks where the framework runs tg-git and a native shim of ours runs beside it (kept
    by the framework as *.legacy, or keeping the framework's script as *.pre-tg-git)."""
    from tg_git.githooks.install import HOOKS, KEPT, MARKER, PRE_COMMIT_MARKER
    from tg_git.repo import framework

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
    from shutil import which

    for name in ours:
        for line in (folder / name).read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("TG_GIT_PYTHON="):
                python = line.split("=", 1)[1].strip().strip('"')
                if not os.access(python, os.X_OK) and which("tg-git") is None:
                    return python
    return ""


def _workspace(repo: git.Repo) -> list[Check]:
    from tg_git.githooks.install import speaker
    from tg_git.repo.configfile import language_of
    from tg_git.services.startup import open_workspace

    say = speaker(repo)
    try:
        ws = open_workspace(repo.root)
    except TgGitError as exc:
        from tg_git.domain.layout import CONFIG_PATH

        gone = not (repo.root / CONFIG_PATH).exists()  # a sparse checkout left it out
        if gone and gitquery.exists(repo, f"HEAD:{CONFIG_PATH}"):
            return [
                Check(say("doctor.config"), False, say("doctor_sparse"), say("doctor_sparse_fix"))
            ]
        detail = exc.text(language_of(repo.root))
        return [Check(say("doctor.config"), False, detail, say("doctor_config_fix"))]
    checks = [
        Check(
            say("doctor.config"),
            True,
            say("doctor_config_ok", budget=ws.config.max_tokens, profile=ws.config.profile),
        )
    ]
    try:
        ws.check_ledger_staged()
        session = ws.session()
    except TgGitError as exc:
        return [
            *checks,
            Check(
                say("doctor.ledger"), False, exc.text(ws.config.language), say("doctor_ledger_fix")
            ),
        ]
    if session is None:
        checks.append(
            Check(say("doctor.ledger"), False, say("doctor_no_session"), say("doctor_start_fix"))
        )
    else:
        checks.append(
            Check(
                say("doctor.ledger"),
                True,
                say(
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
    from tg_git.domain.refs import TAG_PREFIX
    from tg_git.githooks.install import speaker

    say = speaker(repo)
    on = gitquery.config_get(repo, "push.followTags", as_bool=True) == "true"
    checks = [
        Check(
            say("doctor.push"),
            on,
            say("doctor_follow_tags_on" if on else "doctor_follow_tags_off"),
            "" if on else say("doctor_follow_tags_fix"),
        )
    ]
    tags = say("doctor.remote_tags")
    local = {ref.short for ref in gitquery.refs(repo, [f"refs/tags/{TAG_PREFIX}"])}
    remote = _remote_name(repo)
    if remote is None:
        checks.append(Check(tags, True, say("doctor_no_remote")))
        return checks
    proc = git.remote_tags(repo, remote, f"refs/tags/{TAG_PREFIX}*", LS_REMOTE_TIMEOUT)
    if proc is None:
        checks.append(
            Check(
                tags,
                False,
                say("doctor_remote_silent", remote=remote, seconds=LS_REMOTE_TIMEOUT),
                say("doctor_remote_silent_fix"),
            )
        )
        return checks
    if proc.returncode != 0:
        reason = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["?"]
        checks.append(
            Check(
                tags,
                False,
                say("doctor_remote_failed", remote=remote, reason=reason[0]),
                say("doctor_remote_failed_fix", remote=remote),
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
                say(
                    "doctor_tags_absent",
                    n=len(absent),
                    total=len(local),
                    remote=remote,
                    first=absent[0],
                ),
                say("doctor_tags_absent_fix", remote=remote, prefix=TAG_PREFIX),
            )
        )
    else:
        checks.append(Check(tags, True, say("doctor_tags_ok", remote=remote, total=len(local))))
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
    from tg_git.agents import wiring
    from tg_git.repo.configfile import language_of

    lang = language_of(repo.root)
    return [Check(*found) for found in wiring.diagnose(repo.root, lang)] + _codex_trust(repo, lang)


def _codex_trust(repo: git.Repo, lang: str) -> list[Check]:
    """Codex runs a project's or the user's hooks only once they are trusted (its config.toml
    keeps which): tg-git's hooks that are not are a problem, with the way to trust them."""
    from tg_git.agents import codextrust, wiring
    from tg_git.agents.formats import settings_file
    from tg_git.text import messages
    from tg_git.usage.discover import codex_home

    checks = []
    for user in (False, True):
        path = settings_file("codex", repo.root, user)
        events = codextrust.untrusted(path, codex_home())
        if events:
            where = wiring.shown(path, repo.root)
            detail = messages.text(lang, "agent.check_codex_untrusted", where=where,
                                   events=", ".join(events))  # fmt: skip
            checks.append(Check("agent codex", False, detail,
                                messages.text(lang, "agent.check_codex_fix")))  # fmt: skip
    return checks


def diagnose(repo: git.Repo) -> list[Check]:
    steps: list[Callable[[git.Repo], list[Check]]] = [_hooks, _workspace, _agents, _remote]
    checks: list[Check] = []
    for step in steps:
        checks.extend(step(repo))
    return checks


def doctor() -> int:
    from tg_git.githooks.install import speaker

    repo = git.find_repo()
    say = speaker(repo)
    checks = diagnose(repo)
    for check in checks:
        mark = say("doctor_mark_ok") if check.ok else say("doctor_mark_fix")
        print(f"{mark} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            print(say("doctor_fix_line", fix=check.fix))
    problems = sum(not c.ok for c in checks)
    print(say("doctor_summary" if problems != 1 else "doctor_summary_one", n=problems))
    return ExitCode.ERROR if problems else ExitCode.OK
