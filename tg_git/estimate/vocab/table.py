"""The vocabulary tier's counter: near-exact token counts from a tokenizer's own vocabulary.

Text is split with the tokenizer's pre-tokenizer pattern, then each piece counts one token
when it is a vocabulary entry and is otherwise split greedily by its longest vocabulary
prefix. There are no merge ranks and no tokenizer package: the vocabulary is a read-only
hash table (``bench/vocab.py`` writes it) read into memory once and used in place.

The patterns are the tokenizers' own, run by the standard ``re`` on a *class string*: every
non-ASCII character is replaced by one character of its class (upper or lower case letter,
other letter, mark, number, white space, anything else), so the pattern stays ASCII and
compiles in well under a millisecond, where the Unicode classes ``\\p{L}``/``\\p{N}`` would
cost a heavy import (``regex``) or a slow compile. ASCII text is its own class string.
"""

from __future__ import annotations

import mmap
import os
import re
import sys
import zlib
from collections.abc import Sequence
from itertools import accumulate

# ---- pre-tokenizer patterns over the class string ------------------------------------------
# Class characters for non-ASCII text; ASCII characters stand for themselves. Both are in
# Latin-1 (which the class string holds no other way): ``re`` compiles a set of those into a
# 256-bit map, where one character above U+00FF costs each set a 64 Ki-entry map (a commit
# compiled this pattern in about twice the time).
_OTHER_LETTER = "\x80"  # Lm, Lo: a letter of no case (CJK, kana, Hangul, Arabic...)
_MARK = "\x81"  # M*: combining marks (a letter in o200k's pattern, "other" in cl100k's)
_WS = r"\t\n\x0b\x0c\r "  # Unicode White_Space all maps to one of these
_L = "A-Za-z" + _OTHER_LETTER
_UP = "A-Z" + _OTHER_LETTER + _MARK
_LO = "a-z" + _OTHER_LETTER + _MARK
_N = "0-9"
_CONTRACTION = "(?i:'s|'t|'re|'ve|'m|'ll|'d)"
_TAIL = rf"[{_WS}]*[\r\n]+|[{_WS}]+(?![^{_WS}])|[{_WS}]+"

_PATTERNS = {
    "o200k": (
        rf"[^\r\n{_L}{_N}]?[{_UP}]*[{_LO}]+{_CONTRACTION}?"
        rf"|[^\r\n{_L}{_N}]?[{_UP}]+[{_LO}]*{_CONTRACTION}?"
        rf"|[{_N}]{{1,3}}| ?[^{_WS}{_L}{_N}]+[\r\n/]*|{_TAIL}"
    ),
    "cl100k": (
        rf"{_CONTRACTION}|[^\r\n{_L}{_N}]?[{_L}]+|[{_N}]{{1,3}}| ?[^{_WS}{_L}{_N}]+[\r\n]*|{_TAIL}"
    ),
    "qwen3": (rf"{_CONTRACTION}|[^\r\n{_L}{_N}]?[{_L}]+|[{_N}]| ?[^{_WS}{_L}{_N}]+[\r\n]*|{_TAIL}"),
}
_NFC = frozenset({"qwen3"})  # Qwen's tokenizer normalises to NFC before it splits

_CLASS_OF_CATEGORY = {"Lu": "X", "Lt": "X", "Ll": "x", "Lm": _OTHER_LETTER, "Lo": _OTHER_LETTER}
_CLASS_CACHE: dict[int, str] = {}


def _class_of(char: str) -> str:
    import unicodedata  # lazy: 0.2 ms; only non-ASCII text gets here

    if char.isspace():  # str.isspace is Unicode White_Space for every non-ASCII character
        return "\x0c"
    category = unicodedata.category(char)
    if category[0] == "M":
        return _MARK
    if category[0] == "N":
        return "0"
    return _CLASS_OF_CATEGORY.get(category, ".")


def class_string(text: str) -> str:
    """``text`` with each character replaced by its class (same length, same positions)."""
    if text.isascii():
        return text
    table = _CLASS_CACHE
    for char in set(text):
        code = ord(char)
        if code > 0x7F and code not in table:
            table[code] = _class_of(char)
    for code in range(0x1C, 0x20):  # ASCII controls Python calls space; Unicode does not
        table[code] = "."
    return text.translate(table)


# ---- the vocabularies ------------------------------------------------------------------------
class Vocabulary:
    """A tokenizer's vocabulary as a read-only hash table over its multi-byte tokens."""

    def __init__(self, profile: str, data: bytes | mmap.mmap) -> None:
        if data[:4] != b"TGV2":
            raise ValueError(f"{profile}: not a vocabulary file")
        bits, blob_len, longest = (int.from_bytes(data[i : i + 4], "little") for i in (4, 8, 12))
        ending_at = 16 + (4 << bits)
        self.base = ending_at + (1 << 16)  # where the blob starts
        if len(data) != self.base + blob_len:
            raise ValueError(f"{profile}: truncated vocabulary file")
        # Used in place: no copy of the table, no set built (that would cost tens of ms).
        slots: Sequence[int] = memoryview(data)[16:ending_at].cast("I")
        if sys.byteorder != "little":
            from array import array  # lazy: 0.4 ms (an extension module), big-endian only

            swapped = array("I", bytes(slots))
            swapped.byteswap()
            slots = swapped
        self.profile = profile
        self.data = data
        self.slots = slots
        self.mask = (1 << bits) - 1
        self.ending = memoryview(data)[ending_at : self.base]
        self.longest = longest
        self.pattern = re.compile(_PATTERNS[profile])
        self.nfc = profile in _NFC
        self.counts = _PieceCounts(self)
        self.most: dict[str, int] = {}  # piece -> what its costliest beginning counts more

    def __contains__(self, token: bytes) -> bool:
        size = len(token)
        if size < 2:
            return size == 1
        slots, data, mask = self.slots, self.data, self.mask
        i = zlib.crc32(token) & mask
        slot = slots[i]
        while slot:
            if slot & 0xFF == size:
                start = self.base + (slot >> 8)
                if data[start : start + size] == token:
                    return True
            i = (i + 1) & mask
            slot = slots[i]
        return False

    def piece_tokens(self, piece: bytes) -> int:
        """Tokens of one pre-tokenized piece: one if it is a token, else split greedily by
        the longest vocabulary *suffix*, from the end. BPE merges a word's stem before its
        prefix joins it, so the end holds the long tokens: measured on the corpus, this is
        five times closer to the real count than longest prefixes from the start."""
        if piece in self:
            return 1
        unit = piece[-2:]  # a run of a pair of symbols, as CRLF lines, ends the piece:
        if len(piece) > 8 and piece[-8:] == unit * 4 and _is_symbol_pair(unit):
            head = _strip_pairs(piece, unit)
            tail = self.pair_run_tokens(piece[len(head) :])
            return tail + (self.piece_tokens(head) if head else 0)
        count, end, ending = 0, len(piece), self.ending
        while end > 1:
            # Only as far back as the longest token that ends in these two bytes.
            start = max(0, end - ending[piece[end - 2] << 8 | piece[end - 1]])
            while end - start > 1 and piece[start:end] not in self:
                start += 1
            count += 1
            end = start if end - start > 1 else end - 1
        return count + end

    def pair_run_tokens(self, piece: bytes) -> int:
        """Tokens of a run of one repeated pair of bytes (``\\r\\n`` lines): BPE merges equal
        neighbours pairwise, so the run becomes chunks of the pair times a power of two, the
        longest first, whatever longer tokens the vocabulary has (measured: longest suffixes
        count a run of 120 CRLFs 20 % low). Runs of one byte do follow the longest tokens."""
        unit, units = piece[:2], len(piece) // 2
        sizes = [1]
        while unit * (sizes[-1] * 2) in self:
            sizes.append(sizes[-1] * 2)
        count = 0
        for size in reversed(sizes):
            count += units // size
            units %= size
        return count

    def count(self, text: str) -> int:
        """Tokens of ``text``."""
        if self.nfc and not text.isascii():
            import unicodedata  # lazy: 0.2 ms

            text = unicodedata.normalize("NFC", text)
        counts = self.counts
        if len(counts) > 200_000:  # bounded: a huge varied text must not hold on to memory
            counts.clear()
            self.most.clear()
        classes = class_string(text)
        if classes is text:
            pieces: list[str] = self.pattern.findall(text)
        else:  # the class string's pieces have the same lengths as the text's
            ends = list(accumulate(map(len, self.pattern.findall(classes))))
            pieces = list(map(text.__getitem__, map(slice, [0, *ends[:-1]], ends)))
        # The loop runs in C: a piece seen before costs one dict lookup.
        total = sum(map(counts.__getitem__, pieces))
        return total + self.join_allowance(pieces)

    def join_allowance(self, pieces: list[str]) -> int:
        """Appended text can join the last piece into one vocabulary entry ("world" + "s"
        counts fewer than "world"'s split). So that more text never counts less, a piece
        near the end counts as the most any of its beginnings needs, when that exceeds what
        the pieces after it add (the text's count is then the most any prefix of it needs)."""
        counts, known, extra, after = self.counts, self.most, 0, 0
        for piece in reversed(pieces):
            own = counts[piece]
            more = known.get(piece)
            if more is None:  # once a piece: the last pieces of code repeat (a line end, a name)
                beginnings = map(piece.__getitem__, _PREFIXES[: len(piece)])
                more = known[piece] = max(map(counts.__getitem__, beginnings)) - own
            if more - after > extra:
                extra = more - after
            after += own
            if after >= _REACH:
                break
        return extra


_REACH = 8  # no beginning of a piece needs this many tokens more than the whole piece
_PREFIXES = [slice(0, k) for k in range(1, 65)]  # a longer last piece: its first 64 characters


def _is_symbol_pair(unit: bytes) -> bool:
    return unit[0] != unit[1] and unit.isascii() and not unit.isalnum()


def _strip_pairs(piece: bytes, unit: bytes) -> bytes:
    """``piece`` without its tail of repeated ``unit`` (a pair of bytes)."""
    end = len(piece)
    while end >= 2 and piece[end - 2 : end] == unit:
        end -= 2
    return piece[:end]


class _PieceCounts(dict[str, int]):
    """Tokens per piece, counted on first sight."""

    def __init__(self, vocab: Vocabulary) -> None:
        super().__init__()
        self.vocab = vocab

    def __missing__(self, piece: str) -> int:
        n = self[piece] = self.vocab.piece_tokens(piece.encode("utf-8", "surrogatepass"))
        return n


_LOADED: dict[str, Vocabulary] = {}


def load(profile: str) -> Vocabulary:
    """The profile's vocabulary, mapped from package data on first use."""
    vocab = _LOADED.get(profile)
    if vocab is None:
        path = os.path.join(os.path.dirname(__file__), f"{profile}.bin")
        with open(path, "rb") as fh:
            try:  # mapped, not read: a lookup touches a few pages of a 2-4 MB file
                data: bytes | mmap.mmap = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                data = fh.read()
        vocab = _LOADED[profile] = Vocabulary(profile, data)
    return vocab
