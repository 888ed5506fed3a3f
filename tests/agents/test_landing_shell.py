"""The shell proof of landing mode: every command the table allows is run through a real
``bash -c`` (and ``sh -c`` where it is another shell) in a sandbox folder full of hostile file
names (``--output=F``, ``-c``, ``*``, ``{a,b}``, ``-n``...), with HOME a temporary folder and
PATH holding only stand-ins for ``git`` and ``tg-git`` that write their argv, NUL-separated, to
a log. The argv the shell produced must be exactly the words ``landing.parse`` read, part by
part in the order ``&&``, ``||`` and ``;`` run them (the stand-ins answer 0, then 1), nothing
else may run or print, and no file may appear or change. Denied commands are not run, except
a few escapes, run to show the sandbox sees what bash does to them.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tg_git.agents import landing

TABLE = json.loads((Path(__file__).parent / "landing_table.json").read_text(encoding="utf-8"))
ALLOWED: list[str] = [c for group in TABLE["allowed"].values() for c in group]
HOSTILE = [
    "--output=F",
    "-c",
    "*",
    "{a,b}",
    "a",
    "b",
    "-n",
    "--no-verify",
    "HEAD",
    "x#",
    "?",
    "[ab]",
    "~",
    "-mx",
    ".hidden",
    "odd name.txt",
    "--exec=touch",
    "$HOME",
    "a=~",
]
STUB = '#!{bash}\n{{ printf \'%s\\0\' "$#" "${{0##*/}}" "$@"; }} >> "$LANDING_LOG"\nexit "$LANDING_STATUS"\n'
SHELLS = ["bash"] + (
    ["sh"] if shutil.which("sh") and Path(shutil.which("sh") or "").resolve().name != "bash" else []
)


class Sandbox:
    def __init__(self, root: Path) -> None:
        self.box, self.home, self.bin = root / "box", root / "home", root / "bin"
        self.log = root / "argv.log"
        for folder in (self.box, self.home, self.bin, self.box / "src", self.box / "docs"):
            folder.mkdir(parents=True)
        for name in HOSTILE:
            (self.box / name).write_text(name)
        (self.box / "src" / "a.py").write_text("a\n")
        bash = shutil.which("bash")
        assert bash is not None
        for program in ("git", "tg-git"):
            stub = self.bin / program
            stub.write_text(STUB.format(bash=bash))
            stub.chmod(0o755)

    def snapshot(self) -> dict[str, bytes]:
        return {
            str(p.relative_to(p.anchor)): p.read_bytes() if p.is_file() else b"<dir>"
            for folder in (self.box, self.home, self.bin)
            for p in sorted(folder.rglob("*"))
        }

    def run(self, shell: str, command: str, status: int) -> tuple[list[list[str]], str]:
        """The argv of each program the shell ran for ``command``, and what it printed."""
        self.log.write_bytes(b"")
        shell_path = shutil.which(shell)
        assert shell_path is not None
        env = {
            "PATH": str(self.bin),
            "HOME": str(self.home),
            "LANDING_LOG": str(self.log),
            "LANDING_STATUS": str(status),
            "LC_ALL": "C.UTF-8",
        }
        proc = subprocess.run(
            [shell_path, "-c", command],
            cwd=self.box,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        fields = self.log.read_bytes().decode().split("\0")[:-1]
        runs = []
        while fields:
            count = int(fields[0])
            runs.append(fields[1 : count + 2])
            fields = fields[count + 2 :]
        return runs, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    return Sandbox(tmp_path_factory.mktemp("landing-shell"))


def expected_runs(parts: list[tuple[str, list[str]]], status: int) -> list[list[str]]:
    """The parts a shell runs when every program answers ``status``."""
    runs, last = [], 0
    for operator, words in parts:
        if (operator == "&&" and last != 0) or (operator == "||" and last == 0):
            continue
        runs.append(words)
        last = status
    return runs


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("command", ALLOWED)
def test_the_shell_passes_exactly_the_words_landing_mode_read(
    sandbox: Sandbox, shell: str, command: str
) -> None:
    parts = landing.chain(command)
    assert parts is not None
    before = sandbox.snapshot()
    for status in (0, 1):
        runs, printed = sandbox.run(shell, command, status)
        assert runs == expected_runs(parts, status), (shell, command, status)
        assert printed == "", (shell, command, printed)  # nothing else ran, nothing failed
    assert sandbox.snapshot() == before  # no file appeared or changed


@pytest.mark.parametrize(
    "command",
    [
        "git diff *",
        "git diff {--output=F,HEAD}",
        "git status x#",
        "git diff ~/x",
        "git commit -m a=~",
        "git add -- [ab]",
        "git diff ?",
    ],
)
def test_the_sandbox_sees_an_expansion_landing_mode_now_refuses(
    sandbox: Sandbox, command: str
) -> None:
    """These passed once, read by ``shlex`` as a POSIX shell would read them; bash gives git
    other words."""
    assert landing.parse(command) is None
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    runs, _ = sandbox.run("bash", command, 0)
    assert len(runs) == 1 and runs[0] != list(lexer)


def test_a_comment_inside_a_word_runs_the_rest_in_bash(sandbox: Sandbox) -> None:
    """``x#;touch F``: shlex took all after ``#`` as a comment; bash runs ``touch``."""
    assert landing.parse("git status x#;touch F") is None
    runs, printed = sandbox.run("bash", "git status x#;git note F", 0)
    assert runs == [["git", "status", "x#"], ["git", "note", "F"]]
    assert printed == ""
