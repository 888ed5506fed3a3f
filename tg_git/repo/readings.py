"""The live reading of an agent, kept per agent session in ``.git/tg-git/live.json``.

``read_live(git_dir, session_id) -> Live | None`` and ``record_live(git_dir, agent,
agent_session, used=, window=, ...)``: the status line, Cursor's preCompact and Gemini's
AfterModel report the window's fill here: local state, never a commit per refresh; the ledger
gets the measurement with the next event (``tg_git.domain.budget.live_event``).

Why a live file and not ledger events: the status line runs after every assistant message;
an event each time would stage the ledger (a git process) and grow it without end. The file
is small (at most ``MAX_READINGS`` agent sessions), rewritten atomically, and read with the
same distrust as any file an agent or a user could have written.
"""

from __future__ import annotations

import os
import stat
import time

from tg_git.domain import jsonfast, prices
from tg_git.domain.budget import Live

TYPE_CHECKING = False  # `import typing` costs every status-line refresh a few ms
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


LIVE = "tg-git/live.json"  # under the git dir of the work tree
FORMAT = 1
MAX_READINGS = 32  # agent sessions kept; the oldest reading goes first
MAX_BYTES = 256 << 10
MAX_COUNT = 10**12  # more tokens than any window or session: beyond it, hostile input
MAX_PICO = 10**9 * prices.PICO  # a billion dollars: beyond it, hostile input


# ---- the live reading ----------------------------------------------------------------------
def _count(value: Any, most: int = MAX_COUNT) -> int | None:
    if type(value) is int and 0 <= value <= most:
        return value
    return None


def _text(value: Any, size: int = 100) -> str:
    if isinstance(value, str) and len(value) <= size and value.isprintable():
        return value
    return ""


def _load(path: Path | str) -> dict[str, dict[str, Any]]:
    """The readings by ``agent/agent_session``; {} for a missing, foreign or damaged file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return {}
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = jsonfast.loads(fh.read(MAX_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return {}
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    readings = data.get("readings")
    if not isinstance(readings, dict):
        return {}
    return {k: v for k, v in readings.items() if isinstance(k, str) and _valid(v)}


def _valid(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    counts = ("used", "window", "estimated", "spent", "base", "carry")
    if any(_count(entry.get(name)) is None for name in counts):
        return False
    costs = ("cost", "cost_base", "cost_carry")
    if any(entry.get(n) is not None and _count(entry.get(n), MAX_PICO) is None for n in costs):
        return False
    texts = ("agent", "agent_session", "session", "at", "model")
    return all(isinstance(entry.get(n), str) for n in texts)


def _rates(value: Any) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    out = {}
    for name in ("five_hour", "seven_day"):
        pct = value.get(name)
        if isinstance(pct, (int, float)) and not isinstance(pct, bool) and 0 <= pct <= 100:
            out[name] = float(pct)
    return out


def _since(entry: dict[str, Any], name: str, base: str, carry: str) -> int:
    """What an agent session spent while serving the tg-git session of its entry."""
    value = entry.get(name)
    return (entry.get(carry) or 0) + (value or 0) - (entry.get(base) or 0)


def read_live(git_dir: Path | str, session_id: str | None = None) -> Live | None:
    """The live reading for ``session_id`` (every agent session's entry when None), or None.
    The fill is the newest entry's; spend and cost are summed over the entries."""
    readings = [
        e
        for e in _load(os.path.join(git_dir, LIVE)).values()
        if session_id is None or e["session"] == session_id
    ]
    if not readings:
        return None
    newest = sorted(readings, key=_order)[-1]
    costs = [e for e in readings if e.get("cost") is not None]
    cost = sum(_since(e, "cost", "cost_base", "cost_carry") for e in costs) if costs else None
    return Live(
        agent=newest["agent"],
        agent_session=newest["agent_session"],
        used=newest["used"],
        window=newest["window"],
        at=newest["at"],
        estimated=newest["estimated"],
        spent=sum(_since(e, "spent", "base", "carry") for e in readings),
        cost_pico=cost,
        model=newest["model"],
        rate_limits=_rates(newest.get("rate_limits")) or None,
        filled=newest.get("filled") is not False,
        seen=_text(newest.get("seen"), 200) if isinstance(newest.get("seen"), str) else None,
    )


def _order(entry: dict[str, Any]) -> tuple[str, int]:
    """A reading's place in time: its second, then the nanoseconds it was written at (two
    readings of one second are never tied; sorts are stable for older entries)."""
    ns = entry.get("at_ns")
    return entry["at"], ns if type(ns) is int and ns >= 0 else 0


def _carried(
    old: dict[str, Any] | None, session: str, new: int | None, names: tuple[str, ...]
) -> dict[str, int | None]:
    """A cumulative counter's entry fields (``value, base, carry``) after a new reading: a new
    tg-git session starts from what was spent until then; a counter that went down (the agent
    restarted it) keeps what it had counted: tokens spent stay spent."""
    value, base, carry = names
    if new is None:
        return {
            value: old.get(value) if old else None,
            base: old.get(base) if old else 0,
            carry: old.get(carry) if old else 0,
        }
    if old is None or old.get(value) is None:
        return {value: new, base: 0, carry: 0}
    before = old[value]
    if old["session"] != session:
        return {value: new, base: before if new >= before else 0, carry: 0}
    if new < before:
        return {value: new, base: 0, carry: (old.get(carry) or 0) + before - (old.get(base) or 0)}
    return {value: new, base: old.get(base) or 0, carry: old.get(carry) or 0}


def record_live(
    git_dir: Path | str,
    agent: str,
    agent_session: str,
    *,
    used: int | None,
    window: int = 0,
    cost_usd: float | None = None,
    spent: int | None = None,
    model: str = "",
    session: str = "",
    estimated: int = 0,
    rate_limits: dict[str, Any] | None = None,
    at: str = "",
    seen: str | None = None,
) -> bool:
    """Keep one live reading of ``agent``'s session ``agent_session``: its context fill
    ``used`` (None: not known at this reading) of ``window`` (0: unknown), its cumulative ``spent`` tokens and ``cost_usd`` (None:
    not reported), for tg-git session ``session`` whose estimate was ``estimated`` then.
    Atomic (a temporary file renamed over), bounded (``MAX_READINGS``); a value that cannot be
    true is dropped, never raised. False when nothing was written (bad input, unwritable).
    ``seen``: the ledger's newest measurement when this was read (``budget.seen``), which
    orders the two within one second."""
    filled = used is not None
    if (filled and _count(used) is None) or _count(window) is None or _count(estimated) is None:
        return False
    if spent is not None and _count(spent) is None:
        spent = None
    cost = None
    number = isinstance(cost_usd, (int, float)) and not isinstance(cost_usd, bool)
    if number and cost_usd is not None and 0 <= cost_usd < MAX_PICO // prices.PICO:
        cost = prices.to_pico(cost_usd)
    key = f"{_text(agent, 40)}/{_text(agent_session)}"
    path = os.path.join(git_dir, LIVE)
    readings = _load(path)
    old = readings.get(key)
    entry: dict[str, Any] = {
        "agent": _text(agent, 40),
        "agent_session": _text(agent_session),
        "session": _text(session),
        "at": at or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),  # as ledger.now()
        "at_ns": time.time_ns(),
        "used": used or 0,
        "filled": filled,
        "window": window,
        "estimated": estimated,
        "model": _text(model),
        "rate_limits": _rates(rate_limits),
        **_carried(old, session, spent, ("spent", "base", "carry")),
        **_carried(old, session, cost, ("cost", "cost_base", "cost_carry")),
    }
    if entry["spent"] is None:
        entry["spent"] = 0
    if seen is not None:
        entry["seen"] = _text(seen, 200)
    readings.pop(key, None)
    readings[key] = entry
    kept = sorted(readings.items(), key=lambda kv: _order(kv[1]))[-MAX_READINGS:]
    return _write(path, {"format": FORMAT, "readings": dict(kept)})


def _write(path: str, data: dict[str, Any]) -> bool:
    folder = os.path.dirname(path)
    tmp = os.path.join(folder, f".live.{os.getpid()}.{os.urandom(3).hex()}.tmp")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "x", encoding="utf-8") as fh:
            fh.write(jsonfast.dumps(data, compact=True))
        os.replace(tmp, path)
    except OSError:
        try:  # noqa: SIM105 (contextlib: ~1.5 ms of every refresh)
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True
