"""Git's object formats without starting git: blob ids for SHA-1 and SHA-256 repositories,
and tree objects' entries. The one home of blob hashing for both formats.
"""

from __future__ import annotations


def sha256_hex(data: bytes) -> str:
    """SHA-256, the object ids of ``--object-format=sha256`` repositories (only those pay
    for ``hashlib``'s import)."""
    from hashlib import sha256

    return sha256(data).hexdigest()


def sha1_hex(data: bytes) -> str:
    """SHA-1 without loading OpenSSL for small data (``import hashlib`` costs ~5 ms on the
    hook path); OpenSSL's for large data (CPython's own runs ~75 MB/s: 16 ms for a 1 MB
    ledger, OpenSSL's ~1 ms)."""
    try:
        if len(data) > 1 << 18:
            raise ImportError
        from _sha1 import sha1  # type: ignore[import-not-found]  # CPython's own, built in
    except ImportError:
        from hashlib import sha1
    digest: str = sha1(data).hexdigest()
    return digest


def hash_text(text: str, object_format: str = "sha1") -> str:
    """The blob id git gives ``text`` (UTF-8) in a repository of ``object_format``, computed
    without starting git. The one home of blob hashing for both formats."""
    data = text.encode("utf-8")
    digest = sha256_hex if object_format == "sha256" else sha1_hex
    return digest(b"blob %d\0" % len(data) + data)


def tree_entries(tree_id: str, data: bytes) -> dict[str, str]:
    """A git tree object's entries, name -> object id, from its binary form (as ``cat-file
    --batch`` gives it with ``tree_id``): each id is as wide as the tree's own (20 bytes in a
    SHA-1 repository, 32 in a SHA-256 one)."""
    width = len(tree_id) // 2
    entries, pos = {}, 0
    while pos < len(data):
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        entries[name] = data[nul + 1 : nul + 1 + width].hex()
        pos = nul + 1 + width
    return entries
