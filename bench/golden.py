"""Pin the exact token counts of the golden texts, for the estimator's regression test.

    python bench/golden.py

The golden texts (``tests/estimate/golden/*.txt``) are written by this project: code in several
languages, prose in several scripts, and adversarial runs (newlines, spaces, tabs, digits,
emoji, zero-width joiners, rare scripts). A file ``NAME.EXT.txt`` stands for a file
``NAME.EXT`` (its kind matters to the byte-count tier). This writes their counts under the
real tokenizers to ``tests/estimate/golden/counts.json``; ``tests/estimate/test_golden.py`` checks the
estimator against them offline. Needs quicktok-v1 (the ``bench`` extra).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "estimate" / "golden"
TOKENIZERS = {"o200k": "o200k_base", "cl100k": "cl100k_base", "llama3": "llama3", "qwen3": "qwen3"}


def main() -> int:
    import quicktok

    encoders = {p: quicktok.get_encoding(name) for p, name in TOKENIZERS.items()}
    counts = {}
    for path in sorted(GOLDEN.glob("*.txt")):
        text = path.read_bytes().decode("utf-8")
        counts[path.name] = {p: len(enc.encode_ordinary(text)) for p, enc in encoders.items()}
    target = GOLDEN / "counts.json"
    target.write_text(json.dumps(counts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(counts)} texts' counts to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
