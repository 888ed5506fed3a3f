"""What the commit hooks' cheaper ends must keep: the post-commit shim ends the journal-due
file without a process, and the hook's Python ends without the interpreter's teardown;
nothing of a commit's count, its output or its exit code is lost on the way (real commits
through the installed shims)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import tg_git
from tests.support.repos import commit
from tests.support.repos import commit_events
from tests.support.repos import commit_file
from tests.support.repos import git
from tests.support.repos import hooks_with_site_first
from tests.support.repos import run_post_commit_shim
from tests.support.repos import spend
from tests.support.repos import status
from tg_git.githooks import install
from tg_git.githooks import markers


def _commit_unread(repo: Path, message: str) -> subprocess.CompletedProcess[bytes]:
    """``git commit -q`` whose output goes to a pipe nobody reads (its reader closed)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            ["git", "commit", "-q", "-m", message], cwd=repo, stdout=write, stderr=write
        )
    finally:
        os.close(write)


def _record_hooks(repo: Path, tmp_path: Path) -> Path:
    """Make the hooks' Python note each hook's name as it starts (a ``sitecustomize`` first on
    its path, through a wrapper: the shims ignore PYTHONPATH and skip the site module)."""
    folder = tmp_path / "site"
    folder.mkdir()
    ran = tmp_path / "ran.txt"
    (folder / "sitecustomize.py").write_text(
        f"import sys\nwith open({str(ran)!r}, 'a') as fh:\n    fh.write(sys.argv[2] + '\\n')\n"
    )
    hooks_with_site_first(repo, tmp_path, folder)
    return ran


def test_a_folder_at_the_journal_due_path_stops_no_post_commit(repo: Path, tmp_path: Path) -> None:
    """A folder where the journal-due file goes (nothing tg-git makes, but nothing a commit
    may trip on): the shim reads and empties no such thing, and post-commit's Python still
    runs (it notes the commit whose count failed, so that the next commit counts it)."""
    due = repo / ".git" / markers.JOURNAL_DUE
    due.mkdir(parents=True)
    (due / "kept").write_text("a user's file\n")
    ran = _record_hooks(repo, tmp_path)
    (repo / "a.txt").write_text("one two three\n")
    git(repo, "add", "a.txt")
    proc = commit(repo, "-m", "a commit")
    assert ran.read_text().split() == ["pre-commit", "post-commit"], proc.stderr
    assert (due / "kept").read_text() == "a user's file\n"
    assert "rm:" not in proc.stderr and "read error" not in proc.stderr


def test_the_shim_empties_no_file_through_a_link_at_the_journal_due_path(tmp_path: Path) -> None:
    """A link where the journal-due file goes: its lines are journaled as a file's would be,
    then the link is removed (as ``rm`` did) and the file it points to is never written."""
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    (repo / "ledger.txt").write_text("one\n")
    git(repo, "add", "ledger.txt")
    git(repo, "commit", "-q", "-m", "ledger")
    blob = git(repo, "rev-parse", "HEAD:ledger.txt").stdout.strip()
    journal = tmp_path / "journal.txt"
    elsewhere = tmp_path / "elsewhere.txt"
    markers.write_journal_due(elsewhere, ["e1"], blob=blob, rel="ledger.txt", target=str(journal))
    kept = elsewhere.read_bytes()
    due = repo / ".git" / markers.JOURNAL_DUE
    due.parent.mkdir(parents=True, exist_ok=True)
    due.symlink_to(elsewhere)
    run_post_commit_shim(repo, tmp_path)
    assert journal.read_text() == "e1\n"
    assert not due.is_symlink() and not due.exists()
    assert elsewhere.read_bytes() == kept


def test_a_commit_whose_output_nobody_reads_is_made_and_counted(repo: Path) -> None:
    """`git commit -q` whose stderr is a pipe nobody reads any more (a closed pager, a
    program that went away): what the hook says goes nowhere, and the commit is neither
    refused nor left uncounted for it (Python's own exit would make a failed flush status
    120, which refuses the commit)."""
    before = commit_events(repo)
    (repo / "a.txt").write_text("one two three four five six\n")
    git(repo, "add", "a.txt")
    head = git(repo, "rev-parse", "HEAD").stdout
    proc = _commit_unread(repo, "unread")
    assert proc.returncode == 0
    assert git(repo, "rev-parse", "HEAD").stdout != head
    assert git(repo, "status", "--porcelain").stdout == ""
    assert commit_events(repo) == before + 1


def test_a_commit_with_its_output_closed_is_made_and_counted(repo: Path) -> None:
    """`git commit -q >&- 2>&-`: the hooks start with no stdout or stderr at all."""
    before = commit_events(repo)
    (repo / "a.txt").write_text("one two three four five six\n")
    git(repo, "add", "a.txt")
    head = git(repo, "rev-parse", "HEAD").stdout
    proc = subprocess.run(["sh", "-c", "git commit -q -m closed >&- 2>&-"], cwd=repo)
    assert proc.returncode == 0
    assert git(repo, "rev-parse", "HEAD").stdout != head
    assert commit_events(repo) == before + 1


def test_a_thread_the_hook_s_python_started_ends_its_work(repo: Path, tmp_path: Path) -> None:
    """A thread alive when the hook returns (a user's ``sitecustomize`` started it) is waited
    for as at any exit: the hook's Python does not end under it."""
    out = tmp_path / "thread.txt"
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(
        "import sys, threading\n"
        "def _last():\n"
        "    threading.main_thread().join()\n"  # until the main thread is done
        f"    with open({str(out)!r}, 'a') as fh:\n"
        "        fh.write(sys.argv[2] + '\\n')\n"
        "threading.Thread(target=_last).start()\n"
    )
    hooks_with_site_first(repo, tmp_path, folder)
    (repo / "a.txt").write_text("one two three\n")
    git(repo, "add", "a.txt")
    commit(repo, "-m", "a commit")
    assert out.read_text().split() == ["pre-commit"]


def _repo_with_due(top: Path, journal: Path) -> tuple[Path, Path]:
    """A repository whose HEAD holds ``ledger.txt``, its journal-due file (one line, ``e1``,
    for ``journal``) and its rendered post-commit shim in ``.git/hooks``."""
    repo = top / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "ledger.txt").write_text("one\n")
    git(repo, "add", "ledger.txt")
    git(repo, "commit", "-q", "-m", "ledger")
    blob = git(repo, "rev-parse", "HEAD:ledger.txt").stdout.strip()
    due = repo / ".git" / markers.JOURNAL_DUE
    markers.write_journal_due(due, ["e1"], blob=blob, rel="ledger.txt", target=str(journal))
    shim = repo / ".git" / "hooks" / "post-commit"
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(install.render_shim(install.shim_template(), "post-commit"))
    shim.chmod(0o755)
    return repo, due


@pytest.mark.parametrize("shell", ["sh", "bash"])
def test_the_shim_finds_its_git_dir_whatever_the_folder_and_environment(
    tmp_path: Path, shell: str
) -> None:
    """`cd -P .` takes the git dir without a process: a folder through a link whose path holds
    a space, a newline and a leading dash, CDPATH set to a folder that holds a ``.git`` too,
    and a PWD that names another folder: the lines go to the journal and nothing is printed."""
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"no {shell}")
    journal = tmp_path / "journal.txt"
    real = tmp_path / "-a b\nc"
    _, due = _repo_with_due(real, journal)
    (tmp_path / "link").symlink_to(real)
    decoy = tmp_path / "decoy"
    (decoy / ".git" / "tg-git").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(CDPATH=f"{decoy}:{tmp_path}", PWD=str(decoy))
    proc = subprocess.run(
        [found, ".git/hooks/post-commit"],
        cwd=tmp_path / "link" / "repo",
        env=env,
        capture_output=True,
        check=True,
    )
    assert (proc.stdout, proc.stderr) == (b"", b"")
    assert journal.read_text() == "e1\n"
    assert due.read_bytes() == b""
    assert list((decoy / ".git" / "tg-git").iterdir()) == []


def test_a_shim_newer_than_its_package_ends_as_the_package_did(repo: Path, tmp_path: Path) -> None:
    """The shim of this version over a tg-git installed before the hook's Python learned to
    end without its teardown (no ``leave``): the commit is made and counted as before."""
    old = tmp_path / "old"
    shutil.copytree(
        Path(tg_git.__file__).parent,
        old / "tg_git",
        ignore=shutil.ignore_patterns("__pycache__"),
        copy_function=os.symlink,
    )
    runner = old / "tg_git" / "githooks" / "runner.py"
    text = runner.read_text()
    runner.unlink()
    ran = tmp_path / "ran.txt"  # the hooks' Python loaded this package, not the test's
    runner.write_text(
        text.replace("def leave(", "def _gone(")
        + f"with open({str(ran)!r}, 'a') as _fh:\n    _fh.write(sys.argv[2] + '\\n')\n"
    )
    before = commit_events(repo)
    for hook in (repo / ".git" / "hooks").iterdir():
        shim = hook.read_text(errors="replace")
        if "tg-git-shim-v1" in shim:
            site = repr(install.package_folder()).replace("'", "'\\''")
            assert site in shim
            hook.write_text(shim.replace(site, repr(str(old)).replace("'", "'\\''")))
    (repo / "a.txt").write_text("one two three four\n")
    git(repo, "add", "a.txt")
    proc = commit(repo, "-m", "through an older package")
    assert "this commit +" in proc.stderr
    assert commit_events(repo) == before + 1
    assert ran.read_text().split() == ["pre-commit"]


def test_the_halt_refuses_a_commit_whose_output_nobody_reads(repo: Path) -> None:
    """The halt's refusal is the hook's exit code, not its words: a commit whose stderr is a
    pipe nobody reads any more is refused all the same, and the user's changes stay."""
    spend(repo, 100_000, "a.py")
    spend(repo, 86_000, "b.py")
    big = "\n".join(f"value_{i} = compute({i}, 'words')" for i in range(1000)) + "\n"
    commit_file(repo, "big.py", big)  # its own ~10k tokens cross 95 %
    assert status(repo)["level"] == "halt"
    (repo / "c.py").write_text("c\n")
    (repo / "README.md").write_text("# demo\nunstaged\n")
    git(repo, "add", "c.py")
    head = git(repo, "rev-parse", "HEAD").stdout
    proc = _commit_unread(repo, "c")
    assert proc.returncode != 0
    assert git(repo, "rev-parse", "HEAD").stdout == head
    assert git(repo, "status", "--porcelain").stdout.splitlines() == [" M README.md", "A  c.py"]


def _pre_push(repo: Path, closed: bool) -> int:
    """The installed pre-push hook's exit code for a push of HEAD to a new branch, its output
    read, or a pipe nobody reads (``closed``)."""
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    refs = f"refs/heads/main {head} refs/heads/main {'0' * len(head)}\n"
    read, write = os.pipe()
    if closed:
        os.close(read)
    try:
        proc = subprocess.run(
            [str(repo / ".git" / "hooks" / "pre-push"), "origin", str(repo.parent / "nowhere")],
            cwd=repo,
            input=refs.encode(),
            stdout=write,
            stderr=write,
        )
    finally:
        os.close(write)
        if not closed:
            os.close(read)
    return proc.returncode


def test_pre_push_ends_alike_whether_its_output_is_read_or_not(repo: Path) -> None:
    """pre-push (its Python a child of the shim, which keeps the refs for both hooks) says
    what it finds about a push; whether anyone reads it changes nothing of its exit code (a
    commit made with --no-verify: the push is looked at, with something to say)."""
    (repo / "a.py").write_text("value = compute(1, 'words')\n" * 20)
    git(repo, "add", "a.py")
    commit(repo, "--no-verify", "-m", "uncounted")
    assert _pre_push(repo, closed=True) == _pre_push(repo, closed=False)
