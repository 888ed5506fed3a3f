"""The estimator's vocabulary tier: lazy loading, no tokenizer package, ids, monotone counts."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from tg_git.estimate import estimator as estimate
from tg_git.estimate import profiles
from tg_git.estimate.estimator import VOCAB_MAX_BYTES
from tg_git.estimate.estimator import estimate_tokens
from tg_git.estimate.estimator import estimator_id
from tg_git.estimate.estimator import fitted_estimate
from tg_git.estimate.estimator import tier
from tg_git.estimate.vocab import VERSIONS
from tg_git.estimate.vocab import table
from tg_git.estimate.vocab.table import Vocabulary
from tg_git.estimate.vocab.table import class_string
from tg_git.estimate.vocab.table import load

VOCAB_PROFILES = sorted(VERSIONS)


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_importing_the_estimator_loads_no_vocabulary() -> None:
    loaded = run_python(
        "import sys, tg_git.estimate.estimator; "
        "print(sorted(m for m in sys.modules if m.startswith(('tg_git.estimate.vocab.table', 'mmap'))))"
    )
    assert loaded == "[]"


def test_a_text_loads_only_its_profile_and_no_tokenizer_package() -> None:
    loaded = run_python(
        "import sys\n"
        "from tg_git.estimate.estimator import estimate_tokens\n"
        "estimate_tokens('hello wörld 你好', 'a.md', 'cl100k')\n"
        "from tg_git.estimate.vocab import table\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('tiktoken', 'quicktok', 'regex', 'tokenizers', 'transformers')]\n"
        "print(sorted(table._LOADED), bad)"
    )
    assert loaded == "['cl100k'] []"


@pytest.mark.parametrize("profile", VOCAB_PROFILES)
def test_estimator_id_names_profile_tier_and_data_version(profile: str) -> None:
    small, big = estimator_id(profile, 100), estimator_id(profile, VOCAB_MAX_BYTES + 1)
    assert small == f"{profile}/vocab-{VERSIONS[profile]}"
    assert big.startswith(f"{profile}/fit-") and len(big) == len(profile) + 13
    assert estimator_id(profile, VOCAB_MAX_BYTES) == small
    assert tier(profile, 0) == "vocab" and tier(profile, 10**9) == "fit"


def test_estimator_id_follows_the_data(monkeypatch: pytest.MonkeyPatch) -> None:
    before = estimator_id("o200k", 10), estimator_id("claude", 10)
    # the estimator's own tables (it imports these very objects)
    monkeypatch.setitem(VERSIONS, "o200k", "00000000")
    monkeypatch.setitem(profiles.PROFILES, "claude", (0.5,) * len(profiles.FEATURES))
    monkeypatch.setattr(estimate, "_FIT_VERSIONS", {})
    after = estimator_id("o200k", 10), estimator_id("claude", 10)
    assert after[0] == "o200k/vocab-00000000" != before[0]
    assert after[1].startswith("claude/fit-") and after[1] != before[1]


def test_seed_and_profiles_without_vocabulary() -> None:
    assert estimator_id("seed") == "seed/table-1"
    assert tier("llama3", 10) == tier("claude", 10) == "fit"
    with pytest.raises(ValueError, match="unknown profile"):
        estimator_id("gpt9")


@pytest.mark.parametrize("profile", VOCAB_PROFILES)
def test_tier_switches_by_size(profile: str) -> None:
    small = "def f(x):\n    return x + 1\n" * 10
    assert estimate_tokens(small, "a.py", profile) != fitted_estimate(small, "a.py", profile)
    big = "x = 1\n" * (VOCAB_MAX_BYTES // 6 + 1)  # just over the limit
    assert estimate_tokens(big, "a.py", profile) == fitted_estimate(big, "a.py", profile)


WORDS = [
    "the",
    "con",
    "fig",
    "ured",
    "mis",
    "hello",
    "world",
    "ing",
    "tion",
    "s",
    " ",
    "  ",
    "\n",
    "\r\n",
    "\t",
    ".",
    "(",
    ")",
    "123",
    "4",
    "가",
    "한글",
    "漢字",
    "🙂",
    "é",
    "ab",
    "xyz",
    "w",
    "'",
    "'s",
    "Привет",
    "ου",
    "\u200d",
]


@pytest.mark.parametrize("profile", VOCAB_PROFILES)
def test_appending_never_counts_fewer(profile: str) -> None:
    """A tokenizer can count "worlds" fewer than "world"; the estimate must not (it would
    let more text cost less). 20,000 random appends of word fragments per profile."""
    rng = random.Random(11)
    for _ in range(20_000):
        a = "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))
        b = "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        assert estimate_tokens(a + b, None, profile) >= estimate_tokens(a, None, profile), (a, b)


def test_class_string_keeps_length_and_classes() -> None:
    text = "Hé 漢 ١٢ \u00a0\u0301x\x1c\udcff"
    classes = class_string(text)
    assert len(classes) == len(text)
    assert classes[:2] == "Hx" and classes[5] == "0" and classes[8] == "\x0c"
    assert classes[-2:] == ".."  # a control Python calls space, a lone surrogate
    assert class_string("plain") == "plain"


@pytest.mark.parametrize("profile", VOCAB_PROFILES)
def test_the_pattern_and_class_string_stay_in_latin_1(profile: str) -> None:
    """Every commit compiles a pre-tokenizer pattern: a set holding a character above U+00FF
    compiles to a 64 Ki-entry map (twice the compile), so the classes are Latin-1 ones."""
    assert max(map(ord, table._PATTERNS[profile])) < 256
    assert max(map(ord, class_string("漢字 ka\u0301 Ωμέγα ١٢ \U0001f642"))) < 256


@pytest.mark.parametrize("profile", VOCAB_PROFILES)
def test_odd_text_counts(profile: str) -> None:
    for text in ("\x00\x00", "bad \udcff bytes", "\ufeff", "a" * 5000, " " * 3000, "\r\n" * 700):
        assert estimate_tokens(text, None, profile) >= 1


def test_a_corrupt_vocabulary_is_a_clear_error() -> None:
    good = load("cl100k").data
    with pytest.raises(ValueError, match="not a vocabulary file"):
        Vocabulary("cl100k", b"junk" + bytes(good[4:100]))
    with pytest.raises(ValueError, match="truncated"):
        Vocabulary("cl100k", bytes(good[: len(good) - 10]))


class _Asked(dict[str, int]):
    """A vocabulary's piece counts that note each piece asked for."""

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__(counts)
        self.asked: list[str] = []

    def __getitem__(self, piece: str) -> int:
        self.asked.append(piece)
        return super().__getitem__(piece)


def test_a_last_piece_seen_before_is_not_cut_into_its_beginnings_again() -> None:
    # verify re-counts thousands of small changes whose last pieces repeat (a line end, a
    # closing bracket, a common word): each piece's most needing beginning is found once
    vocab = table.load("o200k")
    text = "def step(value):\n    return value * scale_factor\n"
    first = vocab.count(text)
    vocab.counts = asked = _Asked(vocab.counts)  # type: ignore[assignment]
    try:
        assert vocab.count(text) == first
        pieces = set(vocab.pattern.findall(text))
        assert set(asked.asked) <= pieces, sorted(set(asked.asked) - pieces)[:5]
    finally:
        vocab.counts = table._PieceCounts(vocab)
