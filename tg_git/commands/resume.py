"""`tg-git resume` (restore, verify, brief, start a new session) and `tg-git verify`."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any

from tg_git.domain.errors import BadCheckpoint, ExitCode
from tg_git.repo.workspace import Workspace
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history
from tg_git.text import messages

LESSER = ("post-merge", "pre-push")  # hooks whose absence loses a save or a check, not counts


def _hooks_warning(missing: list[str], lang: str) -> str:
    hooks = ", ".join(missing)
    if not set(missing) <= set(LESSER):
        return messages.text(lang, "resume.hooks_missing", hooks=hooks)
    lost = messages.text(lang, f"resume.lost.{missing[0] if len(set(missing)) == 1 else 'both'}")
    return messages.text(lang, "resume.hooks_partly", hooks=hooks, lost=lost)


def resume(
    *,
    as_json: bool,
    from_tag: str | None,
    commit: bool,
    max_tokens: int | None,
    install: bool = False,
    agent: str | None = None,
) -> int:
    from tg_git.githooks.install import install as install_hooks  # lazy: 0.5 ms
    from tg_git.githooks.install import missing_hooks  # lazy: 0.5 ms
    from tg_git.services import resume as resume_mod  # lazy: 6 ms, none of it verify's

    ws = open_workspace()
    # A fresh clone has no hooks: say so first, before anything else (or wire them).
    if install:
        with contextlib.redirect_stdout(sys.stderr if as_json else sys.stdout):
            install_hooks()
    missing = missing_hooks(ws.repo)
    if missing:
        warning = _hooks_warning(missing, ws.config.language)
        print(warning, file=sys.stderr if as_json else sys.stdout)
    lang = ws.config.language
    try:
        result = resume_mod.resume(
            ws,
            from_tag=from_tag,
            commit=commit,
            max_tokens=max_tokens,
            render=lambda r: _output(r, missing, lang, as_json),
        )
    except BadCheckpoint as exc:
        raise BadCheckpoint(messages.text(lang, "bad_checkpoint", detail=exc.text(lang))) from None
    for skipped in result["skipped"]:
        print(
            messages.text(lang, "brief.skipped", tag=skipped["tag"], why=skipped["reason"]),
            file=sys.stderr,
        )
    handoff = _handoff(ws, agent, result) if agent else None
    if not agent:  # the next session start of any agent here briefs its model
        _owe(ws, result, from_tag)
    if as_json:
        extra = {"handoff": handoff} if handoff else {}
        print(json.dumps({**result, "hooks_missing": missing, **extra}, ensure_ascii=False))
    else:
        print(resume_mod.briefing(result, lang))
        if handoff:
            print("\n".join(handoff["lines"]))
    return 0


def _handoff(ws: Workspace, agent: str, result: dict[str, Any]) -> dict[str, Any]:
    """Hand the new session to ``agent``: its next session start takes it over."""
    from tg_git.agents import handoff  # lazy: 0.4 ms

    handoff.prepare(ws, agent, result["session"]["id"])
    info = handoff.details(ws, agent)
    writer = result["checkpoint"].get("written_by")
    return {**info, "lines": handoff.lines(info, writer, ws.config.language)}


def _owe(ws: Workspace, result: dict[str, Any], from_tag: str | None) -> None:
    """No agent named: the briefing is owed to the next session start of any agent here."""
    from tg_git.agents import handoff  # lazy: 0.4 ms

    handoff.owe(ws, result["session"]["id"], from_tag)


def _output(result: dict[str, Any], missing: list[str], lang: str, as_json: bool) -> str:
    """What `tg-git resume` prints: the briefing, or the JSON object."""
    if as_json:
        return json.dumps({**result, "hooks_missing": missing}, ensure_ascii=False)
    from tg_git.services import resume as resume_mod  # lazy: 6 ms, none of it verify's

    return resume_mod.briefing(result, lang)


def verify(*, as_json: bool) -> int:
    ws = open_workspace()
    report = verify_history(ws)
    if as_json:
        print(json.dumps(report.as_dict()))
    else:
        for line in report.lines(ws.config.language):
            print(line)
    return ExitCode.OK if report.ok else ExitCode.DRIFT
