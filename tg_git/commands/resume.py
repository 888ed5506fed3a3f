"""`tg-git resume` (restore, verify, brief, start a new session) and `tg-git verify`."""

from __future__ import annotations

import json
import sys

from tg_git import messages
from tg_git import resume as resume_mod
from tg_git.errors import BadCheckpoint, ExitCode
from tg_git.verify import verify_history
from tg_git.workspace import Workspace


def resume(*, as_json: bool, from_tag: str | None, commit: bool, max_tokens: int | None) -> int:
    ws = Workspace.open()
    lang = ws.config.language
    try:
        result = resume_mod.resume(ws, from_tag=from_tag, commit=commit, max_tokens=max_tokens)
    except BadCheckpoint as exc:
        raise BadCheckpoint(messages.text(lang, "bad_checkpoint", detail=str(exc))) from None
    for skipped in result["skipped"]:
        print(messages.text(lang, "brief.skipped", tag=skipped["tag"], why=skipped["reason"]),
              file=sys.stderr)  # fmt: skip
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(resume_mod.briefing(result, lang))
    return 0


def verify(*, as_json: bool) -> int:
    ws = Workspace.open()
    report = verify_history(ws)
    if as_json:
        print(
            json.dumps(
                {
                    "ok": report.ok,
                    "base": report.base,
                    "checked": report.checked,
                    "drift": [d.as_dict() for d in report.drift],
                }
            )
        )
    else:
        lang = ws.config.language
        if report.ok:
            print(messages.text(lang, "verify_ok", n=report.checked))
        for d in report.drift:
            print(messages.text(lang, "verify_drift", commit=d.commit[:12], subject=d.subject,
                                reason=d.reason))  # fmt: skip
        if not report.ok:
            print(
                messages.text(lang, "verify_summary", n=len(report.drift), checked=report.checked)
            )
    return ExitCode.OK if report.ok else ExitCode.DRIFT
