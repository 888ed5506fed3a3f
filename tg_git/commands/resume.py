"""`tg-git resume` (restore, verify, brief, start a new session) and `tg-git verify`."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any

from tg_git.domain.errors import BadCheckpoint, ExitCode
from tg_git.repo.workspace import Workspace
from tg_git.services import resume as resume_mod
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history
from tg_git.text import messages

HOOKS_MISSING = {
    "en": "tg-git: this clone's hooks are missing ({hooks}): commits here are not counted or "
    "saved; run `tg-git resume --install` or `tg-git install`.",
    "ko": "tg-git: 이 클론에 훅이 설치되어 있지 않습니다({hooks}). 여기서 한 커밋은 집계·저장되지 "
    "않습니다. `tg-git resume --install` 또는 `tg-git install`을 실행하세요.",
}
HOOKS_PARTLY = {  # only post-merge / pre-push missing (an install from an older tg-git)
    "en": "tg-git: this clone lacks the {hooks} hook(s): commits are counted and saved, but "
    "{lost}; run `tg-git install`.",
    "ko": "tg-git: 이 클론에 {hooks} 훅이 없습니다. 커밋은 집계·저장되지만 {lost}. "
    "`tg-git install`을 실행하세요.",
}
LOST = {  # what each of the lesser hooks does that is not done without it
    "post-merge": {
        "en": "a merge saves only at the next commit",
        "ko": "병합은 다음 커밋에서야 저장되고",
    },
    "pre-push": {"en": "pushes are not checked", "ko": "푸시는 검사되지 않습니다"},
}


def _hooks_warning(missing: list[str], lang: str) -> str:
    lang = lang if lang in HOOKS_MISSING else "en"
    if not set(missing) <= set(LOST):
        return HOOKS_MISSING[lang].format(hooks=", ".join(missing))
    joiner = " and " if lang == "en" else " "
    lost = joiner.join(LOST[hook][lang] for hook in missing)
    return HOOKS_PARTLY[lang].format(hooks=", ".join(missing), lost=lost)


def resume(
    *,
    as_json: bool,
    from_tag: str | None,
    commit: bool,
    max_tokens: int | None,
    install: bool = False,
    agent: str | None = None,
) -> int:
    from tg_git.githooks.install import install as install_hooks
    from tg_git.githooks.install import missing_hooks

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
        result = resume_mod.resume(ws, from_tag=from_tag, commit=commit, max_tokens=max_tokens,
                                   render=lambda r: _output(r, missing, lang, as_json))  # fmt: skip
    except BadCheckpoint as exc:
        raise BadCheckpoint(messages.text(lang, "bad_checkpoint", detail=str(exc))) from None
    for skipped in result["skipped"]:
        print(messages.text(lang, "brief.skipped", tag=skipped["tag"], why=skipped["reason"]),
              file=sys.stderr)  # fmt: skip
    handoff = _handoff(ws, agent, result) if agent else None
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
    from tg_git.agents import handoff

    handoff.prepare(ws, agent, result["session"]["id"])
    info = handoff.details(ws, agent)
    writer = result["checkpoint"].get("written_by")
    return {**info, "lines": handoff.lines(info, writer, ws.config.language)}


def _output(result: dict[str, Any], missing: list[str], lang: str, as_json: bool) -> str:
    """What `tg-git resume` prints: the briefing, or the JSON object."""
    if as_json:
        return json.dumps({**result, "hooks_missing": missing}, ensure_ascii=False)
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
