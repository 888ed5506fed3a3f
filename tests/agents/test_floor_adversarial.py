"""The tool-call hook's shell under a hostile clone, a careless teammate and an unlucky machine:
the command `agent install` writes, run through ``/bin/sh -c`` as Claude Code runs it, never
hangs, never answers from a state that is not its own, and at the halt still denies."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.agents import LOCALES
from tests.support.agents import age
from tests.support.agents import blocked
from tests.support.agents import halt
from tests.support.agents import hot_state
from tests.support.repos import tg
from tg_git.agents.protocol import EVENTS

pytestmark = pytest.mark.usefixtures("agent_homes")

CALL = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}}
WAIT_S = 20  # a hook that has not answered by then hangs (the agent waits its timeout: 30 s)


def payload(cwd: Path) -> str:
    data = {"session_id": "A", "transcript_path": "/nowhere/A.jsonl", "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": "PreToolUse", **CALL}  # fmt: skip
    return json.dumps(data, separators=(",", ":"))


class Shell:
    """Claude Code's PreToolUse command as `agent install` wrote it, its Python replaced by
    one that leaves a marker (the shell answered alone when there is none); ``alone``: the
    marker only, no Python (what the shell does, whatever Python would)."""

    def __init__(
        self, repo: Path, tmp: Path, alone: bool = False, agent: str = "claude", shell: str = ""
    ) -> None:
        self.repo, self.argv = repo, [shell or "/bin/sh", "-c"]
        self.marker = tmp / "python-started"
        wrapper = tmp / "python-wrapper"
        then = "cat >/dev/null" if alone else f'exec {shlex.quote(sys.executable)} "$@"'
        wrapper.write_text(f"#!/bin/sh\necho x >> {shlex.quote(str(self.marker))}\n{then}\n")
        wrapper.chmod(0o755)
        tg(repo, "agent", "install", agent)
        rel = ".claude/settings.local.json" if agent == "claude" else ".codex/hooks.json"
        data = json.loads((repo / rel).read_text())
        command = data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        python = re.findall(r"\|exec (\S+) -E -c ", command)
        assert len(set(python)) == 1
        quoted = shlex.quote(str(wrapper))
        if agent != "claude":  # inside the single quotes of ``exec /bin/sh -c '...'``
            quoted = quoted.replace("'", "'\"'\"'")
        self.command = command.replace(f"exec {python[0]} ", f"exec {quoted} ")

    def run(
        self, cwd: Path | None = None, wait: float = WAIT_S, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """The command through ``/bin/sh -c`` in ``cwd``; one that hangs is ended, with every
        process it started, and fails the test."""
        cwd = cwd or self.repo
        self.marker.unlink(missing_ok=True)
        proc = subprocess.Popen([*self.argv, self.command], cwd=cwd, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True,
                                env={**os.environ, **(env or {})})  # fmt: skip
        try:
            out, err = proc.communicate(payload(cwd), timeout=wait)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise AssertionError(f"the hook still runs after {wait} s") from None
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    @property
    def python_started(self) -> bool:
        return self.marker.exists()

    def warmed(self) -> None:
        """Python ran once and left its state; the next call is the shell's alone."""
        age(self.repo)
        hot_state(self.repo).unlink(missing_ok=True)
        self.run()
        assert self.python_started and hot_state(self.repo).is_file()
        proc = self.run()
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
        assert not self.python_started


@pytest.fixture
def shell(repo: Path, tmp_path: Path) -> Shell:
    return Shell(repo, tmp_path)


# ---- special files where the shell reads or writes: never a hang -------------------------------
def test_a_fifo_at_the_clock_file_starts_python_and_the_halt_still_denies(shell: Shell) -> None:
    """``now`` (the file the shell touches to read its clock) is a FIFO: opening it to write
    would wait for a reader forever. The shell asks Python, which takes it away."""
    shell.warmed()
    now = hot_state(shell.repo).parent / "now"
    now.unlink()
    os.mkfifo(now)
    proc = shell.run()
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert shell.python_started
    assert now.is_file() or not now.exists()  # Python took it away: the next call is fast
    halt(shell.repo)
    os.mkfifo(now) if not now.exists() else None
    assert "landing mode" in blocked(shell.run())


def test_a_fifo_named_git_in_a_folder_of_the_work_tree_is_never_read_by_the_shell(
    repo: Path, tmp_path: Path
) -> None:
    """A FIFO called ``.git`` in a subfolder (git passes it by: not a repository) is never
    read as a ``gitdir:`` file: the shell hands the call to Python."""
    shell = Shell(repo, tmp_path, alone=True)
    age(repo)
    sub = repo / "sub"
    sub.mkdir()
    os.mkfifo(sub / ".git")
    proc = shell.run(sub)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert shell.python_started


def test_a_fifo_named_git_in_a_folder_of_the_work_tree_leaves_the_halt_denying(
    shell: Shell,
) -> None:
    """Python, asked by the shell, reads no ``.git`` that is not a regular file (git passes a
    FIFO by, so does tg-git): it finds the repository above and denies at the halt."""
    sub = shell.repo / "sub"
    sub.mkdir()
    os.mkfifo(sub / ".git")
    halt(shell.repo)
    assert "landing mode" in blocked(shell.run(sub, wait=10))


# ---- held already (guards): what any state or environment could do -----------------------------
@pytest.mark.parametrize("kind", ["folder", "fifo", "link-to-dev-zero", "link-outside"])
def test_a_state_that_is_not_a_regular_file_starts_python(shell: Shell, kind: str) -> None:
    shell.warmed()
    path = hot_state(shell.repo)
    text = path.read_text()
    halt(shell.repo)
    path.unlink(missing_ok=True)
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "link-to-dev-zero":
        path.symlink_to("/dev/zero")
    else:
        outside = shell.repo.parent / "planted-state"
        outside.write_text(text)
        path.symlink_to(outside)
    assert "landing mode" in blocked(shell.run())
    assert shell.python_started


def test_a_hostile_environment_runs_nothing_of_the_clone(shell: Shell, tmp_path: Path) -> None:
    """Executables a clone tracks under the names the script uses, first on PATH (an empty
    entry: the current folder), with IFS, CDPATH, ENV and BASH_ENV set: the shell's answer
    and Python's denial at the halt are the same, and none of them ran."""
    ran = tmp_path / "ran"
    for name in ("cat", "[", "test", "printf", "read", "cd", "python", "python3", "sh", "tg-git"):
        tool = shell.repo / name
        tool.write_text(f"#!/bin/sh\necho {name} >> {shlex.quote(str(ran))}\n")
        tool.chmod(0o755)
    rc = tmp_path / "rc.sh"
    rc.write_text(f"echo rc >> {shlex.quote(str(ran))}\n")
    hostile = {"PATH": f":{os.environ['PATH']}", "IFS": "0/", "CDPATH": str(tmp_path),
               "ENV": str(rc), "BASH_ENV": str(rc), "PYTHONSTARTUP": str(rc),
               "PYTHONPATH": ".", "PYTHONHOME": str(tmp_path)}  # fmt: skip
    shell.warmed()
    proc = shell.run(env=hostile)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert not shell.python_started
    halt(shell.repo)
    assert "landing mode" in blocked(shell.run(env=hostile))
    assert not ran.exists()


@pytest.mark.parametrize(
    "name", ["-leading dash", "line\nbreak", "not utf-8 \udcff", 'quote\'s "and" $(x) `y`']
)
def test_an_odd_folder_name_allows_and_the_halt_denies(
    repo: Path, tmp_path: Path, name: str
) -> None:
    moved = tmp_path / name
    repo.rename(moved)
    shell = Shell(moved, tmp_path)
    age(moved)
    for _ in range(2):
        proc = shell.run()
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    halt(moved)
    assert "landing mode" in blocked(shell.run())


# ---- an install of the script before these guards is told apart --------------------------------
@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_a_script_without_todays_guards_is_older(repo: Path, agent: str) -> None:
    """A command of the same state format written before a guard of today's script is listed
    as older (`agent status`, `doctor`: reinstall), so the guard reaches installs."""
    from tg_git.agents import formats
    from tg_git.agents import wiring

    event = next(e for e, channel in EVENTS[agent].items() if channel == "tool")
    today = formats.command(agent, event)
    assert not formats.is_older(agent, event, today)
    for guard in formats.SCRIPT_GUARDS:
        assert guard in today
        earlier = today.replace(guard + ";", "").replace(guard + "\n", "")
        assert earlier != today
        assert formats.is_older(agent, event, earlier)
    if agent == "claude":
        tg(repo, "agent", "install", "claude")
        settings = repo / ".claude" / "settings.local.json"
        text = settings.read_text()
        guard = json.dumps(formats.SCRIPT_GUARDS[1] + "\n")[1:-1]
        assert guard in text
        settings.write_text(text.replace(guard, ""))
        found = wiring.wired("claude", repo, user=False)
        assert found is not None and found["older"] == [event]


@pytest.mark.parametrize("agent", ["codex", "gemini", "copilot"])
def test_a_script_over_several_lines_behind_exec_sh_is_older(agent: str) -> None:
    """Behind ``exec /bin/sh -c`` (an agent whose own shell may be csh) a script over several
    lines is one csh and tcsh cannot run: listed as older, so a reinstall brings one line."""
    from tg_git.agents import formats
    from tg_git.repo import hotstate

    event = next(e for e, channel in EVENTS[agent].items() if channel == "tool")
    today = formats.command(agent, event)
    assert "\n" not in today and not formats.is_older(agent, event, today)
    words = shlex.split(today)
    script = formats.HOT_SCRIPT.replace("MAGIC", hotstate.MAGIC)
    assert words[:3] == ["exec", "/bin/sh", "-c"] and "\n" in script
    earlier = shlex.join([*words[:3], words[3].replace("h(){ ", "h(){\n", 1), *words[4:]])
    assert "\n" in earlier
    assert formats.is_older(agent, event, earlier)


def test_a_git_dir_tg_git_cannot_write_in_blocks_no_tool_call(shell: Shell) -> None:
    """``.git/tg-git`` a file: no state can be kept, Python answers every call, says why in
    one line and lets the agent go on (exit 1 blocks nothing)."""
    folder = shell.repo / ".git" / "tg-git"
    shutil.rmtree(folder)
    folder.write_text("")
    for _ in range(2):
        proc = shell.run()
        assert shell.python_started and proc.returncode in (0, 1) and proc.stdout == ""
        said = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        assert len(said) <= 1 and "Traceback" not in proc.stderr


# ---- the login shell Codex CLI runs a hook command with ---------------------------------------
LOGIN_SHELLS = ["/bin/sh", "bash", "zsh", "fish", "tcsh", "csh"]


@pytest.mark.parametrize("login", LOGIN_SHELLS)
def test_codex_s_command_through_any_login_shell_allows_and_denies_at_the_halt(
    repo: Path, tmp_path: Path, home: Path, login: str
) -> None:
    """Codex CLI runs a hook command with the user's login shell: csh and tcsh end a quoted
    word at a line break, so a script over several lines failed there (exit 1, which blocks
    nothing: at the halt the call went through). (``home``: fish keeps its own files there.)"""
    found = shutil.which(login)
    if found is None:
        pytest.skip(f"{login} is not installed")
    shell = Shell(repo, tmp_path, agent="codex", shell=found)
    shell.warmed()
    halt(repo)
    proc = shell.run()
    assert shell.python_started
    assert "landing mode" in blocked(proc)


@pytest.mark.parametrize("login", LOGIN_SHELLS)
def test_codex_s_one_line_script_asks_python_when_stale_or_gone_through_any_login_shell(
    repo: Path, tmp_path: Path, home: Path, login: str
) -> None:
    """The script joined on one line keeps every branch of the one it was: a file changed
    since the state, a state gone, each hands the call to Python, in every login shell."""
    found = shutil.which(login)
    if found is None:
        pytest.skip(f"{login} is not installed")
    shell = Shell(repo, tmp_path, agent="codex", shell=found)
    shell.warmed()
    (repo / ".git" / "HEAD").touch()
    proc = shell.run()
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert shell.python_started
    shell.warmed()
    hot_state(repo).unlink()
    proc = shell.run()
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert shell.python_started


# ---- the clock ----------------------------------------------------------------------------------
def test_a_clock_set_back_while_the_level_was_computed_leaves_no_state(shell: Shell) -> None:
    """A process that finds the clock earlier than when it started (set back meanwhile) leaves
    no state: a file written in between may carry a time before the state's own."""
    from tg_git.repo import hotstate
    from tg_git.services.startup import open_workspace

    shell.warmed()
    ws = open_workspace(str(shell.repo))
    started = time.time_ns() + 3600 * 10**9  # the clock now reads an hour before that
    hotstate.leave(hotstate.watch(ws.repo, ws.current_ledger_file(), started), "ok")
    assert not hot_state(shell.repo).exists()
    hotstate.leave(hotstate.watch(ws.repo, ws.current_ledger_file(), time.time_ns()), "ok")
    assert hot_state(shell.repo).is_file()


# ---- a clock file that cannot be written ----------------------------------------------------------
def test_a_clock_file_that_cannot_be_written_blocks_no_tool_call(shell: Shell) -> None:
    """``now`` cannot be written (a disk gone read-only; here immutable, which holds for root
    too): the shell asks Python, which allows, and at the halt denies. A failed redirection
    on ``:`` ended the shell with status 2, which Claude Code takes for a block."""
    shell.warmed()
    now = hot_state(shell.repo).parent / "now"
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    if subprocess.run(["chattr", "+i", str(now)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        proc = shell.run()
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
        assert shell.python_started
        halt(shell.repo)
        assert "landing mode" in blocked(shell.run())
    finally:
        subprocess.run(["chattr", "-i", str(now)], check=True)


# ---- agent install in a hostile clone -------------------------------------------------------------
def test_agent_install_writes_through_no_link_a_clone_planted_beside_the_file(
    repo: Path, tmp_path: Path
) -> None:
    """A clone tracks links where the settings' new copy is written before it is renamed into
    place (the name was the file's own, this process's id and ``.tmp``): the files they lead to
    stay as they were."""
    from tg_git.agents import settings

    victim = tmp_path / "victim"
    victim.write_text("the user's own file\n")
    folder = repo / ".claude"
    folder.mkdir()
    for name in ("settings.local.json", "settings.json"):
        (folder / f".{name}.{os.getpid()}.tmp").symlink_to(victim)
    settings.install("claude", repo, repo / ".git", user=False)
    assert victim.read_text() == "the user's own file\n"
    assert json.loads((folder / "settings.local.json").read_text())["hooks"]
    assert not (folder / "settings.local.json").is_symlink()


def test_the_opencode_plugin_is_written_through_no_link_a_clone_planted(
    repo: Path, tmp_path: Path
) -> None:
    from tg_git.agents import opencode

    victim = tmp_path / "victim"
    victim.write_text("the user's own file\n")
    folder = repo / ".opencode" / "plugin"
    folder.mkdir(parents=True)
    (folder / f".tg-git.js.{os.getpid()}.tmp").symlink_to(victim)
    opencode.install(repo, user=False, lang="en", portable=False)
    assert victim.read_text() == "the user's own file\n"


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_agent_install_keeps_the_mode_of_the_file_it_rewrites(
    repo: Path, home: Path, agent: str
) -> None:
    """The user's settings file kept private (it may hold keys) stays so when `agent install`
    rewrites it: the new copy takes the old one's mode, not the umask's."""
    from tg_git.agents import formats
    from tg_git.agents import settings

    target = formats.settings_file(agent, repo, True)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("{}\n")
    target.chmod(0o600)
    settings.install(agent, repo, repo / ".git", user=True)
    assert target.read_text().strip() != "{}"
    assert target.stat().st_mode & 0o777 == 0o600


def test_a_settings_write_that_fails_leaves_no_new_copy_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tg_git.agents import settings

    folder = tmp_path / "settings"
    folder.mkdir()
    target = folder / "settings.json"
    target.write_text("{}\n")

    def refuse(src: object, dst: object) -> None:
        raise OSError("no room")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        settings.write_file(target, '{"a": 1}\n')
    assert [p.name for p in folder.iterdir()] == ["settings.json"]
    assert target.read_text() == "{}\n"


# ---- the package removed after `agent install` ---------------------------------------------------
NOT_FOUND = "not found (was it uninstalled?)"


def _without_package(command: str, tmp_path: Path) -> str:
    """``command`` as `agent install` wrote it, its Python a fresh environment of this
    interpreter that holds no tg_git (the package removed since)."""
    env = tmp_path / "env"
    if not env.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    head, rest = command.split(" -E -c ", 1)
    prefix, _, python = head.rpartition(" ")  # after ``exec`` (and a check that names it)
    assert shlex.split(python) == [shlex.split(python)[0]]
    fresh = shlex.quote(str(env / "bin" / "python"))
    return f"{prefix.replace(python, fresh)} {fresh} -E -c {rest}"


@pytest.mark.parametrize("login", LOGIN_SHELLS)
def test_a_package_removed_after_install_blocks_no_agent_event(
    repo: Path, tmp_path: Path, home: Path, login: str
) -> None:
    """Every event but the tool call starts Python: with tg-git gone it says so in one line,
    prints nothing an agent would read, and exits 0 (it ended in a traceback, exit 1), through
    any login shell Codex CLI may run its commands with."""
    found = shutil.which(login)
    if found is None:
        pytest.skip(f"{login} is not installed")
    tg(repo, "agent", "install", "codex")
    data = json.loads((repo / ".codex" / "hooks.json").read_text())
    commands = {
        event: groups[0]["hooks"][0]["command"]
        for event, groups in data["hooks"].items()
        if EVENTS["codex"].get(event) != "tool"
    }
    assert len(commands) >= 3
    for event, command in commands.items():
        proc = subprocess.run([found, "-c", _without_package(command, tmp_path)],
                              cwd=repo, input=payload(repo), capture_output=True, text=True)  # fmt: skip
        assert (proc.returncode, proc.stdout) == (0, ""), (event, proc.stderr)
        assert proc.stderr.count("\n") == 1 and NOT_FOUND in proc.stderr, (event, proc.stderr)


@pytest.mark.parametrize("theirs", [None, "echo mine"])
def test_a_package_removed_after_install_leaves_the_status_line_one_sentence(
    tmp_path: Path, theirs: str | None
) -> None:
    from tg_git.agents import formats

    command = _without_package(formats.status_line_command(theirs), tmp_path)
    proc = subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, input="{}",
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert proc.stdout.count("\n") == 1 and NOT_FOUND in proc.stdout, proc


def test_a_package_removed_after_install_speaks_the_locale_s_language(tmp_path: Path) -> None:
    """No config can be read without the package: the locale picks the language, as tg-git
    does wherever no config names one; the sentence goes out as UTF-8 whatever the locale."""
    from tg_git.agents import formats
    from tg_git.text import messages

    command = _without_package(formats.command("codex", "Stop"), tmp_path)
    for lang, locale in LOCALES:
        env = {**os.environ, "LC_ALL": "", "LC_MESSAGES": "", "LANG": "", **locale}
        proc = subprocess.run(["/bin/sh", "-c", command], cwd=tmp_path, input=b"{}",
                              capture_output=True, env=env)  # fmt: skip
        assert (proc.returncode, proc.stdout) == (0, b"")
        said = messages.text(lang, "agent_hook_not_found")
        assert proc.stderr.decode() == said + "\n", locale
