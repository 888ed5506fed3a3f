"""A cold verify takes each commit's config from git's listing of the paths it changed (along
first parents, from the parents outside the range), not from one lookup a commit: over a
history whose config is edited, removed, made a link, a folder or a submodule, restored, and
merged in from a second parent, every commit's config and whether it is set up are what git
says the commit holds, and a commit is counted with the config it was made with."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bench.verify import CONFIG
from bench.verify import build
from tests.support.repos import git
from tg_git.domain.layout import CONFIG_PATH
from tg_git.repo import git as git_mod
from tg_git.repo import gitquery
from tg_git.services import verify_index
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history


def _commit(repo: Path, message: str) -> None:
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", message)


def _config(repo: Path, text: str) -> None:
    (repo / CONFIG_PATH).write_text(text, encoding="utf-8")
    git(repo, "add", CONFIG_PATH)


def _put(repo: Path, mode: str, path: str, text: str = "") -> None:
    """``path`` in the index only (the work tree is left alone), of ``mode``; a submodule's
    at the current commit."""
    git(repo, "rm", "-q", "-r", "--cached", "--ignore-unmatch", CONFIG_PATH)
    if mode == "160000":
        oid = git(repo, "rev-parse", "HEAD").stdout.strip()
    else:
        oid = git(repo, "hash-object", "-w", "--stdin", input=text).stdout.strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"{mode},{oid},{path}")


def _merge(repo: Path, other: str, message: str) -> None:
    """A merge of ``other`` into the current branch keeping the current tree (plumbing)."""
    tree = git(repo, "write-tree").stdout.strip()
    made = git(repo, "commit-tree", tree, "-p", "HEAD", "-p", other, "-m", message)
    git(repo, "update-ref", "HEAD", made.stdout.strip())


def _switch(repo: Path, branch: str, start: str) -> None:
    """``branch`` made at ``start`` and current, its tree in the index (the work tree left)."""
    git(repo, "update-ref", f"refs/heads/{branch}", start)
    git(repo, "symbolic-ref", "HEAD", f"refs/heads/{branch}")
    git(repo, "read-tree", "HEAD")


def _truth(repo: Path, sha: str) -> tuple[str | None, bool]:
    """The blob at the config's path of ``sha`` (None: no blob there), and whether ``sha``
    holds any of the three paths that make a commit set up: as git says."""
    found = []
    for path in verify_index._AT:
        done = git(repo, "cat-file", "--batch-check", input=f"{sha}:{path}\n")
        oid, kind = done.stdout.split()[:2]
        found.append((oid, kind) if kind != "missing" else None)
    blob = found[0][0] if found[0] and found[0][1] == "blob" else None
    return blob, any(found)


def _hostile(repo: Path) -> None:
    """Commits on top of an honest history that move the config about."""
    _put(repo, "100644", CONFIG_PATH, CONFIG.replace('"o200k"', '"cl100k"'))
    _commit(repo, "the profile changed")
    git(repo, "rm", "-q", "--cached", CONFIG_PATH)
    _commit(repo, "the config untracked")
    _put(repo, "120000", CONFIG_PATH, "elsewhere.toml")
    _commit(repo, "the config a link")
    _put(repo, "100644", f"{CONFIG_PATH}/inner", CONFIG)
    _commit(repo, "the config a folder")
    _put(repo, "160000", CONFIG_PATH)
    _commit(repo, "the config a submodule")
    git(repo, "rm", "-q", "--cached", CONFIG_PATH)
    _commit(repo, "the submodule gone")
    _put(repo, "160000", CONFIG_PATH)
    _commit(repo, "a submodule again")
    _put(repo, "100755", CONFIG_PATH, CONFIG)
    _commit(repo, "the config back")
    _put(repo, "160000", CONFIG_PATH)
    _commit(repo, "a submodule over the config")
    _put(repo, "100644", CONFIG_PATH, CONFIG.replace('"en"', '"ko"'))
    _commit(repo, "the config once more")
    _switch(repo, "side", "HEAD~5")  # the submodule's commit
    _put(repo, "100644", CONFIG_PATH, CONFIG.replace("1000000000", "900000000"))
    _commit(repo, "a config on the side")
    _switch(repo, "main2", "main")
    git(repo, "rm", "-q", "--cached", CONFIG_PATH)
    _commit(repo, "untracked again")
    _merge(repo, "side", "merge the side")  # its first parent has none, its second one
    git(repo, "read-tree", "--empty")
    _put(repo, "100644", CONFIG_PATH, CONFIG)
    root = git(repo, "commit-tree", git(repo, "write-tree").stdout.strip(), "-m", "a second root")
    _merge(repo, root.stdout.strip(), "merge a second root")
    _switch(repo, "fresh", root.stdout.strip())
    _merge(repo, "main2", "merge both roots")


@pytest.mark.parametrize("base", [None, "main~10", "side"])  # main~10: "step 6"
def test_each_commits_config_is_the_one_git_says_it_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base: str | None
) -> None:
    repo = tmp_path / "h"
    build(repo, 30, 5, os.environ)
    _hostile(repo)
    monkeypatch.chdir(repo)
    assert len(gitquery.log(open_workspace().repo, ["HEAD"])) > 20
    ws = open_workspace()
    revs = [f"^{base}", "HEAD"] if base else ["HEAD"]
    commits = gitquery.log(ws.repo, revs, reverse=True)
    history = verify_index.History(ws, commits)
    for c in commits:
        blob, set_up = _truth(repo, c.sha)
        assert (history.config_blob[c.sha], c.sha in history.set_up) == (blob, set_up), c.subject


def test_a_commit_is_counted_with_the_config_it_was_made_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A config that stops counting `src/` makes a later commit's unclaimed code no drift;
    the config put back makes the next one's drift again."""
    repo = tmp_path / "h"
    build(repo, 30, 5, os.environ)
    monkeypatch.chdir(repo)
    _config(repo, CONFIG + '\n[files]\nexclude = ["src/**"]\n')
    _commit(repo, "src no longer counts")
    (repo / "src" / "module_01.py").write_text("def more():\n    return 'not counted here'\n")
    git(repo, "add", "src")
    _commit(repo, "code while src does not count")
    assert verify_history(open_workspace()).ok
    _config(repo, CONFIG)
    (repo / "src" / "module_02.py").write_text("def again():\n    return 'counted again'\n")
    git(repo, "add", "-A")
    _commit(repo, "code counted again, claimed by nothing")
    report = verify_history(open_workspace())
    assert [d.subject for d in report.drift] == ["code counted again, claimed by nothing"]


@pytest.mark.parametrize("memo", [True, False])
def test_one_new_commit_is_asked_where_its_config_is_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, memo: bool
) -> None:
    """A verify after one new commit (``memo``: the others kept; else a range of that one
    commit, cold) reads it alone (one patch, no listing of its paths): its config and its
    parent's are asked together."""
    repo = tmp_path / "h"
    build(repo, 30, 5, os.environ)
    monkeypatch.chdir(repo)
    if memo:
        assert verify_history(open_workspace()).ok  # the memo of the commits so far
    (repo / "src" / "module_03.py").write_text("x = 1\n")
    git(repo, "add", "src")
    _commit(repo, "one more, claimed by nothing")
    started: list[list[str]] = []
    real = git_mod.spawn

    def spawn(args: list[str], *rest: Any, **named: Any) -> Any:
        started.append(list(args))
        return real(args, *rest, **named)

    monkeypatch.setattr(git_mod, "spawn", spawn)
    report = verify_history(open_workspace(), base=None if memo else "HEAD~1")
    assert [d.subject for d in report.drift] == ["one more, claimed by nothing"]
    where = [args for args in started if args[-1] == "--batch-check=%(objectname) %(objecttype)"]
    assert len(where) == 2, started  # the tip and the base; the commit's config and its parent's
