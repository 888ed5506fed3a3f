"""Where the system has no process table (macOS), the pre-commit hook cannot see `git commit
--allow-empty` or `--amend`: it then stages nothing when the index equals HEAD, so a plain
`git commit` with nothing staged leaves the user's index as it was, and the session's waiting
events stay under the git dir for the next commit. ``TG_GIT_PROC`` points the hook at an
empty process table; git and the hooks are real."""

from __future__ import annotations

from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import session_id
from tests.support.repos import tg
from tests.support.repos import used


def index_state(repo: Path) -> tuple[str, str]:
    return git(repo, "ls-files", "-s").stdout, git(repo, "diff", "--cached", "--binary").stdout


def test_no_process_table_nothing_staged_leaves_the_index_alone(repo: Path, tmp_path: Path) -> None:
    table = tmp_path / "no-proc"
    table.mkdir()
    env = {"TG_GIT_PROC": str(table)}
    tg(repo, "record", "--tokens", "700", "--label", "read the spec")
    waiting = repo / ".git" / "tg-git" / "pending" / f"{session_id(repo)}.toml"
    assert waiting.is_file()
    before = index_state(repo)
    plain = commit(repo, "-m", "nothing staged", check=False, env=env)
    assert plain.returncode != 0  # git's own "nothing to commit"
    assert index_state(repo) == before
    assert waiting.is_file() and used(repo) >= 700  # still waiting, still spent
    empty = commit(repo, "--allow-empty", "-m", "an empty one", env=env)
    assert empty.returncode == 0
    assert index_state(repo) == before  # HEAD moved; the index holds what it held
    assert waiting.is_file()  # not in that commit: the next one carries them
    (repo / "work.py").write_text("value = 1\n")
    git(repo, "add", "work.py")
    commit(repo, "-m", "real work", env=env)
    shown = git(repo, "show", "--text", "--format=", "HEAD").stdout
    assert "read the spec" in shown and not waiting.exists()
    assert git(repo, "diff", "--cached", "--name-only").stdout == ""
