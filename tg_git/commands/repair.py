"""`tg-git repair`: rebuild the ledger from history and the journal, and stage it."""

from __future__ import annotations

import json

from tg_git import repair as repair_mod
from tg_git.workspace import Workspace


def repair(*, as_json: bool) -> int:
    ws = Workspace.open()
    result = repair_mod.repair(ws)
    if as_json:
        print(json.dumps(result.as_dict()))
        return 0
    print(
        f"tg-git: rebuilt {len(result.files)} ledger file(s): {result.events:,} events kept "
        f"({result.restored:,} restored), {result.dropped:,} broken line(s) dropped; staged."
    )
    return 0
