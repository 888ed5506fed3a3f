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

from tg_git import __version__
from tg_git.agents.stdin import read_payload
from tg_git.domain import budget, jsonfast, layout, levels
from tg_git.repo import hotstate, readings
from tg_git.text import messages

TYPE_CHECKING = False  # `import typing` costs every refresh a few ms
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from tg_git.domain.budget import Budget, Budgets
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


# ---- the fast path: a refresh with nothing new in the ledger --------------------------------
# The status line runs after every assistant message. Opening the workspace and reading the
# session (even from its memo) costs ~35 ms of imports alone; a refresh where nothing but the
# live reading changed needs none of it. ``GAUGE`` keeps the session's figures and the config's
# limits, keyed by the stat of everything the session is read from (the work tree's ledger
# files and config, the journals, the refs and the session pointer); any change there is a
# different key and so the full read, which writes the gauge file again.
GAUGE = "tg-git/gauge.json"
_DISCOVERY = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
              "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_INDEX_FILE")  # fmt: skip


def _stat(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def _entries(folder: str, depth: int = 1) -> list[Any]:
    """Name and stat of each file in ``folder`` (and ``depth`` levels down), sorted."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found: list[Any] = []
    for name in names:
        path = os.path.join(folder, name)
        found.append([name, _stat(path), _entries(path, depth - 1) if depth > 1 else None])
    return found


def _key(root: str, git_dir: str, common: str) -> list[Any]:
    """What the session's figures are read from, by stat (and HEAD by content)."""

    try:
        with open(os.path.join(git_dir, "HEAD"), "rb") as fh:
            head = fh.read(300)
    except OSError:
        head = b""
    ref = head.removeprefix(b"ref: ").strip().decode("utf-8", "replace")
    refs = [ref, f"logs/{ref}"] if ref.startswith("refs/heads/") and ".." not in ref else []
    mine = ["ORIG_HEAD", "tg-git/session", "rebase-merge/head-name", "rebase-apply/head-name"]
    shared = ["packed-refs", "refs/replace", "info/grafts", "reftable/tables.list", *refs]
    tree = [".tg-git/config.toml", ".tg-git/ledger.toml", ".tg-git/ledger"]
    return [
        __version__, head.hex(),
        [_stat(os.path.join(git_dir, p)) for p in mine],
        [_stat(os.path.join(common, p)) for p in shared],
        [_stat(os.path.join(root, p)) for p in tree],
        _entries(os.path.join(root, ".tg-git", "ledger"), depth=3),  # segments: <s>/000/01.toml
        _entries(os.path.join(git_dir, "tg-git", "held")),
        _entries(os.path.join(git_dir, "tg-git", "pending")),  # records since the last commit
        _entries(os.path.join(common, "tg-git", "journal"), depth=2),
    ]  # fmt: skip


def _locate(cwd: str) -> tuple[str, str] | None:
    """The work tree and git dir above ``cwd`` when plainly found (a ``.git`` folder, or a
    ``gitdir:`` file); None for anything else (the full path then asks git)."""
    if any(name in os.environ for name in _DISCOVERY):
        return None
    folder = os.path.realpath(cwd or os.getcwd())
    while True:
        dot_git = os.path.join(folder, ".git")
        if os.path.isdir(dot_git):
            return folder, os.path.realpath(dot_git)
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, encoding="utf-8") as fh:
                    text = fh.read(4096).strip()
            except (OSError, UnicodeDecodeError):
                return None
            if not text.startswith("gitdir: "):
                return None
            return folder, os.path.realpath(os.path.join(folder, text[len("gitdir: ") :]))
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _fast(reading: Reading, agent: str, since: int) -> tuple[Budgets, str, budget.Config] | None:
    """The gauge from ``GAUGE`` when its key still holds and the live reading does not change
    the level the ledger gives (else None: the full path, which may carry it into the ledger).
    The level is left for the tool-call hooks' shell (``hotstate``), as the hooks leave it."""
    found = _locate(reading.cwd)
    if found is None:
        return None
    root, git_dir = found
    try:
        with open(os.path.join(git_dir, GAUGE), encoding="utf-8") as fh:
            cache = jsonfast.loads(fh.read(1 << 16))
        if cache["root"] != root or cache["git_dir"] != git_dir:
            return None
        rel = layout.ledger_file(cache["session"]["id"])
        seen = hotstate.Watch((root, git_dir, cache["common"]), rel, since)
        if cache["key"] != _key(root, git_dir, cache["common"]):  # lists of str, int, None
            return None
        session = budget.Snapshot(**cache["session"])
        config = budget.Limits(**cache["config"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    _record_live(git_dir, reading, agent, session)
    seen.own_reading()
    live = readings.read_live(git_dir, session.id)
    with_live, alone = budget.budgets(session, config, live), budget.budgets(session, config)
    if (with_live.level, with_live.context.limit) != (alone.level, alone.context.limit):
        return None
    shown = with_windows(with_live, session, config, live, git_dir)
    hotstate.leave(seen, None if shown.level == "halt" else shown.level)
    return shown, config.language, config


def _remember(ws: Workspace, key: list[Any], session: budget.Figures) -> None:
    """Write ``GAUGE`` for the next refresh (bookkeeping: a failure only costs a full read)."""
    data = {"root": str(ws.repo.root), "git_dir": str(ws.repo.git_dir),
            "common": str(ws.repo.common_dir), "key": key,
            "session": budget.snapshot(session)._asdict(),
            "config": budget.limits(ws.config)._asdict()}  # fmt: skip
    path = ws.repo.git_dir / GAUGE
    tmp = path.with_name(f".gauge.{os.getpid()}.tmp")
    try:
        tmp.write_text(jsonfast.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def _slow(reading: Reading, agent: str) -> tuple[Budgets, str, budget.Config] | None:
    ws = _workspace(reading.cwd)
    if ws is None:
        return None
    key = _key(str(ws.repo.root), str(ws.repo.git_dir), str(ws.repo.common_dir))
    found = record(ws, reading, agent, key)
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


def record(ws: Workspace, reading: Reading, agent: str, key: list[Any]) -> Budgets | None:
    """Keep the reading as the live state of the current session; its budgets after it.
    When the reading changes the level the ledger alone gives, the ledger gets it as a
    ``usage`` event (so a commit judges as the gauge does): rare, never a commit."""
    state = ws.session_state()
    session = state.session
    if session is None:
        return None
    _record_live(ws.repo.git_dir, reading, agent, session)
    live = readings.read_live(ws.repo.git_dir, session.id)
    carried = budget.live_event(session, live, ws.config)
    if carried is None:
        _remember(ws, key, session)
    else:
        from tg_git.domain.errors import TgGitError  # lazy: 0.7 ms

        try:
            ws.add_event("usage", **carried)
            session = ws.session() or session
        except TgGitError:
            pass  # the live file still holds it; the next reading tries again
    found = budget.budgets(session, ws.config, live)
    return with_windows(found, session, ws.config, live, ws.repo.git_dir)


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
