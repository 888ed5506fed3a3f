"""What an adversarial pass found against the per-session ledger (each failed before its fix)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.conftest import TG_GIT
from tests.conftest import commit
from tests.conftest import git
from tests.conftest import ledger_at
from tests.conftest import ledger_file
from tests.conftest import status
from tests.conftest import tg
from tg_git.domain.eventlog import parse


def add(repo: Path, name: str, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    (repo / name).write_text(text)
    git(repo, "add", name)
    return commit(repo, "-m", f"add {name}", *args)


def test_a_hand_edit_that_lowers_a_count_is_undone_and_named(repo: Path) -> None:
    add(repo, "a.py", "def alpha(x):\n    return [x * i for i in range(100)]\n")
    used = status(repo)["used"]
    path = ledger_file(repo)
    text = path.read_text()
    commit_line = next(ln for ln in text.splitlines() if '"kind" = "commit"' in ln)
    tokens = parse(commit_line)[commit_line.split(" =")[0]]["tokens"]
    path.write_text(text.replace(f'"tokens" = {tokens},', '"tokens" = 1,'))
    git(repo, "add", str(path))
    commit(repo, "--no-verify", "-m", "fewer tokens, please")
    assert status(repo)["used"] == used  # the journal's first version stands
    verify = tg(repo, "verify", check=False)
    assert verify.returncode == 6 and "changed 1 event" in verify.stdout
    add(repo, "b.txt", "b\n")
    assert f'"tokens" = {tokens},' in ledger_at(repo)  # the next commit put it back


def test_a_branch_from_before_the_halt_does_not_lift_it(repo: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", "300")
    add(repo, "a.txt", "small\n")
    add(repo, "b.py", "\n".join(f"value_{i} = compute({i}, 'words')" for i in range(40)) + "\n")
    assert status(repo)["level"] == "halt"
    git(repo, "switch", "-q", "-c", "side", "HEAD~3")
    (repo / "c.txt").write_text("c\n")
    git(repo, "add", "c.txt")
    refused = commit(repo, "-m", "c", check=False)
    assert refused.returncode != 0 and "Token limit" in refused.stderr


def test_an_impossible_count_is_dropped_by_the_next_commit(repo: Path) -> None:
    sid = status(repo)["session"]["id"]  # type: ignore[index]
    path = ledger_file(repo)
    path.write_text(path.read_text() + f'ebad = {{ "kind" = "input", "at" = "2026-01-01T00:00:00Z", '
                    f'"session" = "{sid}", "tokens" = -100000 }}\n')  # fmt: skip
    git(repo, "add", str(path))
    commit(repo, "--no-verify", "-m", "negative")
    before = status(repo)["used"]
    proc = add(repo, "d.txt", "delta echo\n")
    assert "repaired" in proc.stderr and "ebad" not in ledger_at(repo)
    assert status(repo)["used"] > before  # type: ignore[operator]


def test_tracked_files_in_the_ledger_folder_cannot_take_a_clone_over(
    repo: Path, tmp_path: Path
) -> None:
    mine = status(repo)["session"]["id"]  # type: ignore[index]
    folder = repo / ".tg-git" / "ledger"
    (folder / "zzz.toml").write_text(
        'e1 = { "kind" = "session", "at" = "2099-01-01T00:00:00Z", "id" = "../../evil", '
        '"max_tokens" = 999999999, "base" = "" }\n'
    )
    (folder / "s20991231000000-000000000000.toml").write_text(
        'e2 = { "kind" = "session", "at" = "2099-01-01T00:00:00Z", "id" = "someone-else", '
        '"max_tokens" = 999999999, "base" = "" }\n'
    )
    (folder / "a\nb.toml").write_text("junk\n")
    git(repo, "add", ".tg-git")
    commit(repo, "--no-verify", "-m", "hostile files")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    tg(clone, "install")
    assert status(clone)["session"]["id"] == mine  # type: ignore[index]
    proc = add(clone, "e.txt", "echo\n")
    assert "this commit +" in proc.stderr


def test_a_merge_with_strategy_ours_keeps_the_other_sides_events(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "f")
    add(repo, "f.py", "def feature():\n    return 'spent on f'\n")
    spent = status(repo)["used"]
    git(repo, "checkout", "-q", "main")
    shutil.rmtree(repo / ".git" / "tg-git" / "journal")  # as a clone that fetched f would be
    git(repo, "merge", "-q", "-s", "ours", "--no-edit", "f")
    add(repo, "g.txt", "g\n")
    assert status(repo)["used"] > spent  # type: ignore[operator]
    assert "f.py" in ledger_at(repo)


def test_a_symlinked_ledger_folder_is_never_written_through(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = repo / ".tg-git" / "ledger"
    for f in folder.iterdir():
        shutil.copy(f, outside / f.name)
    shutil.rmtree(folder)
    folder.symlink_to(outside)
    before = {p.name: p.read_text() for p in outside.iterdir()}
    (repo / "h.txt").write_text("h\n")
    git(repo, "add", "h.txt")
    proc = commit(repo, "-m", "h")
    assert "symbolic link" in proc.stderr and "not blocked" in proc.stderr
    assert {p.name: p.read_text() for p in outside.iterdir()} == before


def test_a_fifo_in_place_of_the_ledger_never_hangs(repo: Path) -> None:
    path = ledger_file(repo)
    path.unlink()
    os.mkfifo(path)
    proc = subprocess.run([TG_GIT, "status"], cwd=repo, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "not a regular file" in proc.stderr
    (repo / "i.txt").write_text("i\n")
    git(repo, "add", "i.txt")
    done = subprocess.run(["git", "commit", "-q", "-m", "i"], cwd=repo, capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0 and "not a regular file" in done.stderr


def test_hook_output_never_carries_escapes(repo: Path) -> None:
    name = "a\x1b]0;owned\x07\x1b[2Jb.txt"
    (repo / name).write_text("text\n")
    git(repo, "add", "--", name)
    proc = commit(repo, "-m", "odd name")
    assert (
        "this commit +" in proc.stderr and "\x1b" not in proc.stderr and "\x07" not in proc.stderr
    )
    shown = tg(repo, "status").stdout
    assert "\x1b" not in shown and "\x07" not in shown
