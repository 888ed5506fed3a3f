"""tg-git in a shared repository: teammates without it, quiet diffs, sparse checkouts.

Real git throughout: a bare remote, a clone with tg-git (its hooks and a session) and a clone
with plain git (no tg-git, no hooks). Every git step of the tg-git clone runs as it would
without tg-git: records wait under the git dir, so no merge, pull, rebase or switch meets a
staged file of tg-git's; and the ledger's attributes keep its lines out of every diff git and
the hosting platforms show.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import status
from tests.support.repos import tg

QUIET = ("merge=union", "-diff", "linguist-generated=true", "gitlab-generated")


def ledger_lines(text: str) -> list[str]:
    """The event lines a diff or a patch shows (added or removed)."""
    return [ln for ln in text.splitlines() if ln[:1] in "+-" and '"kind" =' in ln]


def plain_commit(where: Path, name: str, text: str) -> None:
    """A commit as a teammate without tg-git makes it: no hooks at all."""
    (where / name).write_text(text)
    git(where, "add", name)
    git(where, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", f"add {name}")


def hooked_commit(where: Path, name: str, text: str, message: str) -> None:
    """A commit of a new file ``name`` through tg-git's hooks, which must succeed."""
    (where / name).write_text(text)
    git(where, "add", name)
    ok(commit(where, "-m", message, check=False))


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def totals(repo: Path) -> dict[str, object]:
    found = status(repo)
    return {k: found[k] for k in ("used", "input", "output")} | {"id": found["session"]["id"]}


def setup_team(tmp_path: Path, plain_repo: Path) -> tuple[Path, Path, Path]:
    """A bare remote; ``a``: tg-git set up and installed, a session; ``b``: plain git."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    a = plain_repo
    (a / "README.md").write_text("# team project\n")
    git(a, "add", "README.md")
    git(a, "commit", "-q", "-m", "first")
    tg(a, "init")
    tg(a, "install")
    git(a, "add", ".tg-git", ".gitattributes")
    commit(a, "-m", "set up tg-git")
    git(a, "remote", "add", "origin", str(remote))
    git(a, "push", "-q", "-u", "origin", "main")
    b = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(remote), str(b))
    return remote, a, b


def test_the_ledgers_attributes_quiet_every_diff_and_keep_the_union_merge(
    repo: Path,
) -> None:
    attributes = (repo / ".gitattributes").read_text()
    for glob in (".tg-git/ledger.toml", ".tg-git/ledger/*.toml", ".tg-git/ledger/*/*/*.toml"):
        line = next(ln for ln in attributes.splitlines() if ln.split(" ", 1)[0] == glob)
        assert all(attr in line.split() for attr in QUIET), line
    git(repo, "checkout", "-q", "-b", "side")
    tg(repo, "record", "--tokens", "111", "--label", "side")
    (repo / "side.py").write_text("side = 1\n")
    git(repo, "add", "side.py")
    commit(repo, "-m", "side")
    git(repo, "checkout", "-q", "main")
    tg(repo, "record", "--tokens", "222", "--label", "main")
    (repo / "main.py").write_text("on_main = 1\n")
    git(repo, "add", "main.py")
    commit(repo, "-m", "main")
    for args in (["log", "-p", "-3"], ["show", "HEAD"], ["diff", "HEAD~1", "HEAD"]):
        shown = git(repo, *args).stdout
        assert ledger_lines(shown) == [], args
        assert "on_main" in shown or args[0] == "log"
    merged = ok(git(repo, "merge", "--no-edit", "side", check=False))
    assert "CONFLICT" not in merged.stdout
    rel = next(
        p for p in git(repo, "ls-files", ".tg-git/ledger").stdout.split() if "/s" in p
    )  # the session's file: both sides' lines, merged by merge=union through -diff
    text = git(repo, "show", f"HEAD:{rel}").stdout
    assert '"label" = "side"' in text and '"label" = "main"' in text
    assert ledger_lines(git(repo, "show", "HEAD", "--cc").stdout) == []


def test_a_sparse_checkout_without_tg_git_refuses_with_the_fix_and_doctor_says_why(
    repo: Path,
) -> None:
    git(repo, "sparse-checkout", "set", "--no-cone", "/*.md", "/src/")
    assert not (repo / ".tg-git").exists()
    (repo / "src").mkdir()
    (repo / "src/a.py").write_text("a = compute('in', 'a', 'sparse', 'checkout')\n")
    git(repo, "add", "src/a.py")
    refused = commit(repo, "-m", "sparse", check=False)
    assert refused.returncode != 0
    assert "git sparse-checkout add .tg-git" in refused.stderr
    assert "src/a.py" in git(repo, "diff", "--cached", "--name-only").stdout  # still staged
    doctor = tg(repo, "doctor", check=False)
    assert doctor.returncode != 0 and "git sparse-checkout add .tg-git" in doctor.stdout
    assert "sparse" in doctor.stdout
    git(repo, "sparse-checkout", "add", ".tg-git")
    before = status(repo)["used"]
    done = commit(repo, "-m", "sparse")
    assert "this commit +" in done.stderr
    assert status(repo)["used"] > before


def test_a_team_with_a_teammate_without_tg_git(tmp_path: Path, plain_repo: Path) -> None:
    remote, a, b = setup_team(tmp_path, plain_repo)
    # Twice: B pushes; A records, commits, writes to the plan and pulls (a merge, then with
    # --rebase).
    rounds = [
        (
            "b1.py",
            "b_one = 1\n",
            "500",
            "reading",
            "a1",
            "a_one = compute('first', 'change')\n",
            ["note", "the parser is next"],
            ["--no-rebase", "--no-edit"],
        ),
        (
            "b2.py",
            "b_two = 2\n",
            "300",
            "more",
            "a2",
            "a_two = compute('second', 'change')\n",
            ["task", "add", "parser"],
            ["--rebase"],
        ),
    ]
    for b_file, b_text, tokens, label, a_commit, a_text, plan, how in rounds:
        plain_commit(b, b_file, b_text)
        ok(git(b, "push", "-q", "origin", "main", check=False))
        ok(tg(a, "record", "--tokens", tokens, "--label", label, check=False))
        hooked_commit(a, f"{a_commit}.py", a_text, a_commit)
        ok(tg(a, *plan, check=False))
        ok(git(a, "pull", "-q", *how, "origin", "main", check=False))
    # A works on a branch, merges it, rebases another onto main, switches about.
    ok(git(a, "switch", "-q", "-c", "topic", check=False))
    hooked_commit(a, "t1.py", "topic_one = compute('topic')\n", "t1")
    ok(git(a, "switch", "-q", "main", check=False))
    ok(tg(a, "record", "--tokens", "70", "--label", "between", check=False))
    hooked_commit(a, "a3.py", "a_three = compute('third')\n", "a3")
    ok(tg(a, "next", "write the docs", check=False))
    ok(git(a, "merge", "-q", "--no-ff", "--no-edit", "topic", check=False))
    ok(git(a, "switch", "-q", "-c", "later", "HEAD~1", check=False))
    hooked_commit(a, "t2.py", "later_two = compute('later')\n", "t2")
    ok(tg(a, "record", "--tokens", "9", "--label", "rebasing", check=False))
    ok(git(a, "rebase", "-q", "main", check=False))
    ok(git(a, "switch", "-q", "main", check=False))
    ok(git(a, "merge", "-q", "--ff-only", "later", check=False))
    assert git(a, "status", "--porcelain").stdout == ""
    hooked_commit(a, "a4.py", "a_four = compute('fourth')\n", "a4")  # the records waiting ride here
    assert not list((a / ".git" / "tg-git" / "pending").glob("*.toml"))
    ok(tg(a, "checkpoint", "-m", "before the push", check=False))
    assert git(a, "status", "--porcelain").stdout == ""
    # What A is about to push shows no ledger line by default.
    ok(git(a, "fetch", "-q", "origin", check=False))
    patch = git(a, "log", "-p", "origin/main..HEAD").stdout
    assert "later_two" in patch and "a_four" in patch and ledger_lines(patch) == []
    # B's commits were made by no tg-git session: outside the budget, not drift.
    ok(git(a, "push", "-q", "origin", "main", check=False))
    # The same totals in A and in a fresh clone of the remote (hooks wired by resume).
    mine_totals = totals(a)
    assert mine_totals["input"] == 500 + 300 + 70 + 9
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(remote), str(fresh))
    assert totals(fresh) == mine_totals
    resume = [TG_GIT, "resume", "--install", "--json"]
    resumed = subprocess.run(resume, cwd=fresh, capture_output=True, text=True)
    report = json.loads(tg(fresh, "report", "--json").stdout)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    rows = [r for r in report["sessions"] if r.get("id") == mine_totals["id"]]
    assert rows and rows[0]["used"] == mine_totals["used"]
    # B, without tg-git, pulls it all with plain git.
    ok(git(b, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main", check=False))
    assert (b / "later_two.py").exists() or (b / "t2.py").exists()
