"""Lines a Korean clone sees in Korean even where the branch holds no config of its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.repos import bare_orphan_commit
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg


def test_an_orphan_branch_uncounted_commit_is_said_in_the_clone_language(repo: Path) -> None:
    tg(repo, "config", "set", "language", "ko")
    git(repo, "add", ".tg-git")
    commit(repo, "-m", "Korean")
    proc = bare_orphan_commit(repo)
    assert "이 커밋은 집계되지 않습니다" in proc.stderr, proc.stderr
    assert "NOT COUNTED" not in proc.stderr


def test_a_shim_without_tg_git_says_so_in_the_clone_language(tmp_path: Path) -> None:
    from tg_git.githooks import install

    shim = tmp_path / "pre-commit"
    shim.write_text(install.render_shim(install.shim_template(), "pre-commit", "ko"))
    text = shim.read_text().replace(f'TG_GIT_PYTHON="{sys.executable}"', 'TG_GIT_PYTHON="/nowhere"')
    shim.write_text(text)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run(["sh", str(shim)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert "tg-git을 찾을 수 없습니다" in proc.stderr and "pre-commit" in proc.stderr, proc.stderr
    assert "`tg-git uninstall`" in proc.stderr
