"""`tg-git report --range A..B`: a range's receipt against `status` and `report`, a range's
total against its commits', and what a receipt and the metrics may carry (ids and names,
never a file's content or a transcript's text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import MARKER
from tests.support.agents import claude_line
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import set_up
from tests.support.repos import status
from tests.support.repos import tg
from tg_git.domain import prices
from tg_git.report import range as ranges

FILE_MARK = "FILECONTENT-5c1e0b"  # in committed files' text
TASK_MARK = "TASKTITLE-93d7aa"  # in a task's title and a note
SUBJECT_MARK = "SUBJECT-0e44f1"  # in commit messages
FIGURES = ("tokens", "usd_pico", "unpriced", "commits")


def _commit_file(repo: Path, name: str, words: int) -> None:
    (repo / name).write_text(f"# {FILE_MARK}\n" + "value = 1\n" * words)
    git(repo, "add", name)
    commit(repo, "-m", f"add {name} {SUBJECT_MARK}")


def _receipt(repo: Path, spec: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(tg(repo, "report", "--range", spec, "--json").stdout)
    return data


class Team:
    """Two clones of one remote: session 1 on main in clone A, session 2 (measured by a
    Claude transcript) on branch `feature` in clone B, session 3 on main in clone A, which
    merges `feature` and pushes."""

    def __init__(self, tmp_path: Path) -> None:
        self.remote = tmp_path / "origin.git"
        git(tmp_path, "init", "-q", "--bare", str(self.remote))
        self.a = tmp_path / "a"
        self.a.mkdir()
        git(self.a, "init", "-q")
        set_up(self.a)
        self.root = git(self.a, "rev-list", "--max-parents=0", "HEAD").stdout.strip()
        self.s1 = status(self.a)["session"]["id"]
        tg(self.a, "task", "add", f"write the {TASK_MARK}")
        tg(self.a, "note", f"remember {TASK_MARK}")
        tg(self.a, "record", "--tokens", "700")
        _commit_file(self.a, "one.py", 40)
        _commit_file(self.a, "two.py", 15)
        git(self.a, "remote", "add", "origin", str(self.remote))
        git(self.a, "push", "-q", "origin", "main")
        self.first = git(self.a, "rev-parse", "HEAD").stdout.strip()

        self.b = tmp_path / "b"
        git(tmp_path, "clone", "-q", str(self.remote), str(self.b))
        tg(self.b, "install")
        git(self.b, "switch", "-q", "-c", "feature")
        tg(self.b, "session", "start")
        self.s2 = status(self.b)["session"]["id"]
        transcript = tmp_path / "t.jsonl"
        transcript.write_text(
            claude_line("m1", "r1", fresh=1200, write=3000, read=40000, out=900)
            + claude_line("m2", "r2", fresh=300, read=45000, out=400, model="claude-haiku-4-5")
        )
        tg(self.b, "usage", "import", "--agent", "claude", "--transcript", str(transcript))
        _commit_file(self.b, "three.py", 30)
        tg(self.b, "record", "--tokens", "250")
        _commit_file(self.b, "four.py", 10)
        git(self.b, "push", "-q", "origin", "feature")
        self.b_status = status(self.b)

        tg(self.a, "session", "start")
        self.s3 = status(self.a)["session"]["id"]
        _commit_file(self.a, "five.py", 25)
        git(self.a, "fetch", "-q", "origin")
        git(self.a, "merge", "-q", "--no-edit", "origin/feature")
        tg(self.a, "record", "--tokens", "90")
        _commit_file(self.a, "six.py", 5)
        git(self.a, "push", "-q", "origin", "main")


@pytest.fixture
def team(tmp_path: Path) -> Team:
    return Team(tmp_path)


def _session(receipt: dict[str, Any], sid: str) -> dict[str, Any]:
    rows: list[dict[str, Any]] = [s for s in receipt["sessions"] if s["session"] == sid]
    assert len(rows) == 1, sid
    return rows[0]


def test_receipt_equals_status_and_report_per_session(team: Team) -> None:
    """On two clones with three sessions and two branches, the receipt of the
    whole history gives each session what `report --json` and `status --json` give it."""
    receipt = _receipt(team.a, f"{team.root}..main")
    report = json.loads(tg(team.a, "report", "--json").stdout)
    assert {s["session"] for s in receipt["sessions"]} == {team.s1, team.s2, team.s3}
    for row in report["sessions"]:
        mine = _session(receipt, row["id"])
        assert mine["estimated"]["input"] == row["input"], row["id"]
        assert mine["estimated"]["output"] == row["output"], row["id"]
        assert mine["commits"] == row["commits"], row["id"]
    here = status(team.a)  # session 3, current in clone A
    s3 = _session(receipt, team.s3)
    assert (s3["estimated"]["input"], s3["estimated"]["output"]) == (here["input"], here["output"])
    assert s3["tokens"] == here["used"] and s3["source"] == "estimated"
    there = team.b_status  # session 2, measured, in clone B where it ran
    s2 = _session(receipt, team.s2)
    assert s2["source"] == "measured"
    for name in ranges.CLASSES:
        assert s2["measured"][name] == there["spend"][name], name
    assert s2["measured"]["requests"] == there["spend"]["requests"] == 2
    assert s2["tokens"] == there["spend"]["total"]
    assert s2["usd"] == there["spend"]["usd"] and s2["usd"] > 0
    assert {a["model"] for a in receipt["agents"]} == {"claude-opus-4-6", "claude-haiku-4-5"}
    assert receipt["authors"][0]["author"] == "Test Author"


def test_a_ranges_total_is_the_sum_of_its_commits(team: Team) -> None:
    """A range's figures are its commits' summed, and two ranges that split one
    add up to it."""
    whole = _receipt(team.a, f"{team.root}..main")
    assert len(whole["commits"]) == int(
        git(team.a, "rev-list", "--count", f"{team.root}..main").stdout
    )
    for name in FIGURES:
        assert whole["totals"][name] == sum(c[name] for c in whole["commits"]), name
    for part in ("estimated", "measured"):
        for name, n in whole["totals"][part].items():
            assert n == sum(c[part][name] for c in whole["commits"]), (part, name)
    assert whole["totals"]["usd"] == prices.usd(whole["totals"]["usd_pico"])
    assert whole["totals"]["tokens"] == sum(s["tokens"] for s in whole["sessions"])
    before = _receipt(team.a, f"{team.root}..{team.first}")
    after = _receipt(team.a, f"{team.first}..main")
    for name in FIGURES:
        assert before["totals"][name] + after["totals"][name] == whole["totals"][name], name
    merged = _receipt(team.a, "main~1^1..main~1^2")  # the merged branch alone
    assert {s["session"] for s in merged["sessions"]} == {team.s2}
    assert merged["totals"]["tokens"] == _session(whole, team.s2)["tokens"]


def test_markdown_receipt_shows_the_figures(team: Team) -> None:
    receipt = _receipt(team.a, f"{team.root}..main")
    text = tg(team.a, "report", "--range", f"{team.root}..main", "--format", "markdown").stdout
    assert text.startswith("### tg-git")
    assert f"{receipt['totals']['tokens']:,} tokens" in text.splitlines()[0]
    assert f"${receipt['totals']['usd']:,.2f}" in text.splitlines()[0]
    for s in receipt["sessions"]:
        (line,) = [ln for ln in text.splitlines() if s["session"] in ln]
        assert f"| {s['tokens']:,} |" in line
    assert "claude-haiku-4-5" in text and "Test Author" in text
    assert len(text) < 8000  # a pull request comment, not a page


def test_nothing_but_ids_and_names_leaves(team: Team, tmp_path: Path) -> None:
    """No receipt, metric or label carries a file's content, a transcript's text,
    a task title, a note or a commit message: ids, numbers and the names of the
    repository, branches, sessions, agents, models and authors only."""
    spec = f"{team.root}..main"
    outputs = [
        tg(team.a, "report", "--range", spec, "--json").stdout,
        tg(team.a, "report", "--range", spec, "--format", "markdown").stdout,
        tg(team.a, "metrics").stdout,
        tg(team.b, "metrics").stdout,
        tg(team.a, "verify", "--range", spec, "--max-tokens", "1", check=False).stdout,
    ]
    from tg_git.report import metrics

    outputs.append(json.dumps(metrics.otlp(_collected(team.b))))
    for text in outputs:
        for mark in (MARKER, FILE_MARK, TASK_MARK, SUBJECT_MARK, "value = 1"):
            assert mark not in text
    assert team.s2 in outputs[3] and 'model="claude-opus-4-6"' in outputs[3]


def _collected(repo: Path) -> Any:
    from tg_git.repo.workspace import Workspace
    from tg_git.report import metrics

    return metrics.collect(Workspace.open(repo))


def test_a_range_past_a_shallow_boundary_says_how_to_deepen(team: Team, tmp_path: Path) -> None:
    """A CI clone is shallow: a range whose commits reach past it is refused with the fetch
    that fixes it, never counted short; deepened, it counts what the full clone counts."""
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth=2", f"file://{team.remote}", str(shallow))
    near = _receipt(shallow, "HEAD~1..HEAD")
    assert near["totals"] == _receipt(team.a, "main~1..main")["totals"]
    refused = tg(shallow, "report", "--range", "HEAD", "--json", check=False)
    assert refused.returncode == 1
    assert "git fetch --deepen" in json.loads(refused.stdout)["error"]
    missing = tg(shallow, "report", "--range", f"{team.root}..HEAD", check=False)
    assert missing.returncode == 1 and "git fetch" in missing.stderr
    git(shallow, "fetch", "-q", "--unshallow")
    assert (
        _receipt(shallow, f"{team.root}..HEAD")["totals"]
        == _receipt(team.a, f"{team.root}..main")["totals"]
    )


def test_a_receipt_in_korean_and_hostile_names(repo: Path) -> None:
    """The receipt and the gate speak the config's language; an author's name with table and
    code marks, a line break or markup stays inside its cell."""
    tg(repo, "config", "set", "language", "ko")
    commit(repo, "-m", "ko", "--allow-empty")
    base = git(repo, "rev-parse", "HEAD").stdout.strip()
    hostile = "Mallory | `x` <script>\nnext"
    tg(repo, "record", "--tokens", "1234")
    (repo / "m.py").write_text("print('m')\n")
    git(repo, "add", "m.py")
    commit(repo, "-m", "m", env={"GIT_AUTHOR_NAME": hostile})
    text = tg(repo, "report", "--range", f"{base}..HEAD", "--format", "markdown").stdout
    assert "토큰" in text.splitlines()[0] and "| 작성자 |" in text
    assert "<script>" not in text and "\nnext" not in text
    for table in text.split("\n\n"):
        rows = [ln for ln in table.splitlines() if ln.startswith("|")]
        widths = {ln.replace("\\|", "").count("|") for ln in rows}
        assert len(widths) <= 1, table
    gate = tg(repo, "verify", "--range", f"{base}..HEAD", "--max-tokens", "1000", check=False)
    assert gate.returncode == 6 and "한도(토큰 1,000개)를 넘었습니다" in gate.stdout
    data = json.loads(
        tg(
            repo,
            "verify",
            "--range",
            f"{base}..HEAD",
            "--max-tokens",
            "1000",
            "--json",
            check=False,
        ).stdout
    )
    assert data["over"] == ["tokens"] and data["ok"] is False
    assert data["totals"]["tokens"] == data["totals"]["estimated"]["total"] > 1234
    alone = tg(repo, "verify", "--max-usd", "5", check=False)
    assert alone.returncode == 2 and "--range" in alone.stderr


def test_a_broken_line_in_history_leaves_the_events_beside_it(repo: Path) -> None:
    """A ledger line that is no event, committed past the hooks (a conflict marker kept by
    hand), costs nothing and hides nothing: the events beside it still count."""
    base = git(repo, "rev-parse", "HEAD").stdout.strip()
    tg(repo, "record", "--tokens", "321")
    (repo / "a.py").write_text("print('a')\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")
    ledger = next((repo / ".tg-git" / "ledger").glob("s*.toml"))
    ledger.write_text(ledger.read_text() + "<<<<<<< HEAD\n")
    git(repo, "add", str(ledger))
    git(repo, "commit", "-q", "--no-verify", "-m", "junk")
    data = _receipt(repo, f"{base}..HEAD")
    assert data["totals"]["estimated"]["input"] == 321
    assert [c["tokens"] for c in data["commits"]][1] == 0
