"""``tg-git usage import`` pays for what it reads: an agent's reader with no transcript here
(OpenCode's, with SQLite) is never loaded by an import of a Claude transcript, it counts as
before, and its output is cleaned as every command's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.agents import claude_line
from tests.support.agents import project_folder
from tests.support.agents import user_line

NOT_LOADED = (
    "tg_git.usage.opencode",
    "sqlite3",
)
_RUN = """
import atexit, sys
for name in {names!r}:
    sys.modules.pop(name, None)  # (the interpreter's own start may have loaded one)
atexit.register(lambda: open({out!r}, "w").write(" ".join(sorted(sys.modules))))
sys.argv = ["tg-git", *{args!r}]
from tg_git.main import main
raise SystemExit(main())
"""


def _run(
    repo: Path, tmp_path: Path, *args: str
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    out = tmp_path / "modules.txt"
    code = _RUN.format(names=NOT_LOADED, out=str(out), args=list(args))
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=False
    )
    return proc, set(out.read_text().split())


@pytest.mark.parametrize("args", [["usage", "import", "--json"], ["usage", "import"]])
def test_an_import_loads_no_module_it_does_not_use(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path, args: list[str]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    (folder / "s.jsonl").write_text(user_line() + claude_line("m1", "r1", fresh=5, out=7))
    proc, loaded = _run(repo, tmp_path, *args)
    assert proc.returncode == 0, proc.stderr
    if "--json" in args:
        assert json.loads(proc.stdout)["tokens"] == 12
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
