"""Fit the estimator's profiles on the calibration corpus and write tg_git/estimate/profiles.py.

    python bench/fit.py [CORPUS] [--check]

For each profile: non-negative weights over the counts of ``tg_git.estimate.estimator.features``,
fitted by iteratively reweighted least squares on the relative error (an L1 fit, which is
what the median cares about), then one factor per file kind, shrunk towards 1 when a kind
has few records. Records under 50 true tokens are left out, as the scoring rules say.
It prints a 5-fold cross-validation grouped by commit, so the figures quoted for unseen
commits are not the fit's own. Needs numpy and scipy (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import lsq_linear

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._corpus import TOKENIZERS, load
from tg_git.estimate.estimator import features, file_kind

CANDIDATES = (
    "chars", "runs:aA", "aA", "aaaaaaa", "aaaaaaaaaaaa", ".", "..", "runs:.", "0", "000", "runs:0",
    "runs:\n", "\n ", "A", "AA", "t", "K", "KK", "runs:K", "C", "runs:C", "L", "E", "S", " .",
    # script families: characters and words of each
    "G", "runs:G", "Y", "runs:Y", "H", "runs:H", "I", "runs:I", "M", "J", "runs:J", "F",
    "runs:L",
    # long runs, which vocabularies hold as few tokens (a run of newlines counts once above)
    "\n" * 16, "        ", "tt", "....", "0000000",
    # words after a space: what prose is made of, whatever punctuation follows
    " a", " A",
)  # fmt: skip
NAMES = np.array(CANDIDATES, dtype=object)
KINDS = ("code", "markup", "prose", "data")
MIN_TOKENS = 50
SHRINK = 40  # records it takes for a kind's own factor to count half


# Per-character ceilings for scripts the corpus barely has: without them one odd file (a PDF
# read as text) would teach "16 tokens per accented letter". Byte-level BPE never spends
# more than one token per UTF-8 byte: 2 for L, 3 for C/K/S, 4 for E.
CEILING = {
    **dict.fromkeys("LGYH", 2.0), **dict.fromkeys("IMSJCKF", 3.0), "E": 4.0,
}  # fmt: skip


ROUNDS = 25  # IRLS rounds; --quick uses fewer


FLOOR = {"runs:aA": 0.95}


def fit_weights(x: np.ndarray, y: np.ndarray, names, rounds: int = 0) -> np.ndarray:
    rounds = rounds or ROUNDS
    weight = 1 / y
    coef = np.zeros(x.shape[1])
    upper = np.array([CEILING.get(n, np.inf) for n in names])
    # Every run of ASCII letters is at least one token of its own in every BPE vocabulary
    # (a contraction aside): without this floor the fit spends a word's cost on the
    # punctuation around it, and plain prose ("word word word") comes out 30 % low.
    lower = np.array([FLOOR.get(n, 0.0) for n in names])
    for _ in range(rounds):
        root = np.sqrt(weight)
        coef = lsq_linear(x * root[:, None], y * root, bounds=(lower, upper)).x
        rel = np.abs(x @ coef - y) / y
        weight = 1 / y / np.maximum(rel, 0.005)
    return coef


def fit_kinds(pred: np.ndarray, y: np.ndarray, kinds: np.ndarray) -> dict[str, float]:
    scale = {}
    for kind in KINDS:
        ratio = y[kinds == kind] / pred[kinds == kind]
        n = len(ratio)
        own = float(np.median(ratio)) if n else 1.0
        scale[kind] = 1 + (own - 1) * n / (n + SHRINK)
    return scale


def fit(x, y, kinds, names) -> tuple[np.ndarray, dict[str, float]]:
    coef = fit_weights(x, y, names)
    return coef, fit_kinds(x @ coef, y, kinds)


def predict(x: np.ndarray, kinds: np.ndarray, coef: np.ndarray, scale: dict[str, float]):
    return x @ coef * np.array([scale[k] for k in kinds])


def cost(feature: str) -> float:
    """Relative time to count a feature (measured: one byte ~1, longer patterns ~4, runs ~6)."""
    if feature == "chars":
        return 0.0
    if feature.startswith("runs:"):
        return 6.0
    return 1.0 if len(feature) == 1 else 4.0


def cross_validate(xs, ys, ks, fs, active) -> np.ndarray:
    cv = np.zeros_like(ys)
    for fold in range(5):
        train = fs != fold
        c = np.zeros(xs.shape[1])
        c[active], s = fit(xs[train][:, active], ys[train], ks[train], NAMES[active])
        cv[~train] = predict(xs[~train], ks[~train], c, s)
    return cv


def prune(xs, ys, ks, fs, slack: float) -> np.ndarray:
    """Drop costly features, most costly first, while the cross-validated median error stays
    within ``slack`` points of the full model's (a budget for the whole pruning, not a step)."""
    active = np.ones(xs.shape[1], dtype=bool)
    full = score(cross_validate(xs, ys, ks, fs, active), ys)
    costly = [i for i in range(len(CANDIDATES)) if cost(CANDIDATES[i]) > 1]
    for i in sorted(costly, key=lambda i: -cost(CANDIDATES[i])):
        trial = active.copy()
        trial[i] = False
        got = score(cross_validate(xs, ys, ks, fs, trial), ys)
        if got[0] <= full[0] + slack and got[1] >= full[1] - 0.3:
            active = trial
    return active


NEGLIGIBLE = 0.003  # a feature adding under 0.3 % of all estimated tokens is not worth its count


def drop_negligible(xs, ys, ks, active) -> np.ndarray:
    """Refit without costly features that barely contribute to the total."""
    while True:
        coef = np.zeros(xs.shape[1])
        coef[active], _ = fit(xs[:, active], ys, ks, NAMES[active])
        share = (xs * coef).sum(axis=0) / (xs @ coef).sum()
        weak = [
            i
            for i in np.flatnonzero(active)
            if 0 < share[i] < NEGLIGIBLE and cost(CANDIDATES[i]) > 1
        ]
        if not weak:
            return active
        active = active.copy()
        active[min(weak, key=lambda i: share[i])] = False


def score(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    err = (pred - y) / y
    return (
        float(np.median(np.abs(err)) * 100),
        float(np.mean(np.abs(err) <= 0.15) * 100),
        float((pred.sum() / y.sum() - 1) * 100),
    )


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?")
    parser.add_argument("--check", action="store_true", help="print, do not write")
    parser.add_argument(
        "--slack", type=float, default=0.0, help="pruning: median points to trade for speed"
    )
    parser.add_argument("--extra", default="", help="more candidate features, '|'-separated")
    parser.add_argument(
        "--quick", action="store_true", help="8 IRLS rounds, keep every feature, no CV (minutes)"
    )
    args = parser.parse_args()
    global CANDIDATES, NAMES, ROUNDS
    if args.quick:
        ROUNDS = 8
    if args.extra:
        CANDIDATES = CANDIDATES + tuple(args.extra.encode().decode("unicode_escape").split("|"))
        NAMES = np.array(CANDIDATES, dtype=object)
    records = load(args.corpus)
    x = np.array([features(r["text"], CANDIDATES) for r in records], dtype=float)
    kinds = np.array([file_kind(r["path"]) for r in records])
    folds = np.array([hashlib.sha1(r["commit"].encode()).digest()[0] % 5 for r in records])
    profiles, kind_scale = {}, {}
    print(f"{'profile':8s} {'in-sample med/±15%/total':>28s} {'5-fold CV med/±15%/total':>28s}")
    for name, key in TOKENIZERS.items():
        y_all = np.array([r["tokens"][key] for r in records], dtype=float)
        keep = y_all >= MIN_TOKENS
        xs, ys, ks, fs = x[keep], y_all[keep], kinds[keep], folds[keep]
        active = prune(xs, ys, ks, fs, args.slack) if args.slack else np.ones(len(CANDIDATES), bool)
        if not args.quick:
            active = drop_negligible(xs, ys, ks, active)
        coef = np.zeros(len(CANDIDATES))
        coef[active], scale = fit(xs[:, active], ys, ks, NAMES[active])
        inside = score(predict(xs, ks, coef, scale), ys)
        out = (0.0, 0.0, 0.0) if args.quick else score(cross_validate(xs, ys, ks, fs, active), ys)
        print(
            f"{name:8s} {inside[0]:8.2f}% {inside[1]:6.1f}% {inside[2]:+6.2f}%"
            f"   {out[0]:8.2f}% {out[1]:6.1f}% {out[2]:+6.2f}%"
        )
        profiles[name] = tuple(round(float(c), 5) for c in coef)
        kind_scale[name] = {k: round(v, 4) for k, v in scale.items()}
    if args.check:
        return 0
    target = Path(__file__).resolve().parents[1] / "tg_git" / "estimate" / "profiles.py"
    lines = [
        '"""Fitted estimator profiles. Generated by bench/fit.py; do not edit by hand."""',
        "",
        "from __future__ import annotations",
        "",
        f"FEATURES: tuple[str, ...] = {CANDIDATES!r}",
        "",
        "PROFILES: dict[str, tuple[float, ...]] = {",
        *(f"    {n!r}: {w!r}," for n, w in profiles.items()),
        "}",
        "",
        "KIND_SCALE: dict[str, dict[str, float]] = {",
        *(f"    {n!r}: {s!r}," for n, s in kind_scale.items()),
        "}",
        "",
    ]
    target.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
