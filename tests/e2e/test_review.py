"""Adversarial review of this session's changes (e6d1ef1..main): the halt judged per side,
counted tips from the reflog, the record that is journaled when its ledger file cannot be
written, one spawn for every git process. Real git, real installed hooks."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import TG_GIT
from tests.conftest import codex_lines
from tests.conftest import commit
from tests.conftest import git
from tests.conftest import ledger_at
from tests.conftest import make_0_1
from tests.conftest import read_only
from tests.conftest import restricted
from tests.conftest import spend
from tests.conftest import status
from tests.conftest import tg
from tests.conftest import token_counts
from tg_git.estimate.estimator import estimate_tokens


def halted_on_main(repo: Path) -> str:
    """Branch ``side`` made before any spend; main then crosses the halt (the crossing commit
    lands, the halt is saved): the session is halted. Returns the crossing commit."""
    git(repo, "branch", "side")
    spend(repo, 100_000, "a.py")
    spend(repo, 95_000, "b.py")
    crossing = git(repo, "rev-parse", "HEAD^").stdout.strip()
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: halt")
    (repo / "c.py").write_text("c\n")
    git(repo, "add", "c.py")
    assert commit(repo, "-m", "c", check=False).returncode != 0  # halted on main
    git(repo, "reset", "-q", "--hard")
    (repo / "c.py").unlink(missing_ok=True)
    return crossing


def test_a_session_halted_on_main_is_halted_on_another_branch(repo: Path) -> None:
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    (repo / "d.py").write_text("d\n")
    git(repo, "add", "d.py")
    proc = commit(repo, "-m", "d", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


def test_cherry_pick_no_commit_of_the_halted_commit_is_refused(repo: Path) -> None:
    crossing = halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    git(repo, "cherry-pick", "-n", crossing)
    proc = commit(repo, "-m", "picked", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


def test_squashing_the_halted_line_of_work_over_is_refused(repo: Path) -> None:
    """Guard for the per-side judgement: the squashed side alone at halt still refuses."""
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    git(repo, "merge", "--squash", "main")
    proc = commit(repo, "-m", "squashed", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout == git(repo, "rev-parse", "side").stdout


def test_merging_the_halted_line_of_work_in_is_refused(repo: Path) -> None:
    halted_on_main(repo)
    git(repo, "checkout", "-q", "side")
    proc = git(repo, "merge", "--no-ff", "--no-edit", "main", check=False)
    assert proc.returncode != 0 and "budget is spent" in proc.stderr


def test_post_commit_without_git_on_path_names_git(repo: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TG_GIT_HOOK_GIT_DIR"}
    env["PATH"] = "/nonexistent"
    proc = subprocess.run([TG_GIT, "hook", "post-commit"], cwd=repo, capture_output=True,
                          text=True, env=env)  # fmt: skip
    assert proc.returncode == 0
    assert "git is not installed or not on PATH" in proc.stderr, proc.stderr


def held_write(repo: Path, *args: str) -> None:
    """`tg-git ARGS` under a read-only .tg-git: journaled and held, said in one line, exit 0."""
    with read_only(repo / ".tg-git"):
        proc = restricted(repo, TG_GIT, *args)
    assert proc.returncode == 0 and "the next commit writes it" in proc.stderr, proc.stderr


def test_a_session_started_while_the_ledger_folder_is_read_only_lands_at_the_next_commit(
    repo: Path,
) -> None:
    """`session start` journals the start event when it cannot write the new ledger file;
    the next commit (with .tg-git writable again) writes it: the session counts."""
    held_write(repo, "session", "start")
    started = status(repo)["session"]["id"]  # type: ignore[index]
    (repo / "n.py").write_text("print('new session')\n")
    git(repo, "add", "n.py")
    out = commit(repo, "-m", "n")
    assert "not counted" not in out.stderr, out.stderr
    assert f'"id" = "{started}"' in ledger_at(repo)
    now = status(repo)
    assert now["session"]["id"] == started and now["output"] == estimate_tokens(  # type: ignore[index]
        "print('new session')", "n.py"
    )


def test_a_ledger_folder_that_stays_read_only_says_the_commit_is_not_counted(repo: Path) -> None:
    with read_only(repo / ".tg-git"):
        rec = restricted(repo, TG_GIT, "record", "--tokens", "7")
        assert rec.returncode == 0 and "the next commit writes it" in rec.stderr
        (repo / "m.py").write_text("print('m')\n")
        git(repo, "add", "m.py")
        proc = restricted(repo, "git", "commit", "-q", "-m", "m")
    assert proc.returncode == 0
    assert "not counted" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    # once writable, the next commit writes both the record and its own event
    (repo / "o.py").write_text("print('o')\n")
    git(repo, "add", "o.py")
    commit(repo, "-m", "o")
    assert '"tokens" = 7' in ledger_at(repo)


def test_a_record_that_cannot_migrate_the_0_1_ledger_lands_at_the_next_commit(
    plain_repo: Path,
) -> None:
    """A 0.1 single ledger: `record` must split it first; under a read-only .tg-git the
    split fails after the journal write, and the next commit writes the record anyway."""
    repo, sid = plain_repo, "s20250101000000-0123456789ab"
    old = [
        f'e1 = {{ "kind" = "session", "at" = "2025-01-01T00:00:00Z", "id" = "{sid}", '
        '"max_tokens" = 1000, "base" = "" }',
        f'e2 = {{ "kind" = "commit", "at" = "2025-01-01T00:00:01Z", "session" = "{sid}", '
        '"tokens" = 12, "files" = 1, "label" = "a.py" }',
    ]
    make_0_1(repo, old)
    held_write(repo, "record", "--tokens", "30", "--label", "held")
    (repo / "b.py").write_text("b = 2\n")
    git(repo, "add", "b.py")
    commit(repo, "-m", "b")
    assert not (repo / ".tg-git/ledger.toml").exists()
    assert ledger_at(repo).count('"label" = "held"') == 1
    assert status(repo)["input"] == 30
    assert git(repo, "status", "--porcelain").stdout == ""


def _output(repo: Path) -> int:
    return int(status(repo)["output"])  # type: ignore[call-overload]


def test_after_reset_hard_only_lines_identical_to_the_abandoned_file_go_uncounted(
    repo: Path,
) -> None:
    """Quantifies the under-count of the reflog's counted tips: work thrown away with
    `reset --hard HEAD~1` and written again differently loses exactly the lines literally
    identical to the abandoned commit's version of the same path; another path counts fully."""
    shared = [f"import mod{i}" for i in range(8)]
    (repo / "f.py").write_text("\n".join([*shared, "def old():", "    return 1"]) + "\n")
    git(repo, "add", "f.py")
    commit(repo, "-m", "first try")
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    git(repo, "reset", "-q", "--hard", "HEAD")  # a second reset: ORIG_HEAD forgets the try
    before = _output(repo)
    new = ["def new(x):", "    return x * 2"]
    (repo / "f.py").write_text("\n".join([*shared, *new]) + "\n")
    (repo / "g.py").write_text("\n".join(shared) + "\n")
    git(repo, "add", "f.py", "g.py")
    commit(repo, "-m", "second try")
    expected = estimate_tokens("\n".join(new), "f.py") + estimate_tokens("\n".join(shared), "g.py")
    assert _output(repo) - before == expected


def test_one_unreadable_reflog_entry_keeps_the_other_counted_tips(repo: Path) -> None:
    body = "\n".join(f"value_{i} = {i} * {i}" for i in range(20)) + "\n"
    (repo / "w.py").write_text(body)
    git(repo, "add", "w.py")
    commit(repo, "-m", "work")
    tip = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    git(repo, "reset", "-q", "--hard", "HEAD")
    log = repo / ".git" / "logs" / "refs" / "heads" / "main"
    lines = log.read_text().splitlines()
    missing = "1" * 40 if len(tip) == 40 else "1" * 64
    lines.insert(-2, lines[-2].replace(tip, missing))  # an entry naming an object not here
    log.write_text("\n".join(lines) + "\n")
    before = _output(repo)
    git(repo, "checkout", tip, "--", "w.py")  # the thrown-away work, committed again
    commit(repo, "-m", "work again")
    assert _output(repo) == before


def test_a_halt_prompt_during_a_conflicted_merge_does_not_claim_a_save(repo: Path) -> None:
    (repo / "both.txt").write_text("base\n")
    git(repo, "add", "both.txt")
    commit(repo, "-m", "base")
    git(repo, "checkout", "-q", "-b", "other")
    (repo / "both.txt").write_text("theirs\n")
    commit(repo, "-a", "-m", "theirs")
    git(repo, "checkout", "-q", "main")
    (repo / "both.txt").write_text("ours\n")
    commit(repo, "-a", "-m", "ours")
    assert git(repo, "merge", "other", check=False).returncode != 0  # conflicted, under way
    tg(repo, "record", "--tokens", "195000")
    proc = tg(repo, "hook", "agent", "claude", "UserPromptSubmit", check=False,
              input=json.dumps({"cwd": str(repo), "prompt": "go on"}))  # fmt: skip
    assert proc.returncode == 2 and "Token limit reached" in proc.stderr
    assert git(repo, "tag", "-l", "checkpoint/*").stdout == ""  # nothing was saved ...
    assert "Checkpoint saved" not in proc.stderr  # ... so the block must not say it was


@pytest.mark.parametrize("damage", ["null state", "not JSON"])
def test_a_damaged_codex_mark_loses_no_later_request(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    day = home / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    rollout = day / "rollout-2026-11-30T10-00-00-0199-abc.jsonl"
    totals = [(1000, 200, 50), (2500, 1200, 80), (3000, 1300, 90), (3500, 1400, 100)]
    events = token_counts(totals, repeat=False)
    rollout.write_text(codex_lines(str(repo), totals[:2], repeat=False))
    tg(repo, "usage", "import", "--agent", "codex", "--json")
    assert status(repo)["spend"]["total"] == 2580  # type: ignore[index]
    for mark in (repo / ".git" / "tg-git" / "usage").glob("*.json"):
        text = json.dumps({**json.loads(mark.read_text()), "state": None})
        mark.write_text(text if damage == "null state" else "{not json")
    for event in events[2:]:  # two more requests, imported one at a time
        with rollout.open("a") as fh:
            fh.write(json.dumps(event) + "\n")
        tg(repo, "usage", "import", "--agent", "codex", "--json")
    # the last request (500 in of which 100 cached, 10 out) is counted, and nothing twice
    assert 2580 + 510 <= status(repo)["spend"]["total"] <= 2580 + 2 * 510  # type: ignore[index, operator]


def test_a_record_journaled_on_a_failed_write_lands_on_the_branch_committed_next(
    repo: Path,
) -> None:
    held_write(repo, "record", "--tokens", "7777", "--label", "held")
    git(repo, "checkout", "-q", "-b", "other")
    (repo / "m.py").write_text("print('m')\n")
    git(repo, "add", "m.py")
    commit(repo, "-m", "m")
    assert '"label" = "held"' in ledger_at(repo)
