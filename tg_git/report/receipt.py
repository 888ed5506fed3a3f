"""A range's receipt as Markdown: sized for a pull request's comment or a CI job's summary
(``tg-git report --range A..B --format markdown``), from ``range.build``'s figures.

Every name from the repository (author, session, agent, model, tag) is one line with its
control characters shown as U+FFFD and Markdown's table and code marks escaped, so a name
cannot break the table or inject markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tg_git.text import messages, term

TOP = 10  # commits listed, the costliest first
_ESCAPE = str.maketrans({c: f"\\{c}" for c in "\\`*_[]<>|#~!"})


def name(text: object) -> str:
    """A repository's name as Markdown text: one line, no markup."""
    return term.mark_line(str(text)).translate(_ESCAPE) or "—"


def code(text: object) -> str:
    """A repository's name as a Markdown code span (a backtick cannot close it early)."""
    return "`" + term.mark_line(str(text)).replace("`", "'").replace("|", "\\|") + "`"


def usd(value: float | None, language: str, figures: Mapping[str, Any] | None = None) -> str:
    """Dollars; a dash where nothing was measured, "no price" where the models have none."""
    if value is not None:
        return f"${value:,.2f}"
    if figures is not None and not figures["measured"]["total"]:
        return "—"
    return messages.text(language, "receipt.no_price")


def _table(language: str, head: str, rows: Sequence[Sequence[str]], text: int = 1) -> list[str]:
    """A table under ``head``'s header row: its first ``text`` columns left-aligned."""
    header = messages.text(language, head)
    cells = header.count("|") - 1
    marks = ["---"] * text + ["--:"] * (cells - text)
    return [
        "",
        header,
        "|" + "|".join(marks) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def _n(value: int) -> str:
    return f"{value:,}"


def _sessions(data: Mapping[str, Any], language: str) -> list[str]:
    from tg_git.usage.view import source_name  # lazy: 3.1 ms

    rows = []
    for s in data["sessions"]:
        m, e = s["measured"], s["estimated"]
        rows.append(
            [
                code(s["session"]),
                source_name(s["source"], language),
                _n(s["tokens"]),
                _n(e["input"]),
                _n(e["output"]),
                _n(m["fresh_input"]),
                _n(m["cache_write"]),
                _n(m["cache_read"]),
                _n(m["output"]),
                usd(s["usd"], language, s),
            ]
        )
    return _table(language, "receipt.sessions", rows, 2)


def _agents(data: Mapping[str, Any], language: str) -> list[str]:
    if not data["agents"]:
        return []
    rows = [
        [
            name(a["agent"]),
            code(a["model"]),
            _n(a["measured"]["requests"]),
            _n(a["tokens"]),
            usd(a["usd"], language, a),
        ]
        for a in data["agents"]
    ]
    return _table(language, "receipt.agents", rows, 2)


def _authors(data: Mapping[str, Any], language: str) -> list[str]:
    rows = [
        [name(a["author"]), _n(a["commits"]), _n(a["tokens"]), usd(a["usd"], language, a)]
        for a in data["authors"]
    ]
    return _table(language, "receipt.authors", rows)


def _commits(data: Mapping[str, Any], language: str) -> list[str]:
    costly = sorted(data["commits"], key=lambda c: -c["tokens"])[:TOP]
    rows = [
        [code(c["commit"][:12]), name(c["author"]), _n(c["tokens"]), usd(c["usd"], language, c)]
        for c in costly
        if c["tokens"]
    ]
    return _table(language, "receipt.commits", rows, 2) if rows else []


def _events(data: Mapping[str, Any], language: str) -> list[str]:
    lines = []
    if data["saves"]:
        saves = ", ".join(code(s["tag"]) for s in data["saves"])
        lines += ["", messages.text(language, "receipt.saves", n=len(data["saves"]), saves=saves)]
    for halt in data["halts"]:
        key = "receipt.halt_override" if halt["kind"] == "override" else "receipt.halt_save"
        lines += [
            "",
            messages.text(language, key, commit=halt["commit"][:12], session=code(halt["session"])),
        ]
    return lines


def render(data: Mapping[str, Any], language: str) -> str:
    """The receipt as Markdown text."""
    t = data["totals"]
    lines = [
        messages.text(
            language,
            "receipt.title",
            range=code(data["range"]),
            project=name(data["project"]),
            tokens=t["tokens"],
            usd=usd(t["usd"], language, t),
        ),
        "",
        messages.text(
            language,
            "receipt.summary",
            commits=len(data["commits"]),
            sessions=len(data["sessions"]),
            estimated=t["estimated"]["total"],
            input=t["estimated"]["input"],
            output=t["estimated"]["output"],
            measured=t["measured"]["total"],
            requests=t["measured"]["requests"],
        ),
    ]
    if data["sessions"]:
        lines += _sessions(data, language)
    lines += _agents(data, language) + _authors(data, language) + _commits(data, language)
    lines += _events(data, language)
    return "\n".join(lines) + "\n"


def gate_line(data: Mapping[str, Any], crossed: Sequence[str], limits: str, language: str) -> str:
    """The gate's verdict on the range, with its figures."""
    t = data["totals"]
    key = "receipt.gate_over" if crossed else "receipt.gate_within"
    return messages.text(
        language,
        key,
        range=term.mark_line(data["range"]),
        tokens=t["tokens"],
        usd=usd(t["usd"], language, t),
        commits=len(data["commits"]),
        limits=limits,
    )
