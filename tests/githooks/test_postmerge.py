"""A merge or pull that takes the session across 90 / 95 % saves at once, as a commit does.

git runs no post-commit hook for a clean `git merge` / `git pull` or a fast-forward: it runs
post-merge (argument 0; 1 for `--squash`, which commits nothing). Two clones of one session each
stay under the level; the merge of their ledgers (`merge=union`) crosses it. Real git, real
installed hooks.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import spend
from tests.support.repos import status
from tests.support.repos import tags
from tests.support.repos import tg

SAVE_FILES = ("CHECKPOINT.md", "harness_checkpoint.json")


def other_clone(repo: Path, where: Path) -> Path:
    """A second clone with hooks: a fresh clone takes the newest session, so both count it."""
    git(repo.parent, "clone", "-q", str(repo), str(where))
    tg(where, "install")
    assert status(where)["session"] == status(repo)["session"]
    return where


def parents(repo: Path, rev: str) -> list[str]:
    return git(repo, "rev-list", "--parents", "-n", "1", rev).stdout.split()[1:]


def user_edits(repo: Path) -> None:
    """Tracked files to edit later, committed now (unrelated to anything merged)."""
    for name in ("staged.txt", "unstaged.txt"):
        (repo / name).write_text(f"{name}: the first line\n")
    git(repo, "add", "staged.txt", "unstaged.txt")
    commit(repo, "-m", "files the user edits")


def test_a_clean_merge_crossing_force_save_saves_on_top_of_the_merge(
    repo: Path, tmp_path: Path
) -> None:
    user_edits(repo)
    other = other_clone(repo, tmp_path / "other")
    spend(repo, 90_000, "mine.py")
    spend(other, 95_000, "theirs.py")
    assert status(repo)["level"] == status(other)["level"] == "ok"
    assert tags(repo) == tags(other) == []
    # The user's work in progress: an unstaged edit and an untracked file (git refuses a real
    # merge over staged changes, so those are checked with a fast-forward below).
    (repo / "unstaged.txt").write_text("unstaged.txt: edited, not staged\n")
    (repo / "new.txt").write_text("untracked\n")
    pull = git(repo, "pull", "--no-rebase", "--no-edit", str(other), "main", check=False)
    assert pull.returncode == 0, pull.stdout + pull.stderr
    assert "checkpoint/" in pull.stderr and "force-save" in pull.stderr

    saved = tags(repo)
    assert len(saved) == 1 and saved[0].endswith("-force-save")
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert git(repo, "rev-parse", f"{saved[0]}^{{commit}}").stdout.strip() == head
    merge = parents(repo, "HEAD")
    assert len(merge) == 1 and len(parents(repo, merge[0])) == 2  # on top of the merge commit
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: force-save")
    assert head[:7] in git(repo, "log", "--oneline", "--grep", "checkpoint").stdout
    assert status(repo)["level"] == "force-save"
    # Only the two checkpoint files changed; the user's edit and file are as they were.
    changed = git(repo, "diff", "--name-only", "HEAD^", "HEAD").stdout.split()
    assert sorted(changed) == sorted(SAVE_FILES)
    assert git(repo, "status", "--porcelain").stdout == " M unstaged.txt\n?? new.txt\n"
    assert (repo / "unstaged.txt").read_text() == "unstaged.txt: edited, not staged\n"
    assert not (repo / ".git" / "MERGE_HEAD").exists()


def test_a_clean_merge_crossing_halt_saves_the_halt_and_the_next_commit_is_refused(
    repo: Path, tmp_path: Path
) -> None:
    other = other_clone(repo, tmp_path / "other")
    spend(repo, 90_000, "mine.py")
    spend(other, 100_000, "theirs.py")
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", str(other), "main")
    saved = tags(repo)
    assert len(saved) == 1 and saved[0].endswith("-halt")
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: halt")
    assert git(repo, "status", "--porcelain").stdout == ""

    (repo / "later.py").write_text("print('after the halt')\n")
    git(repo, "add", "later.py")
    refused = commit(repo, "-m", "later", check=False)
    assert refused.returncode != 0  # git says 1 for any pre-commit refusal (tg-git: 7)
    assert "Token limit" in refused.stderr
    assert "no halt checkpoint" not in refused.stderr  # the save exists: the ordinary refusal
    assert git(repo, "diff", "--cached", "--name-only").stdout.split() == ["later.py"]


def test_a_merge_with_autostash_keeps_the_staged_edit(repo: Path, tmp_path: Path) -> None:
    user_edits(repo)
    other = other_clone(repo, tmp_path / "other")
    spend(repo, 90_000, "mine.py")
    spend(other, 95_000, "theirs.py")
    (repo / "staged.txt").write_text("staged.txt: edited and staged\n")
    git(repo, "add", "staged.txt")
    # git stashes the edit, merges, runs post-merge (the save), then applies the stash.
    pull = git(repo, "pull", "--no-rebase", "--no-edit", "--autostash", str(other), "main")
    assert len(tags(repo)) == 1, pull.stderr
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: force-save")
    assert (repo / "staged.txt").read_text() == "staged.txt: edited and staged\n"
    assert git(repo, "status", "--porcelain", "--", *SAVE_FILES).stdout == ""


def test_a_fast_forward_pull_crossing_force_save_saves(repo: Path, tmp_path: Path) -> None:
    user_edits(repo)
    other = other_clone(repo, tmp_path / "other")
    # This clone's spend is on another branch (a session's levels count every branch of the
    # clone); main stays behind the other clone's main, so the pull fast-forwards.
    git(repo, "checkout", "-q", "-b", "side")
    spend(repo, 100_000, "side.py")
    git(repo, "checkout", "-q", "main")
    spend(other, 85_000, "theirs.py")
    assert status(repo)["level"] == status(other)["level"] == "ok"
    (repo / "staged.txt").write_text("staged.txt: edited and staged\n")
    git(repo, "add", "staged.txt")
    (repo / "unstaged.txt").write_text("unstaged.txt: edited, not staged\n")

    tip = git(other, "rev-parse", "HEAD").stdout.strip()
    pull = git(repo, "pull", "--ff-only", str(other), "main", check=False)
    assert pull.returncode == 0, pull.stderr
    saved = tags(repo)
    assert len(saved) == 1 and saved[0].endswith("-force-save")
    assert parents(repo, "HEAD") == [tip]  # the checkpoint commit sits on the pulled tip
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: force-save")
    assert git(repo, "status", "--porcelain").stdout == "M  staged.txt\n M unstaged.txt\n"
    assert git(repo, "show", ":staged.txt").stdout == "staged.txt: edited and staged\n"


def test_only_the_merge_that_crosses_saves_and_only_once(repo: Path, tmp_path: Path) -> None:
    other = other_clone(repo, tmp_path / "other")
    spend(repo, 40_000, "a.py")
    spend(other, 40_000, "b.py")
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", str(other), "main")
    assert tags(repo) == [] and status(repo)["level"] == "ok"
    assert len(parents(repo, "HEAD")) == 2  # the merge itself, nothing on top

    spend(other, 100_000, "c.py")  # the other clone sees 140 k (70 %); merged: 180 k (90 %)
    assert tags(other) == []
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", str(other), "main")
    saved = tags(repo)
    assert len(saved) == 1 and saved[0].endswith("-force-save")
    assert len(parents(repo, "HEAD^")) == 2  # the checkpoint on top of the merge

    spend(other, 1_000, "d.py")
    spend(repo, 1_000, "e.py")
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", str(other), "main")
    assert tags(repo) == saved  # still force-save, saved already: nothing new
    assert len(parents(repo, "HEAD")) == 2


def test_a_checkpoint_commit_pulled_without_its_tag_is_tagged_not_made_again(
    repo: Path, tmp_path: Path
) -> None:
    other = other_clone(repo, tmp_path / "other")
    tg(other, "record", "--tokens", "175000")  # 87.5 %: the record only warns
    big = "\n".join(f"value_{i} = compute({i}, 'words')" for i in range(1000)) + "\n"
    (other / "big.py").write_text(big)
    git(other, "add", "big.py")
    commit(other, "-m", "add big.py")  # its own ~11k tokens cross 90 %: saved there
    assert len(tags(other)) == 1
    spend(repo, 1_000, "small.py")
    # Pulled from a path (not a remote), so no tag follows the checkpoint commit.
    git(repo, "pull", "-q", "--no-rebase", "--no-edit", str(other), "main")
    saved = tags(repo)
    assert len(saved) == 1 and saved[0].endswith("-force-save")
    theirs = git(other, "rev-parse", "HEAD").stdout.strip()
    assert git(repo, "rev-parse", f"{saved[0]}^{{commit}}").stdout.strip() == theirs
    assert len(parents(repo, "HEAD")) == 2  # no second checkpoint commit on the merge


def test_merge_squash_saves_nothing_until_its_commit(repo: Path, tmp_path: Path) -> None:
    other = other_clone(repo, tmp_path / "other")
    spend(repo, 90_000, "mine.py")
    spend(other, 95_000, "theirs.py")
    git(repo, "fetch", "-q", str(other), "main")
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "merge", "--squash", "FETCH_HEAD")  # post-merge runs with argument 1
    assert tags(repo) == []
    assert git(repo, "rev-parse", "HEAD").stdout.strip() == head
    assert "theirs.py" in git(repo, "diff", "--cached", "--name-only").stdout.split()
    commit(repo, "-m", "squashed the other clone's work")  # counted, crosses, saves
    saved = tags(repo)
    assert len(saved) == 1 and saved[0].endswith("-force-save")
    assert parents(repo, "HEAD^") == [head]


def test_a_merge_without_tg_git_set_up_does_nothing(plain_repo: Path) -> None:
    (plain_repo / "a.txt").write_text("a\n")
    git(plain_repo, "add", "a.txt")
    git(plain_repo, "commit", "-q", "-m", "first")
    tg(plain_repo, "install")  # hooks, but no `tg-git init`
    git(plain_repo, "checkout", "-q", "-b", "b")
    (plain_repo / "b.txt").write_text("b\n")
    git(plain_repo, "add", "b.txt")
    git(plain_repo, "commit", "-q", "-m", "b")
    git(plain_repo, "checkout", "-q", "main")
    (plain_repo / "c.txt").write_text("c\n")
    git(plain_repo, "add", "c.txt")
    git(plain_repo, "commit", "-q", "-m", "c")
    merge = git(plain_repo, "merge", "--no-edit", "b")
    assert "tg-git" not in merge.stdout + merge.stderr
    assert tags(plain_repo) == [] and len(parents(plain_repo, "HEAD")) == 2
    assert git(plain_repo, "status", "--porcelain").stdout == ""


def test_a_conflicted_merge_crossing_halt_lands_and_saves(repo: Path, tmp_path: Path) -> None:
    other = other_clone(repo, tmp_path / "other")
    spend(repo, 90_000, "mine.py")
    spend(other, 100_000, "theirs.py")
    for clone, text in ((repo, "ours\n"), (other, "theirs\n")):
        (clone / "both.txt").write_text(text)
        git(clone, "add", "both.txt")
        commit(clone, "-m", "both.txt")
    merge = git(repo, "pull", "--no-rebase", "--no-edit", str(other), "main", check=False)
    assert merge.returncode != 0 and (repo / ".git" / "MERGE_HEAD").exists()
    (repo / "both.txt").write_text("ours and theirs\n")
    git(repo, "add", "both.txt")
    concluded = commit(repo, "--no-edit", check=False)
    assert concluded.returncode == 0, concluded.stderr  # the crossing commit lands, as any does
    saved = tags(repo)
    assert len(saved) == 1 and saved[0].endswith("-halt")


def test_resume_in_an_install_without_post_merge_says_what_is_lost(repo: Path) -> None:
    (repo / ".git" / "hooks" / "post-merge").unlink()  # installed by a tg-git before post-merge
    out = tg(repo, "resume", check=False).stdout.splitlines()[0]
    assert out == (
        "tg-git: this clone lacks the post-merge hook(s): commits are counted and saved, but a "
        "merge saves only at the next commit; run `tg-git install`."
    )
    (repo / ".git" / "hooks" / "post-commit").unlink()
    out = tg(repo, "resume", check=False).stdout.splitlines()[0]
    assert "post-commit, post-merge" in out and "not counted or saved" in out
