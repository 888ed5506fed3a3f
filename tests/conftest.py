"""Real repositories in temp dirs, real git, real hooks. Nothing here mocks git."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.repos import git
from tests.support.repos import set_up


def _tree(folder: Path) -> set[str]:
    """Every path under ``folder``, relative, without following links."""
    found: set[str] = set()
    for top, dirs, files in os.walk(folder):
        rel = Path(top).relative_to(folder)
        found.update(str(rel / name) for name in (*dirs, *files))
    return found


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
    # Where no config names a language the locale does: a Korean one would change the words.
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(key, "").lower().startswith("ko"):
            monkeypatch.setenv(key, "C.UTF-8")
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


@pytest.fixture
def plain_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    return repo


_TEMPLATES: dict[tuple[str, ...], Path] = {}


def _template_key(home: str) -> tuple[str, ...]:
    """What a set-up repository depends on besides its folder: the environment (less the
    paths into this test's own HOME) and the global git config."""
    env = sorted(
        f"{k}={v}" for k, v in os.environ.items() if home not in v and k != "PYTEST_CURRENT_TEST"
    )
    gitconfig = Path(home, ".gitconfig")
    return (*env, gitconfig.read_text() if gitconfig.is_file() else "")


@pytest.fixture
def repo(plain_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository with a first commit, tg-git initialised (200k budget) and hooks installed.
    Set up through the hooks once per worker and environment, then copied (as `cp -a` would:
    git and tg-git keep no absolute path in it); the copy is what ``set_up`` would make, but
    ~1 s cheaper for each of the ~300 tests that ask for it."""
    key = _template_key(os.environ["HOME"])
    template = _TEMPLATES.get(key)
    if template is None:
        template = tmp_path_factory.mktemp("repo-template") / "repo"
        template.mkdir()
        git(template, "init", "-q")
        _TEMPLATES[key] = set_up(template)
    shutil.rmtree(plain_repo)
    shutil.copytree(template, plain_repo, symlinks=True)
    # The copies' inodes and ctimes are new: without this, git takes every file for edited
    # (sparse-checkout would keep them).
    git(plain_repo, "update-index", "-q", "--refresh")
    return plain_repo


@pytest.fixture
def agent_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Every agent's home folder in ``tmp_path``, named by its environment variable: no test
    reads an agent's real home (a module asks for it with ``usefixtures("agent_homes")``)."""
    homes = {
        "CLAUDE_CONFIG_DIR": tmp_path / "claude-config",
        "CODEX_HOME": tmp_path / "codex-home",
        "GEMINI_CLI_HOME": tmp_path / "gemini-home",
    }
    for name, path in homes.items():
        path.mkdir()
        monkeypatch.setenv(name, str(path))
    return homes
