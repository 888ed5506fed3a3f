"""`tg-git install` / `uninstall [--purge]`, the hook shim, guarded clones, tags on the remote,
`tg-git doctor`, and the shim shipped inside a built wheel. Real git, real hooks."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.repos import PROJECT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg

HOOKS = ("pre-commit", "pre-merge-commit", "post-commit", "post-merge", "pre-push")


def _cross_force_save(repo: Path, name: str = "big.py") -> None:
    """The commit's own change (~11k tokens) takes the session past force-save: the hooks save
    (the record, at 87.5 %, only warns)."""
    tg(repo, "record", "--tokens", "175000")
    (repo / name).write_text("\n".join(f"value_{i} = compute({i}, 'words')" for i in range(1000)))
    git(repo, "add", name)
    commit(repo, "-m", f"add {name}")


def _tags(repo: Path) -> list[str]:
    return git(repo, "tag", "-l", "checkpoint/*").stdout.split()


def _user_hook(repo: Path, name: str, body: str) -> None:
    hook = repo / ".git" / "hooks" / name
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\n" + body)
    hook.chmod(0o755)


def test_install_wires_every_hook_and_follow_tags(plain_repo: Path) -> None:
    tg(plain_repo, "init")
    out = tg(plain_repo, "install").stdout
    for name in HOOKS:
        hook = plain_repo / ".git" / "hooks" / name
        assert "tg-git-shim-v1" in hook.read_text() and os.access(hook, os.X_OK)
    assert git(plain_repo, "config", "--local", "push.followTags").stdout.strip() == "true"
    assert "push.followTags" in out
    tg(plain_repo, "uninstall")
    assert not any((plain_repo / ".git" / "hooks" / n).exists() for n in HOOKS)
    assert git(plain_repo, "config", "--local", "push.followTags", check=False).stdout == ""


def test_a_global_hooks_path_outside_the_repository_is_refused(
    plain_repo: Path, home: Path, tmp_path: Path
) -> None:
    """A shared hooks folder serves every repository on the machine: tg-git writes nothing
    there (each other repository would then say "not set up") and says how to proceed."""
    shared = tmp_path / "shared-hooks"
    shared.mkdir()
    (shared / "pre-commit").write_text("#!/bin/sh\nexit 0\n")
    git(plain_repo, "config", "--global", "core.hooksPath", str(shared))
    (plain_repo / "README.md").write_text("# demo\n")
    git(plain_repo, "add", "README.md")
    git(plain_repo, "commit", "-q", "-m", "first")
    tg(plain_repo, "init", "--max-tokens", "200000")
    proc = tg(plain_repo, "install", check=False)
    assert proc.returncode != 0
    assert sorted(p.name for p in shared.iterdir()) == ["pre-commit"]
    assert (shared / "pre-commit").read_text() == "#!/bin/sh\nexit 0\n"
    assert "core.hooksPath" in proc.stderr and "git config core.hooksPath" in proc.stderr
    assert proc.stderr.count("\n") == 1
    # The fix it names works: a hooks folder of this repository's own.
    git(plain_repo, "config", "core.hooksPath", ".git/hooks")
    tg(plain_repo, "install")
    assert (plain_repo / ".git" / "hooks" / "post-commit").is_file()
    assert sorted(p.name for p in shared.iterdir()) == ["pre-commit"]


def test_a_tracked_hooks_folder_is_never_renamed_or_written(plain_repo: Path) -> None:
    """A `.husky/` folder the repository tracks stays byte for byte; install prints the
    line that chains tg-git's hooks from it, and with that line in place commits count."""
    husky = plain_repo / ".husky"
    husky.mkdir()
    (husky / "pre-commit").write_text("#!/bin/sh\necho lint\n")
    (husky / "pre-commit").chmod(0o755)
    (plain_repo / "README.md").write_text("# demo\n")
    git(plain_repo, "add", "README.md", ".husky")
    git(plain_repo, "commit", "-q", "-m", "first")
    git(plain_repo, "config", "core.hooksPath", ".husky")
    tg(plain_repo, "init", "--max-tokens", "200000")
    proc = tg(plain_repo, "install")
    assert sorted(p.name for p in husky.iterdir()) == ["pre-commit"]
    assert (husky / "pre-commit").read_text() == "#!/bin/sh\necho lint\n"
    assert git(plain_repo, "status", "--porcelain", ".husky").stdout == ""
    chain = [ln.strip() for ln in proc.stdout.splitlines() if ln.strip().endswith("# tg-git")]
    assert len(chain) == 1, proc.stdout
    assert not re.search(r"(^|[\s\"'=])/", chain[0]), chain  # no machine path: it is committed
    assert "tg-git uninstall" in proc.stdout
    # The user follows it: the line in each hook of theirs.
    for name in HOOKS:
        hook = husky / name
        text = hook.read_text() if hook.exists() else "#!/bin/sh\n"
        hook.write_text(text + chain[0] + "\n")
        hook.chmod(0o755)
    commit(plain_repo, "-m", "set up tg-git")
    (plain_repo / "a.py").write_text("print('hello world')\n")
    git(plain_repo, "add", "a.py")
    commit(plain_repo, "-m", "add a.py")
    counted = git(plain_repo, "show", "--name-only", "--format=", "HEAD").stdout
    assert ".tg-git/" in counted, counted  # the commit's event rode in it
    # Uninstall leaves the tracked folder alone too.
    before = {p.name: p.read_text() for p in husky.iterdir()}
    tg(plain_repo, "uninstall")
    assert {p.name: p.read_text() for p in husky.iterdir()} == before
    assert not (plain_repo / ".git" / "hooks" / "post-commit").exists()


def test_uninstall_keeps_a_follow_tags_the_user_set(plain_repo: Path) -> None:
    git(plain_repo, "config", "push.followTags", "true")
    tg(plain_repo, "install")
    tg(plain_repo, "uninstall")
    assert git(plain_repo, "config", "--local", "push.followTags").stdout.strip() == "true"


def test_a_failing_user_post_commit_hook_does_not_skip_the_save(plain_repo: Path) -> None:
    _user_hook(plain_repo, "post-commit", "echo user post-commit failed >&2\nexit 3\n")
    (plain_repo / "README.md").write_text("# demo\n")
    git(plain_repo, "add", "README.md")
    git(plain_repo, "commit", "-q", "--no-verify", "-m", "first")
    tg(plain_repo, "init", "--max-tokens", "200000")
    tg(plain_repo, "install")
    commit(plain_repo, "-m", "set up")
    _cross_force_save(plain_repo)
    assert len(_tags(plain_repo)) == 1
    assert git(plain_repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint:")
    # ...and the shim still returns the user's own status.
    shim = plain_repo / ".git" / "hooks" / "post-commit"
    assert subprocess.run([str(shim)], cwd=plain_repo, capture_output=True).returncode == 3


def test_a_failing_user_pre_commit_hook_still_stops_the_commit(repo: Path) -> None:
    _user_hook(repo, "pre-commit", "exit 5\n")
    tg(repo, "install")  # keeps it as pre-commit.pre-tg-git
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", "a.py")
    assert commit(repo, "-m", "a", check=False).returncode != 0
    assert git(repo, "diff", "--cached", "--name-only").stdout.split() == ["a.py"]


def test_pre_push_refs_reach_both_hooks(repo: Path, tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    _user_hook(repo, "pre-push", f"cat > '{seen}'\n")
    tg(repo, "install")
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    git(repo, "push", "-q", "origin", "HEAD:refs/heads/main")
    assert "refs/heads/main" in seen.read_text()


def test_git_dir_and_work_tree_without_dot_git_still_save(tmp_path: Path) -> None:
    work, gitdir = tmp_path / "work", tmp_path / "store.git"
    work.mkdir()
    git(tmp_path, "init", "-q", f"--separate-git-dir={gitdir}", str(work))
    (work / ".git").unlink()  # no .git anywhere in the work tree
    env = {**os.environ, "GIT_DIR": str(gitdir), "GIT_WORK_TREE": str(work)}
    (work / "README.md").write_text("# demo\n")
    git(work, "add", "README.md", env=env)
    git(work, "commit", "-q", "-m", "first", env=env)
    tg(work, "init", "--max-tokens", "200000", env=env)
    tg(work, "install", env=env)
    assert (gitdir / "hooks" / "post-commit").exists()
    commit(work, "-m", "set up", env=env)
    tg(work, "record", "--tokens", "185000", env=env)
    (work / "big.py").write_text("print(1)\n")
    git(work, "add", "big.py", env=env)
    commit(work, "-m", "big", env=env)
    assert len(git(work, "tag", "-l", "checkpoint/*", env=env).stdout.split()) == 1
    assert not (work / ".git").exists()


def test_a_clone_warns_first_and_resume_install_guards_it(repo: Path, tmp_path: Path) -> None:
    _cross_force_save(repo)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    first = tg(clone, "resume").stdout.splitlines()[0]
    assert "hooks" in first and "tg-git resume --install" in first
    missing = json.loads(tg(clone, "resume", "--json").stdout)["hooks_missing"]
    assert missing == list(HOOKS)
    git(clone, "commit", "-q", "--allow-empty", "-m", "resumed")  # the start waited

    # Without hooks a commit is not counted ...
    before = json.loads(tg(clone, "status", "--json").stdout)["output"]
    (clone / "unguarded.py").write_text("print('not counted')\n")
    git(clone, "add", "unguarded.py")
    commit(clone, "-m", "unguarded")
    assert json.loads(tg(clone, "status", "--json").stdout)["output"] == before

    # ... with `resume --install` the next one is, and the warning is gone.
    out = tg(clone, "resume", "--install").stdout
    assert "hooks are missing" not in out.splitlines()[0]
    assert json.loads(tg(clone, "resume", "--json").stdout)["hooks_missing"] == []
    (clone / "guarded.py").write_text("print('counted from now on')\n")
    git(clone, "add", "guarded.py")
    commit(clone, "-m", "guarded")
    assert json.loads(tg(clone, "status", "--json").stdout)["output"] > before


def test_plain_git_push_sends_the_checkpoint_tags(repo: Path, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", bare.as_uri())
    git(repo, "push", "-q", "-u", "origin", "HEAD:main")
    _cross_force_save(repo)
    tags = _tags(repo)
    assert len(tags) == 1
    git(repo, "push", "-q")  # plain: no --tags, no --follow-tags
    assert git(bare, "tag", "-l", "checkpoint/*").stdout.split() == tags
    assert tg(repo, "doctor").returncode == 0


def test_doctor_names_each_problem_with_its_fix(repo: Path, tmp_path: Path) -> None:
    assert tg(repo, "doctor").returncode == 0
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "remote", "add", "origin", str(bare))
    _cross_force_save(repo)
    git(repo, "push", "-q", "--no-follow-tags", "--no-verify", "origin", "HEAD:main")
    tg(repo, "uninstall")
    proc = tg(repo, "doctor", check=False)
    assert proc.returncode == 1
    text = proc.stdout
    assert "tg-git install" in text  # hooks
    assert "push.followTags" in text
    assert "git push origin --follow-tags" in text  # a tag is not on the remote
    tg(repo, "install")
    git(repo, "push", "-q", "--follow-tags", "origin", "HEAD:main")
    assert tg(repo, "doctor").returncode == 0


def test_doctor_reports_a_corrupt_config(repo: Path) -> None:
    (repo / ".tg-git" / "config.toml").write_text("max_tokens = [\n")
    proc = tg(repo, "doctor", check=False)
    assert proc.returncode == 1
    assert "FIX config: .tg-git/config.toml is not valid TOML" in proc.stdout
    assert proc.stdout.rstrip().endswith("1 problem found.")


def test_uninstall_purge_removes_tg_gits_files_never_history(repo: Path) -> None:
    _cross_force_save(repo)
    tags, head = _tags(repo), git(repo, "rev-parse", "HEAD").stdout
    (repo / ".gitattributes").write_text((repo / ".gitattributes").read_text() + "*.png binary\n")
    git(repo, "add", ".gitattributes")
    commit(repo, "-m", "attributes")
    tg(repo, "uninstall", "--purge")
    assert not (repo / ".tg-git").exists()
    assert (repo / ".gitattributes").read_text() == "*.png binary\n"
    staged = git(repo, "diff", "--cached", "--name-status").stdout
    assert "D\t.tg-git/config.toml" in staged and "M\t.gitattributes" in staged
    assert _tags(repo) == tags
    assert git(repo, "cat-file", "-t", head.strip()).stdout.strip() == "commit"
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()


def test_purge_refuses_over_unstaged_edits(repo: Path) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text() + "# my note\n")
    proc = tg(repo, "uninstall", "--purge", check=False)
    assert proc.returncode == 1 and "unstaged" in proc.stderr
    assert config.read_text().endswith("# my note\n")


@pytest.mark.network  # pip builds the wheel in an isolated env: setuptools from the index
def test_the_wheel_ships_the_shim_and_install_finds_it(plain_repo: Path, tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(PROJECT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("tg_git-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tg_git/hooks/shim.sh" in names and "tg_git/demo/session.json" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-S", "-c", "import tg_git; print(tg_git.__file__)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=plain_repo,
    ).stdout
    assert where.startswith(str(site))
    subprocess.run(
        [sys.executable, "-S", "-m", "tg_git", "install"],
        cwd=plain_repo,
        env=env,
        check=True,
        capture_output=True,
    )
    assert "tg-git-shim-v1" in (plain_repo / ".git" / "hooks" / "pre-push").read_text()


def test_doctor_finds_hooks_whose_python_is_gone(repo: Path) -> None:
    hook = repo / ".git" / "hooks" / "pre-commit"
    text = hook.read_text()
    hook.write_text(text.replace(sys.executable, "/nonexistent/venv/bin/python"))
    proc = tg(repo, "doctor", check=False, env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode == 1 and "/nonexistent/venv/bin/python" in proc.stdout


# ---- post-merge (a clean merge or a fast-forward saves at once) --------------------------------
def _pull_across_force_save(repo: Path, other: Path) -> subprocess.CompletedProcess[str]:
    """Two clones of one session, each under 90 %; the pull merges them past it."""
    tg(repo, "record", "--tokens", "90000")
    tg(other, "record", "--tokens", "95000")
    for clone, name in ((repo, "mine.py"), (other, "theirs.py")):
        (clone / name).write_text(f"print({name!r})\n")
        git(clone, "add", name)
        commit(clone, "-m", name)
    return git(repo, "pull", "--no-rebase", "--no-edit", str(other), "main", check=False)


def test_a_users_post_merge_hook_still_runs_and_its_status_is_kept(
    repo: Path, tmp_path: Path
) -> None:
    ran = tmp_path / "user-post-merge-ran"
    _user_hook(repo, "post-merge", f"echo \"$1\" > '{ran}'\nexit 3\n")
    out = tg(repo, "install").stdout
    assert "kept your post-merge hook as post-merge.pre-tg-git" in out
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(repo), str(other))
    tg(other, "install")
    pull = _pull_across_force_save(repo, other)
    assert pull.returncode == 0, pull.stderr  # git ignores post-merge's status
    assert ran.read_text() == "0\n"  # the user's hook ran first, with git's argument
    assert len(_tags(repo)) == 1  # its failure did not skip the save
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("checkpoint: force-save")
    shim = repo / ".git" / "hooks" / "post-merge"
    assert subprocess.run([str(shim), "0"], cwd=repo, capture_output=True).returncode == 3
    tg(repo, "uninstall")
    assert "exit 3" in shim.read_text()  # restored


def test_a_repository_installed_without_post_merge_is_told_and_fixed(repo: Path) -> None:
    (repo / ".git" / "hooks" / "post-merge").unlink()  # as tg-git before post-merge left it
    proc = tg(repo, "doctor", check=False)
    assert proc.returncode == 1
    assert "not wired in" in proc.stdout and ": post-merge (without it, a merge" in proc.stdout
    assert "fix: run `tg-git install`" in proc.stdout
    (repo / ".pre-commit-config.yaml").write_text("repos: [{hooks: [{id: tg-git-checkpoint}]}]\n")
    proc = tg(repo, "doctor", check=False)
    assert "pre-commit install --hook-type post-merge`" in proc.stdout
    (repo / ".pre-commit-config.yaml").unlink()
    assert "installed pre-commit, pre-merge-commit, post-commit, post-merge, pre-push" in (
        tg(repo, "install").stdout
    )
    assert "tg-git-shim-v1" in (repo / ".git" / "hooks" / "post-merge").read_text()
    assert tg(repo, "doctor").returncode == 0


# ---- install without init; installed both ways ---------------------------------------------
def test_install_without_init_says_so_and_the_hook_too(plain_repo: Path) -> None:
    out = tg(plain_repo, "install").stdout
    assert "tg-git init" in out and "not counted" in out
    (plain_repo / "a.py").write_text("x = 1\n")
    git(plain_repo, "add", "a.py")
    said = commit(plain_repo, "-m", "a").stderr
    assert "tg-git init" in said and len(said.strip().splitlines()) == 1
    tg(plain_repo, "init")
    assert "tg-git init" not in tg(plain_repo, "install").stdout


def test_installed_both_ways_warns_once_and_counts_once(repo: Path, tmp_path: Path) -> None:
    # Native hooks first (the fixture), then the framework's route by hand over them:
    # `pre-commit install` keeps the native shims as *.legacy and runs them too.
    from tg_git.repo.framework import config_text

    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-cache"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    (repo / ".pre-commit-config.yaml").write_text(config_text())
    git(repo, "add", ".pre-commit-config.yaml")
    stages = " ".join(f"--hook-type {name}" for name in HOOKS)
    subprocess.run(
        f"pre-commit install {stages}",
        shell=True,
        cwd=repo,
        check=True,
        env=env,
        capture_output=True,
    )
    hooks = repo / ".git" / "hooks"
    assert "tg-git-shim-v1" in (hooks / "pre-commit.legacy").read_text()
    assert "runs twice" in tg(repo, "doctor", env=env, check=False).stdout
    assert "tg-git-shim-v1" not in (hooks / "pre-commit").read_text()
    before = json.loads(tg(repo, "status", "--json").stdout)["output"]
    for n in (1, 2):
        (repo / f"f{n}.py").write_text(f"value_{n} = {n}\n")
        git(repo, "add", f"f{n}.py")
        said = commit(repo, "-m", f"f{n}", env=env)
        out = said.stdout + said.stderr
        assert out.count("tg-git 🔋") == 1, out  # one gauge per commit
        assert ("twice" in out) == (n == 1), out  # warned once
    counted = [
        ln
        for ln in git(repo, "log", "-p", "--text", "-2", "--", ".tg-git").stdout.splitlines()
        if ln.startswith("+") and '"kind" = "commit"' in ln
    ]
    assert len(counted) == 2
    after = json.loads(tg(repo, "status", "--json").stdout)["output"]
    assert after > before
    # And the other order: `tg-git install` over the framework's scripts installs nothing twice.
    out = tg(repo, "install").stdout
    assert "pre-commit framework" in out
    assert "tg-git-shim-v1" not in (hooks / "pre-commit").read_text()
    assert not (hooks / "pre-commit.legacy").exists()  # its own native copies are gone
    assert "twice" not in tg(repo, "doctor", env=env, check=False).stdout
    commit(repo, "-m", "after", "--allow-empty", env=env)  # still counted by the framework


def test_install_pre_commit_appends_to_the_users_config(plain_repo: Path, tmp_path: Path) -> None:
    tg(plain_repo, "init")
    config = plain_repo / ".pre-commit-config.yaml"
    mine = (
        "# my hooks\n"
        "default_stages: [pre-commit]\n"
        "repos:\n"
        "-   repo: local\n"
        "    hooks:\n"
        "    -   id: mine\n"
        "        name: mine\n"
        "        entry: 'true'\n"
        "        language: system\n"
        "\n"
        "# trailing comment\n"
        "ci:\n"
        "    autofix_prs: false\n"
    )
    config.write_text(mine)
    tg(plain_repo, "install", "--pre-commit")
    import yaml

    text = config.read_text()
    assert text.startswith(mine.split("\n# trailing")[0])  # the user's lines, unchanged
    data = yaml.safe_load(text)
    assert data["ci"] == {"autofix_prs": False} and data["default_stages"] == ["pre-commit"]
    assert [h["id"] for r in data["repos"] for h in r["hooks"]] == [
        "mine",
        "tg-git-guard",
        "tg-git-checkpoint",
        "tg-git-verify",
    ]
    again = tg(plain_repo, "install", "--pre-commit").stdout
    assert config.read_text() == text and "already" in again
    config.write_text("repos: [{repo: local, hooks: []}]\n")  # flow style: left to the user
    proc = tg(plain_repo, "install", "--pre-commit", check=False)
    assert proc.returncode == 1 and "repo: local" in proc.stdout + proc.stderr
    assert config.read_text() == "repos: [{repo: local, hooks: []}]\n"


def test_doctor_shows_the_percentage_the_gauge_shows(plain_repo: Path) -> None:
    (plain_repo / "README.md").write_text("# demo\n")
    git(plain_repo, "add", "README.md")
    git(plain_repo, "commit", "-q", "-m", "first")
    tg(plain_repo, "init", "--max-tokens", "1000")
    tg(plain_repo, "record", "--tokens", "1049")  # 104.9 %: floored by the gauge
    gauge = tg(plain_repo, "status").stdout
    doctor = tg(plain_repo, "doctor", check=False).stdout
    assert "(104%)" in doctor and "104%" in gauge, (doctor, gauge)
