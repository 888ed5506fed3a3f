"""`tg-git repair`: rebuild the ledger from history and the journal, and stage it."""

from __future__ import annotations

import json

from tg_git.services import repair as repair_mod
from tg_git.services.startup import open_workspace
from tg_git.text import messages


def repair(*, as_json: bool) -> int:
    ws = open_workspace()
    result = repair_mod.repair(ws)
    counted = repair_mod.short_commits(ws)  # commits that passed uncounted: counted now, staged
    if as_json:
        found = [{"commit": sha, "tokens": n} for sha, n in counted]
        print(json.dumps({**result.as_dict(), "recounted": found}))
        return 0

    print(
        messages.text(
            ws.config.language,
            "repaired",
            files=len(result.files),
            events=result.events,
            restored=result.restored,
            dropped=result.dropped,
        )
    )
    for sha, tokens in counted:
        print(messages.text(ws.config.language, "recounted", commit=sha[:12], n=tokens))
    return 0
