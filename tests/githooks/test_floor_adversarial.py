"""The git hooks' shims under an unlucky machine and a careless teammate: a tool error (here a
tg-git removed after `tg-git install`) says one sentence with the fix and blocks no commit
and no push; the user's staged and unstaged changes stay as they were."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.repos import commit
from tests.support.repos import git
from tg_git.githooks import install

NOT_FOUND = "not found (was it uninstalled?)"


def _package_removed(repo: Path, tmp_path: Path) -> None:
    """The shims as a regular install wrote them, its package gone since: their Python (a
    fresh environment of this interpreter) and the folder they name hold no tg_git."""
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    site = repr(install.package_folder()).replace("'", "'\\''")
    gone = repr(str(tmp_path / "site-packages")).replace("'", "'\\''")
    for hook in (repo / ".git" / "hooks").iterdir():
        text = hook.read_text(errors="replace")
        if install.MARKER in text:
            assert site in text
            text = text.replace(site, gone)
            lines = [
                f'TG_GIT_PYTHON="{env / "bin" / "python"}"'
                if ln.startswith("TG_GIT_PYTHON=")
                else ln
                for ln in text.split("\n")
            ]
            hook.write_text("\n".join(lines))


def test_a_package_removed_after_install_blocks_no_commit(repo: Path, tmp_path: Path) -> None:
    _package_removed(repo, tmp_path)
    (repo / "a.txt").write_text("one\n")
    (repo / "README.md").write_text("# demo\nunstaged\n")
    git(repo, "add", "a.txt")
    head = git(repo, "rev-parse", "HEAD").stdout
    proc = commit(repo, "-m", "a", check=False)
    assert proc.returncode == 0, proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout != head
    assert "Traceback" not in proc.stderr
    assert [ln for ln in proc.stderr.splitlines() if ln.strip()] == [
        ln for ln in proc.stderr.splitlines() if NOT_FOUND in ln
    ]
    assert NOT_FOUND in proc.stderr and "pre-commit" in proc.stderr
    assert git(repo, "status", "--porcelain").stdout.splitlines() == [" M README.md"]


def test_a_package_removed_after_install_blocks_no_push(repo: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    _package_removed(repo, tmp_path)
    proc = git(repo, "push", "-q", str(remote), "HEAD:refs/heads/main", check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and NOT_FOUND in proc.stderr
    assert git(remote, "rev-parse", "main").stdout == git(repo, "rev-parse", "HEAD").stdout


def test_a_git_dir_tg_git_cannot_write_in_blocks_no_commit(repo: Path) -> None:
    """``.git/tg-git`` a file (a full or read-only disk as root sees it: nothing can be made
    under it): the commit lands, one sentence says it was not counted, nothing else moves."""
    state = repo / ".git" / "tg-git"
    shutil.rmtree(state)
    state.write_text("")
    (repo / "a.txt").write_text("one\n")
    (repo / "README.md").write_text("# demo\nunstaged\n")
    git(repo, "add", "a.txt")
    head = git(repo, "rev-parse", "HEAD").stdout
    proc = commit(repo, "-m", "a", check=False)
    assert proc.returncode == 0, proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout != head
    said = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(said) == 1 and "not blocked" in said[0] and "Traceback" not in proc.stderr
    assert git(repo, "status", "--porcelain").stdout.splitlines() == [" M README.md"]
