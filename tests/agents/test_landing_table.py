"""Landing mode as a table: every command below (allowed and denied) in the payload shape of
every agent's shell tool (Claude Code ``Bash {command}``, Codex's hook ``Bash {command}``,
``exec_command {cmd, workdir}``, ``shell {command: [argv], workdir}``, ``local_shell {command:
[argv]}``, ``shell_command {command}``, Gemini CLI ``run_shell_command {command, dir_path}``,
Antigravity ``run_command {CommandLine, Cwd}`` double-encoded, Cursor ``Shell {command}``,
Copilot CLI ``bash`` with ``toolArgs`` as JSON text), judged by ``landing.allowed``; a sample of
it through the real hook entry of each agent at a halt; and the directory a call runs in
(a nested repository, outside the repository) judged by the repository it belongs to.
``tests/agents/test_landing_shell.py`` runs every allowed command of this table through bash.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import git
from tests.conftest import hook
from tests.conftest import tg
from tg_git.agents import landing

ALLOWED = [
    # git status
    "git status", "git status --short", "git status -s", "git status -sb",
    "git status --porcelain", "git status --porcelain=v2", "git status -uno",
    "git status --untracked-files=all", "git status --branch --show-stash", "git status -- src",
    "git status src/a.py", "git status --ignored", "git status -z", "git status --long",
    # git diff
    "git diff", "git diff --cached", "git diff --staged", "git diff --stat",
    "git diff --stat=120", "git diff HEAD", "git diff HEAD~1", "git diff HEAD^",
    "git diff main..HEAD", "git diff --name-only", "git diff --name-status HEAD~2",
    "git diff -U5", "git diff --unified=1", "git diff --unified 3", "git diff --word-diff",
    "git diff --color=never", "git diff --no-color", "git diff -w", "git diff --check",
    "git diff --cached -- src/a.py", "git diff -- 'odd name.txt'", "git diff HEAD -- docs",
    "git diff --merge-base main", "git diff --diff-algorithm=histogram",
    "git diff --diff-algorithm patience", "git diff -- '*.py'", "git diff --exit-code --quiet",
    "git diff -p --stat", "git diff -M50% --stat", "git diff --relative=src", "git diff @",
    "git diff -- --output=F", "git diff -- '{a,b}' '-c'",
    # git add
    "git add -A", "git add .", "git add src/a.py", "git add -u", "git add --all",
    "git add -- src", "git add 'odd name.txt'", 'git add "spaced file.md"', "git add -N new.py",
    "git add --dry-run .", "git add -v src docs", "git add 파일.txt", "git add --chmod=+x run.sh",
    "git add --ignore-removal .", "git add a.py b.py c.py", "git add -- '*' '-c'",
    "git add ./src/x_y-z.py", "git add src/a,b.py", "git add name@v1.0%+.txt",
    # git commit
    "git commit -m wip", "git commit -m 'parser: tokenizer done'", 'git commit -m "land the work"',
    "git commit -am wip", "git commit -a -m 'all of it'", "git commit -mx",
    "git commit --message=done", "git commit --message 'two words'", "git commit -m -n",
    "git commit -m '--no-verify'", "git commit -m 'fix; rm -rf / in the docs'",
    "git commit -m 'cost $5'", "git commit -m 'a `b` c'", 'git commit -m "it\'s done"',
    "git commit -m 'say \"hi\"'", "git commit -m x -m 'second paragraph'",
    "git commit -q -m quiet", "git commit -s -m signed", "git commit --allow-empty -m empty",
    "git commit --amend --no-edit", "git commit -F msg.txt", "git commit --file=msg.txt",
    "git commit -m wip -- src/a.py", "git commit -m 한국어", "git commit -m '한국어 메시지'",
    "git commit -m ''", "git commit --author='A U Thor <a@example.com>' -m x",
    "git commit -m 'HEAD~1 {a,b} *.py #tag ~/x !!'", "git commit -v -m verbose",
    "git commit --dry-run", "git commit -C HEAD", "git commit -m x --trailer 'Signed-off-by: A <a@b.c>'",
    "git commit -m \"a | b && c ; d\"", "git commit -m wip'quoted'glued", "git commit -m=x",
    # tg-git
    "tg-git status", "tg-git status --json", "tg-git checkpoint", "tg-git checkpoint -m 'before the halt'",
    "tg-git checkpoint --message=landed", "tg-git task done parser", "tg-git task list",
    "tg-git task add 'write docs'", "tg-git task block parser 'needs review'",
    "tg-git note 'the lexer needs a rewrite'", 'tg-git note "remember the cache"',
    # chains
    "git add -A && git commit -m 'land'", "git status; git diff",
    "git add . && git commit -m wip && tg-git checkpoint -m done", "git diff --cached || git status",
    "git status;git diff", "git add -A&&git commit -m x", "git commit -m a||git status",
    "tg-git status && tg-git note 'halted here'", "git\tstatus", "  git status  ",
    "'git' status", "g'i't status",
]  # fmt: skip

DENIED = [
    # other git commands and options
    "git push", "git push --force", "git reset --hard", "git checkout .", "git restore .",
    "git clean -fdx", "git stash", "git rebase -i HEAD~3", "git merge main", "git branch -D x",
    "git tag v1", "git config core.hooksPath /dev/null", "git rm a.py", "git mv a b",
    "git apply p.diff", "git fetch", "git pull", "git log", "git show HEAD", "git st",
    "git stat", "git -c core.hooksPath=/dev/null commit -m x", "git -C .. status",
    "git --git-dir=/tmp/x status", "git --no-pager diff", "git commit --no-verify -m x",
    "git commit -n -m x", "git commit -nm x", "git commit -anm x", "git commit -m x -n",
    "git commit --no-verif -m x", "git commit --no-ver -m x", "git commit --no-post-rewrite -m x",
    "git commit -e -m x", "git commit -c HEAD", "git commit -t tpl", "git commit -S -m x",
    "git commit -p", "git commit --pathspec-from-file=list", "git commit --amend -m x --no-verify",
    "git commit -m", "git commit --message", "git commit --mess=x", "git commit --amend=x",
    "git add -p", "git add -i", "git add -e", "git add -f secret.env",
    "git add --pathspec-from-file=list", "git diff --output=patch.txt", "git diff --output patch.txt",
    "git diff --ext-diff", "git diff --textconv", "git diff --no-index /etc/passwd x",
    "git diff --outp=x", "git diff -Oorder", "git status --porcelai", "git status --short=x",
    "git diff -- x --output=F; git diff --output=F",
    # other programs and shell forms
    "rm -rf /", "touch F", "python -c 'print(1)'", "sh -c 'git status'", "bash", "env git status",
    "command git status", "exec git status", "nohup git status", "time git status",
    "sudo git status", "xargs git add", "/usr/bin/git status", "./git status", "Git status",
    "git status > out", "git status >> out", "git status 2>&1", "git status &>out",
    "git status < in", "git status | cat", "git status &", "(git status)", "{ git status; }",
    "git status $(touch F)", "git status `touch F`", "git status ${HOME}", 'git commit -m "$HOME"',
    "git status\ntouch F", "git status\rtouch F", "git status;", "; git status", "&& git status",
    "git status && ", "'git status'", "git status 'unterminated", 'git status "unterminated',
    "tg-git session start", "tg-git resume", "tg-git config set max_tokens 999999", "tg-git",
    "git", "", "   ", "tg-git record --tokens 1", "tg-git uninstall", "tg-git -V",
    "tg-git hook agent claude PreToolUse", "git status\x0btouch F", "git status\u00a0; touch F",
    "git status\x00", "git diff =git", "git commit -m x\\ y", "git add ~", "git add ~user/x",
    "git add a:~/x", "git add ^HEAD", "git status -- [ab]", "git status ]",
    # each escape landing mode once let through
    "git status x#;touch F", "git status#;touch F", "git diff {--output=/tmp/tg-escape,HEAD}",
    "git commit {--no-verify,-mx}", "git diff *", "git add -- *", "git diff ?????????",
    "git diff [-]*", "git diff ~/x", "git commit -m a=~", "git status \\; touch F",
    "git diff <(touch F)", "git commit -F - <<< x", "git commit -F - <<EOF",
    "cd nested && git commit -m x", "cd src && git status", "pushd nested && git status",
    "popd; git commit -m x", "GIT_EXTERNAL_DIFF=touch git diff", "A=b git status",
    "git status'|'touch F", "git commit -m !!", "git add @(a|b)", "git commit -m $'x'",
    'git commit -m "a\\\\"', "git status;; touch F", "git status |& touch F",
    'git commit -m "a!b"', "git diff HEAD@{1}", "git diff 'HEAD'{,--output=F}",
]  # fmt: skip

REPO = "/work/repo"


def _inside(directory: str) -> bool:
    """The halted repository is REPO: the agent's own directory (".") and REPO itself lie in
    it; anything else does not."""
    return directory in (".", REPO)


# agent shape -> (tool name, arguments) as the hook reads them from that agent's payload
SHAPES: dict[str, Callable[[str], tuple[str, Any]]] = {
    "claude Bash": lambda c: ("Bash", {"command": c, "description": "land"}),
    "codex Bash (hook)": lambda c: ("Bash", {"command": c}),
    "codex exec_command": lambda c: ("exec_command", {"cmd": c, "workdir": REPO, "login": True}),
    "codex shell": lambda c: ("shell", {"command": ["bash", "-lc", c], "workdir": REPO}),
    "codex local_shell": lambda c: ("local_shell", {"command": ["bash", "-c", c]}),
    "codex shell_command": lambda c: ("shell_command", {"command": c, "workdir": REPO}),
    "gemini run_shell_command": lambda c: ("run_shell_command", {"command": c, "dir_path": REPO}),
    "antigravity run_command": lambda c: (
        "run_command",
        json.dumps({"CommandLine": json.dumps(c), "Cwd": REPO, "Blocking": True}),
    ),
    "cursor Shell": lambda c: ("Shell", {"command": c}),
    "copilot bash": lambda c: ("bash", json.dumps({"command": c, "description": "land"})),
}


def test_the_table_is_big_enough_and_has_no_command_twice() -> None:
    assert len(ALLOWED) + len(DENIED) >= 150
    assert len(set(ALLOWED)) == len(ALLOWED) and len(set(DENIED)) == len(DENIED)
    assert not set(ALLOWED) & set(DENIED)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_command_in_every_agents_payload_shape(shape: str) -> None:
    wrong = []
    for command in ALLOWED + DENIED:
        tool, args = SHAPES[shape](command)
        if landing.allowed(tool, args, _inside) is not (command in ALLOWED):
            wrong.append(command)
    assert not wrong, (shape, wrong)


@pytest.mark.parametrize("command", ALLOWED)
def test_a_word_list_is_run_without_a_shell(command: str) -> None:
    """Codex's argument lists without a shell: the words themselves are judged."""
    parts = landing.parse(command)
    assert parts is not None
    if len(parts) == 1 and not any("$" in w or "`" in w for w in parts[0]):
        assert landing.allowed("shell", {"command": parts[0]})


# ---- the real hook entry, one sample per agent -------------------------------------------------
SAMPLE_ALLOWED = ["git add -A && git commit -m 'land the parser'", "git status --short",
                  "tg-git checkpoint -m landed", "git diff --cached -- src/a.py"]  # fmt: skip
SAMPLE_DENIED = ["git status x#;touch F", "git diff {--output=F,HEAD}", "git commit --no-verif -m x",
                 "git commit {--no-verify,-mx}", "git diff *", "cd nested && git commit -m x",
                 "rm -rf /"]  # fmt: skip


def _payload(agent: str, repo: Path, command: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    """The hook event and stdin JSON each agent sends for a shell call of ``command``."""
    base: dict[str, Any] = {"cwd": str(repo), "session_id": "S1"}
    if agent in ("claude", "codex"):
        call = {"tool_name": "Bash", "tool_input": {"command": command, **extra}}
        return "PreToolUse", {**base, "hook_event_name": "PreToolUse", **call}
    if agent == "gemini":
        call = {"tool_name": "run_shell_command", "tool_input": {"command": command, **extra}}
        return "BeforeTool", {**base, "hook_event_name": "BeforeTool", **call}
    if agent == "cursor":
        call = {"tool_name": "Shell", "tool_input": {"command": command, **extra}}
        roots = {"conversation_id": "c1", "workspace_roots": [str(repo)]}
        return "preToolUse", {**base, **roots, **call}
    if agent == "copilot":
        args = json.dumps({"command": command, "description": "land", **extra})
        return "preToolUse", {**base, "sessionId": "p1", "toolName": "bash", "toolArgs": args}
    args = json.dumps({"CommandLine": json.dumps(command), "Cwd": str(repo), **extra})
    call = {"toolCall": {"name": "run_command", "args": args}}
    return "PreToolUse", {**base, "conversationId": "a1", "workspacePaths": [str(repo)], **call}


def denied(agent: str, proc: subprocess.CompletedProcess[str]) -> bool:
    """Whether the agent reads the hook's answer as a denial; an allowed call is silent."""
    if agent in ("claude", "codex", "gemini"):
        if proc.returncode == 2 and proc.stdout == "" and "landing mode" in proc.stderr:
            return True
    elif proc.returncode == 0 and proc.stdout:
        answer = json.loads(proc.stdout)
        return "deny" in (answer.get("permission"), answer.get("permissionDecision"),
                          answer.get("decision"))  # fmt: skip
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), proc
    return False


@pytest.fixture
def halted(repo: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    tg(repo, "record", "--tokens", "195000")
    return repo


AGENTS = ["claude", "codex", "gemini", "cursor", "copilot", "antigravity"]


@pytest.mark.parametrize("agent", AGENTS)
def test_a_sample_through_each_agents_hook(halted: Path, agent: str) -> None:
    for command in SAMPLE_ALLOWED + SAMPLE_DENIED:
        event, payload = _payload(agent, halted, command)
        verdict = denied(agent, hook(halted, agent, event, payload))
        assert verdict is (command in SAMPLE_DENIED), (agent, command)
        assert landing.parse(command) is not None or command in SAMPLE_DENIED


# ---- where the call runs -------------------------------------------------------------------------
@pytest.fixture
def nested(halted: Path) -> Path:
    """A repository of its own inside the halted one (not set up for tg-git)."""
    inner = halted / "vendor" / "lib"
    inner.mkdir(parents=True)
    git(inner, "init", "-q")
    return inner


@pytest.mark.parametrize("agent", AGENTS)
def test_a_call_from_a_nested_repository_stays_in_landing_mode(
    halted: Path, nested: Path, agent: str
) -> None:
    for command, refused in (("touch F", True), ("git commit -m x", True)):
        extra = {"Cwd": str(nested)} if agent == "antigravity" else {}
        event, payload = _payload(agent, halted, command, **extra)
        payload["cwd"] = str(nested)  # the agent's shell moved into the nested repository
        proc = subprocess.run(
            [*_tg_hook(agent, event)], cwd=nested, input=json.dumps(payload),
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert denied(agent, proc) is refused, (agent, command, proc)
    assert not (nested / "F").exists()


def _tg_hook(agent: str, event: str) -> list[str]:
    from tests.conftest import TG_GIT

    return [TG_GIT, "hook", "agent", agent, event]


@pytest.mark.parametrize(
    ("agent", "key"),
    [("antigravity", "Cwd"), ("gemini", "dir_path"), ("cursor", "cwd"), ("copilot", "cwd"),
     ("claude", "cwd"), ("codex", "workdir")],
)  # fmt: skip
def test_a_call_that_names_another_directory_is_judged_by_its_repository(
    halted: Path, nested: Path, tmp_path: Path, agent: str, key: str
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    src = halted / "src"
    src.mkdir(exist_ok=True)
    for place, refused in ((nested, True), (outside, True), (halted, False), (src, False),
                           (halted / "vendor", False), (nested / ".." / "..", False)):  # fmt: skip
        event, payload = _payload(agent, halted, "git commit -m x", **{key: str(place)})
        assert denied(agent, hook(halted, agent, event, payload)) is refused, (agent, place)


def test_a_call_from_outside_any_repository_belongs_to_the_agents_project(
    halted: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    event, payload = _payload("claude", halted, "touch F")
    payload["cwd"] = str(outside)
    env = {"CLAUDE_PROJECT_DIR": str(halted)}
    proc = subprocess.run(
        _tg_hook("claude", event), cwd=outside, input=json.dumps(payload), capture_output=True,
        text=True, check=False, env={**os.environ, **env},
    )  # fmt: skip
    assert denied("claude", proc)
    event, payload = _payload("cursor", halted, "git status")
    payload["cwd"] = str(outside)  # Cursor names its workspace roots
    proc = subprocess.run(
        _tg_hook("cursor", event), cwd=outside, input=json.dumps(payload), capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    assert denied("cursor", proc)


def test_a_denied_shell_call_says_how_to_write_one(halted: Path) -> None:
    event, payload = _payload("claude", halted, "cd src && git commit -m x")
    reason = hook(halted, "claude", event, payload).stderr
    assert "landing mode" in reason and "no `cd`" in reason and "spelled in full" in reason
    assert reason.count("\n") == 1
    tg(halted, "config", "set", "language", "ko")
    reason = hook(halted, "claude", event, payload).stderr
    assert "착륙 모드" in reason and "`cd` 없이" in reason
