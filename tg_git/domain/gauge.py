"""The texts the hooks print at each level, from a session's budgets (``tg_git.domain.budget``).

What the pre-commit hook prints (``tg_git.githooks.runner`` calls these; all return text, the
caller prints it to stderr):

- ``commit_report(session_after, config, delta=, current=, crossed=, override=)``: after a
  commit is counted. The gauge line; from the warning level on, the seed's warning block;
  when this commit first crossed the halt level (``crossed == "halt"``), that it lands and
  is saved, that the NEXT commit is refused, and how to go on; when ``override`` is true
  (``TG_GIT_ALLOW_HALT=1``), that the override was recorded in the ledger.
- ``refusal(config)``: a commit refused at the halt level: the seed's halt block and what
  to do (the staged changes are still staged).
- ``gauge_line``, ``warning_block``, ``halt_block``: the pieces.
"""

from __future__ import annotations

from tg_git.domain import budget
from tg_git.domain.budget import budgets, session_level
from tg_git.domain.levels import FORCE_SAVE, HALT, OK, level_name, shown, text
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from tg_git.domain.config import Config
    from tg_git.domain.replay import Session


def _figures(session: Session, config: Config) -> dict[str, float]:
    """The context budget's figures as the gauge and the warning print them."""
    context = budgets(session, config).context
    limit = context.limit or session.max_tokens
    return {"used": context.used, "max": limit, "pct": shown(context.used, limit)}


def gauge_line(session: Session, config: Config, delta: int) -> str:
    """The hook's gauge: the context fill against its window and the spend, each labelled
    (the seed's one figure while the estimate against ``max_tokens`` is all there is)."""
    found = budgets(session, config)
    lang = config.language
    level = level_name(found.level, lang)
    context, spend = found.context, found.spend
    only_estimate = context.window_from == "max_tokens" and not spend.used and not spend.limit
    if only_estimate and spend.limit_usd is None:
        return messages.text(lang, "gauge", **_figures(session, config), level=level, delta=delta)
    origin = ""
    if context.window_from != "max_tokens":
        origin = messages.text(lang, "gauge_origin", window_from=window_from(context, lang))
    return messages.text(
        lang,
        "gauge_both",
        **_figures(session, config),
        origin=origin,
        spent=spend.used,
        usd=f" ${spend.usd:,.2f}" if spend.usd is not None else "",
        of=spend_of(spend),
        level=level,
        delta=delta,
    )


def window_from(context: budget.Budget, language: str) -> str:
    """Where the context window came from, as a reader of ``language`` says it."""
    return messages.text(language, f"window_from.{context.window_from or 'max_tokens'}")


def spend_of(spend: budget.Budget) -> str:
    """The spend budget's limits and percentage (``/40,000 · $20.00 (51%)``), "" when off."""
    limits = [f"{spend.limit:,}" for _ in (1,) if spend.limit]
    limits += [f"${spend.limit_usd:,.2f}" for _ in (1,) if spend.limit_usd]
    if not limits:
        return ""
    return f"/{' · '.join(limits)} ({int(spend.percent or 0)}%)"


def unrecorded_line(found: budget.Budgets, config: Config) -> str:
    """That a hand edit of the config is ignored until recorded, with the commands that
    record it; "" when there is none."""
    if not found.unrecorded:
        return ""
    commands = " && ".join(
        f"tg-git config set {key} {budget.shown_value(config, key)}" for key in found.unrecorded
    )
    return messages.text(
        config.language, "unrecorded_edit", keys=", ".join(found.unrecorded), commands=commands
    )


def warning_block(session: Session, config: Config, current: str) -> str:
    none = text(config, "none")
    pending = ", ".join(session.titles("pending")) or none
    return messages.text(
        config.language,
        "warning",
        **_figures(session, config),
        current=current or none,
        pending=pending,
    )


def halt_block(config: Config, saved: bool = True) -> str:
    """The seed's halt block; without its "checkpoint saved" line when the save failed."""
    lines = text(config, "halt").split("\n")
    return "\n".join(lines if saved else lines[:1] + lines[2:])


def commit_report(
    session_after: Session,
    config: Config,
    *,
    delta: int,
    current: str,
    crossed: str | None,
    override: bool,
) -> str:
    """Everything the pre-commit hook prints after counting a commit (see the module doc)."""
    lang = config.language
    lvl = session_level(session_after, config)
    parts = [gauge_line(session_after, config, delta)]
    if lvl != OK:
        parts.append(warning_block(session_after, config, current))
    if crossed == HALT and not override:
        parts.append(messages.text(lang, "halt_crossed"))
    elif crossed == FORCE_SAVE:
        parts.append(messages.text(lang, "force_save_crossed"))
    if override:
        parts.append(messages.text(lang, "override_recorded"))
    edited = unrecorded_line(budgets(session_after, config), config)
    if edited:
        parts.append(edited)
    return "\n".join(parts)


def refusal(config: Config, session: Session | None = None) -> str:
    """Everything printed when a commit is refused at the halt level (and, given the
    session, that a hand edit of the config is ignored until recorded)."""
    edited = unrecorded_line(budgets(session, config), config) if session is not None else ""
    return f"{halt_block(config)}\n{text(config, 'halt_fix')}" + (f"\n{edited}" if edited else "")
