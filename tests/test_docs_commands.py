"""Every command README.md and docs/ show a user runs as written, or parses as written.

A fenced ``sh`` block's lines run in order, in a real repository of the page's own (with this
test's ``tg-git`` first on PATH): a README that says ``tg-git init …`` then ``git commit`` is
the README the test drives. A line that shows a command's shape rather than a command
(``[--json]``, ``a|b``, ``…``) and every ``tg-git …`` named inline in the prose is parsed by
tg-git's own argument parser instead: each subcommand and option it names must exist. Lines
that install tg-git itself, or that CI runs already, are listed below with the reason.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import PROJECT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git import cli

PAGES = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"`(tg-git [^`]+)`")
# Lines not run here, each with why; every other line of a fenced block runs.
NOT_RUN = {
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/tg-git demo": "the Quick start: .ci/run runs it on every CI run (tests/test_readme.py holds the two)",
    ".venv/bin/python -m pytest": "the Quick start's second command: it is this suite",
    "cd your-repo": "the test runs every line in the page's repository",
}
NOT_RUN_PREFIXES = {
    "pipx install": "installs tg-git itself (tests/e2e/test_planted_modules.py installs it so)",
    "uv tool install": "installs tg-git itself",
    "TG_GIT_REPO=": "a placeholder URL, said so on the line",
    "python3 -m pip install": "installs tg-git itself",
    "tg-git metrics --push": "tests/report/test_metrics.py pushes to a real Pushgateway",
    "tg-git metrics --otlp": "tests/report/test_metrics.py sends to an OTLP receiver",
}


def logical_lines(block: str) -> list[str]:
    """A block's lines with continuations joined and trailing comments dropped."""
    lines, held = [], ""
    for raw in block.splitlines():
        if raw.rstrip().endswith("\\"):
            held += raw.rstrip()[:-1] + " "
            continue
        line = held + raw
        held = ""
        # A comment starts at a `#` after whitespace, outside quotes (shlex knows).
        lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
        lexer.whitespace_split = True
        lexer.commenters = "#"
        try:
            words = list(lexer)
        except ValueError:
            words = []
        cut = line.find(" #")
        if words and cut >= 0 and "#" not in " ".join(words):
            line = line[:cut]
        if line.strip():
            lines.append(line.strip())
    return lines


def is_shape(line: str) -> bool:
    """A synopsis, not a command: optional parts, alternatives, an ellipsis."""
    return any(mark in line for mark in ("[", "...", "…", "\\|", " | ")) or bool(
        re.search(r"\b[A-Z]{2,}\b|\b[A-Z]\.\.[A-Z]\b", line.split("#")[0])
    )


def commands(page: Path) -> tuple[list[str], list[str]]:
    """The page's lines to run, and the command shapes to parse."""
    text = page.read_text(encoding="utf-8")
    run: list[str] = []
    shapes = [m.group(1) for m in INLINE.finditer(FENCE.sub("", text))]
    for block in FENCE.findall(text):
        for line in logical_lines(block):
            if line.startswith(("$ ", "{", ">", "tg-git:")):
                _, bar, command = line.partition("| ")
                if bar and command.startswith("tg-git "):
                    shapes.append(command)  # a transcript's command
                continue
            if line in NOT_RUN or line.startswith(tuple(NOT_RUN_PREFIXES)):
                continue
            (shapes if is_shape(line) else run).append(line)
    return run, [s for s in shapes if s.startswith("tg-git ")]


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def unknown_in(shape: str) -> list[str]:
    """The subcommands and options a command shape names that tg-git's parser lacks."""
    parser: argparse.ArgumentParser = cli.build()
    wrong, descended = [], False
    shape = re.split(r" (?:&&|\|\||;) ", shape)[0]  # the first command of a list
    words = re.sub(r"[\[\]]", " ", shape.replace("\\|", "|")).split()[1:]
    for word in words:
        if word in ("|", "...", "…") or word.startswith("#"):
            if word.startswith("#"):
                break
            continue
        alternatives = [w for w in word.split("|") if w]
        subs = _subcommands(parser)
        if subs and not descended and not word.startswith("-"):
            names = [w for w in alternatives if not w.isupper()]
            if names and names[0] in subs:
                wrong += [f"{shape}: no subcommand {w!r}" for w in names if w not in subs]
                parser = subs[names[0]]
                continue
            if (
                names
                and names[0] not in subs
                and parser is not None
                and not _options(parser) & set(names)
            ):
                descended = True
        for alt in alternatives:
            if alt.startswith("-"):
                flag = alt.split("=", 1)[0].rstrip(",.;:")
                if flag not in _options(parser):
                    wrong.append(f"{shape}: no option {flag!r}")
    return wrong


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_command_shape_a_page_shows_parses(page: Path) -> None:
    _, shapes = commands(page)
    wrong = [line for shape in shapes for line in unknown_in(shape)]
    assert not wrong, "\n".join(wrong)


def test_the_shape_check_sees_a_missing_option() -> None:
    assert unknown_in("tg-git status [--json]") == []
    assert unknown_in("tg-git status --jsn") == ["tg-git status --jsn: no option '--jsn'"]
    assert unknown_in("tg-git task add|start|finish TITLE") == [
        "tg-git task add|start|finish TITLE: no subcommand 'finish'"
    ]


def _page_repo(root: Path, page: Path) -> Path:
    """A repository with one commit; for a page other than the README (which sets it up
    itself), set up with tg-git as the README says."""
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "app.py").write_text("print('hello')\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    if page.name != "README.md":
        tg(repo, "init", "--max-tokens", "200000", "--language", "en")
        tg(repo, "install")
        git(repo, "add", ".tg-git", ".gitattributes")
        commit(repo, "-m", "set up tg-git")
        git(repo, "switch", "-q", "-c", "feature")  # for a page's `main..feature`
        (repo / "feature.py").write_text("print('a feature')\n")
        git(repo, "add", "feature.py")
        commit(repo, "-m", "a feature")
        git(repo, "switch", "-q", "main")
    return repo


RUNNABLE = [page for page in PAGES if commands(page)[0]]


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: p.name)
def test_every_command_a_page_shows_runs_as_written(page: Path, tmp_path: Path) -> None:
    repo = _page_repo(tmp_path, page)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "BROWSER": "true",  # `report --open`: the browser is a program that does nothing
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"),
    }
    for line in commands(page)[0]:
        done = subprocess.run(
            ["bash", "-c", line], cwd=repo, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"{page.name}: {line}\n{done.stdout}\n{done.stderr}"
