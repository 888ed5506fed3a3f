"""Where tg-git keeps things in a work tree: the config, the ledger files, the checkpoint files.

The one home of these paths; every layer names a file through these constants.
"""

from __future__ import annotations

CONFIG_DIR = ".tg-git"
CONFIG_PATH = f"{CONFIG_DIR}/config.toml"
LEDGER_PATH = f"{CONFIG_DIR}/ledger.toml"  # the single ledger of tg-git 0.1: still read
LEDGER_DIR = f"{CONFIG_DIR}/ledger"  # one file a session: `.tg-git/ledger/<session>.toml`
PENDING = ".pending.toml"  # `<session>.pending.toml`: events recorded since the last commit
LEDGER_ATTRIBUTES = (f"{LEDGER_PATH} merge=union", f"{LEDGER_DIR}/*.toml merge=union")
CHECKPOINT_JSON = "harness_checkpoint.json"
CHECKPOINT_MD = "CHECKPOINT.md"
ALWAYS_EXCLUDED = (CONFIG_PATH, LEDGER_PATH, ".gitattributes", CHECKPOINT_JSON, CHECKPOINT_MD)


def is_ledger_file(path: str) -> bool:
    """A file tg-git keeps events in: the old single ledger or a per-session one."""
    if path == LEDGER_PATH:
        return True
    folder, _, name = path.rpartition("/")
    return folder == LEDGER_DIR and name.endswith(".toml") and "/" not in name


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
    from tg_git.domain.gitobjects import sha1_hex

    digest = sha1_hex(session_id.encode("utf-8", "surrogatepass"))[:20]
    return f"{LEDGER_DIR}/x{digest}.toml"


def pending_file(rel: str) -> str:
    """The pending file of the per-session ledger file ``rel``: where every writer but the
    commit hook adds events. No commit holds it (the hook folds it into ``rel``), so git
    carries it, staged, across `git checkout` and `git bisect`, while ``rel`` stays as HEAD
    has it (a changed ``rel`` would make git refuse a branch whose ``rel`` differs)."""
    return rel.removesuffix(".toml") + PENDING
