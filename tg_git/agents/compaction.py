"""What an agent says about its own compaction: Claude Code's figure for the context after it
(``compactMetadata.postTokens`` of the transcript's ``compact_boundary`` line), read from the
end of the transcript; only that count is kept. Claude Code 2.1.332 writes that line after its
SessionStart ``compact`` and PostCompact hooks have run: the next hook reads it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tg_git.agents import protocol

TAIL = 4 << 20  # the boundary line is among the last ones written


def post_tokens(payload: dict[str, Any]) -> int | None:
    """The fill Claude Code reports right after its newest compaction, or None (no transcript,
    no boundary line yet, not a regular file)."""
    transcript = protocol.usable_text(payload.get("transcript_path"))
    if not transcript or Path(transcript).suffix != ".jsonl":
        return None
    try:
        if not Path(transcript).is_file():  # not a FIFO, a device or a folder
            return None
        with open(transcript, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - TAIL))
            tail = fh.read(TAIL)
    except OSError:
        return None
    for line in reversed(tail.splitlines()):
        if b'"compact_boundary"' not in line:
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError):
            continue
        meta = data.get("compactMetadata") if isinstance(data, dict) else None
        if isinstance(meta, dict):
            return protocol.token_count(meta.get("postTokens"))
    return None
