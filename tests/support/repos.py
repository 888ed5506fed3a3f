"""Real repositories for the tests: git and tg-git as a user runs them, and what tg-git
reports, read through its own CLI."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from tg_git.domain import eventlog
from tg_git.domain import layout
from tg_git.domain.eventlog import parse
from tg_git.estimate.estimator import estimate_tokens
from tg_git.githooks import install
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

PROJECT = Path(__file__).resolve().parents[2]
"""The project's own folder (README.md, docs/, tg_git/, tests/)."""

TG_GIT = shutil.which("tg-git", path=str(Path(sys.executable).parent)) or "tg-git"


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


def plant(path: Path, text: str) -> Path:
    """``text`` at ``path``, its folders made: a file the user or another tool left there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


ENDS_WITHIN_S = 20  # a process that has not ended by then hangs (an agent waits 30 s, git for ever)


def ended(argv: list[str], cwd: Path, data: str = "") -> subprocess.CompletedProcess[str]:
    """``argv`` run in ``cwd`` with ``data`` on stdin, killed (with its children) and failed
    when it has not ended within ``ENDS_WITHIN_S``: a test of what must never hang."""
    proc = subprocess.Popen(argv, cwd=cwd, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    try:
        out, err = proc.communicate(data, timeout=ENDS_WITHIN_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"{argv[0]} still runs after {ENDS_WITHIN_S} s") from None
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


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


def traced_diff_trees(trace: Path) -> list[list[str]]:
    """The arguments of each ``git diff-tree`` a ``GIT_TRACE`` file saw start (the file is
    removed: the next command traces afresh)."""
    found = [
        ln.split("built-in: git ", 1)[1].split()
        for ln in trace.read_text().splitlines()
        if "built-in: git diff-tree" in ln
    ]
    trace.unlink()
    return found


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


def bare_orphan_commit(repo: Path) -> subprocess.CompletedProcess[str]:
    """Commit on a new orphan branch ``bare`` that holds none of tg-git's files."""
    git(repo, "checkout", "-q", "--orphan", "bare")
    git(repo, "rm", "-rqf", ".")
    (repo / "index.html").write_text("<p>nothing of tg-git here</p>\n")
    git(repo, "add", "index.html")
    return commit(repo, "-m", "bare orphan")


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


def hooks_with_site_first(repo: Path, tmp_path: Path, folder: Path) -> None:
    """Make the hooks' Python start with ``folder`` (a ``sitecustomize``) first on its path,
    through a wrapper: the shims ignore PYTHONPATH and skip the site module (they start Python
    isolated from the environment and the work tree)."""
    wrapper = tmp_path / "python"
    wrapper.write_text(
        f"#!/bin/sh\nPYTHONPATH={shlex.quote(str(folder))} exec {shlex.quote(sys.executable)}"
        ' "$@"\n'
    )
    wrapper.chmod(0o755)
    for hook in (repo / ".git" / "hooks").iterdir():
        text = hook.read_text(errors="replace")
        if "tg-git-shim-v1" in text:
            text = re.sub(r'(?m)^TG_GIT_PYTHON=".*"$', f'TG_GIT_PYTHON="{wrapper}"', text)
            hook.write_text(text.replace(" -S -E -c ", " -c ").replace(" -E -c ", " -c "))


def traced_verify(repo: Path, counted: Callable[[str], bool]) -> tuple[int, Any]:
    """Verify ``repo`` in this process (the caller has made it the current folder): the
    calls and lines the interpreter's trace hook saw run in the files ``counted`` takes, and
    verify's report."""
    ws = open_workspace()
    steps = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        steps += 1
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        return local(frame, event, arg) if counted(frame.f_code.co_filename) else None

    sys.settrace(calls)
    try:
        report = verify_history(ws)
    finally:
        sys.settrace(None)
    return steps, report


def run_post_commit_shim(repo: Path, tmp_path: Path, path: str | None = None) -> None:
    """Run the post-commit shim tg-git installs (written under ``tmp_path``) by ``sh`` in
    ``repo``, without git's variables; ``path``: the PATH it gets, else the tests' own."""
    shim = tmp_path / "hooks" / "post-commit"
    shim.parent.mkdir()
    shim.write_text(install.render_shim(install.shim_template(), "post-commit"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    if path is not None:
        env["PATH"] = path
    sh = shutil.which("sh")
    assert sh is not None
    subprocess.run([sh, str(shim)], cwd=repo, env=env, check=True, capture_output=True)
