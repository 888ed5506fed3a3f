"""``tg-git usage import`` pays for what it reads: neither the argument parser (its help
formatter, message tables), ``typing``, nor an agent's reader with no transcript here
(OpenCode's, with SQLite) is loaded by an import of a Claude transcript in its usual forms
(the registry's hot route ``usage import``), it counts as before, its output is cleaned as
every command's, and whatever arguments it is given, it answers as argparse did."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.agents import claude_line
from tests.support.agents import project_folder
from tests.support.agents import user_line

NOT_LOADED = (
    "argparse",
    "gettext",
    "shutil",
    "tg_git.cli",
    "tg_git.text.helpformat",
    "tg_git.usage.opencode",
    "sqlite3",
    "typing",  # (mypy's names only: tg_git/domain/typed.py)
)
_RUN = """
import atexit, sys
for name in {names!r}:
    sys.modules.pop(name, None)  # (the interpreter's own start may have loaded one)
atexit.register(lambda: open({out!r}, "w").write(" ".join(sorted(sys.modules))))
sys.argv = ["tg-git", *{args!r}]
from tg_git import commands
if {parsed!r}:  # as before the hot route: every `usage import` parsed by argparse
    commands.HOT.remove(["usage", "import"])
from tg_git.main import main
raise SystemExit(main())
"""


def _run(
    repo: Path, tmp_path: Path, *args: str, parsed: bool = False
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    out = tmp_path / "modules.txt"
    code = _RUN.format(names=NOT_LOADED, out=str(out), args=list(args), parsed=parsed)
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False
    )
    return proc, set(out.read_text().split())


@pytest.mark.parametrize(
    "args",
    [
        ["usage", "import", "--json"],
        ["usage", "import"],
        ["usage", "import", "--agent", "claude", "--json"],
        ["usage", "import", "--json", "--agent", "codex", "--agent", "claude"],
    ],
)
def test_an_import_loads_no_module_it_does_not_use(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path, args: list[str]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(user_line() + claude_line("m1", "r1", fresh=5, out=7))
    proc, loaded = _run(repo, tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    if "--json" in args:
        assert json.loads(proc.stdout)["tokens"] == 12
    else:
        assert "12" in proc.stdout.replace(",", "")
    assert [m for m in NOT_LOADED if m in loaded] == []
    assert "tg_git.usage.claude" in loaded  # it did read the transcript


def test_an_import_with_other_options_still_parses_them(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path
) -> None:
    """Any other option (``--agent``, help, a wrong one) is parsed as ever."""
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(claude_line("m1", "r1", fresh=5, out=7))
    proc, _ = _run(repo, tmp_path, "usage", "import", "--agent", "claude", "--json")
    assert (proc.returncode, json.loads(proc.stdout)["tokens"]) == (0, 12)
    proc, _ = _run(repo, tmp_path, "usage", "import", "--jsn")
    assert proc.returncode != 0 and "--jsn" in proc.stderr


@pytest.mark.parametrize("more", [[], ["--agent", "claude"]])  # (the second: argparse's)
def test_a_note_naming_a_file_not_utf8_is_json_that_reads_back(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path, more: list[str]
) -> None:
    """The output is cleaned as ever: a note names a file discovery would not read (a FIFO)
    whose name is not UTF-8 and holds a bidi override; ``--json`` prints it as escapes that
    read back, and the command does not fail."""
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(claude_line("m1", "r1", fresh=5, out=7))
    os.mkfifo(os.fsencode(folder) + b"/\xff\xe2\x80\xae.jsonl")
    proc, _ = _run(repo, tmp_path, "usage", "import", *more, "--json")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    assert "\u202e" not in proc.stdout and "\\u202e" in proc.stdout
    out = json.loads(proc.stdout)
    assert out["tokens"] == 12 and any("\udcff" in note for note in out["notes"])


SAID_ALIKE = [
    [],
    ["--json"],
    ["--json", "--json"],
    ["--agent", "claude", "--json"],
    ["--agent", "codex", "--agent", "claude", "--json"],
    ["--agent", "nobody", "--json"],
    ["--agent", "nobody"],
    ["--agent", "--json"],
    ["--agent"],
    ["--agent=claude", "--json"],
    ["--transcript"],
    ["--transcript", "-s.jsonl", "--json"],
    ["--transcript", "s.jsonl", "--json"],
    ["--transcript", "", "--json"],
    ["--session", "s", "--json"],
    ["--session", "nowhere", "--json"],
    ["--jsn"],
    ["--json", "extra"],
    ["--", "--json"],
    ["-h"],
    ["--help"],
]


@pytest.mark.parametrize("more", SAID_ALIKE, ids=lambda more: " ".join(more) or "none")
def test_an_import_answers_any_arguments_as_argparse_did(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path, more: list[str]
) -> None:
    """Whatever follows `usage import`, the hot route's exit code, output and errors are the
    ones argparse's reading gives (the same command with the route taken away); the import
    is run on two copies of one repository, each reading the same transcript once."""
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(claude_line("m1", "r1", fresh=5, out=7))
    other = tmp_path / "copy" / repo.name  # (an error names the folder)
    shutil.copytree(repo, other, symlinks=True)
    os.link(folder / "s.jsonl", project_folder(other, agent_homes["CLAUDE_CONFIG_DIR"]) / "s.jsonl")
    args = ["usage", "import", *[str(folder / "s.jsonl") if a == "s.jsonl" else a for a in more]]
    hot, _ = _run(repo, tmp_path, *args)
    parsed, _ = _run(other, tmp_path, *args, parsed=True)
    said = [(p.returncode, p.stdout, p.stderr) for p in (hot, parsed)]
    assert said[0] == said[1]


_FROZEN = """
import atexit, gc, sys
atexit.register(lambda: print("frozen", gc.get_freeze_count() > 0))
sys.argv = ["tg-git", *{args!r}]
from tg_git.main import main
{call}
"""


def test_an_import_s_process_ends_with_its_objects_out_of_the_collector_s_sight(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    """``tg-git usage import`` (its process's own command) ends with the objects it made
    frozen: the interpreter's last collector pass does not go over them. ``main`` called
    with arguments, in a process that goes on (a test's), freezes nothing."""
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(user_line() + claude_line("m1", "r1", fresh=5, out=7))
    args = ["usage", "import", "--json"]
    for n, (call, frozen) in enumerate((("raise SystemExit(main())", "True"),
                                        ("raise SystemExit(main(sys.argv[1:]))", "False"))):  # fmt: skip
        with (folder / "s.jsonl").open("a") as fh:  # a request of 12 tokens more each time
            fh.write(claude_line(f"m{n + 2}", f"r{n + 2}", fresh=5, out=7) if n else "")
        code = _FROZEN.format(args=args, call=call)
        proc = subprocess.run(
            [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False
        )
        assert proc.returncode == 0, proc.stderr
        body, said = proc.stdout.rsplit("\n", 2)[:2]
        assert json.loads(body)["tokens"] == 12 and said == f"frozen {frozen}"
