"""`tg-git report`: write the HTML page (or print its numbers with --json)."""

from __future__ import annotations

import json
from pathlib import Path

from tg_git.domain.errors import TgGitError, os_fix, os_reason
from tg_git.repo import ledger
from tg_git.repo.workspace import Workspace
from tg_git.services.startup import open_workspace
from tg_git.text import messages


def report(
    *,
    output: str | None,
    session: str | None,
    all_sessions: bool,
    as_json: bool,
    open_browser: bool,
    range_spec: str | None = None,
    fmt: str | None = None,
) -> int:
    # Loaded here, not with the commands: every other command would pay ~3 ms for it
    # (`python -X importtime`, regular install: data ~1.1 ms, html ~2 ms after the commands).
    from tg_git.report import data, html  # lazy: 19.7 ms

    ws = open_workspace()  # an error, --json or not, is main's to say (in the reader's language)
    if range_spec is not None or fmt == "markdown":
        return _receipt(ws, range_spec or "HEAD", as_json=as_json, output=output)
    figures = data.build(ws, session_id=session, all_sessions=all_sessions)
    if as_json:
        print(json.dumps(data.clean_data(figures), ensure_ascii=False))
        return 0
    page = html.render(figures, ws.config.profile)
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
        import webbrowser  # lazy: 9.7 ms

        webbrowser.open(target.resolve().as_uri())
    return 0


def _receipt(ws: Workspace, spec: str, *, as_json: bool, output: str | None) -> int:
    """A range's receipt: Markdown (a pull request's comment, a CI job's summary) or JSON."""
    from tg_git.report import range as ranges  # lazy: 17.1 ms
    from tg_git.report import receipt  # lazy: 4.2 ms

    figures = ranges.build(ws, spec)
    if as_json:
        text = json.dumps(data_clean(figures), ensure_ascii=False) + "\n"
    else:
        text = receipt.render(figures, ws.config.language)
    if output in (None, "-"):
        print(text, end="")
        return 0
    try:
        ledger.write_atomic(Path(output), text)
    except OSError as exc:
        lang = ws.config.language
        raise TgGitError(
            messages.text(lang, "report_unwritable", path=output, error=os_reason(exc).text(lang),
                          fix=os_fix(exc, lang))
        ) from None  # fmt: skip
    print(output)
    return 0


def data_clean(figures: object) -> object:
    from tg_git.report import data  # lazy: 17.5 ms

    return data.clean_data(figures)
