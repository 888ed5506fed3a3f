from __future__ import annotations

import json

from tg_git import checkpoint as checkpoint_mod
from tg_git.workspace import Workspace


def checkpoint(*, message: str) -> int:
    ws = Workspace.open()
    tag = checkpoint_mod.manual_save(ws, message)
    print(tag)
    return 0


def log(*, as_json: bool) -> int:
    ws = Workspace.open()
    rows = checkpoint_mod.listing(ws)
    if as_json:
        print(json.dumps({"checkpoints": rows}, ensure_ascii=False))
        return 0
    if not rows:
        print("tg-git: no checkpoints yet (`tg-git checkpoint` makes one).")
    for row in rows:
        figures = (
            f"~{row['used']:,}/{row['max_tokens']:,}"
            if isinstance(row.get("used"), int) and isinstance(row.get("max_tokens"), int)
            else "?"
        )
        print(
            f"{row['tag']}  {row['commit'][:10]}  {row.get('timestamp') or '?'}  "
            f"{figures} tokens  {row.get('completed', '?')} completed"
        )
    return 0
