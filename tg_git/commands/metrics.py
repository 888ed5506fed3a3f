"""`tg-git metrics`: the ledger as Prometheus text, or sent to a Pushgateway or an OTLP/HTTP
endpoint."""

from __future__ import annotations

from tg_git.domain.layout import EXPORT_ON
from tg_git.services.startup import open_workspace
from tg_git.text import messages, term


def metrics(*, push: str | None, otlp: str | None, hook: str | None = None) -> int:
    from tg_git.report import metrics as export  # lazy: 40.5 ms

    ws = open_workspace()
    if hook is not None:  # this clone's opt-in to the push after every commit
        marker = ws.repo.git_path(EXPORT_ON)
        if hook == "on":
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text("on\n", encoding="utf-8")
        else:
            marker.unlink(missing_ok=True)
        print(messages.text(ws.config.language, f"metrics_hook_{hook}"))
        return 0
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
