"""The tool-call hook answered by the shell: the command `agent install` writes runs through
`sh -c` as the agent runs it; Python starts (a marker shows it) whenever the state under the
git dir is missing, odd, or older than anything the level is computed from, and at the halt
the call is denied whatever the state said."""

from __future__ import annotations

import json
import os
import pwd
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import age
from tests.support.agents import blocked
from tests.support.agents import halt
from tests.support.agents import hot_state
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.agents.protocol import EVENTS

pytestmark = pytest.mark.usefixtures("agent_homes")

CALL = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build", "description": "clean"}}
SETTINGS = {
    "claude": (".claude/settings.local.json", "PreToolUse"),
    "codex": (".codex/hooks.json", "PreToolUse"),
    "gemini": (".gemini/settings.json", "BeforeTool"),
    "cursor": (".cursor/hooks.json", "preToolUse"),
    "copilot": (".github/hooks/tg-git.json", "preToolUse"),
    "antigravity": (".agents/hooks.json", "PreToolUse"),
}


def payload(cwd: Path, **extra: Any) -> str:
    """A PreToolUse payload as the agents send it: one line of compact JSON, ``cwd`` early."""
    data = {"session_id": "A", "transcript_path": "/nowhere/A.jsonl", "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": "PreToolUse", **CALL, **extra}  # fmt: skip
    return json.dumps(data, separators=(",", ":"))


def installed_command(repo: Path, agent: str = "claude") -> str:
    """The tool-call command `tg-git agent install` wrote for ``agent``."""
    tg(repo, "agent", "install", agent)
    rel, event = SETTINGS[agent]
    data = json.loads((repo / rel).read_text())
    table = data.get("tg-git", data.get("hooks"))
    entries = table[event]
    entry = entries[0]["hooks"][0] if "hooks" in entries[0] else entries[0]
    return str(entry.get("command") or entry.get("bash"))


def agent_shell(agent: str) -> list[str]:
    """The argv an agent runs a hook command with (``formats.HOOK_SHELL``); Codex CLI's is the
    user's login shell, any other's ``sh -c``."""
    from tg_git.agents import formats

    if agent == "codex":
        return [pwd.getpwuid(os.getuid()).pw_shell or "/bin/sh", "-c"]
    return list(formats.HOOK_SHELL.get(agent, ("sh", "-c")))


class Hot:
    """The installed tool-call command, its Python replaced by one that leaves a marker, run
    with the shell its agent runs it with."""

    def __init__(self, repo: Path, tmp: Path, agent: str = "claude") -> None:
        self.repo, self.agent = repo, agent
        self.marker = tmp / "python-started"
        wrapper = tmp / "bin with space" / "py'thon"
        wrapper.parent.mkdir(exist_ok=True)
        wrapper.write_text(f'#!/bin/sh\necho x >> {shlex.quote(str(self.marker))}\n'
                           f'exec {shlex.quote(sys.executable)} "$@"\n')  # fmt: skip
        wrapper.chmod(0o755)
        original = installed_command(repo, agent)
        self.original = original
        if original.startswith("exec /bin/sh -c "):
            words = shlex.split(original)  # exec /bin/sh -c SCRIPT tg_git hook agent ...
            assert words[4:7] == ["tg_git", "hook", "agent"]
            script = words[3]
        else:  # the script itself: the agent's /bin/sh runs it
            words, script = [], original
        python = re.findall(r"\|exec (\S+) -E -c ", script)
        assert len(set(python)) == 1 and os.path.isabs(python[0])
        script = script.replace(f"exec {python[0]} ", f"exec {shlex.quote(str(wrapper))} ")
        self.command = shlex.join([*words[:3], script, *words[4:]]) if words else script

    def run(
        self, cwd: Path | None = None, data: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        cwd = cwd or self.repo
        self.marker.unlink(missing_ok=True)
        return subprocess.run([*agent_shell(self.agent), self.command], cwd=cwd,
                              capture_output=True, text=True,
                              input=payload(cwd) if data is None else data,
                              env={**os.environ, **(env or {})})  # fmt: skip

    @property
    def python_started(self) -> bool:
        return self.marker.exists()

    def fast(self, cwd: Path | None = None) -> None:
        """The call is allowed by the shell alone: nothing printed, exit 0, no Python."""
        proc = self.run(cwd)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
        assert not self.python_started, "Python started"

    def slow_allowed(self, cwd: Path | None = None) -> None:
        proc = self.run(cwd)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), proc.stderr
        assert self.python_started, "the shell answered without Python"

    def warmed(self) -> None:
        """Python ran once and left its state (its inputs older than the state's margin)."""
        age(self.repo)
        hot_state(self.repo).unlink(missing_ok=True)
        self.slow_allowed()
        self.fast()

    def denied(self) -> str:
        proc = self.run()
        assert self.python_started
        return blocked(proc)


@pytest.fixture
def hot(repo: Path, tmp_path: Path) -> Hot:
    return Hot(repo, tmp_path)


# ---- the shell answers when nothing changed -----------------------------------------------------
def test_not_at_the_halt_the_shell_answers_without_python(hot: Hot) -> None:
    hot.warmed()
    hot.fast()
    assert hot_state(hot.repo).is_file()


def test_at_the_halt_python_denies(hot: Hot) -> None:
    hot.warmed()
    halt(hot.repo)
    assert "landing mode" in hot.denied()
    assert not hot_state(hot.repo).exists()
    assert "landing mode" in hot.denied()  # again: the halt leaves no state to answer from


@pytest.mark.parametrize("agent", sorted(SETTINGS))
def test_every_agents_command_allows_silently_and_denies_at_the_halt(
    repo: Path, tmp_path: Path, agent: str
) -> None:
    hot = Hot(repo, tmp_path, agent)
    hot.warmed()
    halt(repo)
    proc = hot.run()
    assert hot.python_started
    if agent in ("claude", "codex", "gemini"):
        assert proc.returncode == 2 and "landing mode" in proc.stderr
    else:
        assert "deny" in proc.stdout and proc.returncode == 0


# ---- a stale state starts Python --------------------------------------------------------------
def test_a_stale_state_at_the_halt_still_denies(hot: Hot) -> None:
    """The state says "ok"; the ledger moved to the halt since (a record by another process)."""
    hot.warmed()
    saved = hot_state(hot.repo).read_bytes()
    stamp = hot_state(hot.repo).stat().st_mtime_ns
    halt(hot.repo)
    hot_state(hot.repo).write_bytes(saved)  # as if an older process wrote it after the record
    os.utime(hot_state(hot.repo), ns=(stamp, stamp))
    assert "landing mode" in hot.denied()


def forge_ok(repo: Path) -> str:
    """A state that says "ok" for the files as they are now, written as Python writes one:
    at the halt a lie the shell believes unless something about the state itself tells."""
    from tg_git.repo import hotstate
    from tg_git.services.startup import open_workspace

    ws = open_workspace(str(repo))
    hotstate.leave(hotstate.watch(ws.repo, ws.current_ledger_file(), time.time_ns()), "ok")
    return hot_state(repo).read_text()


ODD = ["none", "missing", "corrupt", "symlink", "future", "past", "truncated", "other-tree",
       "other-head", "other-format", "halt-level", "folder-link", "git-dir-variable"]  # fmt: skip


@pytest.mark.parametrize("how", ODD)
def test_an_odd_state_starts_python_and_it_denies_at_the_halt(hot: Hot, how: str) -> None:
    """Each oddity alone undoes a state the shell would otherwise believe ("none": it does)."""
    hot.warmed()
    halt(hot.repo)
    age(hot.repo)
    text = forge_ok(hot.repo)
    path = hot_state(hot.repo)
    stamp = path.stat().st_mtime_ns
    lines = text.split("\n")
    env = None
    if how == "none":
        proc = hot.run()
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
        assert not hot.python_started  # the lie is believed: what every other case must undo
        return
    if how == "missing":
        path.unlink()
    elif how == "corrupt":
        path.write_bytes(b"\xff\x00garbage\n")
    elif how == "symlink":
        elsewhere = hot.repo.parent / "state-elsewhere"
        elsewhere.write_text(text)
        os.utime(elsewhere, ns=(stamp, stamp))
        path.unlink()
        path.symlink_to(elsewhere)
    elif how == "future":  # written by a clock ahead, or the clock went back since
        os.utime(path, ns=(stamp + 3600 * 10**9,) * 2)
    elif how == "past":  # older than what it lists
        os.utime(path, ns=(stamp - 3600 * 10**9,) * 2)
    elif how == "truncated":
        path.write_text("\n".join(lines[:8]) + "\n")
    elif how == "other-tree":
        path.write_text("\n".join([lines[0], str(hot.repo.parent), *lines[2:]]))
    elif how == "other-head":
        path.write_text("\n".join([*lines[:3], "ref: refs/heads/other", *lines[4:]]))
    elif how == "other-format":
        path.write_text("\n".join(["tg-git-hot 0", *lines[1:]]))
    elif how == "halt-level":
        path.write_text("\n".join([*lines[:4], "halt", *lines[5:]]))
    elif how == "folder-link":
        folder = path.parent
        moved = hot.repo.parent / "hot-elsewhere"
        folder.rename(moved)
        folder.symlink_to(moved)
    elif how == "git-dir-variable":
        env = {"GIT_DIR": str(hot.repo / ".git")}
    if how in ("corrupt", "truncated", "other-tree", "other-head", "other-format", "halt-level"):
        os.utime(path, ns=(stamp, stamp))
    proc = hot.run(env=env)
    assert hot.python_started
    assert "landing mode" in blocked(proc)


# ---- the state's size: the shell reads it a byte a system call ---------------------------------
def test_the_state_names_the_fixed_sources_in_the_script_and_the_session_once(hot: Hot) -> None:
    """What every state checks is listed in the script (one character each in the state), and
    the session's name is written once: the paths repeating it carry ``@``."""
    from tg_git.repo import hotstate

    hot.warmed()
    lines = hot_state(hot.repo).read_text().split("\n")
    name = lines[5]
    assert name and name.startswith("s") and "@" not in name
    assert re.fullmatch(f"[+-]{{{len(hotstate.FIXED)}}}[=-]", lines[6]), lines[6]
    assert hotstate.FIXED_WORDS in hot.command and hotstate.MAGIC in hot.command
    entries = lines[7 : lines.index(".")]
    assert entries and all(name not in e for e in entries)
    assert sum("@" in e for e in entries) >= 3  # the session's file, its held and pending files
    assert any(e.startswith(">+") for e in entries)  # the journal's file, under its folder
    fixed = {f"{base}{rel}" for base, rel in hotstate.FIXED}
    assert not fixed & {e[0] + e[2:] for e in entries}
    assert all(re.fullmatch(r"[A-Za-z0-9._/-]+", word) for word in hotstate.FIXED_WORDS.split())


# Each state format and the sources its scripts list, in order: a new list needs a new format.
FORMATS = {
    "tg-git-hot 2": "gHEAD gORIG_HEAD grebase-merge grebase-apply gtg-git/session "
    "gtg-git/agents.json gtg-git/pending gtg-git/saving.json gtg-git/windows.json gtg-git/usage "
    "cpacked-refs crefs/replace cinfo/grafts creftable ctg-git/journal t.tg-git "
    "t.tg-git/config.toml t.tg-git/ledger.toml t.tg-git/ledger gtg-git/live.json",
}


def test_another_list_of_fixed_sources_is_another_format() -> None:
    """A script reads a state's characters against its own list: the format names the list."""
    from tg_git.repo import hotstate

    assert FORMATS.get(hotstate.MAGIC) == hotstate.FIXED_WORDS


def test_a_source_path_with_the_name_mark_leaves_no_state(hot: Hot) -> None:
    """A path among the sources holding ``@`` (a file name from anywhere) could not be told
    from the session's name: no state, Python answers."""
    odd = hot.repo / ".git" / "tg-git" / "pending" / "other@session.toml"
    odd.parent.mkdir(parents=True, exist_ok=True)
    odd.write_text("")
    age(hot.repo)
    hot_state(hot.repo).unlink(missing_ok=True)
    hot.slow_allowed()
    assert not hot_state(hot.repo).exists()
    hot.slow_allowed()
    odd.unlink()
    hot.warmed()


# ---- what changes the level starts Python ------------------------------------------------------
def test_a_record_starts_python(hot: Hot) -> None:
    hot.warmed()
    tg(hot.repo, "record", "--tokens", "10")
    hot.slow_allowed()


def test_a_config_edit_starts_python(hot: Hot) -> None:
    tg(hot.repo, "record", "--tokens", "100000")  # half the budget
    tg(hot.repo, "config", "set", "thresholds.warning", "30")
    tg(hot.repo, "config", "set", "thresholds.force_save", "40")
    hot.warmed()
    tg(hot.repo, "config", "set", "thresholds.halt", "45")
    assert "landing mode" in hot.denied()


def test_a_commit_starts_python(hot: Hot) -> None:
    hot.warmed()
    (hot.repo / "a.py").write_text("print(1)\n")
    git(hot.repo, "add", "a.py")
    commit(hot.repo, "-m", "a")
    hot.slow_allowed()


def test_a_checkout_starts_python(hot: Hot) -> None:
    git(hot.repo, "branch", "other")
    hot.warmed()
    git(hot.repo, "checkout", "-q", "other")
    hot.slow_allowed()
    hot.warmed()
    git(hot.repo, "checkout", "-q", "--detach")
    hot.slow_allowed()


def test_a_status_line_reading_starts_python(hot: Hot) -> None:
    hot.warmed()
    reading = {"session_id": "A", "cwd": str(hot.repo), "model": {"id": "claude-opus-4-6"},
               "context_window": {"context_window_size": 200_000,
                                  "current_usage": {"input_tokens": 195_000}}}  # fmt: skip
    tg(hot.repo, "statusline", input=json.dumps(reading))
    assert "landing mode" in hot.denied()


def test_a_pull_and_a_merge_start_python(hot: Hot, tmp_path: Path) -> None:
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(hot.repo), str(other))
    (other / "b.py").write_text("print(2)\n")
    git(other, "add", "b.py")
    git(other, "commit", "-q", "-m", "b")
    hot.warmed()
    git(hot.repo, "pull", "-q", "--no-rebase", str(other), "main")
    hot.slow_allowed()
    git(other, "commit", "-q", "--allow-empty", "-m", "c")
    git(hot.repo, "fetch", "-q", str(other), "main")
    hot.warmed()
    git(hot.repo, "merge", "-q", "--no-edit", "FETCH_HEAD")
    hot.slow_allowed()


def test_a_new_worktree_answers_from_its_own_state(hot: Hot, tmp_path: Path) -> None:
    tree = tmp_path / "tree two"
    git(hot.repo, "worktree", "add", "-q", "-b", "two", str(tree))
    hot.warmed()
    proc = hot.run(tree)  # its own git dir holds no state yet
    assert proc.returncode == 0 and hot.python_started
    age(hot.repo)
    age(tree)
    hot.run(tree)
    hot.fast(tree)
    hot.fast()


def test_another_directory_than_the_payloads_starts_python(hot: Hot, tmp_path: Path) -> None:
    hot.warmed()
    proc = hot.run(data=payload(tmp_path))  # the shell runs in the repository
    assert proc.returncode == 0 and hot.python_started
    nested = json.dumps({"tool_input": {"cwd": str(hot.repo)}, "cwd": str(hot.repo)})
    hot.run(data=nested)
    assert hot.python_started


def test_a_subdirectory_and_a_path_with_quotes(repo: Path, tmp_path: Path) -> None:
    hot = Hot(repo, tmp_path)
    sub = repo / 'we\'ird "dir"'
    sub.mkdir()
    hot.warmed()
    hot.run(sub)  # JSON escapes the quote: the shell cannot compare, Python answers
    assert hot.python_started
    plain = repo / "src dir"
    plain.mkdir()
    hot.fast(plain)


def test_a_status_line_refresh_leaves_the_state_for_the_next_call(hot: Hot) -> None:
    """The status line records its reading, takes the state away, and (nothing else having
    changed) leaves the level it computed: the next tool call needs no Python."""

    def reading(fill: int) -> str:
        return json.dumps({"session_id": "A", "cwd": str(hot.repo), "model": {"id": "m-1"},
                           "context_window": {"context_window_size": 200_000,
                                              "current_usage": {"input_tokens": fill}}})  # fmt: skip

    hot.warmed()
    tg(hot.repo, "statusline", input=reading(1_000))  # the gauge's memo is written
    assert not hot_state(hot.repo).exists()
    time.sleep(2.2)  # a state leaves out what changed in the two seconds before it
    tg(hot.repo, "statusline", input=reading(2_000))
    assert hot_state(hot.repo).exists()
    hot.fast()
    live = json.loads((hot.repo / ".git" / "tg-git" / "live.json").read_text())
    assert [r["used"] for r in live["readings"].values()] == [2_000]


# ---- installs ---------------------------------------------------------------------------------
def _claude_settings_with(repo: Path, old: str) -> tuple[Path, str]:
    """Claude Code's local settings holding ``old`` as the PreToolUse command, and their text."""
    from tg_git.agents import formats

    settings = repo / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    group = {"matcher": "", "hooks": [{"type": "command", "command": old, "timeout": 30}]}
    before = json.dumps({"hooks": {"PreToolUse": [group]}})
    settings.write_text(before)
    assert formats.ours_in(json.loads(settings.read_text())) == ["PreToolUse"]
    return settings, before


def _pre_tool_use_commands(settings: Path) -> list[str]:
    groups = json.loads(settings.read_text())["hooks"]["PreToolUse"]
    return [h["command"] for g in groups for h in g["hooks"]]


def test_an_install_of_the_older_command_is_recognised_and_upgraded(repo: Path) -> None:
    from tg_git.agents import formats

    python = shlex.quote(os.path.abspath(sys.executable))
    old = (f"{python} -E -c 'import sys; sys.path[:] = [p for p in sys.path if p]; from "
           "tg_git.main import main; sys.exit(main(sys.argv[2:]))' tg_git hook agent claude "
           "PreToolUse")  # fmt: skip
    settings, before = _claude_settings_with(repo, old)
    tg(repo, "agent", "install", "claude")
    commands = _pre_tool_use_commands(settings)
    assert len(commands) == 1 and commands[0].startswith("p=;IFS= read -r p;")
    assert formats.is_ours({"command": commands[0]})
    tg(repo, "agent", "uninstall", "claude")
    assert settings.read_text() == before  # uninstall gives the file back byte for byte


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_the_portable_command_falls_back_to_tg_git_on_path(
    repo: Path, tmp_path: Path, agent: str
) -> None:
    from tg_git.agents import formats

    event = SETTINGS[agent][1]
    command = formats.command(agent, event, portable=True)
    assert formats.hot_fallback(command) == "tg-git"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "tg-git"
    fake.write_text(
        f'#!/bin/sh\necho "$@" > {shlex.quote(str(tmp_path / "args"))}\ncat >/dev/null\n'
    )
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin"}
    subprocess.run([*agent_shell(agent), command], cwd=repo, input=payload(repo), env=env,
                   check=True, text=True)  # fmt: skip
    assert (tmp_path / "args").read_text().split() == ["hook", "agent", agent, event]


# ---- one shell where the agent runs /bin/sh -------------------------------------------------
@pytest.mark.parametrize("agent", ["claude", "opencode"])
def test_an_agent_running_bin_sh_runs_the_script_itself(agent: str) -> None:
    """Claude Code and tg-git's OpenCode plugin run a hook command with ``/bin/sh -c``: the
    command is the script, no second shell behind ``exec /bin/sh -c``."""
    from tg_git.agents import formats

    event = next(e for e, channel in EVENTS[agent].items() if channel == "tool")
    command = formats.command(agent, event)
    assert "/bin/sh" not in command
    assert command.startswith("p=;IFS= read -r p;")
    assert formats.hot_fallback(command) == os.path.abspath(sys.executable)
    assert formats.is_ours({"command": command})


@pytest.mark.parametrize("agent", ["codex", "gemini", "copilot", "cursor", "antigravity"])
def test_any_other_agents_shell_only_execs_bin_sh(agent: str) -> None:
    """A shell the user chose (Codex CLI's login shell; Cursor's and Antigravity's, unknown), or
    bash, runs nothing of the script: it execs ``/bin/sh -c`` with it."""
    from tg_git.agents import formats

    event = next(e for e, channel in EVENTS[agent].items() if channel == "tool")
    words = shlex.split(formats.command(agent, event))
    assert words[:3] == ["exec", "/bin/sh", "-c"]
    assert words[4:] == ["tg_git", "hook", "agent", agent, event]


def test_the_earlier_shell_command_is_recognised_and_upgraded(repo: Path) -> None:
    """A tool-call command an earlier tg-git wrote (``exec /bin/sh -c SCRIPT tg_git hook ...``)
    is tg-git's: listed with its Python, replaced by `agent install`, given back by uninstall."""
    from tg_git.agents import formats
    from tg_git.agents import wiring

    python = os.path.abspath(sys.executable)
    code = "import sys; sys.path[:] = [p for p in sys.path if p]; from tg_git.main import main"
    fallback = f"{shlex.quote(python)} -E -c {shlex.quote(code + '; sys.exit(main(sys.argv[2:]))')}"
    script = ("p=;IFS= read -r p;r=$?;o=$PWD\nh(){ return 1; }\nh 2>/dev/null&&exit 0\n"
              f'{{ printf \'%s\\n\' "$p";exec /bin/cat;}}|exec {fallback} tg_git "$@"')  # fmt: skip
    old = f"exec /bin/sh -c {shlex.quote(script)} tg_git hook agent claude PreToolUse"
    settings, before = _claude_settings_with(repo, old)
    found = wiring.wired("claude", repo, user=False)
    assert found is not None and found["interpreters"] == [python]
    tg(repo, "agent", "install", "claude")
    commands = _pre_tool_use_commands(settings)
    assert len(commands) == 1 and commands[0].startswith("p=;IFS= read -r p;")
    new_python = formats.hot_fallback(commands[0])
    assert new_python and os.path.isabs(new_python)
    found = wiring.wired("claude", repo, user=False)
    assert found is not None and found["interpreters"] == [new_python]
    tg(repo, "agent", "uninstall", "claude")
    assert settings.read_text() == before


def test_a_payload_over_several_lines_reaches_python_whole(hot: Hot) -> None:
    """Spaced JSON over several lines: the shell cannot read it and hands it all to Python."""
    spaced = json.dumps(json.loads(payload(hot.repo)), indent=2)
    hot.warmed()
    proc = hot.run(data=spaced)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "") and hot.python_started
    halt(hot.repo)
    proc = hot.run(data=spaced)
    assert "landing mode" in blocked(proc)
    proc = hot.run(data=spaced.rstrip("\n").replace("\n", " "))  # one line, no end of line
    assert "landing mode" in blocked(proc)
