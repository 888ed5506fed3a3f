"""Estimator accuracy on the calibration corpus: both tiers, per script, file kind and repository.

    python bench/accuracy.py [CORPUS] [--sample N] [--no-loro] [--readme]

Scores records with at least 50 true tokens (tiny hunks say little). For each profile:

- the vocabulary tier (profiles with a shipped vocabulary; nothing is fitted, so these are
  out-of-sample figures): median |error|, share within ±5 %, error of the total, and the
  worst group bias among groups of >= 5 records;
- the byte-count tier, **leave-one-repository-out**: each repository is estimated with
  weights refitted (``bench/fit.py``'s fit) on the other fifteen, which predicts accuracy on
  a user's repository; beside it the shipped weights in-sample;
- per group (script family of the text, file kind, repository): count, median |error| and
  mean bias of each tier.

``--readme`` rewrites the table between the ``accuracy:start``/``accuracy:end`` markers of
docs/counting.md (the README links it) from these figures (so it is never written by hand). Needs numpy and scipy for the
leave-one-repository-out fit (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._corpus import TOKENIZERS, load
from tg_git.estimate.estimator import file_kind, fitted_estimate
from tg_git.estimate.vocab import VERSIONS

MIN_TOKENS = 50
MIN_GROUP = 5
README = Path(__file__).resolve().parents[1] / "docs" / "counting.md"  # linked from README.md

# Script families, by code point range (letters of other scripts count as "other").
_FAMILIES = (
    ("Cyrillic", 0x0400, 0x052F),
    ("Greek", 0x0370, 0x03FF),
    ("Greek", 0x1F00, 0x1FFF),
    ("Arabic/Hebrew", 0x0590, 0x08FF),
    ("Arabic/Hebrew", 0xFB1D, 0xFDFF),
    ("Arabic/Hebrew", 0xFE70, 0xFEFF),
    ("Indic", 0x0900, 0x0DFF),
    ("Thai/Lao", 0x0E00, 0x0EFF),
    ("Hangul", 0x1100, 0x11FF),
    ("Hangul", 0x3130, 0x318F),
    ("Hangul", 0xAC00, 0xD7AF),
    ("kana", 0x3040, 0x30FF),
    ("CJK", 0x3400, 0x4DBF),
    ("CJK", 0x4E00, 0x9FFF),
    ("CJK", 0xF900, 0xFAFF),
    ("CJK", 0x20000, 0x3FFFF),
)


def script(text: str) -> str:
    """The text's script family: the non-Latin family with the most letters when it has at
    least a fifth of all letters (Japanese when kana are mixed into CJK), else Latin."""
    counts: dict[str, int] = defaultdict(int)
    letters = 0
    for ch in text:
        if not ch.isalpha():
            continue
        letters += 1
        code = ord(ch)
        if code < 0x370:
            continue
        for name, lo, hi in _FAMILIES:
            if lo <= code <= hi:
                counts[name] += 1
                break
        else:
            counts["other"] += 1
    if counts.get("kana", 0) >= 0.05 * letters:
        return "Japanese (kana+CJK)"
    best = max(counts, key=counts.__getitem__, default=None)
    if best is None or counts[best] < 0.2 * letters:
        return "Latin"
    return best


def stats(pairs: list[tuple[float, float]]) -> tuple[float, float, float, float, float]:
    """median |error| %, share within ±5 %, total error %, mean bias %, share within ±15 %."""
    errors = [(est - true) / true for est, true in pairs]
    median = statistics.median(abs(e) for e in errors) * 100
    within5 = sum(abs(e) <= 0.05 for e in errors) / len(errors) * 100
    within15 = sum(abs(e) <= 0.15 for e in errors) / len(errors) * 100
    total = (sum(p[0] for p in pairs) / sum(p[1] for p in pairs) - 1) * 100
    return median, within5, total, statistics.fmean(errors) * 100, within15


def loro_fitted(records: list[dict[str, Any]], key: str) -> list[float]:
    """Leave-one-repository-out estimates of the byte-count tier."""
    import numpy as np

    import bench.fit
    from bench.fit import CANDIDATES, NAMES, fit, predict

    bench.fit.ROUNDS = 8  # as `bench/fit.py --quick`, which wrote the shipped weights
    from tg_git.estimate.estimator import features

    x = np.array([features(r["text"], CANDIDATES) for r in records], dtype=float)
    y = np.array([r["tokens"][key] for r in records], dtype=float)
    kinds = np.array([file_kind(r["path"]) for r in records])
    repos = np.array([r["repo"] for r in records])
    out = np.zeros(len(records))
    for repo in sorted(set(repos)):
        held = repos == repo
        coef, scale = fit(x[~held], y[~held], kinds[~held], NAMES)
        out[held] = np.ceil(predict(x[held], kinds[held], coef, scale))
    return [float(v) for v in out]


def table(rows: Iterable[list[str]], header: list[str]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--sample", type=int, default=1, help="score every Nth record only")
    parser.add_argument("--no-loro", action="store_true", help="skip the refits (fast)")
    parser.add_argument("--profiles", default=",".join(TOKENIZERS))
    parser.add_argument(
        "--readme", action="store_true", help="rewrite the table in docs/counting.md"
    )
    args = parser.parse_args()
    records = load(args.corpus)[:: args.sample]
    for r in records:
        r["script"], r["kind"] = script(r["text"]), file_kind(r["path"])
    summary: list[list[str]] = []
    report: list[str] = [f"{len(records)} records; scoring those with >= {MIN_TOKENS} true tokens"]
    for profile in args.profiles.split(","):
        key = TOKENIZERS[profile]
        scored = [r for r in records if r["tokens"][key] >= MIN_TOKENS]
        truth = [float(r["tokens"][key]) for r in scored]
        tiers: dict[str, list[float]] = {}
        if profile in VERSIONS:
            from tg_git.estimate.vocab.table import load as load_vocab

            vocab = load_vocab(profile)
            tiers["vocab"] = [float(vocab.count(r["text"])) for r in scored]
        if not args.no_loro:
            tiers["fit LORO"] = loro_fitted(scored, key)
        tiers["fit shipped"] = [
            float(fitted_estimate(r["text"], r["path"], profile)) for r in scored
        ]
        report += ["", f"## {profile} ({key}), {len(scored)} records", ""]
        report += table(
            (
                [
                    name,
                    *(f"{v:.2f}" for v in stats(list(zip(est, truth)))[:3]),
                    f"{stats(list(zip(est, truth)))[4]:.1f}",
                    worst(scored, est, truth),
                ]
                for name, est in tiers.items()
            ),
            [
                "tier",
                "median abs err %",
                "within ±5 %",
                "total %",
                "within ±15 %",
                "worst group bias (n >= 5)",
            ],
        )
        for name, est in tiers.items():
            m, w5, tot, _, w15 = stats(list(zip(est, truth)))
            summary.append(
                [
                    profile,
                    name,
                    f"{m:.2f} %",
                    f"{w5:.1f} %",
                    f"{w15:.1f} %",
                    f"{tot:+.2f} %",
                    worst(scored, est, truth),
                ]
            )
        for field in ("script", "kind", "repo"):
            rows = []
            for group, idx in sorted(groups(scored, field).items()):
                cells = [group, str(len(idx))]
                for est in tiers.values():
                    m, _, _, bias, _ = stats([(est[i], truth[i]) for i in idx])
                    cells += [f"{m:.2f}", f"{bias:+.2f}"]
                rows.append(cells)
            header = [field, "n"] + [f"{t} {s}" for t in tiers for s in ("med%", "bias%")]
            report += ["", *table(rows, header)]
    print("\n".join(report))
    if args.readme:
        write_readme(summary, len(records))
    return 0


def groups(scored: list[dict[str, Any]], field: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(scored):
        out[r[field]].append(i)
    return out


def worst(scored: list[dict[str, Any]], est: list[float], truth: list[float]) -> str:
    """The group (script, kind or repository with >= 5 records) biased furthest from 0."""
    found: tuple[float, str] = (0.0, "-")
    for field in ("script", "kind", "repo"):
        for group, idx in groups(scored, field).items():
            if len(idx) >= MIN_GROUP:
                bias = stats([(est[i], truth[i]) for i in idx])[3]
                if abs(bias) > abs(found[0]):
                    found = (bias, f"{group} {bias:+.1f} %")
    return found[1]


def write_readme(summary: list[list[str]], n: int) -> None:
    text = README.read_text(encoding="utf-8")
    lines = [
        "<!-- accuracy:start (generated by bench/accuracy.py --readme; do not edit) -->",
        f"Corpus: {n} records from 16 repositories, ~40 natural languages; records of >= 50 tokens.",
        "",
        *table(
            summary,
            [
                "profile",
                "tier",
                "median abs err",
                "within ±5 %",
                "within ±15 %",
                "total",
                "worst group bias",
            ],
        ),
        "<!-- accuracy:end -->",
    ]
    block = "\n".join(lines)
    pattern = re.compile(r"<!-- accuracy:start.*?<!-- accuracy:end -->", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text)
    else:
        text = text.rstrip("\n") + "\n\n## Estimator accuracy\n\n" + block + "\n"
    README.write_text(text, encoding="utf-8")
    print(f"wrote the accuracy table to {README}")


if __name__ == "__main__":
    raise SystemExit(main())
