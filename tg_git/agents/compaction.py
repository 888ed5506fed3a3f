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
from tg_git.repo import regular

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


# Gemini CLI 0.61 fires PreCompress each time it *checks* (before every model call with a
# history) and compresses only when the last prompt's tokens reach ``compressionThreshold``
# (``model.compressionThreshold`` in its settings, 0.5 by default) of its token limit (1,048,576
# for every model it names).
GEMINI_LIMIT = 1_048_576
GEMINI_THRESHOLD = 0.5
SETTINGS_BYTES = 1 << 20  # a settings file longer than this reads as cut: not valid JSON


def gemini_threshold(root: Path) -> float:
    """``model.compressionThreshold`` from the project's settings, else the user's, else 0.5."""
    from tg_git.usage.discover import gemini_dir  # lazy: 0.9 ms

    for path in (root / ".gemini" / "settings.json", gemini_dir() / "settings.json"):
        try:  # a clone may track a link there: to a FIFO or /dev/zero it is not read
            data = json.loads(regular.read_bytes(str(path), limit=SETTINGS_BYTES))
        except (OSError, ValueError, UnicodeDecodeError):
            continue
        model = data.get("model") if isinstance(data, dict) else None
        value = model.get("compressionThreshold") if isinstance(model, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 1:
            return float(value)
    return GEMINI_THRESHOLD


def gemini_compresses(root: Path, fill: int | None) -> bool:
    """Whether Gemini CLI's check at this PreCompress will really compress: the fill it last
    reported (AfterModel) at or past its threshold."""
    return fill is not None and fill >= gemini_threshold(root) * GEMINI_LIMIT
