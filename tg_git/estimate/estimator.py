"""Offline token estimator: two tiers, chosen per text by its size.

Vocabulary tier (``tg_git.estimate.vocab``): for the profiles whose tokenizer vocabulary ships as
package data (``o200k``, ``cl100k``, ``qwen3``), a text of at most ``VOCAB_MAX_BYTES``
UTF-8 bytes is split with the tokenizer's own pre-tokenizer pattern and each piece counted
against the vocabulary: within a fraction of a percent of the real count in any language.
The vocabulary is mapped from disk the first time a text needs it, never at import.

Byte-count tier (below): larger texts, and the profiles without a shipped vocabulary
(``claude``, ``llama3``), are estimated from character-class counts. No tokenizer ships here. Text is mapped to a string of character classes with two C-speed
``bytes.translate`` calls, then a handful of ``bytes.count`` calls measure what BPE
tokenizers react to: words (runs of letters), long words that split, camelCase joints,
punctuation, digit groups, indentation and newlines, and non-Latin scripts. Each profile
is a set of non-negative weights over those counts, fitted by ``bench/fit.py`` on real
commits, times a small factor for the file's kind (code, markup, prose, data).

Non-negative weights over counts that never shrink when text is appended make the
byte-count tier monotone: more text never estimates fewer tokens. The vocabulary tier, like
the real tokenizers, may count one token less when appended text joins the last word into
one vocabulary entry; it never drops more than that word's own count.

Exact tier (optional, ``pip install 'tg-git[exact]'``): a text past the vocabulary tier is
counted by the compiled backend instead of the byte-count tier; a smaller one never imports it
(its load, 0.6 s for o200k, costs more than the vocabulary tier at 1 MB: docs/counting.md).

A large text may be counted in pieces (``Tally``) cut where the counts add up (``safe_cut``):
the hook never holds more of a large file than one piece.

``estimator_id(profile, size)`` names the estimator that counts a text of ``size`` UTF-8
bytes: profile, tier and a version of the data, e.g. ``"o200k/vocab-a244130c"`` or
``"claude/fit-1c2d3e4f"``. The version is a hash of the shipped vocabulary file (written by
``bench/vocab.py``) or of the fitted weights (``bench/fit.py``), so it changes whenever they
do; history is re-estimated only with the estimator that counted it. The tier is chosen per
text (per file, in the hooks) by that text's own size.

This module is on the hook's hot path: it imports nothing beyond the standard library.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence

from tg_git.estimate.profiles import FEATURES, KIND_SCALE, PROFILES
from tg_git.estimate.vocab import (
    VERSIONS as _VOCAB_VERSIONS,  # a few lines: names and versions only
)

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any

    from tg_git.estimate.vocab.table import Vocabulary

DEFAULT_PROFILE = "o200k"

SEED_PROFILE = "seed"
PROFILE_NAMES: tuple[str, ...] = (*PROFILES, SEED_PROFILE)

# Texts up to this many UTF-8 bytes are counted against the vocabulary (about 1-5 MB/s in
# plain Python); larger ones by the byte-count tier (over 50 MB/s), so a 100 MB input stays
# fast. Measured with bench/speed.py: 1 MB takes about 0.3-0.8 s in the vocabulary tier.
VOCAB_MAX_BYTES = 1_000_000

# ---- character classes -------------------------------------------------------------------
# One byte per character: UTF-8 continuation bytes are deleted, lead bytes name the script.
_CONTINUATION = bytes(range(0x80, 0xC0))


def _class_table() -> bytes:
    table = bytearray(b"." * 256)  # ASCII punctuation and controls
    for lo, hi, cls in (
        (0x61, 0x7A, "a"),  # a-z
        (0x41, 0x5A, "A"),  # A-Z
        (0x30, 0x39, "0"),  # digits
        # Lead bytes name the script family (what a vocabulary spends per character):
        (0xC0, 0xCD, "L"),  # 2-byte U+0080-U+037F: Latin-1 supplement, Latin extended, marks
        (0xCE, 0xCF, "G"),  # 2-byte U+0380-U+03FF: Greek
        (0xD0, 0xD4, "Y"),  # 2-byte U+0400-U+052F: Cyrillic
        (0xD5, 0xDF, "H"),  # 2-byte U+0530-U+07FF: Armenian, Hebrew, Arabic, Syriac, Thaana
        (0xE0, 0xE0, "I"),  # 3-byte U+0800-U+0FFF: Indic scripts, Thai, Lao, Tibetan
        (0xE1, 0xE1, "M"),  # 3-byte U+1000-U+1FFF: Myanmar, Georgian, Khmer, Vietnamese Latin
        (0xE2, 0xE2, "S"),  # 3-byte U+2000-U+2FFF: typographic punctuation, arrows, box drawing
        (0xE3, 0xE3, "J"),  # 3-byte U+3000-U+3FFF: kana, CJK punctuation
        (0xE4, 0xE9, "C"),  # 3-byte U+4000-U+9FFF: CJK ideographs
        (0xEA, 0xED, "K"),  # 3-byte U+A000-U+DFFF: Hangul syllables
        (0xEE, 0xEF, "F"),  # 3-byte U+E000-U+FFFF: private use, fullwidth and compatibility forms
        (0xF0, 0xFF, "E"),  # 4-byte: emoji, rare CJK
    ):
        for byte in range(lo, hi + 1):
            table[byte] = ord(cls)
    table[0x20] = ord(" ")
    table[0x0A] = ord("\n")
    table[0x0D] = ord("\n")
    table[0x09] = ord("t")
    return bytes(table)


_CLASSES = _class_table()
_RUN_TABLES: dict[str, bytes] = {}


def _run_table(members: str) -> bytes:
    """Members of a class set against everything else, to count its runs with one count."""
    table = _RUN_TABLES.get(members)
    if table is None:
        table = bytes(ord("a") if chr(b) in members else ord("x") for b in range(256))
        _RUN_TABLES[members] = table
    return table


_NON_ASCII_CLASSES = frozenset("LGYHIMSJCKFE")


_PAIRS: dict[bytes, re.Pattern[bytes]] = {}


def _rare_runs(classes: bytes, cls: bytes) -> int | None:
    """Runs of one class that is rare in a large text (a script in code), without mapping
    the whole text again: its characters less those that continue a run (a search that
    skips ahead to each of them). None when the class is common or the text small, where
    the one ``translate`` of ``_count`` is as fast."""
    if len(classes) < 1 << 16:
        return None
    found = classes.count(cls)
    if found * 32 > len(classes):
        return None
    pairs = _PAIRS.get(cls)
    if pairs is None:
        pairs = _PAIRS[cls] = re.compile(re.escape(cls) + b"(?=" + re.escape(cls) + b")")
    return found - len(pairs.findall(classes))


def _count(classes: bytes, pattern: bytes, run_table: bytes | None) -> int:
    if run_table is not None:  # runs of a class set: words, numbers, punctuation...
        rare = _rare_runs(classes, pattern) if len(pattern) == 1 else None
        if rare is not None:
            return rare
        # Runs are counted by their ends: "ax" is found faster than "xa" when members are
        # rarer than the rest, and never slower.
        marked = classes.translate(run_table)
        return marked.count(b"ax") + (marked[-1:] == b"a")
    if not pattern:  # "chars"
        return len(classes)
    return classes.count(pattern)


_Plan = tuple[tuple[bytes, "bytes | None", frozenset[str]], ...]
_PLANS: dict[tuple[str, ...], _Plan] = {}


def _plan(names: Sequence[str]) -> _Plan:
    """How to count each feature: a pattern or a run table, and the scripts it needs (none
    when it counts ASCII classes too). Built once per feature list."""
    key = tuple(names)
    plan = _PLANS.get(key)
    if plan is None:
        steps = []
        for name in key:
            runs = name.startswith("runs:")
            members = name[5:] if runs else name
            needs = frozenset(members) if set(members) <= _NON_ASCII_CLASSES else frozenset()
            pattern = b"" if name == "chars" else members.encode("ascii")
            steps.append((pattern, _run_table(members) if runs else None, needs))
        plan = _PLANS[key] = tuple(steps)
    return plan


def features(text: str, names: Sequence[str] = FEATURES) -> list[int]:
    """The counts a profile weighs, in the order of ``names``."""
    plan = _plan(names)
    if text.isascii():  # O(1) in CPython; the common case skips UTF-8 work entirely
        classes = text.encode("ascii").translate(_CLASSES)
        return [0 if needs else _count(classes, pat, runs) for pat, runs, needs in plan]
    classes = text.encode("utf-8", "surrogatepass").translate(_CLASSES, _CONTINUATION)
    present = {cls for cls in _NON_ASCII_CLASSES if cls.encode() in classes}
    return [
        0 if needs and not needs & present else _count(classes, pat, runs)
        for pat, runs, needs in plan
    ]


# ---- file kinds --------------------------------------------------------------------------
_KIND_BY_SUFFIX = {
    **dict.fromkeys(
        [
            "py",
            "pyi",
            "ts",
            "tsx",
            "js",
            "jsx",
            "mjs",
            "cjs",
            "c",
            "h",
            "cc",
            "cpp",
            "hpp",
            "cxx",
            "java",
            "kt",
            "kts",
            "go",
            "rs",
            "rb",
            "php",
            "cs",
            "swift",
            "m",
            "mm",
            "scala",
            "sh",
            "bash",
            "zsh",
            "fish",
            "ps1",
            "lua",
            "pl",
            "pm",
            "r",
            "jl",
            "dart",
            "ex",
            "exs",
            "erl",
            "hs",
            "ml",
            "clj",
            "sql",
            "vue",
            "svelte",
            "css",
            "scss",
            "less",
            "sass",
            "gradle",
            "groovy",
            "cmake",
            "make",
            "mk",
            "dockerfile",
            "bat",
            "cmd",
            "el",
            "vim",
            "zig",
            "nim",
        ],
        "code",
    ),
    **dict.fromkeys(
        [
            "md",
            "markdown",
            "mdx",
            "rst",
            "adoc",
            "asciidoc",
            "tex",
            "html",
            "htm",
            "xhtml",
            "xml",
            "xsd",
            "xsl",
            "xslt",
            "svg",
            "ipynb",
        ],
        "markup",
    ),
    **dict.fromkeys(
        ["txt", "text", "rtf", "org", "license", "changes", "readme", "authors", "notice"], "prose"
    ),
    **dict.fromkeys(
        [
            "json",
            "jsonc",
            "json5",
            "yaml",
            "yml",
            "toml",
            "ini",
            "cfg",
            "conf",
            "csv",
            "tsv",
            "lock",
            "properties",
            "env",
            "editorconfig",
            "gitignore",
            "gitattributes",
            "npmrc",
        ],
        "data",
    ),
}
_KIND_BY_NAME = {"makefile": "code", "dockerfile": "code", "gemfile": "code", "rakefile": "code"}


def file_kind(path: str | None) -> str:
    """The kind of a file by its name: code, markup, prose or data (prose when unknown)."""
    if not path:
        return "prose"
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name in _KIND_BY_NAME:
        return _KIND_BY_NAME[name]
    suffix = name.rsplit(".", 1)[-1] if "." in name else name.lstrip(".")
    return _KIND_BY_SUFFIX.get(suffix, "prose")


# ---- the seed's own table ----------------------------------------------------------------
_HANGUL = r"[\uac00-\ud7a3\u3131-\u318e]"  # compiled at first use (only the seed profile's)
_WORD = r"[A-Za-z]+"


def _seed_estimate(text: str, kind: str) -> int:
    """The seed skill's rules of thumb, midpoints taken: Korean character 2.5, English word
    1.3, code line 12.5, markdown line 10."""
    lines = sum(1 for line in text.splitlines() if line.strip())
    if kind == "code":
        tokens = round(lines * 12.5)
    elif kind == "markup":
        tokens = round(lines * 10)
    else:
        tokens = round(len(re.findall(_HANGUL, text)) * 2.5 + len(re.findall(_WORD, text)) * 1.3)
    # The table has no rule for other scripts, symbols or blank text: a character in four.
    return tokens or _ceil(len(text) / 4)


def _ceil(value: float) -> int:
    """``math.ceil`` of a finite number, without loading ``math`` (an extension module the
    vocabulary tier, which counts every commit, does not need)."""
    whole = int(value)
    return whole + (whole < value)


# ---- public API ----------------------------------------------------------------------------
def utf8_size(text: str) -> int:
    """The text's size in UTF-8 bytes (what ``estimator_id`` and the tier switch use)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def tier(profile: str, size: int, exact: bool | None = None) -> str:
    """Which tier counts a text of ``size`` UTF-8 bytes: ``exact`` (the optional compiled
    backend), ``vocab``, ``fit`` or ``table``. ``exact=None`` (the default) asks for the
    backend only for a text the vocabulary tier does not take (over ``VOCAB_MAX_BYTES``);
    ``True`` at any size (what counted a commit this way before), ``False`` never."""
    if profile == SEED_PROFILE:
        return "table"
    if profile not in _WEIGHED:
        raise ValueError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILE_NAMES)}")
    small = profile in _VOCAB_VERSIONS and size <= VOCAB_MAX_BYTES
    if exact is None:
        exact = not small
    if exact and profile in EXACT_ENCODINGS and exact_version():
        return "exact"
    return "vocab" if small else "fit"


# ---- the optional exact backend ------------------------------------------------------------
# ``pip install 'tg-git[exact]'`` brings quicktok (PyPI: quicktok-v1), a compiled tokenizer
# whose counts equal tiktoken's for these encodings. Nothing requires it; TG_GIT_EXACT=0 turns
# it off (the test suite does, to check the built-in tiers where it is installed).
EXACT_ENCODINGS = {"o200k": "o200k_base", "cl100k": "cl100k_base"}
_EXACT: dict[str, Any] = {}


def exact_version() -> str:
    """quicktok's version when it can count here, else "" (looked up once per process; a
    failed import costs a few path lookups, the encodings load only when a text needs one)."""
    if "version" not in _EXACT:
        _EXACT["version"] = ""
        if os.environ.get("TG_GIT_EXACT", "1") not in ("0", "off", "no", "false"):
            try:
                quicktok = _import_quicktok()
                if callable(getattr(quicktok, "get_encoding", None)):
                    _EXACT["module"] = quicktok
                    _EXACT["version"] = str(getattr(quicktok, "__version__", "0"))
            except Exception:  # absent, or a broken build: the built-in tiers count
                pass
    return str(_EXACT["version"])


def _import_quicktok() -> Any:
    try:
        import quicktok  # type: ignore[import-not-found, import-untyped, unused-ignore]  # lazy: 2.6 ms
    except ImportError:
        if not sys.flags.no_site:
            raise
        # The git hooks' Python starts without the site module (the shim's -S, with tg-git's
        # own folder on the path): the backend may be in a site folder tg-git is not in (an
        # editable install's venv). Only a text that needs the backend gets here.
        import site  # lazy: 3.1 ms

        site.main()
        import quicktok  # type: ignore[import-not-found, import-untyped, unused-ignore]  # lazy: 2.6 ms
    return quicktok


def exact_count(text: str, profile: str) -> int:
    """The exact token count of ``text`` (no special tokens), by the compiled backend."""
    encoding = _EXACT.get(profile)
    if encoding is None:
        encoding = _EXACT[profile] = _EXACT["module"].get_encoding(EXACT_ENCODINGS[profile])
    return int(encoding.count(text))


_FIT_VERSIONS: dict[str, str] = {}


def estimator_id(profile: str, size: int = 0, exact: bool | None = None) -> str:
    """A short stable name of the estimator that counts a text of ``size`` UTF-8 bytes."""
    return tier_id(profile, tier(profile, size, exact))


def tier_id(profile: str, chosen: str) -> str:
    """The name of one tier's estimator for ``profile`` (``tier``'s answer)."""
    if chosen == "table":
        return "seed/table-1"
    if chosen == "exact":
        return f"{profile}/exact-quicktok-{exact_version()}"
    if chosen == "vocab":
        return f"{profile}/vocab-{_VOCAB_VERSIONS[profile]}"
    version = _FIT_VERSIONS.get(profile)
    if version is None:
        import zlib  # lazy: 0.4 ms; a hash of everything the fitted tier computes with

        weights = repr((FEATURES, PROFILES[profile], KIND_SCALE[profile])).encode()
        version = _FIT_VERSIONS[profile] = f"{zlib.crc32(weights):08x}"
    return f"{profile}/fit-{version}"


def estimate_tokens(
    text: str, path: str | None = None, profile: str = DEFAULT_PROFILE, exact: bool | None = None
) -> int:
    """Estimated tokens of ``text`` under ``profile``; ``path`` names the file's kind. Exact
    by the compiled backend, where it is installed, for a text too large for the vocabulary
    tier (``exact``: as for ``tier``)."""
    if not text:
        return 0
    if profile == SEED_PROFILE:
        return _seed_estimate(text, file_kind(path))
    size = len(text) if len(text) > VOCAB_MAX_BYTES else utf8_size(text)
    chosen = tier(profile, size, exact)
    if chosen == "exact":
        return exact_count(text, profile)
    if chosen == "vocab":
        return _vocabulary(profile).count(text)
    return fitted_estimate(text, path, profile)


_VOCABULARIES: dict[str, Vocabulary] = {}


def _vocabulary(profile: str) -> Vocabulary:
    """The profile's vocabulary (``table.load``), kept here: a ``from ... import`` of a
    submodule costs each text a few microseconds, and verify counts one text a commit."""
    found = _VOCABULARIES.get(profile)
    if found is None:
        from tg_git.estimate.vocab import table  # lazy: 1.0 ms; loaded only when a text needs it

        found = _VOCABULARIES[profile] = table.load(profile)
    return found


def fitted_estimate(text: str, path: str | None = None, profile: str = DEFAULT_PROFILE) -> int:
    """The byte-count tier's estimate, whatever the text's size (benchmarks compare tiers)."""
    if not text:
        return 0
    kind = file_kind(path)
    names, used = _WEIGHED[profile]
    raw = sum(w * c for w, c in zip(used, features(text, names)))
    return max(1, _ceil(raw * KIND_SCALE[profile][kind]))


# ---- a text counted in pieces ----------------------------------------------------------------
_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def safe_cut(data: bytes | bytearray, end: int | None = None, tries: int = 4096) -> int:
    """The last place in ``data`` where it may be cut into two pieces counted apart, the sum
    equal to the whole's count in the ``exact`` and ``fit`` tiers: right after a newline that
    an ASCII letter follows. Every pre-tokenizer pattern of o200k and cl100k ends a piece at
    such a newline and starts the next at the letter, and no byte-count feature spans it (no
    run or pattern holds both a newline and a letter). Cut there the UTF-8 decodes alike too.
    Only the first ``end`` bytes are searched (all by default); 0 when none is found among
    the last ``tries`` newlines there."""
    end = len(data) if end is None else min(end, len(data))
    for _ in range(tries):
        end = data.rfind(b"\n", 0, end)
        if end < 0:
            return 0
        if end + 1 < len(data) and data[end + 1] in _LETTERS:
            return end + 1
    return 0


class Tally:
    """One text's count in one tier, fed in pieces cut by ``safe_cut``: the sum of the pieces'
    exact counts or byte-count features, the kind factor applied once at the end; the other
    tiers keep the pieces and count them whole."""

    def __init__(self, chosen: str, profile: str, path: str | None) -> None:
        self.chosen, self.profile, self.path = chosen, profile, path
        self.sums: list[int] = []
        self.tokens = 0
        self.kept: list[str] = []

    def feed(self, text: str) -> None:
        if not text:
            return
        if self.chosen == "exact":
            self.tokens += exact_count(text, self.profile)
        elif self.chosen == "fit":
            found = features(text, _WEIGHED[self.profile][0])
            self.sums = [a + b for a, b in zip(self.sums, found)] if self.sums else found
        else:
            self.kept.append(text)

    def total(self) -> int:
        if self.chosen == "exact":
            return self.tokens
        if self.chosen == "fit":
            if not self.sums:
                return 0
            raw = sum(w * c for w, c in zip(_WEIGHED[self.profile][1], self.sums))
            return max(1, _ceil(raw * KIND_SCALE[self.profile][file_kind(self.path)]))
        text = "".join(self.kept)
        if not text:
            return 0
        if self.chosen == "table":
            return _seed_estimate(text, file_kind(self.path))
        return _vocabulary(self.profile).count(text)


# Per profile, only the features it gives weight to: the others are never counted.
_WEIGHED: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {
    name: (
        tuple(f for f, w in zip(FEATURES, weights) if w),
        tuple(w for w in weights if w),
    )
    for name, weights in PROFILES.items()
}
