"""The level an agent hook may answer from without starting Python: ``tg-git/hot/state`` under
the work tree's git dir, written by every process that computes the level, read by the shell
(``tg_git.agents.formats``: the commands ``agent install`` writes).

The state holds the level and exactly what it was computed from, as the shell can check it
with its builtins alone: the work tree, the common dir, HEAD's first line, the level, the
session's name, then whether each of the sources every state names (``FIXED``, listed in the
shell script itself: the state gives one character each) is there, then one line for each
other file or folder the session is read from (``g``: the git dir, ``c``: the common dir,
``t``: the work tree, ``>``: under the last source written whole, its path from there; ``+``
present, ``-`` absent, ``=`` present, its changes told by its writers instead), the session's
name written ``@`` once in each. The shell's ``read`` takes one
byte a system call: the fewer bytes, the cheaper the call. The state's own modification time
is two seconds before the process started, whole seconds (a file system that keeps seconds
only, or two); a file changed since is newer than the state (``test -nt``) and the shell
starts Python. A changed folder tells a file added, removed or renamed in it (git replaces a
file by writing a new one). The live readings change on every status-line refresh: their
writers (the status line, the hooks) take the state away after each reading, and a process
that computed the level writes a state only when the readings it read are still the file
there (same inode, size and time) after the state is in place.

Nothing here trusts the state: the shell treats any doubt (no state, not a regular file, a
link, another format or list of sources, another work tree or HEAD, a file changed, a clock
behind the state) as "start Python", and Python never reads the state at all. It is written
atomically (a new file renamed over), never through a link, and its failure only costs the
next hook Python.
"""

from __future__ import annotations

import os
import stat
import time

from tg_git.domain import layout

TYPE_CHECKING = False  # `import typing` costs every hook a few ms (bench/hook.py)
if TYPE_CHECKING:
    from pathlib import Path

    from tg_git.repo.git import Repo

FOLDER = "tg-git/hot"  # under the work tree's git dir
STATE = f"{FOLDER}/state"
NOW = f"{FOLDER}/now"  # the shell touches it: its clock against the state's
END = "."
NAME = "@"  # the session's name in a source's path (no path holds it otherwise)
UNDER = ">"  # a source under the last one written whole, its path from there
LEVELS = ("none", "ok", "warning", "force-save")  # "none": no session; the halt is never kept
LIVE = "tg-git/live.json"
MARGIN_S = 2  # seconds before the process started, whole seconds (FAT keeps two)
MOST_SEGMENTS = 8  # a longer session lists its last segment file and its folders only
SAVING = "tg-git/saving.json"  # a checkpoint save under way: Python finishes it first
# A rebase under way names its branch in its folder; reftable replaces tables.list (a rename
# in its folder) on every update.
# The plan windows' readings (the status line's file, the rollouts' in the usage store) move
# the level when a window's share is set.
_GIT = (
    "HEAD",
    "ORIG_HEAD",
    "rebase-merge",
    "rebase-apply",
    "tg-git/session",
    "tg-git/agents.json",
    "tg-git/pending",
    SAVING,
    "tg-git/windows.json",
    "tg-git/usage",
)
_COMMON = ("packed-refs", "refs/replace", "info/grafts", "reftable", "tg-git/journal")
_CONFIG = (layout.CONFIG_DIR, layout.CONFIG_PATH, layout.LEDGER_PATH, layout.LEDGER_DIR)
# What every state names, in this order, the live readings last: the shell script lists them.
FIXED = (
    *(("g", p) for p in _GIT),
    *(("c", p) for p in _COMMON),
    *(("t", p) for p in _CONFIG),
)
FIXED_WORDS = " ".join(f"{base}{rel}" for base, rel in (*FIXED, ("g", LIVE)))
# The format, and with it the list the shell checks the state's characters against: another
# list is another format (tests/agents/test_hot_hook.py pins each format's list), which a
# script of another format reads as a doubt.
MAGIC = "tg-git-hot 2"


def started() -> int:
    """The time a process takes before it reads anything the level is computed from."""
    return time.time_ns()


def _line(path: str) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.readline(4096).rstrip(b"\n").decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return "\0"  # no line the shell reads back equals it


def _branches(git_dir: str) -> list[str]:
    """The refs HEAD names, here and in a rebase under way (as ``memo.refs`` reads them)."""
    found = []
    for name in ("HEAD", "rebase-merge/head-name", "rebase-apply/head-name"):
        ref = _line(os.path.join(git_dir, name)).removeprefix("ref: ").strip()
        if ref.startswith("refs/heads/") and ".." not in ref and "\n" not in ref:
            found += [ref, f"logs/{ref}"]
    return found


def _listing(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _journals(common: str, rel: str) -> list[str]:
    """The journal folders, and the session's journal in each (other lines of work too)."""
    base = "tg-git/journal"
    name = (layout.session_file_of(rel) or rel).rsplit("/", 1)[-1]
    found = []
    for branch in _listing(os.path.join(common, base)):
        found += [f"{base}/{branch}", f"{base}/{branch}/{name}"]
    return found


def _tree(root: str, git_dir: str, rel: str) -> list[str]:
    """The config and the session's files in the work tree, and their folders."""
    found = [
        layout.CONFIG_DIR,
        layout.CONFIG_PATH,
        layout.LEDGER_PATH,
        layout.LEDGER_DIR,
        rel,
        layout.pending_file(rel),
    ]
    prefix = rel.removesuffix(".toml")
    highs = [h for h in _listing(os.path.join(root, prefix)) if h.isdigit()]
    found.append(prefix)
    found += [f"{prefix}/{high}" for high in highs]
    segments = [f"{prefix}/{h}/{n}" for h in highs for n in _listing(os.path.join(root, prefix, h))]
    found += segments if len(segments) <= MOST_SEGMENTS else segments[-1:]
    held = layout.held_file(rel)
    found += [f"{layout.HELD}/{n}" for n in _listing(os.path.join(git_dir, layout.HELD))]
    return [*found, held]


def sources(root: str, git_dir: str, common: str, rel: str | None) -> list[tuple[str, str]]:
    """(base, path) of everything the level of ``rel``'s session is computed from, ``FIXED``
    first."""
    found = [*FIXED, *(("c", p) for p in _branches(git_dir))]
    if rel is not None:
        found += [("c", p) for p in _journals(common, rel)]
        found += [("g" if p.startswith("tg-git/") else "t", p) for p in _tree(root, git_dir, rel)]
    return list(dict.fromkeys(found))


def stat_key(path: str) -> tuple[int, int, int] | None:
    """What tells a file's version apart without reading it (never through a link)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


class Watch:
    """What a process saw before it computed the level: the sources' presence and the live
    readings' file."""

    def __init__(self, bases: tuple[str, str, str], rel: str | None, since: int) -> None:
        root, git_dir, common = bases
        self.rel, self.since, self.git_dir = rel, since, git_dir
        self.bases = {"g": git_dir, "c": common, "t": root}
        self.sources = sources(root, git_dir, common, rel)
        self.present = [os.path.lexists(self.path(b, p)) for b, p in self.sources]
        self.live = stat_key(os.path.join(self.bases["g"], LIVE))

    def own_reading(self) -> None:
        """The process wrote a live reading itself: the file as it left it is what it reads."""
        self.live = stat_key(os.path.join(self.bases["g"], LIVE))

    def path(self, base: str, rel: str) -> str:
        return os.path.join(self.bases[base], rel)


def watch(repo: Repo, rel: str | None, since: int) -> Watch:
    """What the level of ``rel``'s session in ``repo`` is about to be computed from."""
    return Watch((str(repo.root), str(repo.git_dir), str(repo.common_dir)), rel, since)


def _name(rel: str | None) -> str:
    """The session's name (its ledger file's, less ``.toml``), which its paths repeat."""
    return "" if rel is None else rel.rsplit("/", 1)[-1].removesuffix(".toml")


def _text(seen: Watch, level: str) -> str | None:
    """The state's lines, or None when what the level was computed from moved meanwhile."""
    head = _line(os.path.join(seen.bases["g"], "HEAD"))
    if head == "\0" or level not in LEVELS:
        return None
    name = _name(seen.rel)
    flags: list[str] = []
    lines: list[str] = []
    anchor = ("", "")  # the last source written whole: one under it is written from there
    for (base, rel), was in zip(seen.sources, seen.present):
        if os.path.lexists(seen.path(base, rel)) != was or "\n" in rel or NAME in rel:
            return None
        if len(flags) < len(FIXED):
            flags.append("+" if was else "-")
            continue
        under = base == anchor[0] and rel.startswith(f"{anchor[1]}/")
        part = rel[len(anchor[1]) + 1 :] if under else rel
        short = part.replace(name, NAME, 1) if name else part
        lines.append(f"{UNDER if under else base}{'+' if was else '-'}{short}")
        anchor = anchor if under else (base, rel)
    flags.append("=" if seen.live is not None else "-")
    head_lines = [MAGIC, seen.bases["t"], seen.bases["c"], head, level, name, "".join(flags)]
    if NAME in name or any("\n" in part or "\r" in part for part in head_lines[1:6]):
        return None
    return "\n".join([*head_lines, *lines, END]) + "\n"


def leave(seen: Watch, level: str | None) -> None:
    """After the level was computed: the state for the next hook (``level`` None: the halt,
    or nothing the shell may answer from; the state goes). Bookkeeping: it never raises."""
    try:
        # The clock went back since the process started: a file changed meanwhile may carry a
        # time before the state's, which the shell would take for one read before it.
        back = time.time_ns() < seen.since
        if level is None or back or os.path.lexists(os.path.join(seen.bases["g"], SAVING)):
            forget(seen.git_dir)
            return
        text = _text(seen, level)
        if text is None:
            forget(seen.git_dir)
            return
        _write(seen, text)
        if stat_key(os.path.join(seen.bases["g"], LIVE)) != seen.live:
            forget(seen.git_dir)  # a reading came meanwhile: it may change the level
    except (OSError, ValueError):
        forget(seen.git_dir)


def _folder(git_dir: str) -> str | None:
    """``tg-git/hot`` made when missing; None when it or ``tg-git`` is not a plain folder."""
    outer = os.path.join(git_dir, "tg-git")
    folder = os.path.join(git_dir, FOLDER)
    if os.path.islink(outer):
        return None
    os.makedirs(folder, exist_ok=True)
    for path in (outer, folder):
        if os.path.islink(path) or not os.path.isdir(path):
            return None
    return folder


def _clear_clock(folder: str) -> None:
    """Take away what is at ``now`` but a regular file (a FIFO would hang the shell's touch,
    a link or a folder would start Python on every call): the shell makes it again."""
    path = os.path.join(folder, "now")
    try:
        if stat.S_ISREG(os.lstat(path).st_mode):
            return
        os.rmdir(path) if os.path.isdir(path) and not os.path.islink(path) else os.unlink(path)
    except OSError:
        pass


def _write(seen: Watch, text: str) -> None:
    folder = _folder(seen.bases["g"])
    if folder is None:
        return
    _clear_clock(folder)
    tmp = os.path.join(folder, f".state.{os.getpid()}.{os.urandom(3).hex()}")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        stamp = (seen.since // 10**9 - MARGIN_S) * 10**9
        os.utime(tmp, ns=(stamp, stamp))
        os.replace(tmp, os.path.join(folder, "state"))
    except BaseException:
        os.unlink(tmp)
        raise


def forget(git_dir: Path | str) -> None:
    """Take the state away: the next hook starts Python (after a live reading was written)."""
    try:  # noqa: SIM105 (contextlib: ~1.5 ms of every refresh)
        os.unlink(os.path.join(git_dir, STATE))
    except OSError:
        pass
