"""Real repositories in temp dirs, real git, real hooks. Nothing here mocks git."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from datetime import timedelta
from datetime import timezone
from pathlib import Path
from typing import Any

import pytest

from bench._transcripts import token_counts as token_counts
from tg_git.domain import eventlog
from tg_git.domain import layout
from tg_git.domain.eventlog import parse
from tg_git.estimate.estimator import estimate_tokens


def _tree(folder: Path) -> set[str]:
    """Every path under ``folder``, relative, without following links."""
    found: set[str] = set()
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


def git(cwd: Path, *args: str, check: bool = True, input: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """A real ``git`` in ``cwd``; ``env``, when given, is the whole environment."""
    return subprocess.run(
        ["git", *args], cwd=cwd, check=check, capture_output=True, text=True, input=input, env=env
    )


def _run(
    cmd: list[str], cwd: Path, check: bool, input: str | None, env: dict[str, str] | None
) -> subprocess.CompletedProcess[str]:
    """``cmd`` in ``cwd`` with ``env`` over this test's environment; with ``check``, an exit
    other than 0 fails the test with everything the command printed."""
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        capture_output=True,
        text=True,
        input=input,
        env={**os.environ, **(env or {})},
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


def tg(
    cwd: Path,
    *args: str,
    check: bool = True,
    input: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The installed ``tg-git`` CLI, as a user runs it."""
    return _run([TG_GIT, *args], cwd, check, input, env)


def commit(
    cwd: Path, *args: str, check: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A real ``git commit -q``, through whatever hooks are installed."""
    return _run(["git", "commit", "-q", *args], cwd, check, None, env)


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


_TEMPLATES: dict[tuple[str, ...], Path] = {}


def _template_key(home: str) -> tuple[str, ...]:
    """What a set-up repository depends on besides its folder: the environment (less the
    paths into this test's own HOME) and the global git config."""
    env = sorted(f"{k}={v}" for k, v in os.environ.items()
                 if home not in v and k != "PYTEST_CURRENT_TEST")  # fmt: skip
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


def plant(path: Path, text: str) -> Path:
    """``text`` at ``path``, its folders made: a file the user or another tool left there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def ledger_file(repo: Path) -> Path:
    """The newest session's ledger file in the work tree (per-session files sort by time)."""
    files = sorted(
        p for p in (repo / ".tg-git" / "ledger").glob("*.toml") if ".pending" not in p.name
    )
    assert files, "no per-session ledger file"
    return files[-1]


def pending_file(repo: Path) -> Path:
    """The newest session's waiting events: where commands add events between commits
    (under the git dir, so nothing is staged)."""
    return repo / ".git" / "tg-git" / "pending" / ledger_file(repo).name


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


def restricted(cwd: Path, *cmd: str, fsize: int | None = None) -> subprocess.CompletedProcess[str]:
    """``cmd`` where file modes bind even for root and, with ``fsize``, no file grows past it."""
    env = dict(os.environ)
    if fsize is not None:  # a coverage run's own data file would hit the limit too
        env.pop("COVERAGE_PROCESS_START", None)
    return subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, env=env,
                          preexec_fn=modes_bind(fsize))  # fmt: skip


@contextmanager
def read_only(path: Path, bind: bool = True) -> Iterator[None]:
    """Every file and folder under ``path`` read-only while the block runs (only with
    ``bind``), writable again after it whatever happened; links are left as they are."""
    if bind:
        _set_writable(path, False)
    try:
        yield
    finally:
        if bind:
            _set_writable(path, True)


def _set_writable(path: Path, writable: bool) -> None:
    for folder, dirs, files in os.walk(path):
        for name in [*dirs, *files, "."]:
            p = Path(folder) / name
            if not p.is_symlink():
                mode = p.stat().st_mode
                p.chmod(mode | 0o200 if writable else mode & ~0o222)


# ---- what tg-git reports, read through its own CLI -------------------------------------------
def status(repo: Path) -> dict[str, Any]:
    """``tg-git status --json``: the figures a test compares, never the wording around them."""
    data: dict[str, Any] = json.loads(tg(repo, "status", "--json").stdout)
    return data


def memo_path(repo: Path) -> Path:
    """The session memo of ``repo`` (under its git dir): what a read may take instead of every
    event."""
    return (
        Path(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip())
        / "tg-git"
        / "session.memo"
    )


def truth(repo: Path) -> dict[str, Any]:
    """Status from every event (the memo removed first)."""
    memo_path(repo).unlink(missing_ok=True)
    return status(repo)


def used(repo: Path) -> int:
    """The session's tokens used, as ``status --json`` counts them."""
    return int(status(repo)["used"])


def commit_events(repo: Path) -> int:
    """How many commit events the session counts (``status --json``)."""
    return int(status(repo)["session"]["commits"])


def session_id(repo: Path) -> str:
    """The id of the session ``status --json`` reads."""
    return str(status(repo)["session"]["id"])


def tags(repo: Path) -> list[str]:
    """The checkpoint tags, oldest name first (``git tag`` sorts them)."""
    return git(repo, "tag", "--list", "checkpoint/*").stdout.split()


def clean(repo: Path) -> None:
    """Nothing tg-git wrote is left dirty in the work tree or the index."""
    assert git(repo, "status", "--porcelain").stdout == "", "tg-git left files dirty"


# ---- spending tokens through the installed hooks ---------------------------------------------
def spend(repo: Path, tokens: int, name: str) -> subprocess.CompletedProcess[str]:
    """Record ``tokens`` of input and commit a small new file ``name`` through the hooks."""
    tg(repo, "record", "--tokens", str(tokens))
    (repo / name).write_text(f"print({name!r})\n")
    git(repo, "add", name)
    return commit(repo, "-m", f"add {name}")


def add(repo: Path, name: str, words: str, *, msg: str | None = None) -> int:
    """Commit a new file whose text is ``words``; returns its estimate."""
    text = f"# {name}\n{words}\n"
    (repo / name).write_text(text)
    git(repo, "add", name)
    commit(repo, "-m", msg or f"add {name}")
    return estimate_tokens(text.rstrip("\n"), name)


def commit_file(repo: Path, name: str, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Commit a new file ``name`` holding ``text`` (``args`` go to ``git commit``)."""
    (repo / name).write_text(text)
    git(repo, "add", name)
    return commit(repo, "-m", f"add {name}", *args)


def labels(text: str) -> list[str]:
    """The labels of the input events in ledger ``text``, in order."""
    return [str(e.get("label")) for e in parse(text).values() if e["kind"] == "input"]


def make_0_1(repo: Path, lines: list[str]) -> None:
    """Commit a tg-git 0.1 layout (one `.tg-git/ledger.toml` with ``lines``) and install."""
    (repo / ".tg-git").mkdir()
    (repo / ".tg-git/ledger.toml").write_text("\n".join(lines) + "\n")
    (repo / ".tg-git/config.toml").write_text("max_tokens = 1000\n")
    (repo / ".gitattributes").write_text(".tg-git/ledger.toml merge=union\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "a tg-git 0.1 repository")
    tg(repo, "install")


# ---- the agents' transcripts, written here in each agent's own shape -------------------------
MARKER = "TGGIT-PRIVATE-7f3a9c"
"""Stands in every transcript's text: it must never reach a ledger, a report or the terminal."""

# One Gemini CLI response's `tokens`, as its chat files hold it (2026).
GEMINI_TOKENS = {"input": 15327, "output": 23, "cached": 11526, "thoughts": 919, "tool": 7,
                 "total": 16276}  # fmt: skip


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


def ts(seconds: float = 0) -> str:
    """A transcript timestamp ``seconds`` from now, in the agents' millisecond UTC form."""
    moment = datetime.now(timezone.utc) + timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def claude_line(msg: str, req: str, *, fresh: int = 3, write: int = 0, read: int = 0,
                out: int = 10, model: str = "claude-opus-4-6", side: bool = False,
                at: str | None = None, session: str = "sess-1") -> str:  # fmt: skip
    """One Claude Code assistant line with its usage (message ``msg``, request ``req``)."""
    obj = {
        "parentUuid": None, "isSidechain": side, "userType": "external", "cwd": f"/home/{MARKER}",
        "sessionId": session, "version": "2.1.87", "gitBranch": "main", "type": "assistant",
        "timestamp": at or ts(), "requestId": req,
        "message": {
            "id": msg, "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": f"the answer {MARKER}"}],
            "usage": {
                "input_tokens": fresh, "cache_creation_input_tokens": write,
                "cache_read_input_tokens": read,
                "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write},
                "output_tokens": out,
            },
        },
    }  # fmt: skip
    return json.dumps(obj, separators=(",", ":")) + "\n"


def fill_line(n: int, fill: int, session: str = "A") -> str:
    """The ``n``-th Claude request of ``session``, leaving the context ``fill`` tokens full."""
    return claude_line(
        f"m{n}", f"r{n}", fresh=10, write=0, read=fill - 110, out=100, session=session
    )


def user_line(text: str = MARKER) -> str:
    """One Claude Code user line (no usage)."""
    return (
        json.dumps(
            {"type": "user", "timestamp": ts(), "message": {"role": "user", "content": text}},
            separators=(",", ":"),
        )
        + "\n"
    )


def project_folder(repo: Path, home: Path) -> Path:
    """Claude Code's transcript folder for ``repo`` under its ``home``, made."""
    folder = home / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def codex_lines(cwd: str, totals: list[tuple[int, int, int]], repeat: bool = True) -> str:
    """A Codex rollout in ``cwd`` whose running totals (input, cached, output) are ``totals``."""
    lines = [
        {"timestamp": ts(), "type": "session_meta",
         "payload": {"id": "0199-abc", "cwd": cwd, "cli_version": "0.169.0", "instructions": MARKER}},
        {"timestamp": ts(), "type": "turn_context", "payload": {"model": "gpt-5.3-codex", "cwd": cwd}},
        {"timestamp": ts(), "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": MARKER}]}},
    ]  # fmt: skip
    lines += token_counts(totals, repeat)
    return "".join(json.dumps(line) + "\n" for line in lines)


def gemini_message(
    mid: str, tokens: dict[str, int] | None, model: str = "gemini-3-flash-preview"
) -> dict[str, Any]:
    """One Gemini CLI chat message ``mid``, with its ``tokens`` when given."""
    msg: dict[str, Any] = {
        "id": mid,
        "timestamp": ts(),
        "type": "gemini",
        "content": MARKER,
        "model": model,
    }
    if tokens is not None:
        msg["tokens"] = tokens
    return msg


# ---- agent hooks, driven with the stdin JSON each agent documents ----------------------------
def hook(
    repo: Path,
    agent: str,
    event: str,
    payload: dict[str, Any] | str,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``tg-git hook agent AGENT EVENT`` with ``payload`` on stdin, as the agent runs it."""
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return tg(repo, "hook", "agent", agent, event, input=data, check=False, env=env)


def context(proc: subprocess.CompletedProcess[str], event: str) -> str:
    """The text the agent adds to the model's context: exit 0, nothing on stderr, and stdout
    exactly one JSON object holding only ``hookSpecificOutput {hookEventName,
    additionalContext}`` (Codex's hook schemas forbid any other key; Gemini parses all of
    stdout as JSON; Claude Code reads the same field)."""
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert proc.stdout.endswith("}\n") and proc.stdout.count("\n") == 1, proc.stdout
    data = json.loads(proc.stdout)
    assert list(data) == ["hookSpecificOutput"], data
    assert data["hookSpecificOutput"] == {
        "hookEventName": event,
        "additionalContext": data["hookSpecificOutput"]["additionalContext"],
    }
    text = data["hookSpecificOutput"]["additionalContext"]
    assert isinstance(text, str) and text.strip()
    return text


def system_message(proc: subprocess.CompletedProcess[str]) -> str:
    """What the agent shows the user: exit 0, stdout only ``{"systemMessage": ...}``. At exit 0
    the agents ignore stderr (Claude Code shows it in verbose mode only, Gemini logs it); the
    checkpoint's own "saved" line is all that may be there."""
    assert proc.returncode == 0, proc.stderr
    assert all(line.startswith("tg-git: saved checkpoint/") for line in proc.stderr.splitlines())
    assert proc.stdout.count("\n") == 1, proc.stdout
    data = json.loads(proc.stdout)
    assert list(data) == ["systemMessage"] and isinstance(data["systemMessage"], str), data
    return str(data["systemMessage"])


def blocked(proc: subprocess.CompletedProcess[str]) -> str:
    """A blocked prompt: exit 2, nothing on stdout (a JSON reply would be read instead), the
    reason on stderr (Codex ignores an exit 2 whose stderr is blank)."""
    assert (proc.returncode, proc.stdout) == (2, ""), (proc.returncode, proc.stdout)
    assert proc.stderr.strip(), "exit 2 without a reason on stderr"
    return proc.stderr


def silent(proc: subprocess.CompletedProcess[str]) -> None:
    """The hook said nothing at all, and let the agent go on."""
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def grow(repo: Path, events: int) -> list[str]:
    """``events`` commit events of the current session written as tg-git writes them (the
    session's file filled to ``SEGMENT_LINES`` lines, then segments), committed without the
    hook; returns the session's files, in order."""
    path = ledger_file(repo)
    rel = path.relative_to(repo).as_posix()
    sid = path.stem
    text = path.read_text()
    lines = [
        eventlog.event_line("commit", session=sid, tokens=n % 7 + 1, files=1, label=f"g{n}.py")[1]
        for n in range(events)
    ]
    room = layout.SEGMENT_LINES - len(eventlog.event_lines(text))
    path.write_text(text + "".join(lines[:room]))
    files = [rel]
    for n, at in enumerate(range(room, events, layout.SEGMENT_LINES), start=1):
        segment = repo / layout.segment_file(rel, n)
        segment.parent.mkdir(parents=True, exist_ok=True)
        segment.write_text(eventlog.render(ln.rstrip("\n") for ln in lines[at : at + 128]))
        files.append(layout.segment_file(rel, n))
    git(repo, "add", "-A", ".tg-git")
    git(repo, "commit", "-q", "--no-verify", "-m", f"{events} events")
    return files
