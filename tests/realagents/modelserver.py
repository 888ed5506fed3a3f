"""A scripted model server for the real agent CLIs (stdlib only, 127.0.0.1, an ephemeral port).

It speaks Anthropic Messages (``/v1/messages``, streaming SSE, ``count_tokens``), OpenAI
Responses (``/v1/responses``) and Chat Completions (``/v1/chat/completions``), and Gemini
(``:generateContent`` / ``:streamGenerateContent``). Each test scripts the turns the model
gives (text, a tool call, the usage figures that set the agent's context fill) and reads back
every request body: what the model was told, and that a blocked prompt sent nothing.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from dataclasses import dataclass
from dataclasses import field
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from typing import Any


@dataclass
class Turn:
    """One scripted model answer: ``text`` or a ``tool`` call (name, arguments), with the
    context it reports (``used`` input tokens, ``cached`` of them read from the cache) and
    ``out`` output tokens."""

    text: str = "done"
    tool: tuple[str, dict[str, Any]] | None = None
    used: int = 1_000
    out: int = 10
    cached: int = 0


@dataclass
class Request:
    api: str  # anthropic, responses, chat, gemini, count
    path: str
    body: dict[str, Any]
    main: bool  # a turn of the conversation (not a title, summary or token count)

    @property
    def text(self) -> str:
        """The whole request body as text: what the model was told, in any API's shape."""
        return json.dumps(self.body, ensure_ascii=False)


@dataclass
class ModelServer:
    turns: list[Turn] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    summary: str = "Summary: the work so far."
    summary_used: int = 3_000
    idle: Turn = field(default_factory=Turn)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ids: Any = field(default_factory=itertools.count)

    def __post_init__(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # model lists and probes: an empty list
                self._json({"data": [], "models": [], "object": "list"})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                server._answer(self, body if isinstance(body, dict) else {})

            def _json(self, data: Any) -> None:
                payload = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._handler = Handler
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def script(self, *turns: Turn) -> None:
        with self._lock:
            self.turns.extend(turns)

    def main_requests(self) -> list[Request]:
        return [r for r in self.requests if r.main]

    def told(self, text: str) -> list[Request]:
        """The requests whose body holds ``text`` (as the API carried it)."""
        return [r for r in self.requests if text in r.text]

    # ---- dispatch ---------------------------------------------------------------------------
    def _answer(self, handler: Any, body: dict[str, Any]) -> None:
        path = handler.path
        if path.split("?")[0].endswith("/count_tokens"):
            self._log("count", path, body, False)
            handler._json({"input_tokens": 100})
            return
        api = (
            "anthropic"
            if "/messages" in path
            else "responses"
            if path.split("?")[0].endswith("/responses")
            else "chat"
            if "/chat/completions" in path
            else "gemini"
            if "generatecontent" in path.lower()
            else ""
        )
        if "countTokens" in path:
            self._log("count", path, body, False)
            handler._json({"totalTokens": 100})
            return
        main = self._is_main(api, body)
        turn = self._next(main, api, body)
        self._log(api, path, body, main)
        stream = bool(body.get("stream")) or "streamGenerateContent" in path
        writer = getattr(self, f"_{api}", None)
        if writer is None:
            handler._json({})
            return
        events = writer(turn, body)
        if not stream:
            handler._json(self._whole(api, events))
            return
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Connection", "close")
        handler.end_headers()
        for name, data in events:
            chunk = (f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n"
            handler.wfile.write(chunk.encode())
        if api == "chat":
            handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()
        handler.close_connection = True

    def _log(self, api: str, path: str, body: dict[str, Any], main: bool) -> None:
        with self._lock:
            self.requests.append(Request(api, path, body, main))

    def _is_main(self, api: str, body: dict[str, Any]) -> bool:
        """A conversation turn carries the agent's tools; a title, a summary or a router call
        does not (or asks for JSON)."""
        if _asks_summary(body):
            return False
        if api == "gemini":
            config = body.get("generationConfig") or {}
            return bool(body.get("tools")) and "responseMimeType" not in config
        return bool(body.get("tools"))

    def _next(self, main: bool, api: str, body: dict[str, Any]) -> Turn:
        with self._lock:
            if main and self.turns:
                turn = self.turns.pop(0)
                self.idle = Turn(used=turn.used, cached=turn.cached)
                return turn
            if main:
                return self.idle
        if _asks_summary(body):
            return Turn(text=self._summary_text(api, body), used=self.summary_used)
        if api == "gemini" and "responseMimeType" in (body.get("generationConfig") or {}):
            return Turn(text=json.dumps({"reasoning": "simple", "model_choice": "flash"}), used=50)
        return Turn(text="Title", used=50)

    def _summary_text(self, api: str, body: dict[str, Any]) -> str:
        if "state_snapshot" in json.dumps(body):
            return f"<state_snapshot>{self.summary}</state_snapshot>"
        return self.summary

    def _id(self, prefix: str) -> str:
        return f"{prefix}_{next(self._ids)}"

    # ---- Anthropic Messages -----------------------------------------------------------------
    def _anthropic(self, turn: Turn, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        usage = {
            "input_tokens": turn.used - turn.cached,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": turn.cached,
            "output_tokens": 1,
        }
        message = {
            "id": self._id("msg"),
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude"),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        events: list[tuple[str, dict[str, Any]]] = [
            ("message_start", {"type": "message_start", "message": message})
        ]
        if turn.tool is None:
            block: dict[str, Any] = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": turn.text}
        else:
            block = {"type": "tool_use", "id": self._id("toolu"), "name": turn.tool[0], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(turn.tool[1])}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": block},
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {
                        "stop_reason": "tool_use" if turn.tool else "end_turn",
                        "stop_sequence": None,
                    },
                    "usage": {"output_tokens": turn.out},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        return events

    # ---- OpenAI Responses -------------------------------------------------------------------
    def _responses(self, turn: Turn, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        rid = self._id("resp")
        if turn.tool is None:
            item: dict[str, Any] = {
                "type": "message",
                "role": "assistant",
                "id": self._id("msg"),
                "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        else:
            item = {
                "type": "function_call",
                "id": self._id("fc"),
                "call_id": self._id("call"),
                "name": turn.tool[0],
                "arguments": json.dumps(turn.tool[1]),
                "status": "completed",
            }
        usage = {
            "input_tokens": turn.used,
            "input_tokens_details": {"cached_tokens": turn.cached},
            "output_tokens": turn.out,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": turn.used + turn.out,
        }
        base = {"id": rid, "object": "response", "model": body.get("model", "gpt"), "created_at": 0}
        events: list[tuple[str, dict[str, Any]]] = [
            (
                "response.created",
                {
                    "type": "response.created",
                    "response": {**base, "status": "in_progress", "output": []},
                },
            ),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
        ]
        if turn.tool is None:
            events.append(
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": turn.text,
                    },
                )
            )
        events += [
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": {**base, "status": "completed", "output": [item], "usage": usage},
                },
            ),
        ]
        return events

    # ---- OpenAI Chat Completions ------------------------------------------------------------
    def _chat(self, turn: Turn, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        cid, model = self._id("chatcmpl"), body.get("model", "gpt")

        def chunk(choices: list[Any], **extra: Any) -> tuple[str, dict[str, Any]]:
            return "", {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": 0,
                "model": model,
                "choices": choices,
                **extra,
            }

        if turn.tool is None:
            delta: dict[str, Any] = {"role": "assistant", "content": turn.text}
            finish = "stop"
        else:
            call = {
                "index": 0,
                "id": self._id("call"),
                "type": "function",
                "function": {"name": turn.tool[0], "arguments": json.dumps(turn.tool[1])},
            }
            delta, finish = (
                {"role": "assistant", "content": None, "tool_calls": [call]},
                "tool_calls",
            )
        usage = {
            "prompt_tokens": turn.used,
            "completion_tokens": turn.out,
            "total_tokens": turn.used + turn.out,
            "prompt_tokens_details": {"cached_tokens": turn.cached},
        }
        return [
            chunk([{"index": 0, "delta": delta, "finish_reason": None}]),
            chunk([{"index": 0, "delta": {}, "finish_reason": finish}]),
            chunk([], usage=usage),
        ]

    # ---- Gemini -----------------------------------------------------------------------------
    def _gemini(self, turn: Turn, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        if turn.tool is None:
            part: dict[str, Any] = {"text": turn.text}
        else:
            part = {"functionCall": {"name": turn.tool[0], "args": turn.tool[1]}}
        usage = {
            "promptTokenCount": turn.used,
            "candidatesTokenCount": turn.out,
            "totalTokenCount": turn.used + turn.out,
            "cachedContentTokenCount": turn.cached,
        }
        return [
            (
                "",
                {
                    "candidates": [
                        {
                            "content": {"role": "model", "parts": [part]},
                            "finishReason": "STOP",
                            "index": 0,
                        }
                    ],
                    "usageMetadata": usage,
                    "modelVersion": "gemini-2.5-pro",
                },
            )
        ]

    def _whole(self, api: str, events: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        """The non-streaming answer: the same turn as one JSON document."""
        if api == "gemini":
            return events[-1][1]
        if api == "responses":
            return dict(events[-1][1]["response"])
        if api == "chat":
            first, last = events[0][1], events[-1][1]
            delta = first["choices"][0]["delta"]
            finish = events[1][1]["choices"][0]["finish_reason"]
            message = {
                "role": "assistant",
                "content": delta.get("content"),
                **({"tool_calls": delta["tool_calls"]} if "tool_calls" in delta else {}),
            }
            return {
                **first,
                "object": "chat.completion",
                "usage": last["usage"],
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            }
        message = dict(events[0][1]["message"])
        start, delta = events[1][1]["content_block"], events[2][1]["delta"]
        block = dict(start)
        if block["type"] == "text":
            block["text"] = delta["text"]
        else:
            block["input"] = json.loads(delta["partial_json"])
        message.update(content=[block], stop_reason=events[4][1]["delta"]["stop_reason"])
        message["usage"] = {
            **message["usage"],
            "output_tokens": events[4][1]["usage"]["output_tokens"],
        }
        return message


def _asks_summary(body: dict[str, Any]) -> bool:
    """A compaction's summary request: the last user message asks for a summary."""
    last = _last_user_text(body)
    return bool(re.search(r"provide your summary|state_snapshot|summari[sz]e th", last, re.I))


def _last_user_text(body: dict[str, Any]) -> str:
    for key in ("messages", "input", "contents"):
        items = body.get(key)
        if isinstance(items, list) and items:
            return json.dumps(items[-1])[-6000:]
    return ""
