"""`tg-git status`: the seed's token gauge table, the level, what remains, the plan."""

from __future__ import annotations

import json
from typing import Any

from tg_git.domain import budget, gauge, levels, windows
from tg_git.repo import readings
from tg_git.services.plan import plan, plan_lines
from tg_git.services.startup import open_workspace
from tg_git.text import messages

SHOWN = 10  # output rows shown one by one; older ones are summed into one "earlier" row


def _what(path: str, files: int, lang: str) -> str:
    """A commit's row: its first file, and how many more it counted."""
    if not path:
        return messages.text(lang, "output_none")
    if files > 1:
        return messages.text(lang, "output_more", path=path, n=files - 1)
    return path


def budget_fields(found: budget.Budgets) -> dict[str, Any]:
    """``status --json``'s ``context`` and the budget keys of its ``spend``."""
    context, spend = found.context, found.spend
    return {
        "context": {"used": context.used, "window": context.limit, "percent": context.percent,
                    "level": context.level, "source": context.source,
                    "measured_at": context.measured_at or None,
                    "window_from": context.window_from},
        "spend": {"tokens": spend.used, "usd": spend.usd, "budget_tokens": spend.limit,
                  "budget_usd": spend.limit_usd, "percent": spend.percent, "level": spend.level},
        "halted_by": found.halted_by,
        "unrecorded": list(found.unrecorded),
        "windows": windows.as_json(found.windows or {}),
    }  # fmt: skip


def plan_readings(git_dir: Any) -> list[windows.Reading]:
    """The plan windows' readings: status shows their use even where no share is set."""
    from tg_git.usage import planwindows  # lazy: 0.4 ms

    return planwindows.readings(git_dir)


def context_line(context: budget.Budget, max_tokens: int, lang: str) -> str:
    """The context budget, labelled: fill, window, level, where the fill and the window came
    from, and the configured ``max_tokens`` beside it."""
    window = context.limit or max_tokens
    return messages.text(
        lang, "status_context", used=context.used, window=window,
        pct=levels.shown(context.used, window), level=levels.level_name(context.level, lang),
        source=messages.text(lang, f"context_source.{context.source}"),
        window_from=gauge.window_from(context, lang), max=max_tokens,
    )  # fmt: skip


def status(*, as_json: bool) -> int:
    ws = open_workspace()
    session = ws.require_session()
    config = ws.config
    lang = config.language
    from tg_git.usage import (
        view,  # lazy: 0.4 ms; measured usage: source of `used`, newest measurement, spend
    )

    measured, measured_line = view.status_fields(view.apply_source(session, config), config)
    found = budget.budgets(session, config, readings.read_live(ws.repo.git_dir, session.id),
                           plan_readings(ws.repo.git_dir))  # fmt: skip
    used, window, level = found.context.used, found.context.limit or 1, found.level
    judged = budget.on_record(session, config) if found.unrecorded else config
    limits = levels.thresholds(window, judged)
    remaining = max(0, window - used)
    to_halt = max(0, limits["halt"] - used)
    if as_json:
        planned = plan(ws)  # every clone's newest state of each task, merged here
        fields = budget_fields(found)
        fields["spend"] = {**measured.pop("spend"), **fields["spend"]}
        print(
            json.dumps(
                {
                    "used": used,
                    "max_tokens": session.max_tokens,  # as configured; the window: context
                    "percent": levels.percent(used, window),
                    "level": level,
                    "input": session.input,
                    "output": session.output,
                    "remaining": remaining,
                    "remaining_before_halt": to_halt,
                    "session": {
                        "id": session.id,
                        "started": session.started,
                        "base": session.base,
                        "commits": session.commits,
                        "max_tokens": session.max_tokens,
                    },
                    "token_thresholds": limits,
                    "tasks": {t["title"]: t["status"] for t in planned["tasks"]},
                    "plan": planned["tasks"],
                    "next_steps": planned["next_steps"],
                    **measured,
                    **fields,
                },
                ensure_ascii=False,
            )
        )
        return 0

    def t(key: str, **values: object) -> str:
        return messages.text(lang, key, **values)

    rows = [t("table_title"), t("table_head"), "|------|----------|",
            f"| {t('input_row')} | ~{session.input:,} |"]  # fmt: skip
    outputs = ws.outputs()  # each commit's, from every event (a long session's memo has none)
    earlier = outputs[:-SHOWN] if len(outputs) > SHOWN else []
    if earlier:
        row = t("earlier_row", n=len(earlier)) if len(earlier) > 1 else t("earlier_row_one")
        rows.append(f"| {row} | ~{sum(n for *_, n in earlier):,} |")
    for n, (path, files, tokens) in enumerate(outputs[len(earlier) :], start=len(earlier) + 1):
        rows.append(f"| {t('output_row', n=n, what=_what(path, files, lang))} | ~{tokens:,} |")
    # The table is the estimate's: its rows add up to its total; the context budget (measured
    # or estimated, against its window) and the spend are lines of their own below it.
    rows.append(f"| {t('total_row')} | **~{session.estimated:,}** |")
    print("\n".join(rows))
    print()
    print(context_line(found.context, session.max_tokens, lang))
    print(t("level_line", level=levels.level_name(level, lang), **limits))
    print(t("remaining_line", remaining=remaining, to_halt=to_halt))
    print(measured_line)
    print(view.spend_line(found.spend, session, lang))
    for line in windows.lines(found.windows or {}, lang):
        print(line)
    edited = gauge.unrecorded_line(found, config)
    if edited:
        print(edited)
    print()
    print("\n".join(plan_lines(plan(ws), lang)))
    return 0
