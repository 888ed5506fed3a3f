"""``tg-git statusline``: the agent's status-line JSON on stdin in, one gauge line out.

Claude Code runs its ``statusLine`` command at session start, after every assistant message
and after ``/compact``, with the session's live figures (``context_window``, ``cost``,
``rate_limits``; shape in docs/budgets.md). This command keeps them as the live reading under
the git dir (``tg_git.repo.readings.record_live``: never a commit, never a ledger line per refresh)
and prints both budgets and the level. Antigravity's ``statusLine``/``title`` slot sends the
same ``context_window`` block; Copilot CLI's experimental status line only a percentage.

A status line must never break the agent's screen: whatever happens (no repository, no
tg-git, broken JSON, a bug), this prints at most one short line and exits 0. Data from the
input (a model name) is printed without control characters; colour follows ``NO_COLOR``.
It is a hot path (``main`` calls ``run`` before argparse): no imports it can do without.
"""

from __future__ import annotations

import os
import sys

from tg_git.agents.stdin import read_payload
from tg_git.domain import budget, levels
from tg_git.repo import gaugememo, hotstate, readings
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs every refresh a few ms
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from tg_git.domain.budget import Budget, Budgets
    from tg_git.domain.replay import Session
    from tg_git.repo.workspace import Workspace

AGENTS = ("claude", "antigravity", "copilot")
COLORS = {"ok": "\x1b[32m", "warning": "\x1b[33m", "force-save": "\x1b[35m", "halt": "\x1b[31m"}
RESET = "\x1b[0m"


class Reading:
    """What one status-line JSON says (every field optional; a bad value is as if absent)."""

    def __init__(self, data: dict[str, Any]) -> None:
        context = _table(data, "context_window")
        current = _table(context, "current_usage")
        self.session = _ident(data.get("session_id") or data.get("conversationId")
                              or data.get("sessionId"))  # fmt: skip
        self.window = _count(context.get("context_window_size"))
        self.fill = _fill(current, context, self.window)
        totals = [_count(context.get(k)) for k in ("total_input_tokens", "total_output_tokens")]
        self.spent = sum(t for t in totals if t is not None) if any(totals) else None
        self.cost = _usd(_table(data, "cost").get("total_cost_usd"))
        model = data.get("model")
        self.model = _ident(model.get("id") if isinstance(model, dict) else model)
        self.rate_limits = limits = _table(data, "rate_limits")
        self.rates = {name: _table(limits, name).get("used_percentage") for name in limits}
        self.cwd = next(
            (p for p in (_path(_table(data, "workspace").get(k)) for k in ("current_dir",
             "project_dir")) if p),
            _path(data.get("cwd")),
        )  # fmt: skip


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _count(value: Any) -> int | None:
    if type(value) is int and 0 <= value <= 10**12:
        return value
    return None


def _usd(value: Any) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    return float(value) if ok and 0 <= value < 10**9 else None


def _ident(value: Any) -> str:
    if isinstance(value, str) and 0 < len(value) <= 100 and value.isprintable():
        return value
    return ""


def _path(value: Any) -> str:
    if isinstance(value, str) and 0 < len(value) < 4096 and "\0" not in value:
        return value
    return ""


def _fill(current: dict[str, Any], context: dict[str, Any], window: int | None) -> int | None:
    """The context fill: the newest request's input (fresh + cache writes + reads, as Claude's
    ``used_percentage``); else that percentage of the window; None when neither is known
    (at session start, or right after ``/compact`` until the next request)."""
    names = (("input_tokens", "input"), ("cache_creation_input_tokens", "cache_creation"),
             ("cache_read_input_tokens", "cache_read"))  # fmt: skip
    parts = [_count(current.get(a, current.get(b))) for a, b in names]
    if any(p is not None for p in parts):
        return sum(p or 0 for p in parts)
    pct = context.get("used_percentage")
    if window and isinstance(pct, (int, float)) and not isinstance(pct, bool) and 0 <= pct <= 100:
        return int(window * pct // 100)
    return None


def _workspace(cwd: str) -> Workspace | None:
    from tg_git.domain.errors import TgGitError  # lazy: 0.7 ms
    from tg_git.services.startup import open_workspace  # lazy: 12.1 ms

    try:
        ws = open_workspace(cwd if cwd and os.path.isdir(cwd) else None, require_init=False)
    except TgGitError:
        return None
    return ws if ws.initialised else None


# ---- the fast path: a refresh without opening the workspace ---------------------------------
# The status line runs after every assistant message. Opening the workspace and reading the
# session (even from its memo) costs ~35 ms of imports and a git process; a refresh needs none
# of it when nothing but the live reading changed, or when a turn only appended its events to
# the session's journal and waiting lines: ``gaugememo`` keeps the session's figures and the
# config's limits with what they were read from, and folds a turn's new lines in. Any other
# change is the full read, which writes the memo again.
def _fast(reading: Reading, agent: str, since: int) -> tuple[Budgets, str, budget.Config] | None:
    """The gauge from the memo when what it was read from still holds (a turn's new lines
    folded in) and the live reading carries nothing into the ledger (else None: the full
    path, which writes it). The level is left for the tool-call hooks' shell (``hotstate``)."""
    found = gaugememo.locate(reading.cwd)
    cache = gaugememo.load(found[1]) if found is not None else None
    if found is None or cache is None:
        return None
    root, git_dir = found
    if os.path.lexists(os.path.join(git_dir, hotstate.SAVING)):
        return None  # a save under way, or one killed: opening the workspace finishes it
    try:
        if cache["root"] != root or cache["git_dir"] != git_dir:
            return None
        bases, rel, tails = (root, git_dir, cache["common"]), cache["rel"], cache["tails"]
        seen = hotstate.Watch(bases, rel, since)
        if cache["key"] != gaugememo.key(bases, rel, [t[0] for t in tails], cache["settled"]):
            return None
        gained = [gaugememo.added(tuple(t)) for t in tails]
        config = budget.Limits(**cache["config"])
        session = gaugememo.session_of(cache["session"])
        newest = cache["newest"]
    except (KeyError, TypeError, ValueError):
        return None
    if session is None or type(newest) is not str or None in gained:
        return None
    events = gaugememo.new_events([g[0] for g in gained if g is not None])
    folded = gaugememo.fold(session, newest, events) if events is not None else None
    if folded is None:
        return None
    session = folded[0]
    _record_live(git_dir, reading, agent, session)
    seen.own_reading()
    live = readings.read_live(git_dir, session.id)
    if budget.live_event(session, live, config) is not None:
        return None  # the reading goes into the ledger: the full path writes it
    if events:  # the memo moves on past what was folded
        marks = [g[1] for g in gained if g is not None]
        gaugememo.store(git_dir, {**cache, "session": gaugememo.plain(session),
                                  "newest": folded[1], "tails": marks})  # fmt: skip
    shown = with_windows(budget.budgets(session, config, live), session, config, live, git_dir)
    hotstate.leave(seen, None if shown.level == "halt" else shown.level)
    return shown, config.language, config


def _slow(reading: Reading, agent: str) -> tuple[Budgets, str, budget.Config] | None:
    ws = _workspace(reading.cwd)
    if ws is None:
        return None
    found = record(ws, reading, agent)
    return (found, ws.config.language, ws.config) if found is not None else None


def _record_live(git_dir: Path | str, reading: Reading, agent: str, session: budget.Figures
                 ) -> None:  # fmt: skip
    if reading.rate_limits:  # the plan's windows (no table: none to note)
        from pathlib import Path  # lazy: 5.6 ms

        from tg_git.usage import planwindows  # lazy: 6.3 ms

        planwindows.note(Path(git_dir), agent, reading.rate_limits)
    if reading.session and (reading.fill is not None or reading.window or reading.spent):
        readings.record_live(
            git_dir, agent, reading.session, used=reading.fill, window=reading.window or 0,
            cost_usd=reading.cost, spent=reading.spent, model=reading.model, session=session.id,
            estimated=session.estimated, rate_limits=reading.rates, seen=budget.seen(session),
        )  # fmt: skip
        hotstate.forget(git_dir)  # the reading may move the level: the shell asks Python


def record(ws: Workspace, reading: Reading, agent: str) -> Budgets | None:
    """Keep the reading as the live state of the current session; its budgets after it.
    When the reading changes the level the ledger alone gives, the ledger gets it as a
    ``usage`` event (so a commit judges as the gauge does): rare, never a commit."""
    rel = ws.current_ledger_file()
    taken = _taken(ws, rel) if rel is not None else None  # before the read: what it reads
    state = ws.session_state()
    session = state.session
    if session is None:
        return None
    _record_live(ws.repo.git_dir, reading, agent, session)
    live = readings.read_live(ws.repo.git_dir, session.id)
    carried = budget.live_event(session, live, ws.config)
    if carried is None and taken is not None and rel is not None:
        _remember(ws, rel, taken, state.newest, session)
    elif carried is not None:
        from tg_git.domain.errors import TgGitError  # lazy: 0.7 ms

        try:
            ws.add_event("usage", **carried)
            session = ws.session() or session
        except TgGitError:
            pass  # the live file still holds it; the next reading tries again
    found = budget.budgets(session, ws.config, live)
    return with_windows(found, session, ws.config, live, ws.repo.git_dir)


def _bases(ws: Workspace) -> tuple[str, str, str]:
    return str(ws.repo.root), str(ws.repo.git_dir), str(ws.repo.common_dir)


def _taken(ws: Workspace, rel: str) -> tuple[list[Any], list[Any], list[Any]]:
    """Before the session is read: where the two files a turn appends to end, and the key
    of everything else, as the memo keeps it with the settled files read from HEAD or not."""
    from tg_git.repo import journal, ledger  # lazy: 17 ms (pathlib, the git gateway)

    tails = [str(journal.path(ws.repo, rel)), str(ledger.held_path(ws.repo, rel))]
    marks = [gaugememo.mark(t) for t in tails]
    keys = [gaugememo.key(_bases(ws), rel, tails, settled) for settled in (False, True)]
    return marks, keys[0], keys[1]


def _remember(ws: Workspace, rel: str, taken: tuple[list[Any], list[Any], list[Any]],
              newest: str, session: Session) -> None:  # fmt: skip
    """Write the memo for the next refresh (bookkeeping: a failure only costs a full read).
    A long session whose settled files were read from HEAD keys their folders alone."""
    settled = ws._view(rel) is not None  # the read took the settled files' base
    root, git_dir, common = _bases(ws)
    gaugememo.store(git_dir, {
        "root": root, "git_dir": git_dir, "common": common, "rel": rel, "settled": settled,
        "key": taken[2] if settled else taken[1], "tails": taken[0], "newest": newest,
        "session": gaugememo.plain(session), "config": budget.limits(ws.config)._asdict(),
    })  # fmt: skip


def with_windows(found: Budgets, session: budget.Figures, config: budget.Config,
                 live: budget.Live | None, git_dir: Path | str) -> Budgets:  # fmt: skip
    """``found`` with the plan's windows when a share of one is set (else as it is)."""
    if not (config.window_5h or config.window_7d):  # as ``planwindows.wanted``: none to read
        return found
    from pathlib import Path  # lazy: 5.6 ms

    from tg_git.usage import planwindows  # lazy: 6.3 ms

    rows = planwindows.for_budgets(Path(git_dir), config)
    return found if rows is None else budget.budgets(session, config, live, rows)


def _tokens(n: int) -> str:
    """A compact count for a narrow line: 850k, 1.2M."""
    if n >= 10**6:
        return f"{n / 10**6:.1f}M".replace(".0M", "M")
    if n >= 10**4:
        return f"{n // 1000}k"
    return f"{n:,}"


def _spend_text(spend: Budget, lang: str) -> str:
    usd = f" ${spend.usd:,.2f}" if spend.usd is not None else ""
    limits = []
    if spend.limit:
        limits.append(_tokens(spend.limit))
    if spend.limit_usd:
        limits.append(f"${spend.limit_usd:,.2f}")
    of = f"/{'|'.join(limits)}" if limits else ""
    pct = f" ({int(spend.percent)}%)" if spend.percent is not None else ""
    return messages.text(lang, "statusline_spend", tokens=_tokens(spend.used), usd=usd, of=of,
                         pct=pct)  # fmt: skip


def line(found: Budgets, lang: str, color: bool, model: str = "",
         config: budget.Config | None = None) -> str:  # fmt: skip
    """The gauge: both budgets and the session's level, one line (and, given the config,
    that a hand edit of it is ignored until recorded)."""

    context = found.context
    name = levels.level_name(found.level, lang)
    if color:
        name = f"{COLORS.get(found.level, '')}{name}{RESET}"
    text = messages.text(
        lang, "statusline", used=_tokens(context.used), window=_tokens(context.limit or 0),
        pct=levels.shown(context.used, context.limit or 0), spend=_spend_text(found.spend, lang),
        level=name,
    )  # fmt: skip
    if found.windows:
        from tg_git.domain import windows  # lazy: 4.0 ms

        shown = windows.gauge(found.windows, lang)
        text += f" · {shown}" if shown else ""
    if found.halted_by:
        text += " · " + messages.text(lang, f"statusline_halt_{found.halted_by}")
    if found.unrecorded and config is not None:
        key = found.unrecorded[0]
        command = f"tg-git config set {key} {budget.shown_value(config, key)}"
        text += " · " + messages.text(lang, "statusline_unrecorded", command=command)
    clean = _shown(model, 40)
    return f"{text} · {clean}" if clean else text


def _shown(model: str, limit: int) -> str:
    """The model's name in the line: ``Reading`` keeps a printable one only (no control, no
    line break: ``term.one_line`` would change nothing but the length), at most ``limit``."""
    flat = " ".join(model.split()) if model.isprintable() else ""
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def run(args: list[str]) -> int:
    """The command: never fails loudly (exit 0, at most one line: ``failed``)."""
    since = hotstate.started()
    if args[:1] in (["-h"], ["--help"]):
        from pathlib import Path as Folder  # lazy: 5.6 ms

        from tg_git.repo.configfile import language_of  # lazy: 8.9 ms

        print(messages.text(language_of(Folder.cwd()), "help.statusline_page"))
        return 0
    agent = "claude"
    if "--agent" in args:
        i = args.index("--agent")
        agent = args[i + 1] if i + 1 < len(args) and args[i + 1] in AGENTS else "claude"
    color = "--no-color" not in args and not os.environ.get("NO_COLOR")
    color = color and os.environ.get("TERM") != "dumb"
    reading = Reading(read_payload())
    shown = _fast(reading, agent, since) or _slow(reading, agent)
    if shown is not None:  # else no tg-git here: nothing to show
        sys.stdout.write(line(shown[0], shown[1], color, reading.model, shown[2]) + "\n")
    return 0


def failed(args: list[str], kind: str, reason: str) -> int:
    """The status line's error (``tg_git.main``'s one error path): a status line must not
    break the agent's screen, so a gauge that says it knows nothing, and exit 0."""
    if kind != "interrupted":
        sys.stdout.write("tg-git 🔋 ?\n")
    return 0
