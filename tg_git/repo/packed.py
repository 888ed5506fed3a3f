"""A memo file's bytes: its data (marshal) and a CRC-32 of them. Both memos under the git dir
(``repo.memo``'s session and ``repo.gaugememo``'s figures) are written and read through these."""

from __future__ import annotations

import marshal
import zlib

TYPE_CHECKING = False  # `import typing` costs every refresh a few ms
if TYPE_CHECKING:
    from typing import Any


def pack(data: Any) -> bytes:
    """A memo file's bytes: ``data`` (marshal) and its CRC-32 (``unpack``)."""
    packed = marshal.dumps(data, 4)
    return packed + zlib.crc32(packed).to_bytes(4, "big")


def unpack(raw: bytes | None) -> Any:
    """A memo file's data, or None when its CRC-32 (the last 4 bytes) is not its data's: a
    flipped bit in a sum is still a well-typed number, and would be believed for good. (It
    catches damage, not a forgery: whoever can write the git dir can rewrite the hooks.)"""
    if not raw or len(raw) < 5:
        return None
    data, crc = raw[:-4], raw[-4:]
    return marshal.loads(data) if zlib.crc32(data).to_bytes(4, "big") == crc else None
