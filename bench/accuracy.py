"""Estimator accuracy on the calibration corpus, per profile, beside the seed's table and chars/4.

    python bench/accuracy.py [CORPUS]

Scores records with at least 50 true tokens (tiny hunks say little). Prints, for each
tokenizer: median |error| %, the share of records within ±15 %, and the error of the total.
Targets (issue 2): median <= 3 %, >= 95 % within ±15 %, total within ±2 %.
These are in-sample figures for the shipped weights; ``bench/fit.py --check`` prints the
5-fold cross-validated ones.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._corpus import TOKENIZERS, load
from tg_git.estimate import estimate_tokens

MIN_TOKENS = 50


def score(pairs: list[tuple[int, int]]) -> str:
    errors = [(est - true) / true for est, true in pairs]
    median = statistics.median(abs(e) for e in errors) * 100
    within = sum(abs(e) <= 0.15 for e in errors) / len(errors) * 100
    total = (sum(p[0] for p in pairs) / sum(p[1] for p in pairs) - 1) * 100
    return f"{median:7.2f}% {within:7.1f}% {total:+8.2f}%"


def main() -> int:
    records = load(sys.argv[1] if len(sys.argv) > 1 else None)
    print(f"{len(records)} records; scoring those with >= {MIN_TOKENS} true tokens\n")
    print(f"{'tokenizer':14s} {'estimator':10s} {'med|err|':>8s} {'±15%':>8s} {'total':>9s}")
    for profile, key in TOKENIZERS.items():
        scored = [r for r in records if r["tokens"][key] >= MIN_TOKENS]
        methods: dict[str, Callable[[dict[str, str]], int]] = {
            profile: lambda r, p=profile: estimate_tokens(r["text"], r["path"], p),
            "seed": lambda r: estimate_tokens(r["text"], r["path"], "seed"),
            "chars/4": lambda r: round(len(r["text"]) / 4),
        }
        for name, method in methods.items():
            pairs = [(method(r), r["tokens"][key]) for r in scored]
            print(f"{key:14s} {name:10s} {score(pairs)}")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
