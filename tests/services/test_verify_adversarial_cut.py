"""``tg-git verify`` read cold where a commit's ledger changes are cut rather than diffed: the
paths a cut leaves to git's patch are still counted, whatever their names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg

# Under `.tg-git/` but no ledger file: work like any other, though the ledger's pathspecs
# (`.tg-git/ledger`, `.tg-git/ledger.toml`) name it.
ODD = ".tg-git/ledger.toml/sneaky.py"


def _work(repo: Path, *args: str) -> None:
    (repo / "a.py").write_text("a = 1\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "a")  # the hook appends its events: a cut
    path = repo / ODD
    path.parent.mkdir(parents=True)
    path.write_text("def sneaky():\n    return 'work kept where the ledger is'\n")
    git(repo, "add", ODD)
    commit(repo, *args, "-m", "odd")
    (repo / "b.py").write_text("b = 2\n")
    git(repo, "add", "b.py")
    commit(repo, "-m", "b")


@pytest.mark.parametrize("honest", [True, False])
def test_work_under_a_folder_the_ledgers_pathspec_names_is_counted(
    repo: Path, honest: bool
) -> None:
    _work(repo, *(() if honest else ("--no-verify",)))
    proc = tg(repo, "verify", check=False)
    if honest:
        assert proc.returncode == 0 and "matches history" in proc.stdout, proc.stdout
    else:
        assert proc.returncode == 6 and "not counted" in proc.stdout, proc.stdout


def test_a_user_s_literal_pathspecs_hide_no_uncounted_work(repo: Path) -> None:
    for name, args in (("a.py", ()), ("b.py", ("--no-verify",)), ("c.py", ())):
        (repo / name).write_text(f"def {name[0]}():\n    return '{name}'\n")
        git(repo, "add", name)
        commit(repo, *args, "-m", name)
    proc = tg(repo, "verify", check=False, env={"GIT_LITERAL_PATHSPECS": "1"})
    assert proc.returncode == 6 and "not counted" in proc.stdout, proc.stdout
