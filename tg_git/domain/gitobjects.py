"""Git's object formats without starting git: blob ids for SHA-1 and SHA-256 repositories,
and tree objects' entries. The one home of blob hashing for both formats.
"""

from __future__ import annotations

from tg_git.domain.typed import NamedTuple


def sha256_hex(data: bytes) -> str:
    """SHA-256, the object ids of ``--object-format=sha256`` repositories (only those pay
    for ``hashlib``'s import)."""
    from hashlib import sha256  # lazy: 3.7 ms

    return sha256(data).hexdigest()


def sha1_hex(data: bytes) -> str:
    """SHA-1 without loading OpenSSL for small data (``import hashlib`` costs ~5 ms on the
    hook path); OpenSSL's for large data (CPython's own runs ~75 MB/s: 16 ms for a 1 MB
    ledger, OpenSSL's ~1 ms)."""
    try:
        if len(data) > 1 << 18:
            raise ImportError
        from _sha1 import sha1  # type: ignore[import-not-found]  # CPython's own, built in  # lazy: 0.2 ms
    except ImportError:
        from hashlib import sha1  # lazy: 3.7 ms
    digest: str = sha1(data).hexdigest()
    return digest


def blob_id(data: bytes, object_format: str = "sha1") -> str:
    """The blob id git gives ``data`` in a repository of ``object_format``, computed without
    starting git. The one home of blob hashing for both formats."""
    digest = sha256_hex if object_format == "sha256" else sha1_hex
    return digest(b"blob %d\0" % len(data) + data)


def hash_text(text: str, object_format: str = "sha1") -> str:
    """``blob_id`` of ``text`` as UTF-8."""
    return blob_id(text.encode("utf-8"), object_format)


class TreeEntry(NamedTuple):
    """One entry of a tree: ``kind`` is blob, tree or commit (a submodule); ``path`` is the
    entry's name within its tree (``ls_tree``: the path from the top)."""

    mode: str
    kind: str
    id: str
    path: str


_KINDS = {"40000": "tree", "160000": "commit"}  # any other mode: a blob (file or link)


def tree_entries(tree_id: str, data: bytes) -> list[TreeEntry]:
    """A git tree object's entries from its binary form (as ``cat-file --batch`` gives it with
    ``tree_id``): each id is as wide as the tree's own (20 bytes in a SHA-1 repository, 32 in
    a SHA-256 one). A truncated tree raises ValueError."""
    width = len(tree_id) // 2
    entries, pos = [], 0
    while pos < len(data):
        space = data.index(b" ", pos)
        nul = data.index(b"\0", space)
        oid = data[nul + 1 : nul + 1 + width]
        if len(oid) != width:
            raise ValueError("truncated tree object")
        mode = data[pos:space].decode("ascii")
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        entries.append(TreeEntry(mode, _KINDS.get(mode, "blob"), oid.hex(), name))
        pos = nul + 1 + width
    return entries
