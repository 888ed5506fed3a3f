"""``tg-git usage`` (spend per model and turn) and ``tg-git usage import``."""

from __future__ import annotations

import json

from tg_git.domain import replay
from tg_git.services.startup import open_workspace


def usage(*, as_json: bool) -> int:
    from tg_git.usage import view  # lazy: 3.7 ms

    ws = open_workspace()
    events = ws.session_events()

    session = replay.replay(events, use_measured=ws.config.budget_source != "estimate")
    if session is None:
        session = ws.require_session()  # raises the clear error
    data = view.report(events, session)
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(view.report_text(data, ws.config))
    return 0


_VALUED = {"--agent": "agent", "--transcript": "transcript", "--session": "session"}


def usage_import_args(args: list[str]) -> int:
    """`tg-git usage import ARGS` (the registry's hot route ``usage import``): the arguments
    it is given in the forms argparse reads alike (``--json``; ``--agent``, ``--transcript``,
    ``--session`` each followed by its value, the last one given counting) are read here,
    without building the parser (~7 ms of an import's start: argparse, its help formatter,
    ``gettext``, ``shutil``); anything else (help, ``--opt=value``, a value that starts with
    a dash, an unknown word, an agent argparse would refuse) goes through argparse as ever."""
    from tg_git.usage.discover import AGENTS  # lazy: 0.4 ms (`--agent`'s choices)

    given: dict[str, str | None] = dict.fromkeys(_VALUED.values())
    as_json, at = False, 0
    while at < len(args):
        word = args[at]
        if word == "--json":
            as_json, at = True, at + 1
            continue
        key = _VALUED.get(word)
        value = args[at + 1] if key is not None and at + 1 < len(args) else None
        if value is None or value.startswith("-") or (key == "agent" and value not in AGENTS):
            from tg_git.cli import dispatch  # lazy: 7 ms
            from tg_git.main import main  # lazy: 0 ms (loaded; at the top: a cycle)

            return dispatch(["usage", "import", *args], entry=main)
        given[key], at = value, at + 2  # type: ignore[index]
    return usage_import(**given, as_json=as_json)


def usage_import(
    *, agent: str | None, transcript: str | None, session: str | None, as_json: bool
) -> int:
    from tg_git.domain import budget, levels  # lazy: 1.5 ms
    from tg_git.services.plan import act_on_level, level_now  # lazy: 3.2 ms
    from tg_git.usage.importer import import_usage  # lazy: 9.5 ms

    ws = open_workspace()
    ws.require_session()
    before = level_now(ws)
    outcome = import_usage(ws, agent=agent, transcript=transcript, agent_session=session)
    after = outcome.session
    quiet = after is not None and budget.session_level(after, ws.config) == levels.OK
    if as_json:
        print(
            json.dumps(
                {
                    "events": len(outcome.events),
                    "requests": outcome.requests,
                    "tokens": outcome.tokens,
                    "transcripts": outcome.transcripts,
                    "skipped": outcome.skipped,
                    "notes": outcome.notes,
                    "used": after.used if after else 0,
                    "source": after.source if after else "estimated",
                },
                ensure_ascii=False,
            )
        )
        if not quiet:  # at the OK level it says and saves nothing (and loads no checkpoint code)
            act_on_level(ws, before, 0, always=False, emit=lambda _: None)  # stdout: the JSON
        return 0
    from tg_git.text import messages  # lazy: 0.3 ms
    from tg_git.usage.view import source_name  # lazy: 3.7 ms

    lang = ws.config.language
    for note in outcome.notes:
        print(f"tg-git: {note}")
    if outcome.events and after is not None:
        print(
            messages.text(
                lang,
                "usage.imported",
                requests=outcome.requests,
                tokens=outcome.tokens,
                transcripts=outcome.transcripts,
                used=after.used,
                max=after.max_tokens,
                source=source_name(after.source, ws.config.language),
            )
        )
    else:
        print(messages.text(lang, "usage.nothing"))
    if not quiet:
        act_on_level(ws, before, 0, always=False, emit=print)
    return 0
