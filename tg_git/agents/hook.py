"""``tg-git hook agent AGENT EVENT``: what an agent's hook runs, with the agent's JSON on stdin.

- session start: roll tg-git's session over when the agent starts a new conversation or
  ``/clear`` (or the old one hit a context halt) and hand the resume briefing to the model; a
  resumed or compacted conversation of the agent session the tg-git session serves keeps it
  (halted or not); else a one-line gauge. After a compaction the briefing comes again.
- prompt: import usage; >= warning adds the seed's warning to the model's context; at the
  halt the prompt is blocked after a save (where the agent can block a prompt).
- tool call: at a halt, landing mode (``landing.py``): only what lands work runs.
- turn end: import usage; >= force-save saves a checkpoint (once per session and level).
- before compaction: save a ``pre-compact`` checkpoint (once per session); Claude's automatic
  compaction waits for it only while a save cannot land yet, and once at most.
- a model call (Gemini AfterModel, Cursor preCompact): its token figures as a live reading.
Each agent reads its own channels (``tg_git.agents.protocol``): Claude Code, Codex and Gemini
CLI exit 2 + stderr to block and ``hookSpecificOutput.additionalContext``; Cursor, Copilot CLI
and Antigravity their own stdout JSON fields. A tool error, or a hook out of its time
(``protocol.BOUND``), prints one line on stderr and exits 1, where Claude Code and Codex go on;
Gemini CLI goes on at 0 and 1 only, Copilot CLI's tool call at 0 only: its commands turn any
other status into one they go on at (``protocol.GOES_ON``, ``docs/agent-hooks.md``). Without tg-git set up in the repository a hook does nothing."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tg_git.agents import protocol
from tg_git.agents.protocol import CLAUDE_LIKE, COMPACT_BLOCK, EVENTS, NO_PROMPT_BLOCK, Reply
from tg_git.domain.errors import NoCheckpoint, NotReady, TgGitError
from tg_git.repo import bindings, hotstate

if TYPE_CHECKING:
    from collections.abc import Callable

    from tg_git.domain.budget import Budgets
    from tg_git.domain.replay import Session
    from tg_git.repo.workspace import Workspace

BRIEFING_MAX = 10_000  # Claude Code caps hook output at 10,000 characters


def run_agent_hook(args: list[str]) -> int:
    since = hotstate.started()  # before anything the level is computed from is read
    agent = args[0] if args else ""
    if agent not in EVENTS or len(args) != 2:
        print(_text_here("agent.hook_usage"), file=sys.stderr)
        return 1

    def answer() -> int:
        payload = protocol.read_payload()
        kind = EVENTS[agent].get(args[1])  # None: an event tg-git does not handle
        return 0 if kind is None else _handle(agent, args[1], kind, payload, since).emit()

    def late(seconds: int) -> str:
        return _text_here("agent.out_of_time", agent=agent, seconds=seconds)

    return protocol.bounded(agent, answer, late)  # ``protocol.BOUND``


def failed(args: list[str], kind: str, reason: str) -> int:
    """An agent hook's error (``tg_git.main``'s one error path): one line, never blocking."""
    if kind == "interrupted":
        return 130
    if kind == "crash":  # never break the agent on a bug
        agent = args[0] if args else ""
        print(_text_here("agent.internal_error", agent=agent, error=reason), file=sys.stderr)
    else:
        print(_text_here("agent.not_blocked", error=reason), file=sys.stderr)
    return 1


def _language_here() -> str:
    """The language of the repository the hook runs in, for a line said before (or without)
    its workspace (English outside one)."""
    from tg_git.repo.configfile import language_of  # lazy: 2.2 ms

    try:
        return language_of(Path.cwd())
    except Exception:  # the error may be that the repository cannot be read at all
        return "en"


def _text_here(key: str, /, **values: object) -> str:
    from tg_git.text import messages  # lazy: 0.5 ms

    return messages.text(_language_here(), key, **values)


def _workspace(payload: dict[str, Any], tool: bool = False) -> Workspace | None:
    """The tg-git repository of the event's directory. A tool call's belongs to the one
    around a nested repository, or to the agent's project when it is outside any."""
    first = protocol.event_dir(payload)
    if not tool:
        return _initialised(first, climb=False)
    roots = payload.get("workspace_roots") or payload.get("workspacePaths")
    starts = [*(roots if isinstance(roots, list) else [])]
    starts += [os.environ.get(f"{n}_PROJECT_DIR") for n in ("CLAUDE", "GEMINI", "CURSOR")]
    starts = [s for s in starts if protocol.usable_text(s) and s != first and Path(s).is_dir()]
    for start in [first, *dict.fromkeys(starts)]:
        ws = _initialised(start, climb=True)
        if ws is not None:
            return ws
    return None


def _initialised(start: str | None, climb: bool) -> Workspace | None:
    from tg_git.services.startup import open_workspace  # lazy: 6.7 ms

    while True:
        try:
            ws = open_workspace(start, require_init=False)
        except NotReady:
            return None
        parent = ws.repo.root.parent
        if ws.initialised or not climb or parent == ws.repo.root:
            return ws if ws.initialised else None
        start = str(parent)


def _landing_place(ws: Workspace, payload: dict[str, Any]) -> Callable[[str], bool]:
    """Whether a directory a tool call runs in (the agent's own as ".") lies in this
    repository itself: not outside it, not in a repository nested in it."""
    root = ws.repo.root.resolve()
    base = Path(protocol.usable_text(payload.get("cwd")) or root)

    def inside(directory: str) -> bool:
        path = (base / directory).resolve()
        while path != root:
            if os.path.lexists(path / ".git") or path == path.parent:
                return False  # a nested repository, or outside this one
            path = path.parent
        return True

    return inside


def _handle(agent: str, event: str, kind: str, payload: dict[str, Any], since: int = 0) -> Reply:
    reply = Reply(agent, event)
    ws = _workspace(payload, tool=kind == "tool")
    if ws is None:
        return reply  # no tg-git here: do nothing
    if kind == "tool":
        _tool(ws, payload, reply, since)
    elif kind == "model":
        _model(ws, agent, payload)
    elif kind == "start":
        from tg_git.repo import journal  # lazy: 0.3 ms

        with journal.locked(ws.repo, name=journal.SESSION_START):  # one start at a time
            _start(ws, agent, payload, reply)
    elif kind == "compacted":
        _compacted(ws, agent, payload)
    elif kind == "invocation":
        _invocation(ws, agent, payload, reply)
    else:
        _turn(ws, agent, kind, payload, reply)
    return reply


def _turn(ws: Workspace, agent: str, kind: str, payload: dict[str, Any], reply: Reply) -> None:
    """A prompt, a turn's end or a compaction: import usage first, then act on the level."""
    from tg_git.agents import bridge  # lazy: 2.1 ms
    from tg_git.text import messages  # lazy: 0.5 ms

    if kind == "stop" and payload.get("fullyIdle") is False:
        return  # Antigravity: background work still runs; the turn is not over
    if kind == "compact" and not _compacts(ws, agent, payload):
        return  # Gemini CLI only checked whether to compress: nothing to save for
    if kind == "compact":
        _measure(ws, agent, payload)
    session = _import(ws, agent, payload, reply)
    if session is None:
        return
    _after_compaction(ws, agent, payload)
    if kind == "compact":
        _before_compaction(ws, session, payload, reply)
        return
    figures = bridge.budgets(ws, session)
    if kind == "prompt":
        _prompt(ws, session, figures, _brief_due(ws, agent, payload), reply)
    elif figures.level in (bridge.FORCE_SAVE, bridge.HALT):
        tag = bridge.save_at_level(ws, figures.level)
        if tag:
            reply.message(messages.text(ws.config.language, "agent.saved", tag=tag))


def _compacts(ws: Workspace, agent: str, payload: dict[str, Any]) -> bool:
    """Whether a pre-compaction hook announces a real compaction: Gemini CLI's automatic
    PreCompress comes before every model call; it compresses only past its threshold."""
    if agent != "gemini" or protocol.usable_text(payload.get("trigger")) == "manual":
        return True
    from tg_git.agents import compaction  # lazy: 0.2 ms
    from tg_git.repo import readings  # lazy: 4.8 ms

    session = ws.session()
    serving = protocol.agent_session(payload)
    if session is None or bindings.read(ws.repo).get("gemini_started") == serving:
        return False  # a new process counts its last prompt from 0 until the model answers
    live = readings.read_live(ws.repo.git_dir, session.id)
    ours = live is not None and live.agent == agent and live.agent_session == serving
    return compaction.gemini_compresses(ws.repo.root, live.used if ours and live else None)


def _prompt(ws: Workspace, session: Session, figures: Budgets, briefed: bool, reply: Reply) -> None:
    """At the halt the prompt is blocked; else the briefing a compaction owes the model
    (``briefed``) and the warning from 80 % go to its context."""
    from tg_git.agents import bridge  # lazy: 2.1 ms

    if figures.level == bridge.HALT:
        reply.block(_halt_text(ws, session, figures, reply))
        return
    parts = [_compaction_briefing(ws, session)] if briefed else []
    if figures.level != bridge.OK:
        parts.append(bridge.warning(session, ws))
    if parts:
        reply.context("\n".join(parts))


def _said(language: str, key: str, agent: str) -> str:
    """``key`` in ``agent``'s own terms where they differ (Codex has no /clear, Gemini CLI
    compresses with /compress), else as every agent reads it."""
    from tg_git.text import messages  # lazy: 0.5 ms

    own = f"{key}.{agent}"
    return messages.text(language, own if messages.has(own) else key)


def _halt_text(ws: Workspace, session: Session, figures: Budgets, reply: Reply) -> str:
    """The halt block after a save (a failed save must not lift the halt: it is said), and
    the ways out of this halt."""
    from tg_git.agents import bridge  # lazy: 2.1 ms
    from tg_git.text import messages  # lazy: 0.5 ms

    language, by = ws.config.language, figures.halted_by or "context"
    can_block = reply.agent not in NO_PROMPT_BLOCK
    try:
        tag = bridge.save_at_level(ws, bridge.HALT)  # the save prints its own line
        saved = bool(tag) or bridge.saved(ws, session, bridge.HALT)
        failed = "" if saved else messages.text(language, "agent.save_waits") + "\n"
    except TgGitError as exc:
        failed = messages.text(language, "agent.not_saved", error=exc.text(language)) + "\n"
    block = bridge.halt(ws, saved=not failed)
    if can_block:
        way = _said(language, f"agent.blocked.{by}", reply.agent)
    else:  # Copilot CLI, Antigravity: the prompt goes through; the model is told to stop
        out = _said(language, f"agent.way_out.{by}", reply.agent)
        way = messages.text(language, "agent.halted", way_out=out)
    return f"{block}\n{failed}{way}"


def _tool(ws: Workspace, payload: dict[str, Any], reply: Reply, since: int = 0) -> None:
    """Landing mode: at a halt, only what lands work runs. Lean: it runs on every tool call,
    so no transcript is read here (the prompt, the turn's end and the live readings move the
    level). The level it computed is left for the next call's shell (``hotstate``)."""
    from tg_git.agents import bridge, landing  # lazy: 3.4 ms

    seen = hotstate.watch(ws.repo, ws.current_ledger_file(), since) if since else None
    session = ws.session()
    figures = bridge.budgets(ws, session) if session is not None else None
    level = "none" if figures is None else figures.level
    if seen is not None:
        hotstate.leave(seen, None if level == bridge.HALT else level)
    if figures is None or figures.level != bridge.HALT:
        return
    call = payload.get("toolCall")
    call = call if isinstance(call, dict) else {}
    name = payload.get("tool_name", payload.get("toolName", call.get("name")))
    args = payload.get("tool_input", payload.get("toolArgs", call.get("args")))
    if isinstance(name, str) and landing.allowed(name, args, _landing_place(ws, payload)):
        return
    from tg_git.text import messages  # lazy: 0.5 ms

    language = ws.config.language
    way = _said(language, f"agent.way_out.{figures.halted_by or 'context'}", reply.agent)
    shell = isinstance(name, str) and name.lower() in landing.SHELL_TOOLS
    key = "agent.denied_shell" if shell else "agent.denied"
    reply.deny(messages.text(language, key, tool=protocol.tool_name(name), way_out=way))


def _model(ws: Workspace, agent: str, payload: dict[str, Any]) -> None:
    """Gemini AfterModel: the call's ``usageMetadata`` is the context fill now (a live
    reading; nothing on stdout, which would replace the model's response)."""
    response = payload.get("llm_response")
    usage = response.get("usageMetadata") if isinstance(response, dict) else None
    if not isinstance(usage, dict):
        return
    total = protocol.token_count(usage.get("totalTokenCount"))
    if total is None:
        parts = [
            protocol.token_count(usage.get(k)) for k in ("promptTokenCount", "candidatesTokenCount")
        ]
        total = sum(p for p in parts if p is not None) if any(parts) else None
    request = payload.get("llm_request")
    model = protocol.usable_text(request.get("model")) if isinstance(request, dict) else ""
    if total:
        _record(ws, agent, protocol.agent_session(payload), total, 0, model)
        data = bindings.read(ws.repo)
        if data.pop("gemini_started", None) is not None:  # the process has its own count now
            bindings.write(ws.repo, data)


def _measure(ws: Workspace, agent: str, payload: dict[str, Any]) -> None:
    """Cursor's preCompact carries the fill and the window: a live reading, before the save."""
    used, window = (
        protocol.token_count(payload.get("context_tokens")),
        protocol.token_count(payload.get("context_window_size")),
    )
    if used is not None:
        _record(
            ws,
            agent,
            protocol.agent_session(payload),
            used,
            window or 0,
            protocol.usable_text(payload.get("model")),
        )


def _record(
    ws: Workspace, agent: str, agent_session: str, used: int, window: int, model: str
) -> None:
    from tg_git.agents import bridge  # lazy: 2.1 ms

    bridge.record_live(ws, agent, agent_session, used, window, model)


def _before_compaction(
    ws: Workspace, session: Session, payload: dict[str, Any], reply: Reply
) -> None:
    """Save first. Claude Code's automatic compaction (the one agent whose hook may block it)
    waits only while the save cannot land yet (a merge under way), once: a save that fails, or
    a second attempt, lets it through. Never blocked for good."""
    from tg_git.agents import bridge  # lazy: 2.1 ms
    from tg_git.text import messages  # lazy: 0.5 ms

    language = ws.config.language
    try:
        tag = bridge.save_before_compaction(ws, session)
    except TgGitError as exc:
        reply.note(messages.text(language, "agent.compact_unsaved", why=exc.text(language)))
        return
    if reply.agent in COMPACT_BLOCK and bridge.budgets(ws, session).halted_by == "spend":
        reply.code = 2  # a compaction is a paid summary request: the spend halt holds
        reply.note(messages.text(language, "agent.compact_spend"))
        return
    if tag:
        reply.message(messages.text(language, "agent.saved", tag=tag))
        return
    waiting = not bridge.saved(ws, session, bridge.PRE_COMPACT)
    can_wait = reply.agent == "claude" and protocol.usable_text(payload.get("trigger")) == "auto"
    if waiting and can_wait and bindings.mark(ws.repo, "compact_waited", session.id):
        reply.code = 2
        reply.note(messages.text(language, "agent.compact_waits"))


def _import(ws: Workspace, agent: str, payload: dict[str, Any], reply: Reply) -> Session | None:
    """Import what the agent's transcript gained; the session after it."""
    state = ws.session_state()
    if agent not in (*CLAUDE_LIKE, "copilot", "opencode"):  # theirs carry no counts: estimates
        return state.session  # and live readings stay
    from tg_git.usage.importer import import_usage  # lazy: 15.4 ms

    named = {} if agent == "copilot" else payload  # Copilot writes its events at exit: read all
    transcript = protocol.usable_text(named.get("transcript_path"))
    agent_session = protocol.usable_text(named.get("session_id")) or None
    try:
        if transcript and Path(transcript).suffix in (".jsonl", ".json"):
            if not os.path.lexists(transcript):
                return state.session  # not written yet
            outcome = import_usage(
                ws, agent=agent, transcript=transcript, state=state, own_only=True
            )
        else:
            outcome = import_usage(ws, agent=agent, agent_session=agent_session, state=state)
    except TgGitError as exc:
        from tg_git.text import messages  # lazy: 0.5 ms

        error = exc.text(ws.config.language)
        reply.note(messages.text(ws.config.language, "agent.usage_not_imported", error=error))
        return state.session
    return outcome.session


def _brief_due(ws: Workspace, agent: str, payload: dict[str, Any]) -> bool:
    """Whether a compaction happened since the model was last briefed (its PostCompact) and
    no SessionStart has briefed it again: the next prompt carries the briefing."""
    bound = bindings.bound(ws.repo, agent)
    serving = protocol.agent_session(payload)
    if bound.get("brief") is not True or bound.get("agent_session") != serving:
        return False
    bindings.bind(ws.repo, agent, str(bound["agent_session"]), str(bound.get("session", "")), False)
    return True


def _compaction_briefing(ws: Workspace, session: Session, gauge: bool = True) -> str:
    """What the model gets after a compaction: the gauge (``gauge``: the fill after it is
    known; else the one before it, said so) and the checkpoint saved before it (CHECKPOINT.md),
    at most ``BRIEFING_MAX`` characters."""
    from tg_git.domain import checkpoint_text  # lazy: 7.9 ms
    from tg_git.services import resume  # lazy: 39.1 ms
    from tg_git.text import messages  # lazy: 0.5 ms

    language = ws.config.language
    head = messages.text(language, "agent.compacted", id=session.id)
    try:
        _, data, _ = resume.find_and_load(ws)
        body = checkpoint_text.markdown(data, language)
    except (NoCheckpoint, TgGitError):
        body = ""
    now = _gauge(ws, session)
    if not gauge:  # the agent has not said the fill after the compaction yet
        now += " " + messages.text(language, "agent.before_compaction")
    text = "\n".join(p for p in (head, now, body) if p)
    return text if len(text) <= BRIEFING_MAX else text[: BRIEFING_MAX - 1] + "…"


def _compacted(ws: Workspace, agent: str, payload: dict[str, Any]) -> None:
    """After a compaction (Claude Code, Codex PostCompact): the fill is the agent's own figure
    for the context after it (a live reading, so a context halt lifts in the same session),
    and the next prompt briefs the model again (PostCompact has no channel to the model),
    unless the agent's SessionStart ``compact`` (Claude Code sends it first) already did."""
    session = ws.session()
    agent_session = protocol.agent_session(payload)
    if session is None:
        return
    _lower_fill(ws, agent, payload, fallback=0)
    bound = bindings.bound(ws.repo, agent)
    briefed = bound.get("compacted") is True and bound.get("agent_session") == agent_session
    bindings.bind(ws.repo, agent, agent_session, session.id, not briefed)
    # the agent's own figure for the context comes with the next hook
    bindings.mark(ws.repo, "post_compact", agent_session)


def _after_compaction(ws: Workspace, agent: str, payload: dict[str, Any]) -> None:
    """The first hook after a compaction takes the agent's own figure for the context after it
    (Claude Code writes it to the transcript once its compaction hooks are done)."""
    from tg_git.agents import compaction  # lazy: 0.2 ms

    agent_session = protocol.agent_session(payload)
    data = bindings.read(ws.repo)
    if data.get("post_compact") != agent_session or not agent_session:
        return
    used = compaction.post_tokens(payload)
    if used is not None:
        _record(ws, agent, agent_session, used, 0, "")
        data.pop("post_compact", None)
        bindings.write(ws.repo, data)


def _lower_fill(ws: Workspace, agent: str, payload: dict[str, Any], fallback: int) -> None:
    """The fill right after a compaction, until the agent's own figure comes: what the summary
    holds (``compact_summary``, counted; no text kept), else ``fallback``."""
    from tg_git.estimate.estimator import estimate_tokens  # lazy: 1.5 ms

    summary = payload.get("compact_summary")
    used = estimate_tokens(summary) if isinstance(summary, str) else fallback
    _record(ws, agent, protocol.agent_session(payload), used, 0, "")


def _gauge(ws: Workspace, session: Session) -> str:
    from tg_git.agents import bridge  # lazy: 2.1 ms
    from tg_git.domain import levels  # lazy: 0.7 ms
    from tg_git.text import messages  # lazy: 0.5 ms

    figures = bridge.budgets(ws, session)
    context = figures.context
    limit = context.limit or session.max_tokens
    from tg_git.usage.view import source_name  # lazy: 2.6 ms

    lang = ws.config.language
    return messages.text(
        lang,
        "agent.gauge",
        used=context.used,
        max=limit,
        pct=levels.shown(context.used, limit),
        level=levels.level_name(figures.level, lang),
        source=source_name(context.source, lang),
    )


def _invocation(ws: Workspace, agent: str, payload: dict[str, Any], reply: Reply) -> None:
    """Antigravity's PreInvocation (each model call; no SessionStart): the first call of a
    conversation the session does not serve yet starts as a SessionStart would; the first
    call of each turn (``invocationNum`` 0) warns; every call at the halt says the halt."""
    from tg_git.agents import bridge  # lazy: 2.1 ms

    if bindings.bound(ws.repo, agent).get("agent_session") != protocol.agent_session(payload):
        from tg_git.repo import journal  # lazy: 0.3 ms

        with journal.locked(ws.repo, name=journal.SESSION_START):  # as any other start
            _start(ws, agent, {**payload, "source": "startup"}, reply)
        return
    session = ws.session()
    if session is None:
        return
    figures = bridge.budgets(ws, session)
    if figures.level == bridge.HALT:
        reply.block(_halt_text(ws, session, figures, reply))
    elif figures.level != bridge.OK and payload.get("invocationNum") == 0:
        reply.context(bridge.warning(session, ws))


class _Start:
    """What a SessionStart finds: the session, whether this conversation is the one it
    serves, the source (Cursor sends none: a resume; Copilot: "new"), whether it rolls over."""

    def __init__(self, ws: Workspace, agent: str, payload: dict[str, Any]) -> None:
        from tg_git.agents import bridge  # lazy: 2.1 ms

        self.agent, self.agent_session = agent, protocol.agent_session(payload)
        self.session = ws.session()
        bound = bindings.bound(ws.repo, agent)
        same = self.session is not None and bound.get("session") == self.session.id
        mine = bound.get("agent_session") == self.agent_session
        ours = same and mine
        source = protocol.usable_text(payload.get("source"))
        self.source = source or ("resume" if ours else "startup")
        figures = bridge.budgets(ws, self.session) if self.session is not None else None
        spend_halt = figures is not None and figures.halted_by == "spend"
        self.keeps = ours and self.source in ("resume", "compact")  # the same conversation
        # only `tg-git session start` (or a raised budget) lifts a spend halt
        again = self.source == "clear" or (same and not ours) or figures is None
        self.roll = self.session is None or (
            not self.keeps
            and not spend_halt
            and (again or (figures is not None and figures.halted_by == "context"))
        )
        # Claude Code sends SessionStart `compact` before PostCompact: the fill is not lowered
        self.measured = bound.get("brief") is True and mine
        self.told = False  # a plain resume's briefing, owed to this start, was handed over


def _owed(ws: Workspace, start: _Start) -> str | None:
    """The briefing a plain ``tg-git resume`` left for this clone's next session start: a new
    conversation takes it (one that rolls over is briefed anyway: it only clears it); the
    conversation the session serves, resumed or compacted, leaves it to the next start."""
    if start.keeps or start.source == "compact" or start.session is None:
        return None
    from tg_git.agents import handoff  # lazy: 7.0 ms

    return handoff.take(ws, start.session.id, brief=not start.roll)


def _start(ws: Workspace, agent: str, payload: dict[str, Any], reply: Reply) -> None:
    from tg_git.agents import bridge  # lazy: 2.1 ms

    start = _Start(ws, agent, payload)
    session, source, roll = start.session, start.source, start.roll
    parts = []
    before = session.id if session is not None else None
    if agent == "gemini":  # its compression check counts from 0 until the first answer
        bindings.mark(ws.repo, "gemini_started", start.agent_session)
    if source == "resume" and start.keeps:
        _after_compaction(ws, agent, payload)
    told = _owed(ws, start)
    if told:
        parts.append(told)
        start.told = True
    if roll:
        _, briefing = bridge.new_session(ws)
        session = ws.session()
        if briefing:
            parts.append(briefing)
    assert session is not None
    # Codex resumes after compacting (PostCompact, then SessionStart resume, then compact):
    # the briefing still owed to this conversation stays owed
    owed = start.keeps and source == "resume" and start.measured
    bindings.bind(
        ws.repo, agent, start.agent_session, session.id, owed, compacted=source == "compact"
    )
    parts += _started_parts(ws, session, start, kept=roll and session.id == before)
    reply.context("\n".join(parts))


def _started_parts(ws: Workspace, session: Session, start: _Start, kept: bool) -> list[str]:
    """The briefing after a compaction, the new or kept session, the gauge, the halt, the skill."""
    from tg_git.agents import bridge  # lazy: 2.1 ms
    from tg_git.text import messages  # lazy: 0.5 ms

    language, source, roll = ws.config.language, start.source, start.roll
    parts = []
    if source == "compact" and not roll:
        parts.append(_compaction_briefing(ws, session, gauge=start.measured))
    elif kept:  # a session nothing was spent in is taken again
        parts.append(messages.text(language, "agent.kept", id=session.id))
    elif roll:
        parts.append(messages.text(language, "agent.started", max=session.max_tokens))
    if source != "compact" or roll:
        parts.append(_gauge(ws, session))
    figures = bridge.budgets(ws, session)
    lifted = source == "compact" and not start.measured and figures.halted_by == "context"
    if figures.level == bridge.HALT and not lifted:  # a compaction is the way out of a full window
        way = _said(language, f"agent.way_out.{figures.halted_by or 'context'}", start.agent)
        parts.append(messages.text(language, "agent.still_halted", way_out=way))
    if roll or start.told:
        parts.append(messages.text(language, "agent.skill"))
    return parts
