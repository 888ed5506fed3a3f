"""`tg-git report`: write the HTML page (or print its numbers with --json)."""

from __future__ import annotations

import json
from pathlib import Path

from tg_git.domain.errors import TgGitError, os_fix, os_reason
from tg_git.repo import ledger
from tg_git.services.startup import open_workspace
from tg_git.text import messages


def report(
    *,
    output: str | None,
    session: str | None,
    all_sessions: bool,
    as_json: bool,
    open_browser: bool,
) -> int:
    from tg_git import report as report_mod

    ws = open_workspace()  # an error, --json or not, is main's to say (in the reader's language)
    data = report_mod.build(ws, session_id=session, all_sessions=all_sessions)
    if as_json:
        print(json.dumps(report_mod.clean_data(data), ensure_ascii=False))
        return 0
    page = report_mod.render(data, ws.config.profile)
    if output == "-":
        print(page, end="")
        return 0
    target = Path(output) if output else ws.repo.git_path("tg-git") / "report.html"
    try:
        if output is None:
            target.parent.mkdir(parents=True, exist_ok=True)
        ledger.write_atomic(target, page)
    except OSError as exc:
        lang = ws.config.language
        raise TgGitError(
            messages.text(lang, "report_unwritable", path=output or target,
                          error=os_reason(exc).text(lang),
                          fix=os_fix(exc, lang))
        ) from None  # fmt: skip
    print(target)
    if open_browser:
        import webbrowser

        webbrowser.open(target.resolve().as_uri())
    return 0
