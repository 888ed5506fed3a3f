"""`tg-git verify --range A..B [--max-tokens N] [--max-usd X]`: the CI gate. The range's
drift, checked as verify checks it, and its cost against the limits: exit 6 when either
fails, with the figures."""

from __future__ import annotations

import json

from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history
from tg_git.text import messages


def verify_range(
    *, spec: str | None, max_tokens: int | None, max_usd: float | None, as_json: bool
) -> int:
    from tg_git.report import range as ranges  # lazy: 3.2 ms
    from tg_git.report import receipt  # lazy: 1.4 ms

    ws = open_workspace()
    lang = ws.config.language
    if spec is None:
        raise TgGitError(messages.text(lang, "range_limit_alone"), ExitCode.USAGE)
    figures = ranges.build(ws, spec)
    drift = verify_history(ws, base=figures["base"] or None, tip=figures["tip"])
    crossed = ranges.over(figures["totals"], max_tokens, max_usd)
    limits = []
    if max_tokens is not None:
        limits.append(messages.text(lang, "receipt.limit_tokens", n=max_tokens))
    if max_usd is not None:
        limits.append(f"${max_usd:,.2f}")
    said = ", ".join(limits) or messages.text(lang, "receipt.no_limit")
    ok = drift.ok and not crossed
    if as_json:
        print(
            json.dumps(
                {
                    "range": figures["range"],
                    "base": figures["base"],
                    "tip": figures["tip"],
                    "totals": figures["totals"],
                    "over": crossed,
                    "ok": ok,
                    "limits": {"tokens": max_tokens, "usd": max_usd},
                    "verify": drift.as_dict(),
                }
            )
        )
    else:
        for line in drift.lines(lang):
            print(line)
        print(receipt.gate_line(figures, crossed, said, lang))
    return ExitCode.OK if ok else ExitCode.DRIFT
