"""Transcript lines in each agent's shape, for the usage and agent-hook benchmarks."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

FILLER = "lorem ipsum dolor sit amet, consectetur adipiscing elit " * 40


def ts(seconds: float = 0) -> str:
    moment = datetime.now(timezone.utc) + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":")) + "\n"


def claude_assistant(
    n: int,
    session: str,
    *,
    fill: int,
    out: int = 120,
    copies: int = 1,
    side: bool = False,
    model: str = "claude-opus-4-6",
    text: str = FILLER,
) -> str:
    lines = []
    for copy in range(1, copies + 1):
        lines.append(
            _dump(
                {
                    "parentUuid": None,
                    "isSidechain": side,
                    "cwd": "/w",
                    "sessionId": session,
                    "version": "2.1.87",
                    "gitBranch": "main",
                    "type": "assistant",
                    "timestamp": ts(),
                    "requestId": f"req_{session}_{n}",
                    "message": {
                        "id": f"msg_{session}_{n}",
                        "type": "message",
                        "role": "assistant",
                        "model": model,
                        "content": [{"type": "text", "text": text}],
                        "usage": {
                            "input_tokens": 4,
                            "cache_creation_input_tokens": 200,
                            "cache_read_input_tokens": max(0, fill - 204 - out),
                            "output_tokens": out * copy // copies,
                        },
                    },
                }
            )
        )
    return "".join(lines)


def claude_user(text: str = FILLER) -> str:
    return _dump(
        {
            "type": "user",
            "timestamp": ts(),
            "message": {"role": "user", "content": [{"type": "tool_result", "content": text * 4}]},
        }
    )


def codex_rollout(cwd: str, totals: list[tuple[int, int, int]], session: str) -> str:
    lines = [
        {
            "timestamp": ts(),
            "type": "session_meta",
            "payload": {"id": session, "cwd": cwd, "cli_version": "0.169.0"},
        },
        {
            "timestamp": ts(),
            "type": "turn_context",
            "payload": {"model": "gpt-5.3-codex", "cwd": cwd},
        },
    ]
    lines += token_counts(totals)
    return "".join(_dump(line) for line in lines)


def token_counts(totals: list[tuple[int, int, int]], repeat: bool = True) -> list[dict[str, Any]]:
    """Codex ``token_count`` events for ``totals``, each twice with ``repeat`` (as Codex does)."""
    events: list[dict[str, Any]] = []
    previous = (0, 0, 0)
    for total in totals:
        last = tuple(t - p for t, p in zip(total, previous))
        previous = total

        def usage(v: tuple[int, ...]) -> dict[str, int]:
            return {
                "input_tokens": v[0],
                "cached_input_tokens": v[1],
                "output_tokens": v[2],
                "reasoning_output_tokens": 0,
                "total_tokens": v[0] + v[2],
            }

        event = {
            "timestamp": ts(),
            "type": "event_msg",
            "payload": {
                "type": "token_count",
                "info": {
                    "total_token_usage": usage(total),
                    "last_token_usage": usage(last),
                    "model_context_window": 272000,
                },
            },
        }
        events += [event, event] if repeat else [event]  # identical events repeat
    return events


def gemini_chat(session: str, messages: list[tuple[str, int, int, int]]) -> str:
    lines: list[Any] = [{"sessionId": session, "projectHash": "x", "startTime": ts()}]
    for mid, total_in, cached, out in messages:
        base = {
            "id": mid,
            "timestamp": ts(),
            "type": "gemini",
            "content": "…",
            "model": "gemini-3-flash-preview",
        }
        tokens = {
            "input": total_in,
            "cached": cached,
            "output": out,
            "thoughts": 11,
            "tool": 3,
            "total": total_in + out + 11 + 3,
        }
        lines += [base, {**base, "tokens": tokens}]
    return "".join(_dump(line) for line in lines)


def codex_big(cwd: str, megabytes: int, session: str = "0199-big") -> tuple[str, str]:
    """A Codex rollout of about ``megabytes`` MB as (its first lines, which name ``cwd``; the
    rest): turns of a user message, an answer and two ``token_count`` events (the same event
    twice, as Codex writes it; each turn's a millisecond later: ccusage takes events of the same
    time for copies). The rest does not depend on ``cwd``, so one copy serves every repository."""
    head = codex_rollout(cwd, [], session)
    turns: list[str] = []
    totals: list[tuple[int, int, int]] = []
    size = 0
    while size < megabytes << 20:
        n = len(totals) + 1
        totals.append((n * 50_000, n * 45_000, n * 120))
        turn = "".join(
            _dump(line)
            for line in (
                {
                    "timestamp": ts(),
                    "type": "response_item",
                    "payload": {
                        "type": "message",
                        "role": "user",
                        "content": [{"type": "input_text", "text": FILLER * 4}],
                    },
                },
                {
                    "timestamp": ts(),
                    "type": "response_item",
                    "payload": {
                        "type": "message",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": FILLER}],
                    },
                },
            )
        ) + "".join(_dump({**e, "timestamp": ts(n / 1000)}) for e in token_counts(totals[-2:])[-2:])
        turns.append(turn)
        size += len(turn)
    return head, "".join(turns)


def gemini_big(megabytes: int, session: str = "g-big") -> str:
    """A Gemini CLI chat (JSONL) of about ``megabytes`` MB: turns of a user message and an
    answer written twice, the second copy with its tokens."""
    lines = [_dump({"sessionId": session, "projectHash": "x", "startTime": ts()})]
    size, n = 0, 0
    while size < megabytes << 20:
        n += 1
        user = _dump({"id": f"u{n}", "timestamp": ts(), "type": "user", "content": FILLER * 4})
        answer = gemini_chat(session, [(f"m{n}", 30_000 + n, 25_000, 120)]).split("\n", 1)[1]
        answer = answer.replace('"content":"\\u2026"', f'"content":"{FILLER}"')
        lines += [user, answer]
        size += len(user) + len(answer)
    return "".join(lines)
