"""The digests that name a transcript's mark file and a request in the shared keys stay
what earlier imports wrote (two CRC-32s as 16 hex digits): a digest written otherwise would
find no mark (every transcript read again) and no shared key (copies counted twice)."""

from __future__ import annotations

import zlib

import pytest

from tg_git.usage import store


def _written_before(text: str) -> str:
    """The digest as the store has always written it."""
    data = text.encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.crc32(data[::-1]):08x}"


_TEXTS = [
    "",
    "msg_019b6d4b2afabcf37a:req_011C893826b1d20a0a1b",
    "/home/dev/.claude/projects/-home-dev-project/3b1f.jsonl",
    "토큰 예산 \udcff",  # a path of undecodable bytes, as os.fsdecode gives it
    *(f"k{n}" for n in range(2000)),  # among them CRCs with leading zero digits
]


@pytest.mark.parametrize("chunk", range(0, len(_TEXTS), 500))
def test_a_digest_is_the_one_written_before(chunk: int) -> None:
    texts = _TEXTS[chunk : chunk + 500]
    assert [store.digest(t) for t in texts] == [_written_before(t) for t in texts]
    assert all(len(store.digest(t)) == 16 for t in texts)
    assert any(_written_before(t)[0] == "0" or _written_before(t)[8] == "0" for t in _TEXTS)
