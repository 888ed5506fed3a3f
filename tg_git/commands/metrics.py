"""`tg-git metrics`: the ledger as Prometheus text, or sent to a Pushgateway or an OTLP/HTTP
endpoint."""

from __future__ import annotations

from tg_git.services.startup import open_workspace
from tg_git.text import messages, term


def metrics(*, push: str | None, otlp: str | None) -> int:
    from tg_git.report import metrics as export

    ws = open_workspace()
    data = export.collect(ws)
    if push is None and otlp is None:
        print(export.exposition(data), end="")
        return 0
    lang = ws.config.language
    if push is not None:
        n = export.push(push, data)
        print(messages.text(lang, "metrics_sent", n=n, url=term.mark_line(push)))
    if otlp is not None:
        n = export.send_otlp(otlp, data)
        print(messages.text(lang, "metrics_sent", n=n, url=term.mark_line(otlp)))
    return 0
