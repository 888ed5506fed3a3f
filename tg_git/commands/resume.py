from __future__ import annotations

import json

from tg_git import resume as resume_mod
from tg_git.errors import ExitCode
from tg_git.verify import verify_history
from tg_git.workspace import Workspace


def resume(*, as_json: bool, from_tag: str | None, commit: bool, max_tokens: int | None) -> int:
    ws = Workspace.open()
    result = resume_mod.resume(ws, from_tag=from_tag, commit=commit, max_tokens=max_tokens)
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(resume_mod.briefing(result, ws.config.language))
    return 0


def verify(*, as_json: bool) -> int:
    ws = Workspace.open()
    report = verify_history(ws)
    if as_json:
        print(json.dumps(report.as_dict()))
    else:
        for line in report.lines():
            print(line)
    return ExitCode.OK if report.ok else ExitCode.DRIFT
