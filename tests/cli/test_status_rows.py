"""`tg-git status`'s output rows: a commit's first file and its count are fields of its event,
read as they are; an older ledger's label (``path (+N)``) still reads, and replays the same."""

from __future__ import annotations

from pathlib import Path

from tests.support.repos import add
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.domain import eventlog
from tg_git.domain import replay


def test_a_file_named_like_a_count_is_shown_as_itself(repo: Path) -> None:
    add(repo, "x (+3)", "words in a file whose name looks like a count of files")
    out = tg(repo, "status").stdout
    assert "x (+3)" in out and "more file" not in out, out


def test_a_commit_of_several_files_shows_its_first_and_the_count(repo: Path) -> None:
    for name in ("a (+9).py", "b.py", "c.py"):
        (repo / name).write_text(f"value = compute({name!r})\n")
    git(repo, "add", ".")
    commit(repo, "-m", "three")
    out = tg(repo, "status").stdout
    assert "and 2 more file(s)" in out, out


def _line(**fields: object) -> str:
    return eventlog.event_line("commit", session="s1", **fields)[1]  # type: ignore[arg-type]


def test_a_ledger_of_labels_replays_the_same() -> None:
    """Lines as tg-git wrote them before the first path was a field of its own."""
    start = eventlog.event_line("session", id="s1", max_tokens=1000, base="")[1]
    old = [
        _line(tokens=40, files=3, label="a.py (+2)"),
        _line(tokens=5, files=1, label="x (+3)"),  # one file, named so
        _line(tokens=7, files=4, label="x (+3) (+3)"),
        _line(tokens=2, files=0, label="", override=True),
    ]
    session = replay.replay(eventlog.parse(start + "".join(old)))
    assert session is not None
    assert (session.output, session.commits) == (54, 4)
    assert [o[:2] for o in session.outputs] == [("a.py", 3), ("x (+3)", 1), ("x (+3)", 4), ("", 0)]
