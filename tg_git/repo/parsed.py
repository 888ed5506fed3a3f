"""Parsed settled ledger files, kept between reads of every event (``Workspace.events``).

A session's files but its last are settled (``repo.settled``): tg-git never writes them again,
so their blob id keys what the whole-file reader made of them, and a `tg-git report` of a
100,000-event ledger parses only each session's last file. One file a session,
``.git/tg-git/parsed/<session>.memo``, holding its settled files of the last read: rewritten
when they changed (a new segment settles every 128 events), so it never outgrows the ledger.

It can never change a figure: an entry is taken only for the exact bytes it was made from, and
a damaged, truncated or foreign file (another format or tg-git version, a CRC-32 that does not
match, as every memo file carries: ``memo.pack``, values of the wrong shape) is read as empty
and written anew.
"""

from __future__ import annotations

import marshal

from tg_git import __version__
from tg_git.domain import eventlog, gitobjects
from tg_git.repo import git, ledger, memo

FORMAT = 3  # 3: the CRC is the memo file's own (memo.pack)
FOLDER = "tg-git/parsed"  # per worktree, beside the session memo

Parsed = dict[str, object]  # a file's events by key, in file order (``eventlog.read_whole``)


def path_of(session_id: str) -> str:
    return f"{FOLDER}/{session_id}.memo"


def key_of(settled: list[bytes], object_format: str) -> str:
    """The blob id of a session's settled files, each after its length (one hash of the
    whole: CPython's own SHA-1, which small files get, hashed 780 segments in ~80 ms)."""
    return gitobjects.blob_id(b"".join(b"%d\n%s" % (len(d), d) for d in settled), object_format)


def load(repo: git.Repo, session_id: str, key: str) -> list[Parsed] | None:
    """The parsed settled files kept for a session under ``key``, or None when there are
    none, they are of other files, or the memo is not sound."""
    try:
        outer = memo.read_data(repo, path_of(session_id))
        if not (isinstance(outer, dict) and outer.get("format") == FORMAT):
            return None
        payload = outer.get("files")  # unmarshalled only for the right key
        if outer.get("version") != __version__ or outer.get("key") != key:
            return None
        if type(payload) is not bytes:
            return None
        files = marshal.loads(payload)
        if type(files) is not list or not all(type(events) is dict for events in files):
            return None
        return files
    except Exception:  # anything a damaged file raises: parse the files instead
        return None


def store(repo: git.Repo, session_id: str, key: str, files: list[Parsed]) -> None:
    """Keep ``files`` (the session's settled files, parsed) for the next read."""
    try:
        payload = marshal.dumps(files, 4)
    except ValueError:  # nothing the JSON reader makes, but a memo is never worth an error
        return
    data = {"format": FORMAT, "version": __version__, "key": key, "files": payload}
    memo.write_data(repo, path_of(session_id), data)  # with its CRC-32 (memo.pack)


def read_session(
    repo: git.Repo, rel: str, files: list[str]
) -> tuple[list[str | None], list[Parsed | None]]:
    """A session's files' texts (``files``: ``rel`` and its later segments, in the work tree)
    and for each settled one (all but the last) its events as ``eventlog.read_whole`` makes
    them: kept from the last read when the settled files are the same, else parsed now and
    kept (None for the last file, and for all when one is not as tg-git writes them)."""
    datas = [ledger.read_bytes(repo.root / path, path) for path in files]
    texts = [eventlog.decode(data, path) for data, path in zip(datas, files)]
    known: list[Parsed | None] = [None] * len(files)
    settled = [data for data in datas[:-1] if data is not None]
    if not settled or len(settled) < len(files) - 1:
        return texts, known
    session_id = rel.rsplit("/", 1)[-1].removesuffix(".toml")
    key = key_of(settled, repo.object_format)
    kept = load(repo, session_id, key)
    if kept is None or len(kept) != len(settled):
        parsed = [eventlog.read_whole(text or "") for text in texts[:-1]]
        if any(events is None for events in parsed):
            return texts, known
        kept = [events for events in parsed if events is not None]
        store(repo, session_id, key, kept)
    known[:-1] = kept
    return texts, known
