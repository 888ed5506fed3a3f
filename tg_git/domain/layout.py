"""Where tg-git keeps things in a work tree: the config, the ledger files, the checkpoint files.

The one home of these paths; every layer names a file through these constants.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from collections.abc import Iterable

CONFIG_DIR = ".tg-git"
CONFIG_PATH = f"{CONFIG_DIR}/config.toml"
EXPORT_ON = "tg-git/export-on"  # under the git dir: this clone pushes metrics after commits
LEDGER_PATH = f"{CONFIG_DIR}/ledger.toml"  # the single ledger of tg-git 0.1: still read
LEDGER_DIR = f"{CONFIG_DIR}/ledger"  # one file a session: `.tg-git/ledger/<session>.toml`
PENDING = ".pending.toml"  # `<session>.pending.toml`: an older tg-git's staged pending file
HELD = "tg-git/pending"  # under the git dir, per work tree: events recorded since the last commit
SEGMENT_LINES = 128  # event lines a session's file takes before its next segment opens
FANOUT = 64  # segments a folder: `<session>/<n // 64>/<n % 64>.toml`, so no tree grows past 64
# ``merge=union`` keeps every event through merges; the rest keeps the ledger out of review:
# ``-diff`` (git prints "Binary files differ" in `git diff`, `log -p`, `show`; a merge still
# takes ``merge=union``, and tg-git's own diffs pass ``--text``), and the attributes GitHub
# (``linguist-generated``) and GitLab (``gitlab-generated``) fold generated files by.
QUIET = "-diff linguist-generated=true gitlab-generated"
LEDGER_GLOBS = (LEDGER_PATH, f"{LEDGER_DIR}/*.toml", f"{LEDGER_DIR}/*/*/*.toml")
LEDGER_ATTRIBUTES = tuple(f"{glob} merge=union {QUIET}" for glob in LEDGER_GLOBS)
CHECKPOINT_JSON = "harness_checkpoint.json"
CHECKPOINT_MD = "CHECKPOINT.md"
CHECKPOINT_ROOT = "."  # `checkpoint.dir`'s default: the work tree's root, where the seed saves
ALWAYS_EXCLUDED = (CONFIG_PATH, LEDGER_PATH, ".gitattributes", CHECKPOINT_JSON, CHECKPOINT_MD)


def is_ledger_file(path: str) -> bool:
    """A file tg-git keeps events in: the old single ledger, a per-session one, or one of a
    session's later segments."""
    if path == LEDGER_PATH:
        return True
    folder, _, name = path.rpartition("/")
    return (folder == LEDGER_DIR and name.endswith(".toml")) or segment_number(path) is not None


def segment_file(rel: str, n: int) -> str:
    """Segment ``n`` of the session whose file is ``rel`` (segment 0 is ``rel`` itself).

    A session's events fill ``rel`` and then fixed-size segments, so a commit or an agent turn
    writes (and git stores) one small file, not the whole session; two folder levels of at
    most ``FANOUT`` entries keep every tree object small however long the session runs."""
    if n <= 0:
        return rel
    return f"{rel.removesuffix('.toml')}/{n // FANOUT:03d}/{n % FANOUT:02d}.toml"


def segment_number(path: str) -> tuple[str, int] | None:
    """``(session file, n)`` for segment ``n`` >= 1 of a session, else None."""
    parts = path.split("/")
    if len(parts) != 5 or f"{parts[0]}/{parts[1]}" != LEDGER_DIR or not _safe_session(parts[2]):
        return None
    n = segment_in(parts[3], parts[4])
    return (f"{LEDGER_DIR}/{parts[2]}.toml", n) if n else None


_LOWS = {f"{n:02d}.toml": n for n in range(FANOUT)}  # a segment's name in its folder -> n % 64


def segment_in(high: str, name: str) -> int | None:
    """The number of the segment named ``name`` in a session's folder ``high``, if that is a
    segment's place (``000/01.toml``); None otherwise."""
    found = segments_in(high, [name])
    return found[0][0] if found else None


def segments_in(high: str, names: Iterable[str]) -> list[tuple[int, str]]:
    """``(n, name)`` for each of ``names`` that is segment ``n``'s place in a session's folder
    ``high``, in the order given. (A commit of a long session lists every segment: one table
    look-up a name.)"""
    if len(high) != 3 or not (high.isascii() and high.isdigit()):
        return []
    first = int(high) * FANOUT
    return [
        (first + low, name)
        for name in names
        if (low := _LOWS.get(name)) is not None and first + low
    ]


def session_file_of(path: str) -> str | None:
    """The session file a ledger path belongs to: itself, or the session a segment is of."""
    found = segment_number(path)
    if found:
        return found[0]
    return path if is_ledger_file(path) and path != LEDGER_PATH else None


def _safe_session(name: str) -> bool:
    """``[A-Za-z0-9][A-Za-z0-9_-]{0,79}`` without a regular expression (bench/hook.py: its
    compile was a measurable part of every commit): ASCII, 1-80 characters, a letter or digit
    first, then letters, digits, ``_`` and ``-``."""
    return (
        0 < len(name) <= 80
        and name.isascii()
        and name[0].isalnum()
        and name.replace("-", "a").replace("_", "a").isalnum()
    )


def ledger_file(session_id: str) -> str:
    """The per-session ledger file of ``session_id``. Ids come from a tracked file anyone can
    edit: one that is not a plain name becomes a hash, so it can never leave the folder."""
    if _safe_session(session_id):
        return f"{LEDGER_DIR}/{session_id}.toml"
    from tg_git.domain.gitobjects import sha1_hex  # lazy: 0.5 ms

    digest = sha1_hex(session_id.encode("utf-8", "surrogatepass"))[:20]
    return f"{LEDGER_DIR}/x{digest}.toml"


def pending_file(rel: str) -> str:
    """The pending file an older tg-git kept beside the per-session ledger file ``rel``, in
    the work tree and staged: still read, and folded by the next commit."""
    return rel.removesuffix(".toml") + PENDING


def held_file(rel: str) -> str:
    """Where the events recorded for the session of ``rel`` since the last commit wait, under
    the git dir (``Repo.git_path``): every writer but the commit hook adds them there, so no
    command stages anything and `git merge`, `pull --rebase`, `checkout`, `stash` and
    `rebase` meet an index that is the user's alone; the next commit folds them into ``rel``."""
    return f"{HELD}/{rel.rsplit('/', 1)[-1]}"


def checkpoint_files(folder: str = CHECKPOINT_ROOT) -> tuple[str, str]:
    """The paths of ``harness_checkpoint.json`` and ``CHECKPOINT.md`` in ``folder`` (a
    ``checkpoint.dir`` that ``checkpoint_dir_problem`` passed; ``.`` is the root)."""
    folder = folder.strip("/")
    if folder in ("", CHECKPOINT_ROOT):
        return CHECKPOINT_JSON, CHECKPOINT_MD
    return f"{folder}/{CHECKPOINT_JSON}", f"{folder}/{CHECKPOINT_MD}"


def is_checkpoint_file(path: str) -> bool:
    """A checkpoint file's name, in whatever folder a save put it."""
    return path.rsplit("/", 1)[-1] in (CHECKPOINT_JSON, CHECKPOINT_MD)


def checkpoint_dir_problem(folder: str) -> str | None:
    """Why ``folder`` cannot be ``checkpoint.dir`` (a message key), or None: it must be a
    relative path inside the work tree, in ``/`` form, with no ``..``, not inside ``.git``,
    no control character (what the file system holds is checked where it is written)."""
    if folder in ("", CHECKPOINT_ROOT):
        return None
    if folder.startswith(("/", "\\")) or (len(folder) > 1 and folder[1] == ":"):
        return "checkpoint_dir.absolute"
    if "\\" in folder or any(ord(c) < 32 or ord(c) == 127 for c in folder):
        return "checkpoint_dir.characters"
    parts = [p for p in folder.strip("/").split("/") if p not in ("", ".")]
    if ".." in parts:
        return "checkpoint_dir.dotdot"
    if any(p.lower() == ".git" for p in parts):
        return "checkpoint_dir.git"
    if len(folder) > 200:
        return "checkpoint_dir.long"
    return None


def checkpoint_dir(folder: str) -> str:
    """``folder`` as the config keeps it: ``/`` separated, no ``.`` or empty parts, ``.`` for
    the root."""
    parts = [p for p in folder.strip().strip("/").split("/") if p not in ("", ".")]
    return "/".join(parts) or CHECKPOINT_ROOT
