"""Real repositories in temp dirs, real git, real hooks. Nothing here mocks git."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _tree(folder: Path) -> set[str]:
    """Every path under ``folder``, relative, without following links."""
    found = set()
    for top, dirs, files in os.walk(folder):
        rel = Path(top).relative_to(folder)
        found.update(str(rel / name) for name in (*dirs, *files))
    return found


PROJECT = Path(__file__).resolve().parents[1]
"""The project's own folder (README.md, docs/, tg_git/, tests/)."""

TG_GIT = shutil.which("tg-git", path=str(Path(sys.executable).parent)) or "tg-git"


@pytest.fixture
def home() -> Path:
    """This test's own $HOME (a temporary folder): request it to write there on purpose (an
    agent's user settings, a global git config); without it, nothing may appear there."""
    return Path(os.environ["HOME"])


@pytest.fixture(autouse=True)
def pinned_env(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> Iterator[None]:
    """Pin author/committer, keep git and tg-git off the user's $HOME and global config: each
    test's HOME is its own temporary folder, and the test fails if something wrote into it
    unasked (the machine's real home is never compared: other processes write there)."""
    home = tmp_path_factory.mktemp("home")
    for key in list(os.environ):
        if key.startswith(("GIT_", "TG_GIT_", "PRE_COMMIT")):
            monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Author")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "author@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Committer")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "committer@example.com")
    monkeypatch.setenv("GIT_TEMPLATE_DIR", "")
    # The built-in estimator tiers, even where the exact backend (tg-git[exact]) is installed;
    # the tests of that backend turn it back on.
    monkeypatch.setenv("TG_GIT_EXACT", "0")
    (home / ".gitconfig").write_text(
        "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
    )
    before = _tree(home)
    yield
    # A `network` test runs package managers (pip, npm), which keep their caches in $HOME.
    if "home" not in request.fixturenames and request.node.get_closest_marker("network") is None:
        new = sorted(_tree(home) - before)
        assert not new, (
            f"something wrote into $HOME ({home}): {', '.join(new[:5])}; tg-git must not, and a "
            "test that means to asks for the `home` fixture"
        )


def git(
    cwd: Path, *args: str, check: bool = True, **kw: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=check, capture_output=True, text=True, **kw
    )  # type: ignore[call-overload]


def tg(
    cwd: Path,
    *args: str,
    check: bool = True,
    input: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [TG_GIT, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=input,
        env={**os.environ, **(env or {})},
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"tg-git {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


def commit(
    cwd: Path, *args: str, check: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        ["git", "commit", "-q", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"git commit {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


@pytest.fixture
def plain_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    return repo


def set_up(repo: Path) -> Path:
    """A first commit in the initialised ``repo``, tg-git initialised (200k budget), hooks
    installed, and the set-up committed through them."""
    (repo / "README.md").write_text("# demo\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "first")
    tg(repo, "init", "--max-tokens", "200000")
    tg(repo, "install")
    commit(repo, "-m", "set up tg-git")
    return repo


@pytest.fixture
def repo(plain_repo: Path) -> Path:
    """A repository with a first commit, tg-git initialised (200k budget) and hooks installed."""
    return set_up(plain_repo)


def ledger_file(repo: Path) -> Path:
    """The newest session's ledger file in the work tree (per-session files sort by time)."""
    files = sorted((repo / ".tg-git" / "ledger").glob("*.toml"))
    assert files, "no per-session ledger file"
    return files[-1]


def ledger_at(repo: Path, rev: str = "HEAD") -> str:
    """Every ledger file's text at ``rev`` (``:`` for the index), joined."""
    spec = "" if rev == ":" else rev
    names = (
        git(repo, "ls-files", "--", ".tg-git/").stdout.split()
        if rev == ":"
        else (git(repo, "ls-tree", "-r", "--name-only", spec, "--", ".tg-git/").stdout.split())
    )
    texts = [
        git(repo, "show", f"{spec}:{n}" if spec else f":{n}").stdout
        for n in names
        if n.endswith(".toml") and n != ".tg-git/config.toml"
    ]
    return "\n".join(texts)


_PR_CAPBSET_DROP = 24
_BYPASS_CAPS = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER


def modes_bind(fsize: int | None = None) -> Callable[[], None]:
    """A ``preexec_fn`` under which file modes bind even for root and, with ``fsize``, no file
    grows past ``fsize`` bytes. Root loses the capabilities that bypass modes from its bounding
    set, so they stay off in everything it starts (git, the hook shim, tg-git); anyone else is
    bound by modes already. A write past ``fsize`` fails with EFBIG as one on a full disk fails
    with ENOSPC (SIGXFSZ is ignored, and git inherits that; the git processes tg-git starts get
    the default back and die of it, as git may on a full disk)."""

    # Everything is looked up before the fork: the child of a threaded process (xdist's
    # workers are) must not import or take a lock before exec.
    import ctypes
    import resource
    import signal

    prctl = ctypes.CDLL(None, use_errno=True).prctl if os.geteuid() == 0 else None

    def preexec() -> None:
        if prctl is not None:
            for cap in _BYPASS_CAPS:
                if prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
                    raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return preexec


def claude_binary(tmp_path: Path) -> str:
    """TG_GIT_CLAUDE_CLI, or the native binary npm installs (~240 MB); skips without either."""
    binary = os.environ.get("TG_GIT_CLAUDE_CLI", "")
    if not binary:
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed")
        subprocess.run([npm, "install", "--silent", "--ignore-scripts", "@anthropic-ai/claude-code"],
                       cwd=tmp_path, check=True, capture_output=True, timeout=1200)  # fmt: skip
        binary = str(
            tmp_path / "node_modules" / "@anthropic-ai" / "claude-code-linux-x64" / "claude"
        )
    if not Path(binary).is_file():
        pytest.skip("no native Claude Code binary for this platform")
    return binary
