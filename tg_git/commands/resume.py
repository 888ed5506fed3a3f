from __future__ import annotations

import contextlib
import json
import sys

from tg_git import resume as resume_mod
from tg_git.errors import ExitCode
from tg_git.verify import verify_history
from tg_git.workspace import Workspace


def resume(
    *,
    as_json: bool,
    from_tag: str | None,
    commit: bool,
    max_tokens: int | None,
    install: bool = False,
) -> int:
    from tg_git.commands.install import install as install_hooks
    from tg_git.commands.install import missing_hooks

    ws = Workspace.open()
    # A fresh clone has no hooks: say so first, before anything else (or wire them).
    if install:
        with contextlib.redirect_stdout(sys.stderr if as_json else sys.stdout):
            install_hooks()
    missing = missing_hooks(ws.repo)
    if missing:
        warning = (
            f"tg-git: this clone's hooks are missing ({', '.join(missing)}): commits here are "
            "not counted or saved; run `tg-git resume --install` or `tg-git install`."
        )
        print(warning, file=sys.stderr if as_json else sys.stdout)
    result = resume_mod.resume(ws, from_tag=from_tag, commit=commit, max_tokens=max_tokens)
    if as_json:
        print(json.dumps({**result, "hooks_missing": missing}, ensure_ascii=False))
    else:
        print(resume_mod.briefing(result, ws.config.language))
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
        for line in report.lines():
            print(line)
    return ExitCode.OK if report.ok else ExitCode.DRIFT
