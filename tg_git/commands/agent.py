"""``tg-git agent install | uninstall | status``: wire tg-git into the agents' own settings."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from tg_git.errors import TgGitError


def _agents(names: list[str]) -> list[str]:
    from tg_git.agents.settings import AGENTS

    if not names or "all" in names:
        return list(AGENTS)
    unknown = [n for n in names if n not in AGENTS]
    if unknown:
        raise TgGitError(
            f"unknown agent {unknown[0]!r}; use claude, codex, gemini, antigravity or all."
        )
    return list(dict.fromkeys(names))


def agent_setup(*, action: str, agents: list[str], user: bool) -> int:
    from tg_git.agents import settings, skills
    from tg_git.workspace import Workspace

    ws = Workspace.open()
    root, git_dir = ws.repo.root, ws.repo.git_path("tg-git").parent
    chosen = _agents(agents)
    home = Path.home()
    failed = []
    for agent in chosen:
        try:
            if action == "install":
                said = settings.install(agent, root, git_dir, user)
            else:
                said = settings.uninstall(agent, root, git_dir, user)
        except TgGitError as exc:  # the others go on; the error is said once, on stderr
            failed.append(f"{agent}: {exc}")
            continue
        print(f"tg-git: {agent}: {said}")
    # The skill: one file per folder; .agents/skills is shared by Codex, Gemini, Antigravity.
    for agent in chosen:
        target = skills.user_path(agent, home) if user else skills.path(agent, root)
        if action == "install":
            print(f"tg-git: {agent}: {skills.write(target, ws.config.language)}")
        elif not _still_wired(agent, chosen, root, user):
            print(f"tg-git: {agent}: {skills.remove(target)}")
    if failed:
        for line in failed[1:]:
            print(f"tg-git: {line}", file=sys.stderr)
        raise TgGitError(failed[0])
    return 0


def _still_wired(agent: str, removing: list[str], root: Path, user: bool) -> bool:
    """Whether another agent sharing this skill folder keeps tg-git's hooks."""
    from tg_git.agents import settings, skills

    folder = skills.FOLDERS[agent]
    sharing = [a for a in skills.FOLDERS if skills.FOLDERS[a] == folder and a not in removing]
    return any(settings.installed(a, root, user) for a in sharing)


def agent_status(*, as_json: bool) -> int:
    from tg_git.agents import settings, skills
    from tg_git.usage import store
    from tg_git.workspace import Workspace

    ws = Workspace.open()
    root = ws.repo.root
    home = Path.home()
    marks = store.marks(ws.repo.git_path(store.FOLDER))
    rows: list[dict[str, Any]] = []
    for agent in settings.AGENTS:
        last = max((m.imported_at for m in marks if m.agent == agent), default="")
        repo_file = settings.settings_file(agent, root, False)
        user_file = settings.settings_file(agent, root, True)
        skill, user_skill = skills.path(agent, root), skills.user_path(agent, home)
        rows.append(
            {
                "agent": agent,
                "repo_hooks": settings.installed(agent, root, False),
                "user_hooks": settings.installed(agent, root, True),
                "settings": str(repo_file or ""),
                "user_settings": str(user_file or ""),
                "skill": skill.is_file(),
                "skill_path": str(skill),
                "user_skill": user_skill.is_file(),
                "last_import": last or None,
                "transcripts": sum(1 for m in marks if m.agent == agent),
            }
        )
    if as_json:
        print(json.dumps({"agents": rows}, ensure_ascii=False))
        return 0

    def shown(path: str) -> str:
        here = Path(path)
        for base, name in ((root, ""), (home, "~/")):
            if here.is_relative_to(base):
                return name + str(here.relative_to(base))
        return path

    def hooks(value: bool | None, path: str) -> str:
        if value is None:
            return f"{shown(path)} unreadable" if os.path.lexists(path) else "-"
        return f"{shown(path)}" if value else "-"

    for row in rows:
        skills_at = [shown(row["skill_path"])] if row["skill"] else []
        if row["user_skill"]:
            skills_at.append(shown(str(skills.user_path(row["agent"], home))))
        wired = (
            f"repo {hooks(row['repo_hooks'], row['settings'])}, "
            f"user {hooks(row['user_hooks'], row['user_settings'])}"
            if row["settings"]
            else "none (preview format unverified)"
        )
        print(
            f"{row['agent']:<12} hooks: {wired} · "
            f"skill {', '.join(skills_at) or '-'} · last import {row['last_import'] or 'never'}"
            f" ({row['transcripts']} transcript(s))"
        )
    return 0
