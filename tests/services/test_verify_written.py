"""A cold verify reads the ledger lines exactly as tg-git writes them without parsing them
(``eventlog.written``), and its verdict is the one the parse of every line gives: the same
report over histories whose lines are as tg-git writes them but tricky (a key twice in one
commit or in two, a string holding `" = `, escapes), and over one with lines a little off."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from bench.verify import SESSION
from bench.verify import build
from tg_git.domain import eventlog
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history

LEDGER = f".tg-git/ledger/{SESSION}.toml"
S = f'"session" = "{SESSION}"'


def _commit(repo: Path, n: int, lines: Sequence[str]) -> None:
    """A commit (no hook) adding code and ``lines`` to the session's ledger file."""
    with open(repo / "src" / "module_01.py", "a", encoding="utf-8") as f:
        f.write(f"def crafted_{n}(value):\n    return value * {n} + len('crafted step')\n")
    with open(repo / LEDGER, "a", encoding="utf-8") as f:
        f.write("".join(f"{line}\n" for line in lines))
    git = ["git", "-c", "core.hooksPath=/dev/null"]
    subprocess.run([*git, "commit", "-qam", f"crafted {n}"], cwd=repo, check=True, env=os.environ)


def _claim(key: str, tokens: int, extra: str = "") -> str:
    return f'{key} = {{ "kind" = "commit", "at" = "2026-01-01T00:00:00Z", {S}, "tokens" = {tokens}{extra} }}'


def _usage(key: str, extra: str = "") -> str:
    return (
        f'{key} = {{ "kind" = "usage", "at" = "2026-01-01T00:00:00Z", {S}, "output" = 5{extra} }}'
    )


TRICKY = [
    [_claim("ex1", 900), _usage("ex1")],  # one key, two lines, one commit: drift
    [_claim("ex2", 30), _usage("ex3")],
    [_usage("ex3", ', "note" = "again"'), _claim("ex4", 30)],  # a key another commit added
    [_claim("ex5", 30, ', "label" = "a\\" = \\"b"'), _usage("ex6", ', "note" = "\\/\\ud800"')],
    [_usage("ex7")],  # claims nothing: uncounted
    [_claim("ex8", 1, ', "label" = " = { "')],  # short
]
ODD = [  # as tg-git writes lines, odd inside: each reads as the parse reads it
    [_claim("ew1", 1, ', "tokens" = 900')],  # a field twice: JSON's last, as the parse's
    [_claim("ew2", 30, ', "label" = "a\x85b\u2028c\x7f\ufeffd\\u0000\\ud800\\udc00"')],
    [_usage("ew3", ', "note" = "\\" = \\"tokens\\" = 5"'), _claim("ew4", -0)],
    [_claim("ew5", 30, ', "estimator" = "\\ud800", "files" = true')],
    [_claim("ew6", 123456789012345678)],
]
OFF = [
    [_usage("ey1", ', "kind" = "commit", "tokens" = 900')],  # a kind twice: JSON's last
    ['ey2 = { kind = "note", text = "bare keys" }', _claim("ey3", 30)],  # hand-written
    [_usage("ey4", ', "note" = "\\x"')],  # does not read: drift
    [_claim("ey5", 1)],
]

TWICE = [  # only this line is off: a kind twice (JSON's reading takes the last)
    [_usage("ez1", ', "kind" = "commit", "tokens" = 900')],
    [_claim("ez2", 1)],
]


def _verify(repo: Path) -> tuple[dict[str, object], int, list[str]]:
    for memo in (repo / ".git" / "tg-git" / "verified").glob("*"):
        memo.unlink()  # cold: every commit read from git
    report = verify_history(open_workspace())
    return report.as_dict(), report.balance, report.lines()


@pytest.mark.parametrize(
    "commits", [TRICKY, ODD, OFF, TWICE], ids=["tricky", "odd", "off", "twice"]
)
def test_the_verdict_is_the_parse_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, commits: list[list[str]]
) -> None:
    repo = tmp_path / "h"
    build(repo, 20, 2, os.environ)
    for n, lines in enumerate(commits):
        _commit(repo, n, lines)
    monkeypatch.chdir(repo)
    taken = []
    written = eventlog.written

    def spy(lines: Sequence[str]) -> dict[str, eventlog.Event] | None:
        found = written(lines)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(eventlog, "written", spy)
    fast = _verify(repo)
    monkeypatch.setattr(eventlog, "written", lambda lines: None)
    parsed = _verify(repo)
    assert fast == parsed
    assert taken == [commits in (TRICKY, ODD)]  # the lines as tg-git writes them: no parse
    assert fast[0]["ok"] is (commits in (TWICE, ODD))  # its 900 cover the commits after it


@pytest.mark.parametrize("tokens", ['"abc"', '"900"', "true", "-900"])
def test_a_claim_whose_tokens_are_no_count_is_drift_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tokens: str
) -> None:
    repo = tmp_path / "h"
    build(repo, 20, 2, os.environ)
    line = f'ev1 = {{ "kind" = "commit", "at" = "2026-01-01T00:00:00Z", {S}, "tokens" = {tokens} }}'
    _commit(repo, 0, [line])  # a count replay refuses (``eventlog.count``)
    monkeypatch.chdir(repo)
    fast = _verify(repo)
    monkeypatch.setattr(eventlog, "written", lambda lines: None)
    assert _verify(repo) == fast
    drift = fast[0]["drift"]
    assert isinstance(drift, list) and len(drift) == 1, fast[2]
    assert "do not read as events" in str(drift[0]) and "`tokens`" in str(drift[0]), fast[2]
