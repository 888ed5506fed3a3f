"""`tg-git verify --accept COMMIT...`: record commits that drift (most often: passed uncounted)
as counted, in a commit of the ledger alone, so that the next push goes through."""

from __future__ import annotations

import json

from tg_git.services import recount
from tg_git.services.startup import open_workspace
from tg_git.text import messages


def accept(*, commits: list[str], as_json: bool) -> int:
    ws = open_workspace()
    counted, committed = recount.accept(ws, commits)
    if as_json:
        found = [{"commit": sha, "tokens": n} for sha, n in counted]
        print(json.dumps({"accepted": found, "committed": committed}))
        return 0
    lang = ws.config.language
    for sha, tokens in counted:
        print(messages.text(lang, "recounted", commit=sha[:12], n=tokens))
    if not counted:
        print(messages.text(lang, "accepted_nothing"))
        return 0
    key = "accepted_committed" if committed else "accepted_staged"
    print(messages.text(lang, key, path=ws.current_ledger_file()))
    return 0
