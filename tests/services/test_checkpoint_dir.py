"""`checkpoint.dir`: the folder a save writes `harness_checkpoint.json` and `CHECKPOINT.md` in.

Set with `tg-git config set` (recorded in the ledger), checked (relative, inside the work
tree, no `..`, not in `.git`, no link or file on the way), and resume finds a checkpoint
wherever its save put it: at the root (older saves), in a moved folder, in a fresh clone, on
a branch whose folder differs. Real repositories, real commits through the hooks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tags
from tests.support.repos import tg
from tests.support.repos import used

FOLDER = ".tg-git/checkpoint"


def changed_by(repo: Path, rev: str) -> set[str]:
    """The files the commit ``rev`` changed."""
    out = git(repo, "diff-tree", "--root", "-r", "--name-only", "--no-commit-id", rev).stdout
    return set(out.split())


def tree_has(repo: Path, rev: str, path: str) -> bool:
    return git(repo, "cat-file", "-e", f"{rev}:{path}", check=False).returncode == 0


def test_a_save_writes_both_files_in_the_folder_and_nowhere_else(repo: Path) -> None:
    tg(repo, "config", "set", "checkpoint.dir", FOLDER)
    assert tg(repo, "config", "get", "checkpoint.dir").stdout.strip() == FOLDER
    commit(repo, "-am", "the folder")  # the config file and the recorded change ride along
    tg(repo, "task", "add", "move the checkpoint")
    tg(repo, "checkpoint", "-m", "in its folder")
    saved = changed_by(repo, tags(repo)[-1])
    assert saved == {f"{FOLDER}/harness_checkpoint.json", f"{FOLDER}/CHECKPOINT.md"}
    assert (repo / FOLDER / "harness_checkpoint.json").is_file()
    assert (repo / FOLDER / "CHECKPOINT.md").is_file()
    assert not (repo / "harness_checkpoint.json").exists()
    assert not (repo / "CHECKPOINT.md").exists()
    assert git(repo, "status", "--porcelain").stdout == ""
    data = json.loads((repo / FOLDER / "harness_checkpoint.json").read_text())
    assert data["message"] == "in its folder"
    ledger = git(repo, "log", "-p", "--text", "--all").stdout
    assert '"checkpoint.dir"' in ledger  # the change is on the record


def test_a_save_in_the_folder_is_no_drift(repo: Path) -> None:
    tg(repo, "config", "set", "checkpoint.dir", FOLDER)
    commit(repo, "-am", "the folder")
    tg(repo, "checkpoint", "-m", "in its folder")
    proc = tg(repo, "verify", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_checkpoint_files_count_as_no_work(repo: Path) -> None:
    """A checkpoint committed by hand (a user's `git add`) is still tg-git's own file."""
    tg(repo, "config", "set", "checkpoint.dir", "notes/cp")
    commit(repo, "-am", "the folder")
    tg(repo, "checkpoint")
    before = used(repo)
    (repo / "notes/cp/CHECKPOINT.md").write_text("# edited by hand\n" * 200)
    git(repo, "add", "notes/cp/CHECKPOINT.md")
    commit(repo, "-m", "hand edit")
    assert used(repo) == before


def test_resume_in_a_fresh_clone_finds_the_folder(repo: Path, tmp_path: Path) -> None:
    tg(repo, "config", "set", "checkpoint.dir", FOLDER)
    commit(repo, "-am", "the folder")
    tg(repo, "task", "add", "carry me over")
    tg(repo, "checkpoint", "-m", "for the clone")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    result = json.loads(tg(clone, "resume", "--json").stdout)
    assert result["checkpoint"]["message"] == "for the clone"
    assert "carry me over" in result["pending"]


def test_resume_finds_an_old_root_checkpoint_after_the_folder_moved(repo: Path) -> None:
    tg(repo, "task", "add", "older plan")
    tg(repo, "checkpoint", "-m", "at the root")
    assert tree_has(repo, "HEAD", "harness_checkpoint.json")
    tg(repo, "config", "set", "checkpoint.dir", FOLDER)
    commit(repo, "-am", "the folder moves")
    result = json.loads(tg(repo, "resume", "--json").stdout)
    assert result["checkpoint"]["message"] == "at the root"
    tg(repo, "checkpoint", "-m", "in the folder now")
    assert changed_by(repo, tags(repo)[-1]) == {
        f"{FOLDER}/harness_checkpoint.json",
        f"{FOLDER}/CHECKPOINT.md",
    }
    again = json.loads(tg(repo, "resume", "--json").stdout)
    assert again["checkpoint"]["message"] == "in the folder now"
    listed = tg(repo, "log").stdout
    assert "unreadable" not in listed and len(tags(repo)) == 2


def test_a_branch_with_another_folder_resumes_its_own(repo: Path) -> None:
    tg(repo, "config", "set", "checkpoint.dir", "a/cp")
    commit(repo, "-am", "folder a")
    git(repo, "branch", "other")
    tg(repo, "checkpoint", "-m", "on main in a/cp")
    git(repo, "switch", "-q", "other")
    tg(repo, "config", "set", "checkpoint.dir", "b/cp")
    commit(repo, "-am", "folder b")
    tg(repo, "checkpoint", "-m", "on other in b/cp")
    assert json.loads(tg(repo, "resume", "--json").stdout)["checkpoint"]["message"] == (
        "on other in b/cp"
    )
    git(repo, "switch", "-q", "main")
    assert json.loads(tg(repo, "resume", "--json").stdout)["checkpoint"]["message"] == (
        "on main in a/cp"
    )


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("../outside", "`..`"),
        ("/tmp/cp", "absolute"),
        (".git/cp", "`.git`"),
        ("x/../../up", "`..`"),
    ],
)
def test_hostile_values_are_refused_with_one_sentence(repo: Path, value: str, says: str) -> None:
    before = (repo / ".tg-git/config.toml").read_bytes()
    proc = tg(repo, "config", "set", "checkpoint.dir", value, check=False)
    assert proc.returncode != 0
    err = proc.stderr.strip()
    assert says in err and "checkpoint.dir" in err and len(err.splitlines()) == 1
    assert "Traceback" not in proc.stderr
    assert (repo / ".tg-git/config.toml").read_bytes() == before


def test_a_tracked_symlink_folder_is_refused(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, repo / "cp")
    git(repo, "add", "cp")
    commit(repo, "-m", "a link")
    proc = tg(repo, "config", "set", "checkpoint.dir", "cp/inner", check=False)
    assert proc.returncode != 0 and "symbolic link" in proc.stderr
    # Set by hand: the save refuses too, and writes nothing through the link.
    with (repo / ".tg-git/config.toml").open("a") as fh:
        fh.write('\n[checkpoint]\ndir = "cp"\n')
    proc = tg(repo, "checkpoint", check=False)
    assert proc.returncode != 0 and "symbolic link" in proc.stderr
    assert list(outside.iterdir()) == []
    assert tags(repo) == []


def test_a_file_in_the_way_is_refused(repo: Path) -> None:
    (repo / "cp").write_text("a file of the user's\n")
    proc = tg(repo, "config", "set", "checkpoint.dir", "cp/inner", check=False)
    assert proc.returncode != 0
    assert "cp is a file" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert (repo / "cp").read_text() == "a file of the user's\n"


def test_a_hand_edited_hostile_value_is_refused_on_load(repo: Path) -> None:
    with (repo / ".tg-git/config.toml").open("a") as fh:
        fh.write('\n[checkpoint]\ndir = "../up"\n')
    proc = tg(repo, "status", check=False)
    assert proc.returncode != 0 and "checkpoint.dir" in proc.stderr
    assert "Traceback" not in proc.stderr
