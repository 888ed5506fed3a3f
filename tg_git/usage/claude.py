"""Claude Code transcripts (``projects/<encoded cwd>/<session>.jsonl``): assistant lines.

Streaming writes several lines per response with the same ``message.id`` + ``requestId``
and growing ``output_tokens``: their ``key`` lets the importer count each once (largest
copy). ``<synthetic>`` lines are not API calls. Sidechain (subagent) requests spend tokens
but do not fill the main context, so their ``fill`` is None.
"""

from __future__ import annotations

from typing import Any

from tg_git.usage.records import Batch, Count, counts, ident, model_name, timestamp

NEEDLE = b'"usage"'  # lines without it cannot hold a count: not parsed at all
_NAMES = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")


def parse(data: bytes, state: dict[str, Any], sidechain: bool = False) -> Batch:
    """Counts of the complete lines in ``data``; ``sidechain`` marks a subagent's file."""
    batch = Batch.of_lines(data, (NEEDLE,), _record, sidechain)
    batch.records = _merged(batch.records)
    return batch


def _merged(records: list[Count]) -> list[Count]:
    """Streaming copies of one request, one after another with the same time, model and
    session, as one Count with the largest of each count: what the importer makes of them
    one at a time (it counts the first and then what each copy grew), for a third of its
    work. Copies apart (another request between, another second) stay apart."""
    out: list[Count] = []
    prev: Count | None = None
    for rec in records:
        if (
            prev is None
            or rec.key is None
            or rec.key != prev.key
            or rec.at != prev.at
            or rec.model != prev.model
            or rec.session != prev.session
            or (rec.fill is None) != (prev.fill is None)
        ):
            out.append(rec)
            prev = rec
            continue
        fresh, write = max(prev[3], rec[3]), max(prev[4], rec[4])  # by position, see _record
        read, out_ = max(prev[5], rec[5]), max(prev[6], rec[6])
        fill = None if prev.fill is None else fresh + write + read + out_
        prev = out[-1] = Count(
            "claude", prev.model, prev.at, fresh, write, read, out_, fill, 0, prev.key, prev.session
        )
    return out


def _record(obj: Any, sidechain: bool) -> Count | None:
    """A Count, or None for a line that is not an API call; ``BadLine`` for a broken one."""
    if not isinstance(obj, dict) or obj.get("type") != "assistant":
        return None
    message = obj.get("message")
    if not isinstance(message, dict):
        return None
    usage = message.get("usage")
    if not isinstance(usage, dict):
        return None
    if message.get("model") == "<synthetic>":
        return None
    fresh, write, read, out = counts(usage, _NAMES)
    side = sidechain or obj.get("isSidechain") is True
    msg_id, req_id = ident(message.get("id")), ident(obj.get("requestId"))
    return Count(  # by position: a NamedTuple called by keyword costs 2.5x (once a request)
        "claude",  # agent
        model_name(message.get("model")),  # model
        timestamp(obj.get("timestamp")),  # at
        fresh,  # fresh_input
        write,  # cache_write
        read,  # cache_read
        out,  # output
        None if side else fresh + write + read + out,  # fill
        0,  # window
        f"{msg_id}:{req_id}" if msg_id and req_id else None,  # key
        ident(obj.get("sessionId")),  # session
    )
