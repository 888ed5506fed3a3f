"""`tg-git demo`: the whole job, checked from facts (tags, checkpoint files, status --json,
exit codes), never from the wording of its messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.repos import git
from tests.support.repos import tg
from tg_git.demo import size_budget


def _level(used: int, max_tokens: int) -> str:
    percent = 100 * used / max_tokens
    return (
        "halt"
        if percent >= 95
        else "force-save"
        if percent >= 90
        else ("warning" if percent >= 80 else "ok")
    )


def _run_demo(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Path:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = tg(tmp_path, "demo", *args, env={"TMPDIR": str(scratch), **(env or {})}, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return scratch


def test_demo_tells_the_whole_story(tmp_path: Path) -> None:
    scratch = _run_demo(tmp_path, "--keep")
    repos = [p for p in scratch.glob("tg-git-demo-*/*") if (p / ".git").exists()]
    (repo,) = [p for p in repos if not p.name.endswith("-clone")]
    (clone,) = [p for p in repos if p.name.endswith("-clone")]

    # One checkpoint tag per save, each on a `checkpoint:` commit that `git log --grep` lists;
    # the saves happened at force-save and at halt.
    tags = git(repo, "tag", "-l", "checkpoint/*").stdout.split()
    assert len(tags) == 2
    grep = set(git(repo, "log", "--format=%H", "--grep", "checkpoint").stdout.split())
    tagged = {git(repo, "rev-parse", f"{t}^{{commit}}").stdout.strip() for t in tags}
    assert tagged == grep
    saved_levels = []
    for tag in tags:
        data = json.loads(git(repo, "show", f"{tag}:harness_checkpoint.json").stdout)
        session = data["session"]
        saved_levels.append(_level(session["estimated_used"], session["max_tokens"]))
    assert sorted(saved_levels) == ["force-save", "halt"]

    # Every level was crossed, in order, one commit at a time: replay each commit's ledger.
    walk = tmp_path / "walk"
    git(tmp_path, "clone", "-q", str(repo), str(walk))
    levels = []
    for sha in git(walk, "rev-list", "--reverse", "--first-parent", "HEAD").stdout.split():
        if sha in tagged:
            continue
        git(walk, "checkout", "-q", sha)
        levels.append(json.loads(tg(walk, "status", "--json").stdout)["level"])
    order = ["ok", "warning", "force-save", "halt"]
    assert levels == sorted(levels, key=order.index)
    assert [lvl for lvl in order if lvl in levels] == order
    assert levels.count("force-save") == 1 and levels.count("halt") == 1

    # The commit past halt was refused: HEAD is the halt save, its change is still staged.
    assert json.loads(tg(repo, "status", "--json").stdout)["level"] == "halt"
    assert git(repo, "rev-parse", "HEAD").stdout.strip() in tagged
    assert "tests/test_due.py" in git(repo, "diff", "--cached", "--name-only").stdout.split()
    assert git(repo, "diff", "--name-only").stdout == ""

    # Resume in the clone found the file the demo changed there on purpose.
    result = json.loads(tg(clone, "resume", "--json").stdout)
    bad = {
        i["path"]: i["status"]
        for i in result["integrity"]
        if i["status"] not in ("intact", "not-a-file")
    }
    assert bad == {"todo/store.py": "modified"}
    assert result["checkpoint"]["tag"] in tags


def test_demo_removes_its_repositories_and_ignores_the_users_git_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    # A user with no identity, global hooks that fail every commit, a template dir with a
    # failing hook, and variables that would lift the halt or point git elsewhere.
    hooks = home / "global-hooks"
    templates = home / "templates" / "hooks"
    for folder in (hooks, templates):
        folder.mkdir(parents=True)
        for name in ("pre-commit", "post-commit"):
            (folder / name).write_text("#!/bin/sh\necho user hook ran >&2\nexit 1\n")
            (folder / name).chmod(0o755)
    (home / ".gitconfig").write_text(
        f"[core]\n\thooksPath = {hooks}\n[init]\n\ttemplateDir = {templates.parent}\n"
        "[commit]\n\tgpgsign = true\n"
    )
    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(key)
    monkeypatch.setenv("EMAIL", "")
    scratch = _run_demo(
        tmp_path,
        "--language",
        "ko",
        env={"TG_GIT_ALLOW_HALT": "1", "GIT_DIR": str(tmp_path / "nowhere")},
    )
    assert list(scratch.iterdir()) == []


def test_budget_puts_each_level_on_its_own_commit() -> None:
    used = [500, 1000, 1600, 1700, 1900, 2040, 2160]
    budget = size_budget(used)
    levels = [_level(u, budget) for u in used]
    assert levels[-4:] == ["ok", "warning", "force-save", "halt"]
