"""The git gateway's typed queries on real repositories: SHA-1 and SHA-256, and paths with
spaces, newlines, bytes that are not UTF-8 and a leading '-'."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.repos import git as run_git
from tg_git.domain.errors import GitError
from tg_git.repo import git
from tg_git.repo import gitquery

ODD = ["a file.txt", "new\nline.txt", "-dash.txt", "sub dir/\u00e9t\u00e9.txt"]
NOT_UTF8 = os.fsdecode(b"caf\xe9.txt")  # a Latin-1 name, as surrogateescape holds it


@pytest.fixture(params=["sha1", "sha256"])
def made(request: pytest.FixtureRequest, tmp_path: Path) -> git.Repo:
    """A repository of each object format with the odd paths committed twice."""
    root = tmp_path / "r"
    run_git(tmp_path, "init", "-q", f"--object-format={request.param}", str(root))
    for name in [*ODD, NOT_UTF8]:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"one\n")
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "first\n\nbody line")
    (root / "a file.txt").write_bytes(b"two\n")
    run_git(root, "commit", "-q", "-am", "second: caf\u00e9")
    repo = git.find_repo(root)
    assert repo.object_format == request.param
    return repo


def _hex(repo: git.Repo, *args: str) -> str:
    return run_git(repo.root, *args).stdout.strip()


def test_log_reads_parents_time_and_whole_message(made: git.Repo) -> None:
    commits = gitquery.log(made, ["HEAD"])
    width = 64 if made.object_format == "sha256" else 40
    assert [c.subject for c in commits] == ["second: caf\u00e9", "first"]
    assert commits[1].message.rstrip("\n") == "first\n\nbody line"
    assert commits[0].parents == (commits[1].sha,) and commits[1].parents == ()
    assert all(len(c.sha) == width for c in commits)
    assert commits[0].time == int(_hex(made, "log", "-1", "--format=%ct"))
    assert gitquery.log(made, ["HEAD"], reverse=True) == commits[::-1]


def test_log_filters_paths_grep_and_range(made: git.Repo) -> None:
    first, *_ = [c.sha for c in gitquery.log(made, ["HEAD"], reverse=True)]
    assert [c.subject for c in gitquery.log(made, ["HEAD"], ["-dash.txt"])] == ["first"]
    assert [c.subject for c in gitquery.log(made, ["HEAD"], ["new\nline.txt"])] == ["first"]
    assert [c.subject for c in gitquery.log(made, ["HEAD", f"^{first}"])] == ["second: caf\u00e9"]
    assert [c.subject for c in gitquery.log(made, ["HEAD"], grep="caf\u00e9", fixed=True)] == [
        "second: caf\u00e9"
    ]
    assert gitquery.log(made, ["HEAD"], grep="^no such") == []
    assert gitquery.log(made, ["nope"], check=False) == []


def test_log_limit_keeps_the_newest(made: git.Repo) -> None:
    assert [c.subject for c in gitquery.log(made, ["HEAD"], limit=1)] == ["second: caf\u00e9"]
    assert [c.subject for c in gitquery.log(made, ["HEAD"], limit=1, reverse=True)] == [
        "second: caf\u00e9"
    ]  # git limits first, then reverses


def test_ls_tree_reads_odd_paths_recursively(made: git.Repo) -> None:
    entries = gitquery.ls_tree(made, "HEAD", recursive=True)
    assert sorted(e.path for e in entries) == sorted([*ODD, NOT_UTF8])
    dash = next(e for e in entries if e.path == "-dash.txt")
    assert (dash.mode, dash.kind) == ("100644", "blob")
    assert dash.id == _hex(made, "rev-parse", "HEAD:-dash.txt")
    top = {e.path: e.kind for e in gitquery.ls_tree(made, "HEAD")}
    assert top["sub dir"] == "tree" and "sub dir/\u00e9t\u00e9.txt" not in top
    only = gitquery.ls_tree(made, "HEAD", ["new\nline.txt", NOT_UTF8])
    assert sorted(e.path for e in only) == sorted(["new\nline.txt", NOT_UTF8])


def test_tree_objects_parse_the_same_as_ls_tree(made: git.Repo) -> None:
    (tree,) = git.read_objects(made, ["HEAD^{tree}"])
    assert tree is not None and tree.kind == "tree"
    listed = [(e.mode.lstrip("0"), e.kind, e.id, e.path) for e in gitquery.ls_tree(made, "HEAD")]
    assert sorted(tree.entries()) == sorted(gitquery.TreeEntry(*e) for e in listed)
    with pytest.raises(ValueError):
        git.Object(tree.id, tree.data[:-3], "tree").entries()


def test_read_objects_gives_id_bytes_and_type(made: git.Repo) -> None:
    blob, missing, commit = git.read_objects(made, [f"HEAD:{NOT_UTF8}", "HEAD:nope", "HEAD"])
    assert blob is not None and blob.data == b"one\n" and blob.kind == "blob"
    assert blob.id == _hex(made, "rev-parse", f"HEAD:{NOT_UTF8}")
    assert missing is None
    assert commit is not None and commit.kind == "commit" and commit.entries() == []


def test_rev_parse_peels_and_says_none(made: git.Repo) -> None:
    head = _hex(made, "rev-parse", "HEAD")
    run_git(made.root, "tag", "-a", "-m", "t", "v1")
    assert gitquery.rev_parse(made, "v1") == head
    assert gitquery.rev_parse(made, "HEAD:-dash.txt", peel=None) == _hex(
        made, "rev-parse", "HEAD:-dash.txt"
    )
    assert gitquery.rev_parse(made, "HEAD:-dash.txt") is None  # a blob is no commit
    assert gitquery.rev_parse(made, "--all") is None  # an option is no revision
    assert gitquery.rev_parse(made, "nope") is None


def test_exists_and_is_ancestor(made: git.Repo) -> None:
    first, second = [c.sha for c in gitquery.log(made, ["HEAD"], reverse=True)]
    assert gitquery.exists(made, first) and gitquery.exists(made, f"HEAD:{NOT_UTF8}")
    assert not gitquery.exists(made, "HEAD:nope")
    assert not gitquery.exists(made, "0" * len(first))
    assert gitquery.is_ancestor(made, first) and gitquery.is_ancestor(made, second, second)
    assert not gitquery.is_ancestor(made, second, first)
    assert gitquery.independent(made, [first, second]) == {second}


def test_in_progress_names_each_operation(made: git.Repo) -> None:
    root = made.root
    assert gitquery.in_progress(made) == ()
    run_git(root, "checkout", "-q", "-b", "side", "HEAD~1")
    (root / "a file.txt").write_bytes(b"side\n")
    run_git(root, "commit", "-q", "-am", "side")
    run_git(root, "merge", "-q", "main", check=False)
    assert gitquery.in_progress(made) == ("merge",)
    run_git(root, "merge", "--abort")
    run_git(root, "cherry-pick", "main", check=False)
    assert gitquery.in_progress(made) == ("cherry-pick",)
    run_git(root, "cherry-pick", "--abort")
    run_git(root, "rebase", "main", check=False)
    assert gitquery.in_progress(made) == ("rebase",)
    run_git(root, "rebase", "--abort")
    run_git(root, "rebase", "--apply", "main", check=False)
    assert gitquery.in_progress(made) == ("rebase",)
    run_git(root, "rebase", "--abort")
    patch = run_git(root, "format-patch", "-1", "--stdout", "main").stdout
    run_git(root, "am", "-q", input=patch, check=False)
    assert gitquery.in_progress(made) == ("am",)
    run_git(root, "am", "--abort")
    run_git(root, "bisect", "start")
    assert gitquery.in_progress(made) == ("bisect",)
    run_git(root, "bisect", "reset")
    assert gitquery.in_progress(made) == ()


def test_in_progress_is_per_worktree(made: git.Repo, tmp_path: Path) -> None:
    run_git(made.root, "worktree", "add", "-q", str(tmp_path / "wt"), "HEAD~1")
    run_git(tmp_path / "wt", "bisect", "start")
    assert gitquery.in_progress(git.find_repo(tmp_path / "wt")) == ("bisect",)
    assert gitquery.in_progress(made) == ()


def test_revert_in_progress(made: git.Repo) -> None:
    (made.root / "a file.txt").write_bytes(b"three\n")
    run_git(made.root, "commit", "-q", "-am", "third")
    run_git(made.root, "revert", "--no-edit", "HEAD~1", check=False)
    assert gitquery.in_progress(made) == ("revert",)


def test_index_entries_staged_paths_and_clean(made: git.Repo) -> None:
    (made.root / "-dash.txt").write_bytes(b"changed\n")
    assert not gitquery.is_clean(made, ["-dash.txt"]) and gitquery.is_clean(made, [NOT_UTF8])
    run_git(made.root, "add", "--", "-dash.txt")
    assert gitquery.staged_paths(made) == ["-dash.txt"]
    (entry,) = gitquery.index_entries(made, ["-dash.txt"])
    assert entry == gitquery.IndexEntry(
        "100644", _hex(made, "rev-parse", ":-dash.txt"), 0, "-dash.txt"
    )
    assert sorted(e.path for e in gitquery.index_entries(made)) == sorted([*ODD, NOT_UTF8])
    other = dict(os.environ, GIT_INDEX_FILE=str(made.git_dir / "other-index"))
    assert gitquery.index_entries(made, env=other) == []


def test_work_files_lists_tracked_and_untracked(made: git.Repo) -> None:
    (made.root / "sub dir" / "-new\nfile").write_bytes(b"x")
    (made.root / ".gitignore").write_text("ignored\n")
    (made.root / "sub dir" / "ignored").write_bytes(b"x")
    assert sorted(gitquery.work_files(made, "sub dir")) == [
        "sub dir/-new\nfile",
        "sub dir/\u00e9t\u00e9.txt",
    ]
    assert len(gitquery.work_files(made)) == len(ODD) + 3


def test_config_get_set_unset(made: git.Repo) -> None:
    assert gitquery.config_get(made, "tg.value") is None
    gitquery.config_set(made, "tg.value", "yes")
    assert gitquery.config_get(made, "tg.value") == "yes"
    assert gitquery.config_get(made, "tg.value", as_bool=True) == "true"
    gitquery.config_set(made, "tg.value", "-odd value")
    assert gitquery.config_get(made, "tg.value") == "-odd value"
    gitquery.config_unset(made, "tg.value")
    gitquery.config_unset(made, "tg.value")  # unset twice: no error
    assert gitquery.config_get(made, "tg.value") is None


def test_refs_peel_tags_and_sort(made: git.Repo) -> None:
    head = _hex(made, "rev-parse", "HEAD")
    run_git(made.root, "tag", "-a", "-m", "t", "annotated")
    run_git(made.root, "tag", "light", "HEAD~1")
    blob = _hex(made, "rev-parse", "HEAD:-dash.txt")
    run_git(made.root, "tag", "a-blob", blob)
    found = {r.short: r for r in gitquery.refs(made, ["refs/tags"])}
    assert found["annotated"].target == head and found["annotated"].id != head
    assert found["light"].target == _hex(made, "rev-parse", "HEAD~1")
    assert found["a-blob"].target == "" and found["a-blob"].name == "refs/tags/a-blob"
    merged = [r.short for r in gitquery.refs(made, ["refs/tags"], merged="HEAD~1")]
    assert merged == ["light"]
    newest = gitquery.refs(made, ["refs/tags"], sort="-refname", count=1)
    assert [r.short for r in newest] == ["light"]


def test_branch_and_remotes(made: git.Repo) -> None:
    assert gitquery.current_branch(made) == "main"
    run_git(made.root, "checkout", "-q", "--detach")
    assert gitquery.current_branch(made) is None
    assert gitquery.remotes(made) == []
    run_git(made.root, "remote", "add", "up", "https://example.invalid/x")
    assert gitquery.remotes(made) == ["up"]


def test_queries_name_a_repository_where_git_fails(made: git.Repo) -> None:
    with pytest.raises(GitError):
        gitquery.log(made, ["nope"])
    with pytest.raises(GitError):
        gitquery.ls_tree(made, "nope")


def test_files_at_reads_files_and_folders_at_each_revision(made: git.Repo) -> None:
    first, second = [c.sha for c in gitquery.log(made, ["HEAD"], reverse=True)]
    (made.root / "sub dir" / "-x").write_bytes(b"staged\n")
    run_git(made.root, "add", "--", "sub dir/-x")
    at_first, at_second, none = gitquery.files_at(
        made, [first, second, "nope"], ["a file.txt", "sub dir", "missing"]
    )
    (staged,) = gitquery.files_at(made, [":"], ["sub dir/-x", "sub dir"])  # no folders there
    assert {p: o.data for p, o in at_first.items()} == {
        "a file.txt": b"one\n",
        "sub dir/\u00e9t\u00e9.txt": b"one\n",
    }
    assert at_second["a file.txt"].data == b"two\n"
    assert at_second["sub dir/\u00e9t\u00e9.txt"] == at_first["sub dir/\u00e9t\u00e9.txt"]
    assert staged["sub dir/-x"].data == b"staged\n" and none == {}
    assert all(o.kind == "blob" for o in [*at_first.values(), *staged.values()])
    assert gitquery.files_at(made, [], ["a file.txt"]) == []


def test_blobs_say_where_each_blob_is_in_one_output(made: git.Repo) -> None:
    one, two = (_hex(made, "rev-parse", f"{rev}:a file.txt") for rev in ("HEAD~1", "HEAD"))
    tree, missing = _hex(made, "rev-parse", "HEAD^{tree}"), "f" * len(one)
    out, at = gitquery.blobs(made, [two, tree, missing, one, two])
    assert set(at) == {one, two}  # a tree and a missing id: none
    assert [out[at[b][0] : at[b][0] + at[b][1]] for b in (one, two)] == [b"one\n", b"two\n"]


def test_read_objects_takes_paths_with_spaces_and_newlines(made: git.Repo) -> None:
    found = git.read_objects(
        made, ["HEAD:new\nline.txt", "HEAD:no such\nfile", "HEAD:no such file", "HEAD:a file.txt"]
    )
    assert [o.data if o else None for o in found] == [b"one\n", None, None, b"two\n"]


def test_diff_raw_and_status_entries_read_odd_paths(made: git.Repo) -> None:
    first, second = [c.sha for c in gitquery.log(made, ["HEAD"], reverse=True)]
    (change,) = gitquery.diff_raw(made, first, second)
    assert (change.status, change.path, change.old_mode) == ("M", "a file.txt", "100644")
    assert change.new_id == _hex(made, "rev-parse", "HEAD:a file.txt")
    added = gitquery.diff_raw(made, made.empty_tree, second, diff_filter="A")
    assert sorted(c.path for c in added) == sorted([*ODD, NOT_UTF8])
    assert all(c.old_id.strip("0") == "" and c.status == "A" for c in added)
    assert gitquery.status_entries(made) == []
    (made.root / "-dash.txt").write_bytes(b"changed\n")
    (made.root / "new\nfile").write_bytes(b"x")
    assert sorted(gitquery.status_entries(made)) == [
        gitquery.StatusEntry(" M", "-dash.txt"),
        gitquery.StatusEntry("??", "new\nfile"),
    ]


def test_parents_of_root_and_merge(made: git.Repo) -> None:
    first, second = [c.sha for c in gitquery.log(made, ["HEAD"], reverse=True)]
    assert gitquery.parents(made, first) == [] and gitquery.parents(made) == [first]
    run_git(made.root, "checkout", "-q", "-b", "side", first)
    (made.root / "side.txt").write_bytes(b"side\n")
    run_git(made.root, "add", "side.txt")
    run_git(made.root, "commit", "-q", "-m", "side")
    side = _hex(made, "rev-parse", "HEAD")
    run_git(made.root, "merge", "-q", "--no-edit", "main")
    assert gitquery.parents(made) == [side, second]


def test_index_writes_in_a_separate_index(made: git.Repo) -> None:
    head = _hex(made, "rev-parse", "HEAD")
    env = dict(os.environ, GIT_INDEX_FILE=str(made.git_dir / "tmp-index"))
    gitquery.read_tree(made, head, env)
    blob = _hex(made, "rev-parse", "HEAD:-dash.txt")
    gitquery.stage_blob(made, "new\nname", blob, env=env)
    gitquery.set_index(made, [("0", "0" * len(blob), "a file.txt")], env)
    gitquery.refresh_index(made, env)
    paths = {e.path for e in gitquery.index_entries(made, env=env)}
    assert "new\nname" in paths and "a file.txt" not in paths
    assert "new\nname" not in {e.path for e in gitquery.index_entries(made)}  # the real index
    tree = gitquery.write_tree(made, env)
    commit = gitquery.commit_tree(made, tree, [head], "saved\n\nbody")
    assert gitquery.log(made, [commit], limit=1)[0].message.rstrip("\n") == "saved\n\nbody"
    assert gitquery.parents(made, commit) == [head]
    assert not gitquery.update_ref(made, "HEAD", commit, commit, "raced")  # HEAD is not there
    assert gitquery.update_ref(made, "HEAD", commit, head, "saved")
    assert gitquery.rev_parse(made, "HEAD") == commit
    gitquery.annotated_tag(made, "checkpoint/x", commit, "a title")
    (tag,) = gitquery.refs(made, ["refs/tags/checkpoint/"])
    assert tag.target == commit and tag.short == "checkpoint/x"
    with pytest.raises(GitError):
        gitquery.annotated_tag(made, "checkpoint/x", commit, "again")


def test_commit_paths_leaves_the_rest_staged(made: git.Repo) -> None:
    (made.root / "-dash.txt").write_bytes(b"committed\n")
    (made.root / NOT_UTF8).write_bytes(b"staged\n")
    run_git(made.root, "add", "--", NOT_UTF8)
    assert gitquery.commit_paths(made, "only the dash", ["-dash.txt"])
    assert gitquery.staged_paths(made) == [NOT_UTF8]
    assert not gitquery.commit_paths(made, "nothing", ["-dash.txt"], check=False)
    with pytest.raises(GitError):
        gitquery.commit_paths(made, "nothing", ["-dash.txt"])
    (made.root / "-new\nfile").write_bytes(b"new\n")
    gitquery.stage_paths(made, ["-new\nfile"])
    assert gitquery.staged_paths(made) == ["-new\nfile", NOT_UTF8]
    gitquery.unstage(made, ["-new\nfile", "never there"])
    assert gitquery.staged_paths(made) == [NOT_UTF8] and (made.root / "-new\nfile").exists()
    gitquery.unstage(made, ["sub dir"], recursive=True)  # tracked: now staged as removed
    assert gitquery.staged_paths(made) == [NOT_UTF8, "sub dir/\u00e9t\u00e9.txt"]


def test_blob_size_and_git_path(made: git.Repo) -> None:
    assert gitquery.blob(made, f"HEAD:{NOT_UTF8}") == b"one\n"
    assert gitquery.blob(made, "HEAD:nope") is None and gitquery.blob(made, "HEAD") is None
    assert gitquery.object_size(made, "HEAD:a file.txt") == 4
    assert gitquery.object_size(made, "HEAD:nope") is None
    assert gitquery.resolved_git_path(made, "hooks") == made.git_dir / "hooks"
    gitquery.config_set(made, "core.hooksPath", "my hooks")
    assert gitquery.resolved_git_path(made, "hooks") == made.root / "my hooks"


def test_queries_from_the_current_directory(
    made: git.Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(made.root / "sub dir")
    assert git.git_dir_here() == str(made.git_dir)
    assert gitquery.rev_parse(None, "HEAD:-dash.txt", peel=None) == _hex(
        made, "rev-parse", "HEAD:-dash.txt"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert git.git_dir_here() is None and gitquery.rev_parse(None, "HEAD") is None
