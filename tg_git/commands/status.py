from __future__ import annotations

import json

from tg_git import levels
from tg_git.workspace import Workspace


def status(*, as_json: bool) -> int:
    ws = Workspace.open()
    session = ws.require_session()
    config = ws.config
    from tg_git.usage import view  # measured usage: source of `used`, newest measurement, spend

    measured, measured_line = view.status_fields(view.apply_source(session, config), config)
    level = levels.level(session.used, session.max_tokens, config)
    limits = levels.thresholds(session.max_tokens, config)
    if as_json:
        print(
            json.dumps(
                {
                    "used": session.used,
                    "max_tokens": session.max_tokens,
                    "percent": round(session.percent, 2),
                    "level": level,
                    "input": session.input,
                    "output": session.output,
                    "session": {
                        "id": session.id,
                        "started": session.started,
                        "base": session.base,
                        "commits": session.commits,
                    },
                    "token_thresholds": limits,
                    "tasks": {t.title: t.status for t in session.tasks.values()},
                    "next_steps": session.next_steps,
                    **measured,
                },
                ensure_ascii=False,
            )
        )
        return 0

    def t(key: str) -> str:
        return levels.text(config, key)

    rows = [
        t("table_title"),
        t("table_head"),
        "|------|----------|",
        f"| {t('input_row')} | ~{session.input:,} |",
    ]
    for n, (label, tokens) in enumerate(
        session.outputs[-10:], start=max(1, len(session.outputs) - 9)
    ):
        rows.append(f"| {t('output_row').format(n=n, what=label or 'commit')} | ~{tokens:,} |")
    rows.append(
        f"| {t('total_row')} | **~{session.used:,} / {session.max_tokens:,} "
        f"({session.percent:.0f}%)** |"
    )
    print("\n".join(rows))
    print()
    print(t("level_line").format(level=level, **limits))
    print(measured_line)
    return 0
