"""Shared loader for the calibration corpus (read from ../shared/corpus, never committed)."""

from __future__ import annotations

import gzip
import json
import os
import sys
from pathlib import Path
from typing import Any

TOKENIZERS = {  # profile name -> the corpus's tokenizer key
    "o200k": "o200k_base",
    "cl100k": "cl100k_base",
    "claude": "claude_legacy",
    "llama3": "llama3",
    "qwen3": "qwen3",
}
DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "dev.jsonl.gz"


def load(path: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    corpus = Path(path or os.environ.get("TG_GIT_CORPUS") or DEFAULT)
    if not corpus.is_file():
        sys.exit(f"corpus not found at {corpus}; pass its path or set TG_GIT_CORPUS")
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]
