"""Korean help names every argument's placeholder in Korean: no `COMMAND`, `TEXT`, `N` or
`title` left in a Korean `--help` page (identifiers in braces, `{add,start}`, stay)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tests.support.repos import git
from tests.support.repos import tg
from tg_git import cli

KEPT = {"ID", "A..B"}  # an identifier and a range, as git writes them


def placeholders(parser: argparse.ArgumentParser) -> list[str]:
    """What a help page shows for each argument that takes a value."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += [str(action.metavar)] if action.metavar else []  # else {its,choices}
            continue
        if action.nargs == 0 or action.choices is not None:
            continue
        shown = action.metavar or (action.dest.upper() if action.option_strings else action.dest)
        found.append(str(shown))
    return found


def test_every_placeholder_is_korean_in_a_korean_help() -> None:
    english = []
    top = cli.build()
    assert isinstance(top, cli._Parser)
    for parser in cli._walk(top):
        cli._localise_helps(parser, "ko")
        for shown in placeholders(parser):
            if shown not in KEPT and re.fullmatch(r"[A-Za-z_.]+", shown):
                english.append(f"{parser.prog}: {shown}")
        cli._localise_helps(parser, "en")
    assert english == []


def test_a_korean_help_page_says_its_placeholders_in_korean(plain_repo: Path) -> None:
    git(plain_repo, "commit", "-q", "--allow-empty", "-m", "first")
    tg(plain_repo, "init", "--language", "ko")
    top = tg(plain_repo, "--help").stdout
    assert "COMMAND" not in top and "명령" in top
    record = tg(plain_repo, "record", "--help").stdout
    assert not re.search(r"\b(TEXT|FILE|N|LABEL)\b", record), record
    task = tg(plain_repo, "task", "add", "--help").stdout
    assert not re.search(r"\btitle\b", task), task
    english = tg(plain_repo, "config", "set", "language", "en")
    assert english.returncode == 0
    assert re.search(r"\bTEXT\b", tg(plain_repo, "record", "--help").stdout)
