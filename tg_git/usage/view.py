"""What status and ``tg-git usage`` show of measured usage: the source of `used`, the newest
measurement, and the session's spend per model and per turn (counts only)."""

from __future__ import annotations

from tg_git.domain import eventlog, replay
from tg_git.domain.config import Config
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs a command ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any

    from tg_git.domain.budget import Budget

SPEND = ("fresh_input", "cache_write", "cache_read", "output")


def apply_source(session: replay.Session, config: Config) -> replay.Session:
    """``budget.source = "estimate"`` keeps `used` the estimate even when measured."""
    session.use_measured = config.budget_source != "estimate"
    return session


def spend(session: replay.Session) -> dict[str, int]:
    return {
        "fresh_input": session.spend_fresh_input,
        "cache_write": session.spend_cache_write,
        "cache_read": session.spend_cache_read,
        "output": session.spend_output,
        "total": session.spend,
        "requests": session.spend_requests,
    }


def status_fields(session: replay.Session, config: Config) -> tuple[dict[str, Any], str]:
    """The keys ``status --json`` gains, and the line the text output gains."""
    measured = None
    if session.measured_at:
        measured = {
            "at": session.measured_at,
            "agent": session.measured_agent,
            "model": session.measured_model,
            "window": session.measured_window or None,
            "fill": session.measured_fill,
        }
    data: dict[str, Any] = {
        "source": session.source,
        "estimated": session.estimated,
        "measured": measured,
        "spend": spend(session),
    }
    lang = config.language
    detail = ""
    if measured:
        window = (
            messages.text(lang, "usage.window", window=session.measured_window)
            if session.measured_window
            else ""
        )
        detail = messages.text(
            lang,
            "usage.measured",
            at=session.measured_at,
            model=session.measured_model,
            window=window,
        )
    line = messages.text(
        lang,
        "usage.line",
        source=source_name(session.source, config.language),
        measured=detail,
        spend=session.spend,
        requests=session.spend_requests,
        **{k: v for k, v in spend(session).items() if k in SPEND},
    )
    return data, line


def spend_line(spend: Budget, session: replay.Session, lang: str) -> str:
    """The spend budget in one line (status), and once the tokens no price covers."""
    from tg_git.domain import levels  # lazy: 0.2 ms

    usd = f" · ${spend.usd:,.2f}" if spend.usd is not None else ""
    limits = [f"{spend.limit:,}" for _ in (1,) if spend.limit]
    limits += [f"${spend.limit_usd:,.2f}" for _ in (1,) if spend.limit_usd]
    if limits:
        budget = messages.text(
            lang,
            "spend_budget",
            limits=" / ".join(limits),
            pct=int(spend.percent or 0),
            level=levels.level_name(spend.level, lang),
        )
    else:
        budget = messages.text(lang, "spend_off")
    line = messages.text(lang, "spend_line", tokens=spend.used, usd=usd, budget=budget)
    if session.spend_unpriced:
        line += "\n" + messages.text(lang, "spend_unpriced", n=session.spend_unpriced)
    return line


def _usd(row: dict[str, Any]) -> float | None:
    """A row's USD by the price table (None: its model has no price)."""
    from tg_git.domain import prices  # lazy: 6.0 ms

    pico = prices.cost_pico(str(row["model"]), *(row[k] for k in SPEND))
    return prices.usd(pico) if pico is not None else None


def report(events: dict[str, eventlog.Event], session: replay.Session) -> dict[str, Any]:
    """The session's spend per model and per turn (one `usage` event = one turn's import)."""
    turns = [e for e in events.values() if e["kind"] == "usage" and e.get("session") == session.id]
    turns.sort(key=lambda e: str(e.get("at", "")))
    models: dict[tuple[str, str], dict[str, Any]] = {}
    rows: list[dict[str, Any]] = []
    for event in turns:
        numbers = {k: _n(event.get(k)) for k in (*SPEND, "requests")}
        row = {
            "at": str(event.get("at", "")),
            "agent": str(event.get("agent", "")),
            "model": str(event.get("model", "")),
            **numbers,
            "total": sum(numbers[k] for k in SPEND),
            "fill": _n(event["fill"]) if "fill" in event else None,
        }
        rows.append(row)
        entry = models.setdefault(
            (str(row["agent"]), str(row["model"])),
            {
                "agent": row["agent"],
                "model": row["model"],
                **dict.fromkeys((*SPEND, "requests", "total"), 0),
            },
        )
        for k in (*SPEND, "requests", "total"):
            entry[k] += row[k]
    for priced in [*rows, *models.values()]:
        priced["usd"] = _usd(priced)
    from tg_git.domain import prices  # lazy: 6.0 ms

    date, source = prices.about()
    return {
        "session": session.id,
        "source": session.source,
        "used": session.used,
        "max_tokens": session.max_tokens,
        "spend": spend(session),
        "usd": prices.usd(session.spend_cost_pico) if session.spend_cost_pico else None,
        "unpriced_tokens": session.spend_unpriced,
        "prices": {"date": date, "source": source},
        "models": list(models.values()),
        "turns": rows,
    }


def _n(value: Any) -> int:
    return value if type(value) is int and value >= 0 else 0


def report_text(data: dict[str, Any], config: Config) -> str:
    lang = config.language
    if not data["turns"]:
        return messages.text(lang, "usage.none")
    lines = [
        messages.text(lang, "usage.head") + " USD |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for m in data["models"]:
        usd = f"${m['usd']:,.2f}" if m["usd"] is not None else "—"
        lines.append(
            f"| {m['agent']}/{m['model']} | {m['requests']:,} | {m['fresh_input']:,} | "
            f"{m['cache_write']:,} | {m['cache_read']:,} | {m['output']:,} | {m['total']:,} "
            f"| {usd} |"
        )
    if data["unpriced_tokens"]:
        lines.append(messages.text(config.language, "spend_unpriced", n=data["unpriced_tokens"]))
    lines.append(messages.text(config.language, "prices_about", date=data["prices"]["date"]))
    lines += ["", messages.text(lang, "usage.turns")]
    for t in data["turns"][-20:]:
        fill = messages.text(lang, "usage.fill", fill=t["fill"]) if t["fill"] is not None else ""
        lines.append(messages.text(lang, "usage.turn", **{**t, "fill": fill}))
    return "\n".join(lines)


def source_name(source: str, language: str) -> str:
    """``estimated`` / ``measured`` / ``mixed`` as a reader of ``language`` says it."""
    key = "usage.measured_source" if source == "measured" else f"usage.{source}"
    return messages.text(language, key) if messages.has(key) else source
