"""Tokens spent stay spent: every git history operation keeps every event.

Each scenario drives real git through the installed hooks and checks three things: the total
is the sum of every commit's own estimate, each event once; no tg-git file is left dirty; and
`tg-git verify` agrees. The adversarial pass's scenarios follow: the newest
commit's event outlives its commit, branch or worktree; the worktrees of one session; orphan
branches; checkout and bisect after a record; octopus merges; `git am`.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.repos import PROJECT
from tests.support.repos import add
from tests.support.repos import bare_orphan_commit
from tests.support.repos import clean
from tests.support.repos import commit
from tests.support.repos import commit_events
from tests.support.repos import git
from tests.support.repos import ledger_at
from tests.support.repos import make_0_1
from tests.support.repos import status
from tests.support.repos import tg
from tests.support.repos import used
from tg_git.domain.eventlog import parse
from tg_git.estimate.estimator import estimate_tokens


def verified(repo: Path) -> dict[str, Any]:
    proc = tg(repo, "verify", "--json", check=False)
    report: dict[str, Any] = json.loads(proc.stdout)
    assert proc.returncode == 0 and report["ok"], report
    return report


def drift(repo: Path) -> list[dict[str, str]]:
    proc = tg(repo, "verify", "--json", check=False)
    report = json.loads(proc.stdout)
    assert proc.returncode == 6 and not report["ok"], report
    return report["drift"]  # type: ignore[no-any-return]


def event_keys(repo: Path) -> set[str]:
    return {k for k, e in parse(ledger_at(repo)).items() if e["kind"] == "commit"}


# ---- merges, pulls, squashes, picks -------------------------------------------------------
@pytest.mark.parametrize("how", ["fast-forward", "clean", "conflicted", "squash", "cherry-pick"])
def test_branch_work_merged_counts_each_commit_once(repo: Path, how: str) -> None:
    start = used(repo)
    git(repo, "checkout", "-q", "-b", "b1")
    expected = add(repo, "left.py", "def left():\n    return 'left side of the work'")
    expected += add(repo, "shared.txt", "the b1 version of this line")
    git(repo, "checkout", "-q", "main")
    if how != "fast-forward":
        expected += add(repo, "right.md", "Prose written on main while b1 went on.")
    if how == "conflicted":
        expected += add(repo, "shared.txt", "the main version of this line")
    if how == "squash":
        git(repo, "merge", "--squash", "b1")
        commit(repo, "-m", "squashed b1")
    elif how == "cherry-pick":
        for sha in git(repo, "rev-list", "--reverse", "main..b1").stdout.split():
            git(repo, "cherry-pick", sha)
    elif how == "conflicted":
        assert git(repo, "merge", "b1", check=False).returncode != 0
        resolution = "# shared.txt\nboth versions, resolved by hand in one line\n"
        (repo / "shared.txt").write_text(resolution)
        git(repo, "add", "shared.txt")
        commit(repo, "--no-edit")
        expected += estimate_tokens("both versions, resolved by hand in one line", "shared.txt")
    else:
        proc = git(repo, "merge", "--no-edit", "b1", check=False)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    assert used(repo) - start == expected
    clean(repo)
    verified(repo)
    assert git(repo, "checkout", "-q", "b1", check=False).returncode == 0  # nothing in the way


def _clone(origin: Path, where: Path) -> Path:
    git(origin.parent, "clone", "-q", str(origin), str(where))
    tg(where, "install")
    return where


@pytest.mark.parametrize("rebase", [False, True])
def test_two_clones_pulling_each_other_keep_every_event(
    repo: Path, tmp_path: Path, rebase: bool
) -> None:
    git(repo, "config", "receive.denyCurrentBranch", "updateInstead")
    other = _clone(repo, tmp_path / "other")
    start = used(repo)
    expected = add(repo, "a.py", "alpha = compute_alpha(1, 2, 3)")
    expected += add(other, "b.py", "beta = compute_beta('four', 'five')")
    expected += add(other, "c.md", "A paragraph of notes from the second clone.")
    pull = ["pull", "-q", "--no-edit", "--rebase" if rebase else "--no-rebase"]
    assert git(other, *pull, "origin", "main", check=False).returncode == 0
    assert git(repo, *pull, str(other), "main", check=False).returncode == 0
    for clone in (repo, other):
        assert used(clone) - start == expected, clone
        clean(clone)
    verified(repo)


# ---- history rewrites ------------------------------------------------------------------------
def test_revert_keeps_the_event_and_the_halt(repo: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", "60")
    add(repo, "big.py", "value = " + " + ".join(f"item_{i}" for i in range(40)))
    halted = status(repo)
    assert halted["level"] == "halt"
    git(repo, "revert", "--no-edit", "HEAD~1")  # HEAD is the checkpoint: revert the work
    assert status(repo)["output"] == halted["output"] and status(repo)["level"] == "halt"
    (repo / "more.txt").write_text("more\n")
    git(repo, "add", "more.txt")
    refused = commit(repo, "-m", "more", check=False)
    assert refused.returncode != 0 and "Token limit" in refused.stderr
    verified(repo)


def test_reset_soft_squash_keeps_events_and_counts_nothing_twice(repo: Path) -> None:
    start = used(repo)
    expected = sum(
        add(repo, f"f{i}.py", f"def f{i}(x):\n    return x * {i} + {i * 7}") for i in range(3)
    )
    keys = event_keys(repo)
    git(repo, "reset", "--soft", "HEAD~3")
    commit(repo, "-m", "all three at once")
    assert keys <= event_keys(repo)
    assert used(repo) - start == expected
    clean(repo)
    verified(repo)


@pytest.mark.parametrize(
    "moves",
    [
        [["reset", "--soft", "HEAD~2"], ["reset", "--soft", "HEAD"]],  # ORIG_HEAD overwritten
        [["reset", "--soft", "HEAD~2"], ["stash", "-u"], ["stash", "pop", "--index"]],
        [["reset", "--mixed", "HEAD~2"], ["reset", "--soft", "HEAD"], ["add", "-A"]],
    ],
    ids=["reset-twice", "stash-after-reset", "mixed-then-soft"],
)
def test_work_reset_away_and_committed_again_counts_once(
    repo: Path, moves: list[list[str]]
) -> None:
    start = used(repo)
    expected = sum(
        add(repo, f"g{i}.py", f"def g{i}(y):\n    return y - {i * 13}") for i in range(2)
    )
    keys = event_keys(repo)
    for args in moves:
        git(repo, *args)
    commit(repo, "-m", "both again")
    assert keys <= event_keys(repo)
    assert used(repo) - start == expected
    clean(repo)
    verified(repo)


@pytest.mark.parametrize("todo", ["squash", "fixup", "drop", "reorder"])
def test_interactive_rebase_keeps_every_event(repo: Path, todo: str) -> None:
    start = used(repo)
    expected = sum(
        add(repo, f"r{i}.py", f"step_{i} = run_step({i}, 'interactive rebase {todo}')")
        for i in range(3)
    )
    keys = event_keys(repo)
    script = {
        "squash": "sed -i -e '2s/^pick/squash/'",
        "fixup": "sed -i -e '2s/^pick/fixup/'",
        "drop": "sed -i -e '2s/^pick/drop/'",
        "reorder": "sed -i -e '1{h;d}' -e '2{G}'",
    }[todo]
    env = {**os.environ, "GIT_SEQUENCE_EDITOR": script, "GIT_EDITOR": "true"}
    proc = git(repo, "rebase", "-q", "-i", "HEAD~3", env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    add(repo, "after.txt", "x")  # the next commit restores what the rewrite took out
    expected += estimate_tokens("# after.txt\nx", "after.txt")
    assert keys <= event_keys(repo)
    assert used(repo) - start == expected
    clean(repo)
    verified(repo)


def test_amend_counts_once_and_keeps_the_event(repo: Path) -> None:
    start = used(repo)
    expected = add(repo, "a.py", "a = 1")
    (repo / "b.py").write_text("b = 2\n")
    git(repo, "add", "b.py")
    commit(repo, "--amend", "--no-edit")
    expected += estimate_tokens("b = 2", "b.py")
    assert used(repo) - start == expected
    clean(repo)
    verified(repo)


# ---- what a commit adds: keyed by path ------------------------------------------------------
@pytest.mark.parametrize("direction", ["file-to-symlink", "symlink-to-file"])
def test_type_change_amid_other_files_counts_each_file(repo: Path, direction: str) -> None:
    big = "\n".join(f"line_{i} = compute({i}, 'padding text')" for i in range(200))
    (repo / "a_first.py").write_text("first = 1\n")
    if direction == "file-to-symlink":
        (repo / "m_link").write_text("plain file text\n")
    else:
        (repo / "m_link").symlink_to("a_first.py")
    git(repo, "add", ".")
    commit(repo, "-m", "before")
    (repo / "m_link").unlink()
    if direction == "file-to-symlink":
        (repo / "m_link").symlink_to("z_target_name.py")
    else:
        (repo / "m_link").write_text("now a regular file with words\n")
    (repo / "z_big.py").write_text(big + "\n")
    (repo / "a_first.py").write_text("first = 2\n")
    git(repo, "add", "-A")
    staged = json.loads(tg(repo, "estimate", "--staged", "--json").stdout)
    files = {f["path"]: f["tokens"] for f in staged["files"]}
    assert files["z_big.py"] == estimate_tokens(big, "z_big.py")
    assert files["a_first.py"] == estimate_tokens("first = 2", "a_first.py")
    link_text = (
        "z_target_name.py" if direction == "file-to-symlink" else "now a regular file with words"
    )
    assert files["m_link"] == estimate_tokens(link_text, "m_link")
    before = used(repo)
    commit(repo, "-m", "type change")
    assert used(repo) - before == sum(files.values())
    verified(repo)


# ---- verify: honest histories pass, dishonest ones fail -------------------------------------
def test_shallow_clone_verifies_and_says_what_it_cannot_see(repo: Path, tmp_path: Path) -> None:
    for i in range(3):
        add(repo, f"s{i}.py", f"value_{i} = {i}")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow))
    report = verified(shallow)
    assert report["unchecked"], report


def change_config(repo: Path, old: str, new: str) -> None:
    """Commit a config edit, then check the history still verifies."""
    config = repo / ".tg-git/config.toml"
    assert old in config.read_text()
    config.write_text(config.read_text().replace(old, new))
    git(repo, "add", str(config))
    commit(repo, "-m", "change the config")
    verified(repo)


def test_profile_change_after_the_fact_is_not_drift(repo: Path) -> None:
    add(repo, "p.py", "def profiled(a, b):\n    return a ** b - a // b")
    change_config(repo, 'profile = "o200k"', 'profile = "cl100k"')


def test_exclude_change_after_the_fact_is_not_drift(repo: Path) -> None:
    (repo / "yarn.lock").write_text("\n".join(f"dep{i}@1.0.{i}" for i in range(50)) + "\n")
    git(repo, "add", "yarn.lock")
    commit(repo, "-m", "lock file, excluded")
    change_config(repo, '"*.lock", ', "")


def test_no_verify_commit_mimicking_a_checkpoint_is_drift(repo: Path) -> None:
    (repo / "sneaky.py").write_text("def sneaky():\n    return 'uncounted work'\n")
    git(repo, "add", "sneaky.py")
    commit(
        repo, "--no-verify", "-m", "checkpoint: manual\n\nTg-Git-Session: x\nTg-Git-Level: manual"
    )
    assert any("checkpoint" in d["reason"] for d in drift(repo))


def test_minus_diff_attribute_hides_nothing(repo: Path) -> None:
    (repo / ".gitattributes").write_text((repo / ".gitattributes").read_text() + "*.py -diff\n")
    git(repo, "add", ".gitattributes")
    commit(repo, "-m", "attributes")
    before = used(repo)
    counted = add(repo, "hidden.py", "def hidden():\n    return 'counted all the same'")
    assert used(repo) - before == counted > 0
    (repo / "hidden2.py").write_text("def hidden2():\n    return 'not counted'\n")
    git(repo, "add", "hidden2.py")
    commit(repo, "--no-verify", "-m", "bypass")
    assert drift(repo)


def test_code_under_tg_git_counts(repo: Path) -> None:
    before = used(repo)
    (repo / ".tg-git" / "tool.py").write_text("def smuggled():\n    return 'work'\n")
    git(repo, "add", ".tg-git/tool.py")
    commit(repo, "-m", "tool")
    assert used(repo) > before
    (repo / ".tg-git" / "tool2.py").write_text("def smuggled_again():\n    return 'work'\n")
    git(repo, "add", ".tg-git/tool2.py")
    commit(repo, "--no-verify", "-m", "tool2")
    assert drift(repo)


def test_removing_the_ledger_is_drift(repo: Path) -> None:
    add(repo, "w.py", "work = done()")
    git(repo, "rm", "-q", "-r", ".tg-git/ledger")
    commit(repo, "--no-verify", "-m", "drop the ledger")
    git(repo, "reset", "-q", "--hard")
    (repo / ".git/tg-git/journal").rename(repo / ".git/tg-git/journal-elsewhere")  # another clone
    assert any("removed" in d["reason"] for d in drift(repo))


# ---- a broken ledger is repaired by the next commit -----------------------------------------
@pytest.mark.parametrize("junk", ["this is not an event\n", "<<<<<<< HEAD\n=======\n>>>>>>> b1\n"])
def test_broken_ledger_is_repaired_by_the_next_commit(repo: Path, junk: str) -> None:
    start = used(repo)
    expected = add(repo, "before.py", "counted_before = True")
    keys = event_keys(repo)
    ledger_file = next((repo / ".tg-git/ledger").glob("*.toml"))
    ledger_file.write_text(ledger_file.read_text() + junk)
    git(repo, "add", str(ledger_file))
    commit(repo, "--no-verify", "-m", "broken ledger")
    (repo / "next.py").write_text("counted_after = True\n")
    git(repo, "add", "next.py")
    proc = commit(repo, "-m", "next")
    assert "repaired" in proc.stderr
    expected += estimate_tokens("counted_after = True", "next.py")
    assert keys <= event_keys(repo)
    assert used(repo) - start == expected
    assert junk.splitlines()[0] not in ledger_file.read_text()
    clean(repo)


def test_repair_command_restores_lost_events(repo: Path) -> None:
    add(repo, "one.py", "one = 1")
    keys = event_keys(repo)
    ledger_file = next((repo / ".tg-git/ledger").glob("*.toml"))
    ledger_file.write_text("garbage\n")
    git(repo, "add", str(ledger_file))
    commit(repo, "--no-verify", "-m", "clobbered")
    result = json.loads(tg(repo, "repair", "--json").stdout)
    assert result["restored"] >= len(keys) and result["dropped"] >= 1
    assert keys <= {k for k, e in parse(ledger_at(repo, ":")).items() if e["kind"] == "commit"}


# ---- sessions belong to a line of work ------------------------------------------------------
def test_merging_a_later_session_keeps_the_current_one(repo: Path) -> None:
    mine = status(repo)["session"]["id"]
    git(repo, "checkout", "-q", "-b", "agent2")
    tg(repo, "session", "start")
    add(repo, "agent2.py", "agent_two = True")
    git(repo, "checkout", "-q", "main")
    (repo / ".git/tg-git/session").write_text(f"{mine}\n")  # this work tree's own session
    add(repo, "agent1.py", "agent_one = True")
    proc = git(repo, "merge", "--no-edit", "agent2", check=False)
    assert proc.returncode == 0, proc.stderr
    assert status(repo)["session"]["id"] == mine
    clean(repo)


def test_sparse_checkout_without_tg_git_says_so_loudly(repo: Path) -> None:
    git(repo, "sparse-checkout", "set", "--no-cone", "/*.md", "/src/")
    (repo / "src").mkdir()
    (repo / "src/a.py").write_text("a = 1\n")
    git(repo, "add", "src/a.py")
    proc = commit(repo, "-m", "sparse", check=False)  # refused: it could never be counted
    assert proc.returncode != 0 and "git sparse-checkout add .tg-git" in proc.stderr


def test_pre_push_checks_the_refs_being_pushed(repo: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "f.py").write_text("def uncounted():\n    return 'bypassed the hook'\n")
    git(repo, "add", "f.py")
    commit(repo, "--no-verify", "-m", "feature work")
    git(repo, "checkout", "-q", "main")
    assert git(repo, "push", "-q", "origin", "main", check=False).returncode == 0
    refused = git(repo, "push", "-q", "origin", "feature", check=False)
    assert refused.returncode != 0 and "push refused" in refused.stderr


def test_a_0_1_single_ledger_is_split_with_every_event_kept(plain_repo: Path) -> None:
    repo = plain_repo
    sid = "s20250101000000-0123456789ab"
    old = [
        f'e1 = {{ "kind" = "session", "at" = "2025-01-01T00:00:00Z", "id" = "{sid}", "max_tokens" = 1000, "base" = "" }}',
        f'e2 = {{ "kind" = "commit", "at" = "2025-01-01T00:00:01Z", "session" = "{sid}", "tokens" = 12, "files" = 1, "label" = "a.py" }}',
        f'e3 = {{ "kind" = "input", "at" = "2025-01-01T00:00:02Z", "session" = "{sid}", "tokens" = 30, "label" = "ask" }}',
    ]
    make_0_1(repo, old)
    assert used(repo) == 42
    add(repo, "b.py", "b = 2")
    assert not (repo / ".tg-git/ledger.toml").exists()
    assert ".tg-git/ledger/*.toml merge=union" in (repo / ".gitattributes").read_text()
    assert {"e1", "e2", "e3"} <= set(parse(ledger_at(repo)))
    assert used(repo) == 42 + estimate_tokens("# b.py\nb = 2", "b.py")
    clean(repo)
    verified(repo)


def test_two_agents_on_two_branches_resume_their_own_checkpoints(repo: Path) -> None:
    saved = {}
    for agent in ("agent1", "agent2"):
        git(repo, "checkout", "-q", "-b", agent, "main")
        tg(repo, "session", "start")
        tg(repo, "task", "add", f"{agent}'s task")
        add(repo, f"{agent}.py", f"owner = '{agent}'")
        tg(repo, "checkpoint", "-m", f"{agent} saves")
        saved[agent] = git(repo, "describe", "--tags", "--exact-match", "HEAD").stdout.strip()
    assert saved["agent1"] < saved["agent2"]  # agent 2's save is the newest of all
    git(repo, "checkout", "-q", "agent1")
    resumed = json.loads(tg(repo, "resume", "--json").stdout)
    assert resumed["checkpoint"]["tag"] == saved["agent1"]
    assert "agent1's task" in resumed["pending"] and "agent2's task" not in resumed["pending"]


def _output(repo: Path) -> int:
    return int(status(repo)["output"])


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


def _two_commits(repo: Path) -> tuple[int, int]:
    start = used(repo)
    spent = add(repo, "one.py", "first = compute_the_first_value(1, 2, 3)")
    spent += add(repo, "two.py", "second = compute_the_second_value('four', 'five', 'six')")
    return start, spent  # no tg-git command in between: only the hooks saw these commits


def _lose_by_two_resets(repo: Path) -> None:
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    git(repo, "reset", "-q", "--hard", "HEAD~1")


def _lose_by_revert_of_both(repo: Path) -> None:
    git(repo, "revert", "--no-edit", "HEAD", "HEAD~1")


def _lose_by_reset_and_gc(repo: Path) -> None:
    git(repo, "reset", "-q", "--hard", "HEAD~2")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")


def _lose_by_replace(repo: Path) -> None:
    base = git(repo, "rev-parse", "HEAD~2").stdout.strip()
    git(repo, "replace", "HEAD", base)


@pytest.mark.parametrize(
    "lose",
    [_lose_by_two_resets, _lose_by_revert_of_both, _lose_by_reset_and_gc, _lose_by_replace],
    ids=["reset-hard-twice", "revert-two-in-one", "reset-then-gc", "replace"],
)
def test_newest_commit_event_survives_its_commit_leaving_history(repo: Path, lose: object) -> None:
    start, spent = _two_commits(repo)
    lose(repo)  # type: ignore[operator]
    assert used(repo) - start == spent


def test_newest_commit_event_survives_its_branch_deleted(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "topic")
    start, spent = _two_commits(repo)
    git(repo, "checkout", "-q", "main")
    git(repo, "branch", "-q", "-D", "topic")
    assert used(repo) - start == spent


def test_newest_commit_event_survives_its_worktree_removed(repo: Path, tmp_path: Path) -> None:
    start = used(repo)
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    spent = add(other, "side.py", "side_value = compute_on_the_side('seven', 'eight')")
    git(repo, "worktree", "remove", "--force", str(other))
    git(repo, "branch", "-q", "-D", "side")
    assert used(repo) - start == spent


def test_post_commit_journaling_runs_no_python(repo: Path) -> None:
    """The usual commit's post-commit stays in the shell (the hook path is benchmarked)."""
    shim = (repo / ".git" / "hooks" / "post-commit").read_text()
    python_at = shim.index('"$TG_GIT_PYTHON" -E -c')
    assert shim.index("journal-due") < python_at


def test_worktrees_of_one_session_show_one_total_and_halt_at_the_budget(
    repo: Path, tmp_path: Path
) -> None:
    tg(repo, "session", "start", "--max-tokens", "1000")
    commit(repo, "-q", "--allow-empty", "-m", "session")
    trees = [repo]
    for n in (1, 2):
        trees.append(tmp_path / f"wt{n}")
        git(repo, "worktree", "add", "-q", "-b", f"b{n}", str(trees[-1]))
    words = " ".join(f"word{i}" for i in range(80))  # ~160 tokens a turn: six turns to the halt
    refused_at = None
    for turn in range(30):
        tree = trees[turn % 3]
        (tree / f"f{turn}.txt").write_text(f"{words} {turn}\n")
        git(tree, "add", f"f{turn}.txt")
        proc = commit(tree, "-m", f"turn {turn}", check=False)
        totals = {int(json.loads(tg(t, "status", "--json").stdout)["used"]) for t in trees}
        assert len(totals) == 1, totals  # every worktree shows one total
        if proc.returncode != 0:
            refused_at = totals.pop()
            break
    assert refused_at is not None, "never refused"
    per_commit = 1000 // 10
    assert 950 <= refused_at < 1000 + 2 * per_commit, refused_at  # one crossing commit at most


def _next_second_after(session_id: str) -> None:
    """Wait until the UTC clock has passed the second a session id names (ids sort by it)."""
    while time.strftime("%Y%m%d%H%M%S", time.gmtime()) <= session_id[1:15]:
        time.sleep(0.05)


def test_a_new_worktree_joins_the_session_its_clone_works_in(repo: Path, tmp_path: Path) -> None:
    """A linked worktree that started no session of its own shows the session the clone
    started last, not the newest ledger file by name: a teammate's newer session merged in
    (or one started in the same second, whose random part sorts after) is not this clone's."""
    mine = status(repo)["session"]["id"]  # type: ignore[index]
    _next_second_after(str(mine))
    teammate = tmp_path / "teammate"
    git(tmp_path, "clone", "-q", str(repo), str(teammate))
    tg(teammate, "session", "start", "--max-tokens", "5000")
    git(teammate, "commit", "-q", "--allow-empty", "-m", "the teammate's session")
    git(repo, "pull", "-q", "--no-rebase", str(teammate), "main")
    assert status(repo)["session"]["id"] == mine  # type: ignore[index]
    other = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    assert status(other)["session"]["id"] == mine  # type: ignore[index]


def test_orphan_branch_commits_are_counted_or_said_loudly(repo: Path) -> None:
    before = commit_events(repo)
    git(repo, "checkout", "-q", "--orphan", "pages")
    add(repo, "page.md", "A page of the orphan branch, with words.")
    assert commit_events(repo) == before + 1
    proc = bare_orphan_commit(repo)
    assert "NOT COUNTED" in proc.stderr, proc.stderr


def test_record_then_checkout_and_bisect_are_not_blocked(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "other")
    add(repo, "other.py", "on_the_other_branch = 1")
    git(repo, "checkout", "-q", "main")
    add(repo, "main.py", "on_main = 2")
    tg(repo, "record", "--tokens", "500")
    total = used(repo)
    switched = git(repo, "checkout", "-q", "other", check=False)
    assert switched.returncode == 0, switched.stderr
    git(repo, "checkout", "-q", "main")
    assert used(repo) == total
    tg(repo, "record", "--tokens", "7")
    bisect = git(repo, "bisect", "start", "HEAD", "HEAD~3", check=False)
    assert bisect.returncode == 0, bisect.stderr
    git(repo, "bisect", "reset")
    add(repo, "after.py", "after_bisect = 3")
    assert used(repo) > total + 7
    clean(repo)


def _two_branches_of_one_session(repo: Path) -> int:
    spent = 0
    for name in ("b1", "b2"):
        git(repo, "checkout", "-q", "-b", name, "main")
        spent += add(repo, f"{name}.py", f"{name}_value = compute_{name}('some', 'words')")
    git(repo, "checkout", "-q", "main")
    spent += add(repo, "main.py", "main_value = compute_main('more', 'words', 'here')")
    return spent


def test_octopus_merge_refused_by_git_has_a_one_line_way_round(repo: Path) -> None:
    start = used(repo)
    spent = _two_branches_of_one_session(repo)
    octopus = git(repo, "merge", "--no-edit", "b1", "b2", check=False)
    assert octopus.returncode != 0 and "octopus" in octopus.stdout + octopus.stderr
    clean(repo)  # git's octopus leaves nothing behind
    way_round = subprocess.run(
        "git merge --no-edit b1 && git merge --no-edit b2",
        shell=True,
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert way_round.returncode == 0, way_round.stdout + way_round.stderr
    assert used(repo) - start == spent
    clean(repo)
    assert (
        "git merge --no-edit b1 && git merge --no-edit b2"
        in (PROJECT / "docs" / "history.md").read_text()
    )


def test_plain_git_am_applies_ledger_hunks(repo: Path, tmp_path: Path) -> None:
    start = used(repo)
    git(repo, "checkout", "-q", "-b", "b1")
    spent = add(repo, "patched.py", "patched_value = compute_patched('from', 'a', 'patch')")
    git(repo, "format-patch", "-q", "-1", "-o", str(tmp_path / "patches"))
    git(repo, "checkout", "-q", "main")
    spent += add(repo, "main.py", "main_value = compute_main('meanwhile', 'on', 'main')")
    patch = next((tmp_path / "patches").iterdir())
    applied = git(repo, "am", str(patch), check=False)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert used(repo) - start == spent
    clean(repo)
