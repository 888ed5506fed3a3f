"""The only module that starts a process: git (every call goes through ``spawn``; ``-z`` output is
split here), and the one other program tg-git runs, the user's own status-line command.

Plain processes, no library: a hook starts git a few times and must stay cheap, and where many
objects are read at once (resume, verify) one ``git cat-file --batch`` process serves them all
(``read_objects``). GitPython was tried and left out: importing it costs 60-100 ms, more than
the whole pre-commit hook's budget. ``subprocess`` itself (with ``threading``, ``selectors``,
``signal`` and ``locale``) cost every commit ~4 ms to import (bench/hook.py), so a git process
started in the current directory without a timeout goes through ``os.posix_spawn`` and pipes
read with ``select.poll``; anything else through ``subprocess``, imported then.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Generator, Mapping, Sequence

from tg_git.domain.errors import GitError, NotReady
from tg_git.domain.gitobjects import TreeEntry, tree_entries
from tg_git.domain.typed import NamedTuple
from tg_git.repo import regular

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:  # the hooks' paths are strings: ``pathlib`` costs a commit ~5 ms to import
    from pathlib import Path

# The empty tree's id in each object format git has (``git init --object-format=...``).
EMPTY_TREES = {
    "sha1": "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "sha256": "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
}
NO_GIT = "git is not installed or not on PATH; install git and try again."
# A child: SIGPIPE, SIGXFSZ reset as subprocess does; no signal held back (tests/repo/test_spawn.py)
_DEFAULT_SIGNALS = (13, 25)
_CHUNK = 1 << 16


class Completed(NamedTuple):
    """A finished git process: its exit code (negative: the signal that ended it) and output."""

    returncode: int
    stdout: bytes
    stderr: bytes


def spawn(
    args: Sequence[str],
    cwd: str | os.PathLike[str] | None = None,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> Completed:
    """Run ``git ARGS`` to its end (every git process tg-git starts goes through here); stdin
    is ``input``, or this process's own when None."""
    argv = ["git", *args]
    try:
        if timeout is None and sys.platform in ("linux", "darwin") and _is_here(cwd):
            return _posix_run(argv, input, env)
        import subprocess  # lazy: 7.0 ms

        argv[0] = _executable("git", env)  # not as subprocess would: see there
        proc = subprocess.run(
            argv, capture_output=True, cwd=cwd, input=input, env=env, timeout=timeout
        )
    except FileNotFoundError:
        raise GitError(NO_GIT) from None
    return Completed(proc.returncode, proc.stdout, proc.stderr)


def _is_here(cwd: str | os.PathLike[str] | None) -> bool:
    """``cwd`` is the current directory (where a hook runs git: the top of the work tree)."""
    try:
        return cwd is None or os.path.samefile(cwd, os.curdir)
    except OSError:
        return False


def _executable(name: str, env: Mapping[str, str] | None) -> str:
    """``name`` found on the PATH the child gets (``env``'s, as ``os.get_exec_path`` reads it,
    without the ``warnings`` module it imports, ~0.4 ms a hook), in its absolute folders only:
    an empty or relative entry is the work tree, whose files are a clone's, never run."""
    for folder in (os.environ if env is None else env).get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder, name)
        if os.path.isabs(folder) and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(name)


def _posix_run(argv: list[str], input: bytes | None, env: Mapping[str, str] | None) -> Completed:
    """``subprocess.run(argv, capture_output=True, input=input, env=env)`` in the current
    directory: ``os.posix_spawn`` with stdout and stderr (and stdin for ``input``) on pipes,
    read and written as they become ready, so no pipe fills up and blocks git."""
    import select  # lazy: 0.3 ms

    fds = [*os.pipe(), *os.pipe(), *(os.pipe() if input is not None else ())]
    try:
        actions = [(os.POSIX_SPAWN_DUP2, fds[1], 1), (os.POSIX_SPAWN_DUP2, fds[3], 2)]
        if input is not None:
            actions.append((os.POSIX_SPAWN_DUP2, fds[4], 0))
        pid = os.posix_spawn(
            _executable(argv[0], env),
            argv,
            os.environ if env is None else env,
            file_actions=actions,
            setsigdef=_DEFAULT_SIGNALS,
            setsigmask=(),
        )
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    for fd in fds[1::2] if input is None else (fds[1], fds[3], fds[4]):
        os.close(fd)  # the child's ends
    reading: dict[int, list[bytes]] = {fds[0]: [], fds[2]: []}  # joined once at the end
    poller = select.poll()
    for fd in reading:
        poller.register(fd, select.POLLIN)
    todo, writer = memoryview(input or b""), fds[5] if input is not None else -1
    if writer >= 0:
        os.set_blocking(writer, False)
        poller.register(writer, select.POLLOUT)
    open_fds = len(reading) + (writer >= 0)
    try:
        while open_fds:
            for fd, _event in poller.poll():
                if fd == writer:
                    try:
                        todo = todo[os.write(fd, todo[:_CHUNK]) :]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:  # git stopped reading: what it wrote still counts
                        todo = todo[:0]
                    if not todo:
                        poller.unregister(fd)
                        os.close(fd)
                        writer, open_fds = -1, open_fds - 1
                    continue
                data = os.read(fd, _CHUNK)
                if data:
                    reading[fd].append(data)
                else:
                    poller.unregister(fd)
                    open_fds -= 1
    except BaseException:  # an interrupt: git goes too, as with subprocess.run
        os.kill(pid, 9)  # SIGKILL
        raise
    finally:
        for fd in (fds[0], fds[2], writer):
            if fd >= 0:
                os.close(fd)
        status = os.waitpid(pid, 0)[1]
    out, err = (b"".join(reading[fd]) for fd in (fds[0], fds[2]))
    return Completed(os.waitstatus_to_exitcode(status), out, err)


def stream(
    args: Sequence[str],
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> Generator[bytes, None, None]:
    """``git ARGS``'s stdout in pieces as git writes them, so that no more than a piece of a
    large output is held at once; a failure raises ``GitError`` after the last piece (what was
    read is then void). Stopped early, git is ended. Outside the current directory, or where
    there is no ``posix_spawn``, the output comes whole in one piece."""
    if not (sys.platform in ("linux", "darwin") and _is_here(cwd)):
        yield run(args, cwd, env=env)
        return
    import select  # lazy: 0.3 ms

    fds = [*os.pipe(), *os.pipe()]
    try:
        actions = [(os.POSIX_SPAWN_DUP2, fds[1], 1), (os.POSIX_SPAWN_DUP2, fds[3], 2)]
        pid = os.posix_spawn(
            _executable("git", env),
            ["git", *args],
            os.environ if env is None else env,
            file_actions=actions,
            setsigdef=_DEFAULT_SIGNALS,
            setsigmask=(),
        )
    except BaseException as exc:
        for fd in fds:
            os.close(fd)
        if isinstance(exc, FileNotFoundError):
            raise GitError(NO_GIT) from None
        raise
    os.close(fds[1])
    os.close(fds[3])
    said, poller, open_fds, done = bytearray(), select.poll(), 2, False
    poller.register(fds[0], select.POLLIN)
    poller.register(fds[2], select.POLLIN)
    try:
        while open_fds:
            for fd, _event in poller.poll():
                data = os.read(fd, _CHUNK)
                if not data:
                    poller.unregister(fd)
                    open_fds -= 1
                elif fd == fds[0]:
                    yield data
                else:
                    said = (said + data)[-_CHUNK:]  # its last words are why it failed
        done = True
    finally:
        if not done:  # the reader stopped (or was interrupted): git goes too
            os.kill(pid, 9)  # SIGKILL
        os.close(fds[0])
        os.close(fds[2])
        status = os.waitpid(pid, 0)[1]
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise GitError.from_key(
            "git_failed", command=args[0], reason=_reason(Completed(code, b"", bytes(said)))
        )


class Shown(NamedTuple):
    """A process's exit code and its stdout and stderr merged, as text (what the demo shows)."""

    returncode: int
    stdout: str


def run_shown(args: Sequence[str], cwd: str | os.PathLike[str], env: Mapping[str, str]) -> Shown:
    """Run ``git ARGS`` with stdout and stderr merged into one text, as a terminal shows them."""
    import subprocess  # lazy: 7.0 ms

    try:
        proc = subprocess.run(
            [_executable("git", env), *args],
            cwd=cwd,
            env=dict(env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
    except FileNotFoundError:
        raise GitError(NO_GIT) from None
    return Shown(proc.returncode, proc.stdout)


def remote_tags(repo: Repo, remote: str, pattern: str, timeout: float) -> Completed | None:
    """``git ls-remote --tags REMOTE PATTERN`` without a credential prompt; None when the remote
    did not answer within ``timeout`` seconds."""
    import subprocess  # lazy: 7.0 ms

    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        return spawn(
            ["ls-remote", "--tags", remote, pattern], cwd=repo.top, env=env, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None


def run_command(command: str, data: bytes, timeout: float) -> bytes:
    """Run a user's own shell command (the status line tg-git wraps) with ``data`` on stdin: its
    stdout, or nothing when it fails or outlives ``timeout`` seconds."""
    import subprocess  # lazy: 7.0 ms

    try:
        proc = subprocess.run(
            command, shell=True, input=data, stdout=subprocess.PIPE, timeout=timeout
        )
    except (OSError, subprocess.SubprocessError):
        return b""
    return proc.stdout


def run(
    args: Sequence[str],
    cwd: str | os.PathLike[str] | None = None,
    *,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    check: bool = True,
) -> bytes:
    """Run ``git ARGS`` and return its stdout; a failure becomes a ``GitError``."""
    proc = spawn(args, cwd=cwd, input=input, env=dict(env) if env is not None else None)
    if check and proc.returncode != 0:
        raise GitError.from_key("git_failed", command=args[0], reason=_reason(proc))
    return proc.stdout


def _reason(proc: Completed) -> str:
    """Why a git process failed: the signal that ended it, else the last line it said."""
    if proc.returncode < 0:  # killed (out of memory, a user's kill): its last words are not why
        import signal  # lazy: 1.0 ms

        try:
            return signal.Signals(-proc.returncode).name
        except ValueError:
            return f"signal {-proc.returncode}"
    detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    return detail[-1] if detail else f"exit {proc.returncode}"


def ok(args: Sequence[str], cwd: str | os.PathLike[str] | None = None) -> bool:
    return spawn(args, cwd=cwd).returncode == 0


# The names under a work tree's own git dir (``Repo.git_file``); any other, the common dir.
_OWN_STATE = ("index", "HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "BISECT_LOG")
_PER_WORKTREE = frozenset((*_OWN_STATE, "rebase-merge", "rebase-apply", "tg-git"))


def _as_path(folder: str) -> Path:
    from pathlib import Path  # lazy: 5.1 ms

    return Path(folder)


class Repo(NamedTuple):
    """Where a repository lives: its work tree and the paths git would use for its files.
    (NamedTuples here and in the other modules the hooks load: ``dataclasses`` alone costs a
    hook ~10 ms to import.) Its folders are strings (``pathlib`` costs a commit ~5 ms to
    import); ``root``, ``git_dir`` and ``common_dir`` are the same folders as ``Path``."""

    top: str  # the work tree's top folder
    gitdir: str  # its git dir (a linked worktree's own)
    commondir: str  # the git dir shared by all its worktrees
    object_format: str = "sha1"  # or "sha256": how the repository names its objects

    @property
    def root(self) -> Path:
        return _as_path(self.top)

    @property
    def git_dir(self) -> Path:
        return _as_path(self.gitdir)

    @property
    def common_dir(self) -> Path:
        return _as_path(self.commondir)

    @property
    def empty_tree(self) -> str:
        """The empty tree's id here (what a root commit's changes are taken against)."""
        return EMPTY_TREES[self.object_format]

    def git_file(self, name: str) -> str:
        """``git rev-parse --git-path NAME`` without a process, for the names tg-git uses:
        the index, HEAD, operation state and tg-git's own files live in the work tree's git
        dir (each linked worktree has its own); anything else in the common dir."""
        first = name.split("/", 1)[0]
        return os.path.join(self.gitdir if first in _PER_WORKTREE else self.commondir, name)

    def git_path(self, name: str) -> Path:
        """``git_file`` as a ``Path``."""
        return _as_path(self.git_file(name))

    def git(
        self,
        *args: str,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
    ) -> bytes:
        return run(args, self.top, input=input, env=env, check=check)

    def text(self, *args: str) -> str:
        return self.git(*args).decode("utf-8", "surrogateescape").strip()

    def status(self, *args: str) -> int:
        """``git ARGS``'s exit code alone (a yes/no question git answers with it)."""
        return spawn(args, cwd=self.top).returncode


_DISCOVERY = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
)


def _git_dir_of(dot_git: str) -> str | None:
    """The git dir a work tree's ``.git`` names: the folder itself, or a ``gitdir:`` file's
    target (linked worktrees, submodules: relative to the file's folder); None when it is
    neither (nor a regular file: a FIFO would wait for a writer forever; git passes it by)."""
    if os.path.isdir(dot_git):
        return dot_git
    try:
        text = regular.read_bytes(dot_git).decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir: "):
        return None
    return os.path.join(os.path.dirname(dot_git), text[len("gitdir: ") :])


def _upwards(folder: str) -> Generator[str, None, None]:
    """``folder`` (absolute, normalised) and each folder above it, up to the root."""
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def _find_fast(start: str | os.PathLike[str] | None) -> Repo | None:
    """Git's own discovery for the plain case, without a process: the nearest ``.git`` above
    ``start`` whose git dir has a HEAD, is owned by this user and is not bare, with no
    variable that changes discovery set. Anything else (a bare repository, a submodule's or
    any ``core.worktree``, another user's repository that ``safe.directory`` decides on):
    None, and git is asked. Saves ~2 ms CPU on every hook that finds its repository (median
    0.25 ms against 2.3 ms for the ``git rev-parse`` it replaces, a regular install, load
    12); tests/repo/test_find_fast.py holds its answers to git's."""
    if any(name in os.environ for name in _DISCOVERY):
        return None
    try:
        here = os.path.realpath(start if start is not None else os.getcwd())
    except OSError:
        return None
    join = os.path.join
    for folder in _upwards(here):
        dot_git = join(folder, ".git")
        if not os.path.lexists(dot_git):
            if os.path.isfile(join(folder, "HEAD")) and os.path.isdir(join(folder, "objects")):
                return None  # inside a git dir itself (or a bare repository): ask git
            continue
        git_dir = _git_dir_of(dot_git)
        if git_dir is None:
            return None
        try:
            git_dir = os.path.realpath(git_dir)
            owned = os.stat(git_dir).st_uid == os.geteuid() == os.stat(folder).st_uid
            common = git_dir
            if os.path.isfile(join(git_dir, "commondir")):
                named = regular.read_bytes(join(git_dir, "commondir")).decode("utf-8").strip()
                common = os.path.realpath(join(git_dir, named))
            config = regular.read_bytes(join(common, "config"))
            head = regular.read_bytes(join(git_dir, "HEAD"))[:200].strip()
            stores = os.path.isdir(join(common, "objects")) and os.path.isdir(join(common, "refs"))
        except (OSError, UnicodeDecodeError):
            return None
        # git's own test of a git dir (is_git_directory), else git walks on up: ask git then
        valid_head = head.startswith(b"ref: refs/") or (
            len(head) in (40, 64) and all(c in b"0123456789abcdef" for c in head)
        )
        if not (owned and stores and valid_head):
            return None
        bare = [
            ln.partition(b"=")[2].strip().lower()
            for ln in config.splitlines()
            if ln.strip().lower().startswith(b"bare")
        ]
        if b"worktree" in config or any(v not in (b"false", b"no", b"off", b"0") for v in bare):
            return None  # core.worktree or a bare repository (any spelling): git's rules
        return Repo(folder, git_dir, common, _object_format(config))
    return None


def _object_format(config: bytes) -> str:
    """``extensions.objectFormat`` from a repository's config text (sha1 when unset)."""
    for line in config.splitlines():
        key, _, value = line.partition(b"=")
        if key.strip().lower() == b"objectformat" and value.strip().lower() == b"sha256":
            return "sha256"
    return "sha1"


def find_repo(start: str | os.PathLike[str] | None = None) -> Repo:
    """The repository containing ``start`` (the current directory by default)."""
    fast = _find_fast(start)
    if fast is not None:
        return fast
    proc = spawn(
        [
            "rev-parse",
            "--show-toplevel",
            "--absolute-git-dir",
            "--git-common-dir",
            "--show-object-format",
        ],
        cwd=start,
    )
    if proc.returncode != 0:
        raise NotReady.from_key(
            "not_a_repository" if start is not None or _cwd_exists() else "cwd_deleted"
        )
    lines = proc.stdout.decode("utf-8", "surrogateescape").splitlines()
    if len(lines) < 3 or not lines[0]:
        raise NotReady.from_key("not_a_work_tree")
    root, git_dir, common = (_tidy(line) for line in lines[:3])
    if not os.path.isabs(common):
        common = os.path.realpath(os.path.join(start or os.getcwd(), common))
    fmt = lines[3] if len(lines) > 3 and lines[3] in EMPTY_TREES else "sha1"
    return Repo(root, git_dir, common, fmt)


def _tidy(path: str) -> str:
    """``str(Path(path))``: ``//``, ``.``, a last ``/`` go; ``..`` stays (past a link it is not
    the folder before it: git gives ``GIT_COMMON_DIR`` verbatim)."""
    lead = "//" if path[:2] == "//" and path[2:3] != "/" else path[:1] if path[:1] == "/" else ""
    return lead + "/".join(p for p in path.split("/") if p not in ("", ".")) or "."


def _cwd_exists() -> bool:
    """The current directory still exists (git, in a deleted one, says only that it cannot
    read it; ``stat(".")`` still succeeds there)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def git_dir_here() -> str | None:
    """The git dir of the repository git finds from the current directory (GIT_DIR,
    ``--separate-git-dir`` and worktrees included), None outside one."""
    proc = spawn(["rev-parse", "--absolute-git-dir"])
    out = proc.stdout.decode("utf-8", "surrogateescape").strip()
    return out if proc.returncode == 0 and out else None


def head(repo: Repo) -> str | None:
    """HEAD's commit id, or None on an unborn branch."""
    out = repo.git("rev-parse", "-q", "--verify", "HEAD^{commit}", check=False).strip()
    return out.decode() or None


def branch(repo: Repo) -> str:
    """The branch HEAD is on (mid-rebase: the branch being rebased), else ``detached``."""
    for name in ("rebase-merge/head-name", "rebase-apply/head-name", "HEAD"):
        try:
            text = regular.read_bytes(repo.git_file(name)).decode("utf-8", "replace").strip()
        except OSError:
            continue
        ref = text.removeprefix("ref: ")
        if ref.startswith("refs/heads/"):
            return ref[len("refs/heads/") :]
    return "detached"


def stage_file(repo: Repo, path: str, data: bytes, env: Mapping[str, str] | None = None) -> str:
    """Write ``data`` as a blob and stage it at ``path`` (mode 100644); returns the blob id."""
    blob = repo.git("hash-object", "-w", "--stdin", input=data).decode().strip()
    repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)
    return blob


class Object(NamedTuple):
    """An object as ``cat-file --batch`` gives it: id, content and type (blob, tree, ...)."""

    id: str
    data: bytes
    kind: str

    def entries(self) -> list[TreeEntry]:
        """A tree's entries (a truncated tree raises ValueError); nothing for another type."""
        return tree_entries(self.id, self.data) if self.kind == "tree" else []


def _batch_line(repo: Repo, spec: str, env: Mapping[str, str] | None) -> str:
    """A spec as one line of ``cat-file --batch`` input: a path with a newline in it is
    resolved to its id first (``--batch -z`` needs git 2.38); a state ref that git would
    wait on is no object."""
    name = regular.state_ref(spec) if "_HEAD" in spec else None
    if name and regular.waits(repo.git_file(name)):  # a FIFO at ORIG_HEAD hung every commit
        return "missing-object"
    if "\n" not in spec:
        return spec
    out = run(["rev-parse", "-q", "--verify", spec], repo.top, env=env, check=False).strip()
    return out.decode("ascii", "replace") or "missing-object"  # no object has that name


def read_objects(
    repo: Repo, specs: Sequence[str], env: Mapping[str, str] | None = None
) -> list[Object | None]:
    """Resolve several revisions or ``rev:path`` / ``:path`` specs with one ``git cat-file
    --batch`` process: each one's ``Object``, or None where a spec names nothing."""
    lines = [_batch_line(repo, spec, env) for spec in specs]
    proc = spawn(
        ["cat-file", "--buffer", "--batch"],  # no flush an object: the input is all there
        cwd=repo.top,
        input="".join(f"{s}\n" for s in lines).encode("utf-8", "surrogateescape"),
        env=dict(env) if env is not None else None,
    )
    if proc.returncode != 0:
        raise GitError.from_key("git_failed", command="cat-file", reason="--batch")
    out, pos = proc.stdout, 0
    result: list[Object | None] = []
    for _ in specs:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()  # "ID TYPE SIZE", or "SPEC missing" (a spec with spaces)
        pos = end + 1
        if len(header) != 3 or not header[2].isdigit():
            result.append(None)
            continue
        size = int(header[2])
        result.append(Object(header[0].decode(), out[pos : pos + size], header[1].decode()))
        pos += size + 1
    return result
