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
    from tg_git import messages

    print(messages.text(ws.config.language, "repaired", files=len(result.files), events=result.events,
                        restored=result.restored, dropped=result.dropped))  # fmt: skip
    return 0
