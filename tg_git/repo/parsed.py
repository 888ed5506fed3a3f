"""Parsed settled ledger files, kept between reads of every event (``Workspace.events``).

A session's files but its last are settled (``repo.settled``): tg-git never writes them again,
so a file's blob id keys what the whole-file reader made of it, and a `tg-git report` of a
100,000-event ledger parses only each session's last file (issue 22). One file a session,
``.git/tg-git/parsed/<session>.memo``, holding its settled files of the last read: rewritten
when they changed (a new segment settles every 128 events), so it never outgrows the ledger.

It can never change a figure: an entry is taken only for the exact bytes it was made from, and
a damaged, truncated or foreign file (another format or tg-git version, a checksum that does
not match, values of the wrong shape) is read as empty and written anew.
"""

from __future__ import annotations

import marshal
import zlib
from collections.abc import Mapping

from tg_git import __version__
from tg_git.domain import eventlog, gitobjects
from tg_git.repo import git, ledger, memo

FORMAT = 1
FOLDER = "tg-git/parsed"  # per worktree, beside the session memo

Files = dict[str, dict[str, object]]  # blob id -> the file's events by key, in file order


def path_of(session_id: str) -> str:
    return f"{FOLDER}/{session_id}.memo"


def load(repo: git.Repo, session_id: str) -> Files:
    """The parsed settled files kept for a session, or none when the file is not sound."""
    try:
        raw = memo._read(repo.git_path(path_of(session_id)))
        outer = marshal.loads(raw) if raw else None
        if not (isinstance(outer, dict) and outer.get("format") == FORMAT):
            return {}
        payload = outer.get("files")
        if outer.get("version") != __version__ or type(payload) is not bytes:
            return {}
        if zlib.crc32(payload) != outer.get("crc"):
            return {}
        files = marshal.loads(payload)
        if not isinstance(files, dict):
            return {}
        for key, events in files.items():
            if type(key) is not str or type(events) is not dict:
                return {}
        return files
    except Exception:  # anything a damaged file raises: parse the files instead
        return {}


def store(repo: git.Repo, session_id: str, files: Mapping[str, dict[str, object]]) -> None:
    """Keep ``files`` (the session's settled files of this read, parsed) for the next read."""
    try:
        payload = marshal.dumps(dict(files), 4)
    except ValueError:  # nothing the JSON reader makes, but a memo is never worth an error
        return
    data = {"format": FORMAT, "version": __version__, "crc": zlib.crc32(payload), "files": payload}
    memo._write(repo, path_of(session_id), data)


def read_session(
    repo: git.Repo, rel: str, files: list[str]
) -> tuple[list[str | None], list[dict[str, object] | None]]:
    """A session's files' texts (``files``: ``rel`` and its later segments, in the work tree)
    and for each settled one (all but the last) its events as ``eventlog.read_whole`` makes
    them: kept from the last read when its blob id is, else parsed now and kept."""
    session_id = rel.rsplit("/", 1)[-1].removesuffix(".toml")
    kept = load(repo, session_id) if len(files) > 1 else {}
    now: Files = {}
    texts: list[str | None] = []
    known: list[dict[str, object] | None] = []
    for n, path in enumerate(files):
        data = ledger.read_bytes(repo.root / path, path)
        text = eventlog.decode(data, path)
        texts.append(text)
        found = None
        if data is not None and text and n < len(files) - 1:  # settled
            blob = gitobjects.blob_id(data, repo.object_format)
            found = kept.get(blob)
            if found is None:
                found = eventlog.read_whole(text)
            if found is not None:
                now[blob] = found
        known.append(found)
    if now.keys() != kept.keys():
        store(repo, session_id, now)
    return texts, known
