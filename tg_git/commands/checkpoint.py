"""`tg-git checkpoint` (a save by hand) and `tg-git log` (the saves, newest first)."""

from __future__ import annotations

import json

from tg_git.repo import checkpoints
from tg_git.services import checkpoint as checkpoint_mod
from tg_git.services.startup import open_workspace
from tg_git.text import messages


def checkpoint(*, message: str) -> int:
    ws = open_workspace()
    tag, _made = checkpoint_mod.manual_save(ws, message)
    print(tag)
    return 0


def log(*, as_json: bool) -> int:
    ws = open_workspace()
    rows = checkpoints.listing(ws)
    if as_json:
        print(json.dumps({"checkpoints": rows}, ensure_ascii=False))
        return 0
    lang = ws.config.language
    if not rows:
        print(messages.text(lang, "no_checkpoints"))
    for row in rows:
        figures = (
            f"~{row['used']:,}/{row['max_tokens']:,}"
            if isinstance(row.get("used"), int) and isinstance(row.get("max_tokens"), int)
            else "?"
        )
        files = row.get("completed_files")
        print(
            messages.text(
                lang,
                "log_row",
                tag=row["tag"],
                commit=row["commit"][:10],
                time=row.get("timestamp") or "?",
                figures=figures,
                files=row.get("completed", "?") if files is None else files,
                tasks="?" if row.get("completed_tasks") is None else row["completed_tasks"],
            )
        )
        if row.get("message"):
            print(f"    {row['message']}")
    return 0
