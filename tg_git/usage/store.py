"""How far each transcript has been read: one small JSON file per transcript under
``.git/tg-git/usage/`` (local state, never tracked), plus a lock so two imports (a git hook
and an agent hook at once) never read the same lines twice."""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

TYPE_CHECKING = False  # `import typing` costs every usage import ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any

FOLDER = "tg-git/usage"
KEEP_KEYS = 512  # streaming copies of one response are adjacent: the newest keys suffice
SHARED_KEYS = 2048  # requests one agent's transcripts share (a resumed conversation's copies)


class Mark:
    """How far one transcript was read (a plain class: the agent hooks import no dataclasses)."""

    FIELDS = ("path", "agent", "offset", "size", "inode", "mtime_ns", "imported_at", "session",
              "state", "keys")  # fmt: skip

    def __init__(
        self,
        path: str,
        agent: str,
        offset: int = 0,
        size: int = 0,
        inode: int = 0,
        mtime_ns: int = 0,
        imported_at: str = "",
        session: str = "",  # the agent's own session id, as its log names it
        state: dict[str, Any] | None = None,
        keys: dict[str, list[int]] | None = None,
    ) -> None:
        self.path = path
        self.agent = agent
        self.offset = offset
        self.size = size
        self.inode = inode
        self.mtime_ns = mtime_ns
        self.imported_at = imported_at
        self.session = session
        self.state: dict[str, Any] = {} if state is None else state
        self.keys: dict[str, list[int]] = {} if keys is None else keys


def digest(text: str) -> str:
    """16 hex digits naming ``text`` (two CRC-32s: zlib loads in no time, hashlib's OpenSSL
    takes ~10 ms, which every agent turn would pay)."""
    data = text.encode("utf-8", "surrogateescape")
    crc = zlib.crc32  # (the 16 digits as bytes.hex writes them: ~0.4 of an f-string's time)
    return (crc(data) << 32 | crc(data[::-1])).to_bytes(8, "big").hex()


def _file(folder: Path, path: str) -> Path:
    return folder / f"{digest(path)}.json"


def _from(data: Any) -> Mark | None:
    if not isinstance(data, dict) or not isinstance(data.get("path"), str):
        return None
    if not all(isinstance(data.get(k, {}), dict) for k in ("state", "keys")):
        return None  # (``Mark`` would take a null for an empty one)
    try:
        mark = Mark(**{k: data[k] for k in Mark.FIELDS if k in data})
    except TypeError:
        return None
    numbers = (mark.offset, mark.size, mark.inode, mark.mtime_ns)
    if not all(type(n) is int and n >= 0 for n in numbers):
        return None
    if not isinstance(mark.state, dict) or not isinstance(mark.keys, dict):
        return None
    return mark


def load(folder: Path, path: str, agent: str) -> Mark | None:
    """The mark of ``path``; a fresh one when it was never read; None when the mark file is
    unreadable (the caller then skips what it cannot know it has not counted)."""
    try:
        text = _file(folder, path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return Mark(path=path, agent=agent)
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return _from(json.loads(text))
    except (ValueError, RecursionError):
        return None


def save(folder: Path, mark: Mark) -> None:
    if len(mark.keys) > KEEP_KEYS and not mark.state.get("document"):
        mark.keys = dict(list(mark.keys.items())[-KEEP_KEYS:])
    folder.mkdir(parents=True, exist_ok=True)
    target = _file(folder, mark.path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    data = {name: getattr(mark, name) for name in Mark.FIELDS}
    tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, target)


def forget(folder: Path, path: str) -> None:
    _file(folder, path).unlink(missing_ok=True)


def marks(folder: Path) -> list[Mark]:
    found = []
    for item in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            mark = _from(json.loads(item.read_text(encoding="utf-8")))
        except (OSError, ValueError, RecursionError, UnicodeDecodeError):
            continue
        if mark is not None:
            found.append(mark)
    return found


class SharedKeys:
    """The request keys (as digests) of every transcript of one agent, newest last: Claude
    Code copies a conversation's requests into the new file of a resumed or forked one, and
    a copy counts once across files as ccusage counts it. Read only when a transcript of the
    agent has something new; bounded, so its cost does not grow with the session."""

    def __init__(self, folder: Path, agent: str) -> None:
        self.path = folder / f"{agent}.keys"
        self.keys: dict[str, list[int]] | None = None

    def take(self, mark: Mark) -> dict[str, list[int]]:
        """The shared keys, with ``mark``'s own (kept by an older tg-git) moved in."""
        if self.keys is None:
            self.keys = self._load()
        for key, values in mark.keys.items():
            self.keys.setdefault(digest(key), values)
        mark.keys = {}
        return self.keys

    def _load(self) -> dict[str, list[int]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError, UnicodeDecodeError):
            return {}  # none yet, or unreadable: copies seen before count as new, once
        if not isinstance(data, dict):
            return {}
        return {
            k: v
            for k, v in data.items()
            if isinstance(v, list) and len(v) == 4 and all(type(n) is int for n in v)
        }

    def save(self) -> None:
        if self.keys is None:
            return
        kept = dict(list(self.keys.items())[-SHARED_KEYS:])
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(kept, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, self.path)


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl  # lazy: 0.3 ms
    except ImportError:  # Windows: imports there run one at a time in practice
        yield
        return
    with open(folder / "lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
