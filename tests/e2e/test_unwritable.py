"""A ledger folder, a .git or a disk that cannot be written, for real (as root, file modes bind;
RLIMIT_FSIZE stands for a full disk): the record or the commit says so in one clear line, what
was held lands at the next commit, nothing of the user's work is lost, and a commit that passed
uncounted is named by verify."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.repos import TG_GIT
from tests.support.repos import clean
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import labels
from tests.support.repos import ledger_at
from tests.support.repos import ledger_file
from tests.support.repos import make_0_1
from tests.support.repos import pending_file
from tests.support.repos import status
from tests.support.repos import tg
from tests.support.repos import used
from tests.support.sandbox import read_only
from tests.support.sandbox import restricted
from tg_git.domain.errors import ExitCode
from tg_git.estimate.estimator import estimate_tokens


def test_unwritable_ledger_folder_is_one_clear_line(repo: Path) -> None:
    folder = repo / ".tg-git" / "ledger"
    waiting = pending_file(repo)
    shutil.rmtree(folder)
    folder.write_text("not a folder\n")
    proc = tg(repo, "record", "--tokens", "1", "--label", "held", check=False)
    assert (proc.returncode, proc.stderr) == (0, "")  # it waits under the git dir
    assert "held" in labels(waiting.read_text())
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    attempt = commit(repo, "-m", "x", check=False)  # the commit cannot write the ledger
    assert attempt.returncode == 0, attempt.stderr  # never blocked
    said = git_lines(attempt.stderr)
    one_clear_line(said)
    assert "not counted" in said, attempt.stderr


def _held_fsize(repo: Path, condition: str) -> int | None:
    """For a full disk: a file size limit under which the journal's append (under .git)
    fits and the pending file's append does not: records carried, pending, to a new branch,
    whose journal starts empty."""
    if condition != "disk full for the ledger file":
        return None
    for n in range(8):
        tg(repo, "record", "--tokens", "4", "--label", f"p{n}")  # lines like the one to come
    git(repo, "checkout", "-q", "-b", "side")
    return pending_file(repo).stat().st_size


def _unchanged(repo: Path, before: dict[Path, bytes]) -> None:
    """The ledger files hold what they held (never half a file), and nothing is unstaged."""
    assert {p: p.read_bytes() for p in before} == before
    assert pending_file(repo).exists() == (pending_file(repo) in before)
    assert git(repo, "diff", "--name-only").stdout == ""
    assert git(repo, "status", "--porcelain").stdout.replace("A  ", "").strip() in (
        "",
        pending_file(repo).relative_to(repo).as_posix(),
    )


def _record_held(repo: Path, fsize: int | None) -> subprocess.CompletedProcess[str]:
    """`record` while the ledger file cannot be written but the journal (under .git) can."""
    with read_only(repo / ".tg-git", fsize is None):
        return restricted(repo, TG_GIT, "record", "--tokens", "4", "--label", "held", fsize=fsize)


@pytest.mark.parametrize("condition", ["read-only .tg-git", "disk full for the ledger file"])
def test_a_record_that_cannot_write_the_ledger_file_is_one_clear_line(
    repo: Path, condition: str
) -> None:
    fsize = _held_fsize(repo, condition)
    files = (ledger_file(repo), pending_file(repo))
    before = {p: p.read_bytes() for p in files if p.exists()}
    proc = _record_held(repo, fsize)
    if fsize is None:  # a record writes nothing under .tg-git/: it waits under the git dir
        assert (proc.returncode, proc.stderr) == (0, "")
        assert ledger_file(repo).read_bytes() == before[ledger_file(repo)]
        assert labels(pending_file(repo).read_text()).count("held") == 1
        assert git(repo, "status", "--porcelain").stdout == ""
        return
    assert proc.returncode in (0, 1) and proc.stderr.startswith("tg-git: ")
    one_clear_line(proc.stderr)
    _unchanged(repo, before)


@pytest.mark.parametrize("condition", ["read-only .tg-git", "disk full for the ledger file"])
def test_a_record_that_said_it_failed_never_comes_back(repo: Path, condition: str) -> None:
    fsize = _held_fsize(repo, condition)
    start = int(status(repo)["input"])
    proc = _record_held(repo, fsize)
    if proc.returncode != 0:  # the user was told it failed, so retries
        tg(repo, "record", "--tokens", "4", "--label", "held")
    (repo / "x.txt").write_text("x\n")
    git(repo, "add", "x.txt")
    commit(repo, "-m", "x")
    assert labels(ledger_at(repo)).count("held") == 1
    assert status(repo)["input"] == start + 4
    assert git(repo, "status", "--porcelain").stdout == ""


# Helpers: `modes_bind` in tests/support/sandbox.py (as root, modes bind; RLIMIT_FSIZE stands for a full disk).


def one_clear_line(stderr: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) <= 1, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr


def git_lines(proc_stderr: str) -> str:
    """tg-git's own lines of a commit's stderr (git adds its own `fatal:`/`error:` lines)."""
    return "\n".join(ln for ln in proc_stderr.splitlines() if ln.startswith("tg-git"))


def _grow_ledger(repo: Path, beyond: int) -> None:
    """Record events until the session's ledger file is larger than ``beyond`` bytes (the
    records go to its pending file; the commit folds them in)."""
    n = 0
    pending = pending_file(repo)
    while (
        ledger_file(repo).stat().st_size + (pending.stat().st_size if pending.exists() else 0)
        <= beyond
    ):
        tg(repo, "record", "--tokens", "1", "--label", f"pad{n}-" + "p" * 150)
        n += 1
    commit(repo, "-q", "--allow-empty", "-m", "padding")


def _git_files_limit(repo: Path) -> int:
    """A file size limit every file git writes for one small commit stays under."""
    git_dir = repo / ".git"
    sizes = [(git_dir / n).stat().st_size for n in ("index", "logs/HEAD", "logs/refs/heads/main")]
    return max(sizes) + 1024


def _the_users_work(repo: Path) -> tuple[str, str]:
    (repo / "a.txt").write_text("alpha beta gamma\n")
    git(repo, "add", "a.txt")
    unstaged = "# demo\nan unstaged line of the user's\n"
    (repo / "README.md").write_text(unstaged)
    return "a.txt", unstaged


def _assert_work_survived(repo: Path, unstaged: str) -> None:
    assert (repo / "README.md").read_text() == unstaged
    changed = git(repo, "diff", "--name-only").stdout.split()  # tg-git's ledger may be there
    assert [n for n in changed if not n.startswith(".tg-git/ledger/")] == ["README.md"]
    assert git(repo, "show", ":a.txt").stdout == "alpha beta gamma\n"


@pytest.mark.parametrize("condition", ["read-only .git", "read-only objects", "full disk"])
def test_read_only_git_dir_or_full_disk_loses_nothing(repo: Path, condition: str) -> None:
    """Nothing can be written where git writes: the commit cannot happen, tg-git says so in one
    line, and once the condition goes away nothing is refused, lost or counted twice."""
    _grow_ledger(repo, 0)
    before = status(repo)
    head = git(repo, "rev-parse", "HEAD").stdout
    _the_users_work(repo)
    unstaged = (repo / "README.md").read_text()
    fsize = 0 if condition == "full disk" else None
    target = repo / (".git" if condition == "read-only .git" else ".git/objects")
    with read_only(target, fsize is None):
        probe = restricted(repo, "sh", "-c", f"echo x > '{target}/probe'", fsize=fsize)
        assert probe.returncode != 0, "the condition does not bite: the test would prove nothing"
        rec = restricted(repo, TG_GIT, "record", "--tokens", "5", "--label", "held", fsize=fsize)
        attempt = restricted(repo, "git", "commit", "-q", "-m", "a", fsize=fsize)
    one_clear_line(rec.stderr)
    one_clear_line(git_lines(attempt.stderr))
    assert rec.returncode in (0, 1), rec.stderr
    assert attempt.returncode != 0  # git itself cannot write the commit
    assert git(repo, "rev-parse", "HEAD").stdout == head
    _assert_work_survived(repo, unstaged)

    if rec.returncode != 0:  # refused in one line: nothing of it was kept; the retry records it
        assert "held" not in labels(ledger_at(repo, ":")) + labels(ledger_file(repo).read_text())
        tg(repo, "record", "--tokens", "5", "--label", "held")
    (repo / "b.txt").write_text("bravo charlie delta\n")
    git(repo, "add", "b.txt")
    landed = commit(repo, "-m", "a and b")  # not refused for tg-git's own unstaged ledger edit
    assert "refused" not in landed.stderr
    after = status(repo)
    assert after["output"] == before["output"] + estimate_tokens(
        "alpha beta gamma", "a.txt"
    ) + estimate_tokens("bravo charlie delta", "b.txt")
    assert after["input"] == before["input"] + 5
    assert labels(ledger_at(repo)).count("held") == 1
    assert git(repo, "status", "--porcelain").stdout == " M README.md\n"
    assert tg(repo, "verify", check=False).returncode == 0


@pytest.mark.parametrize("condition", ["read-only tg-git state", "disk full for the ledger"])
def test_commit_git_can_write_but_tg_git_cannot(repo: Path, condition: str) -> None:
    """git can still commit, tg-git cannot write its ledger or lock: the commit is not blocked,
    tg-git says in one line that it is not counted, and the user's work is intact."""
    fsize = None
    if condition == "disk full for the ledger":
        fsize = _git_files_limit(repo)
        _grow_ledger(repo, fsize + 256)  # git's files fit, the ledger's rewrite does not
        fsize = max(fsize, _git_files_limit(repo))
        assert ledger_file(repo).stat().st_size > fsize
    head = git(repo, "rev-parse", "HEAD").stdout
    _the_users_work(repo)
    unstaged = (repo / "README.md").read_text()
    state = repo / ".git" / "tg-git"
    with read_only(state, fsize is None):
        rec = restricted(repo, TG_GIT, "record", "--tokens", "5", "--label", "held", fsize=fsize)
        attempt = restricted(repo, "git", "commit", "-q", "-m", "a", fsize=fsize)
    one_clear_line(rec.stderr)
    assert rec.returncode == 1 and "held" not in labels(ledger_file(repo).read_text())
    assert attempt.returncode == 0, attempt.stderr
    said = git_lines(attempt.stderr)
    one_clear_line(said)
    assert "not counted" in said and "not blocked" in said
    assert git(repo, "rev-parse", "HEAD^").stdout == head
    assert (repo / "README.md").read_text() == unstaged
    assert git(repo, "status", "--porcelain").stdout == " M README.md\n"  # nothing of tg-git's


@pytest.mark.parametrize("condition", ["read-only tg-git state", "disk full for the ledger"])
def test_commit_landed_uncounted_is_loud_and_named_by_verify(repo: Path, condition: str) -> None:
    """Only when a repair is impossible does a commit pass uncounted, and then loudly;
    verify (so pre-push) names it, as it names a `--no-verify` commit."""
    fsize = None
    if condition == "disk full for the ledger":
        fsize = _git_files_limit(repo)
        _grow_ledger(repo, fsize + 256)
        fsize = max(fsize, _git_files_limit(repo))
    before = status(repo)["output"]
    _the_users_work(repo)
    state = repo / ".git" / "tg-git"
    with read_only(state, fsize is None):
        attempt = restricted(repo, "git", "commit", "-q", "-m", "a", fsize=fsize)
    assert attempt.returncode == 0, attempt.stderr
    assert "this commit is not counted" in attempt.stderr
    uncounted = git(repo, "rev-parse", "--short", "HEAD").stdout.strip()
    (repo / "b.txt").write_text("bravo charlie delta\n")
    git(repo, "add", "b.txt")
    commit_b = commit(repo, "-m", "b")
    b = estimate_tokens("bravo charlie delta", "b.txt")
    checked = tg(repo, "verify", check=False)
    if fsize is not None:  # the hook noted the commit it missed: the next commit counts it
        assert status(repo)["output"] > before + b
        assert checked.returncode == 0 and uncounted in attempt.stderr + commit_b.stderr
        return
    # Nowhere to note it (read-only state): verify names it, and the command that counts it.
    assert status(repo)["output"] == before + b
    assert checked.returncode == ExitCode.DRIFT and uncounted in checked.stdout + checked.stderr
    assert f"tg-git verify --accept {uncounted}" in checked.stdout


WRITERS = [
    ["task", "add", "x"],
    ["note", "n"],
    ["next", "s"],
    ["record", "--tokens", "3"],
    ["checkpoint"],
    ["session", "start"],
    ["resume"],
    ["install"],
    ["repair"],
]


def _prepare(repo: Path) -> None:
    tg(repo, "checkpoint")  # something for resume to resume from...
    (repo / "after.txt").write_text("after the checkpoint\n")
    git(repo, "add", "after.txt")
    commit(repo, "-m", "after")  # ...and something new for the next


def _every_writer(
    repo: Path, condition: str
) -> list[tuple[list[str], subprocess.CompletedProcess[str]]]:
    fsize = 0 if condition == "full disk" else None
    with read_only(repo / ".git", fsize is None):
        return [(args, restricted(repo, TG_GIT, *args, fsize=fsize)) for args in WRITERS]


@pytest.mark.parametrize("condition", ["read-only .git", "full disk"])
def test_every_writing_command_fails_in_one_line_and_changes_nothing(
    repo: Path, condition: str
) -> None:
    _prepare(repo)
    files = {p: p.read_bytes() for p in (repo / ".tg-git").rglob("*") if p.is_file()}
    head, index = git(repo, "rev-parse", "HEAD").stdout, (repo / ".git" / "index").read_bytes()
    for args, proc in _every_writer(repo, condition):
        assert proc.returncode == 1, (args, proc.stderr)
        assert proc.stderr.startswith("tg-git: "), (args, proc.stderr)
        one_clear_line(proc.stderr)
        if args == ["install"]:  # an OSError that reaches main: the advice fits the cause
            fix = "free some disk space" if condition == "full disk" else "make it writable"
            assert fix in proc.stderr, proc.stderr
    assert git(repo, "rev-parse", "HEAD").stdout == head
    assert (repo / ".git" / "index").read_bytes() == index
    assert {p: p.read_bytes() for p in (repo / ".tg-git").rglob("*") if p.is_file()} == files
    assert git(repo, "status", "--porcelain").stdout == ""


def test_a_full_disk_is_named_as_such(repo: Path) -> None:
    _prepare(repo)
    for args, proc in _every_writer(repo, "full disk"):
        assert "writable" not in proc.stderr, (args, proc.stderr)


def held_write(repo: Path, *args: str) -> None:
    """`tg-git ARGS` under a read-only .tg-git: journaled and held, said in one line, exit 0."""
    with read_only(repo / ".tg-git"):
        proc = restricted(repo, TG_GIT, *args)
    assert proc.returncode == 0 and "the next commit writes it" in proc.stderr, proc.stderr


def test_a_session_started_while_the_ledger_folder_is_read_only_lands_at_the_next_commit(
    repo: Path,
) -> None:
    """`session start` writes nothing under .tg-git (its start waits under the git dir, as
    every record does): read-only, it says nothing; the next commit writes it: the session
    counts."""
    with read_only(repo / ".tg-git"):
        proc = restricted(repo, TG_GIT, "session", "start")
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    started = status(repo)["session"]["id"]
    (repo / "n.py").write_text("print('new session')\n")
    git(repo, "add", "n.py")
    out = commit(repo, "-m", "n")
    assert "not counted" not in out.stderr, out.stderr
    assert f'"id" = "{started}"' in ledger_at(repo)
    now = status(repo)
    assert now["session"]["id"] == started and now["output"] == estimate_tokens(
        "print('new session')", "n.py"
    )


def test_a_ledger_folder_that_stays_read_only_says_the_commit_is_not_counted(repo: Path) -> None:
    with read_only(repo / ".tg-git"):
        rec = restricted(repo, TG_GIT, "record", "--tokens", "7")
        assert (rec.returncode, rec.stderr) == (0, "")  # it waits under the git dir
        (repo / "m.py").write_text("print('m')\n")
        git(repo, "add", "m.py")
        proc = restricted(repo, "git", "commit", "-q", "-m", "m")
    assert proc.returncode == 0
    assert "not counted" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    # once writable, the next commit writes both the record and its own event
    (repo / "o.py").write_text("print('o')\n")
    git(repo, "add", "o.py")
    commit(repo, "-m", "o")
    assert '"tokens" = 7' in ledger_at(repo)


def test_a_record_that_cannot_migrate_the_0_1_ledger_lands_at_the_next_commit(
    plain_repo: Path,
) -> None:
    """A 0.1 single ledger: `record` must split it first; under a read-only .tg-git the
    split fails after the journal write, and the next commit writes the record anyway."""
    repo, sid = plain_repo, "s20250101000000-0123456789ab"
    old = [
        f'e1 = {{ "kind" = "session", "at" = "2025-01-01T00:00:00Z", "id" = "{sid}", '
        '"max_tokens" = 1000, "base" = "" }',
        f'e2 = {{ "kind" = "commit", "at" = "2025-01-01T00:00:01Z", "session" = "{sid}", '
        '"tokens" = 12, "files" = 1, "label" = "a.py" }',
    ]
    make_0_1(repo, old)
    held_write(repo, "record", "--tokens", "30", "--label", "held")
    (repo / "b.py").write_text("b = 2\n")
    git(repo, "add", "b.py")
    commit(repo, "-m", "b")
    assert not (repo / ".tg-git/ledger.toml").exists()
    assert ledger_at(repo).count('"label" = "held"') == 1
    assert status(repo)["input"] == 30
    assert git(repo, "status", "--porcelain").stdout == ""


def test_a_record_journaled_on_a_failed_write_lands_on_the_branch_committed_next(
    repo: Path,
) -> None:
    with read_only(repo / ".tg-git"):  # a record waits under the git dir, not in .tg-git/
        proc = restricted(repo, TG_GIT, "record", "--tokens", "7777", "--label", "held")
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    git(repo, "checkout", "-q", "-b", "other")
    (repo / "m.py").write_text("print('m')\n")
    git(repo, "add", "m.py")
    commit(repo, "-m", "m")
    assert '"label" = "held"' in ledger_at(repo)


def _commit_something(repo: Path, name: str) -> subprocess.CompletedProcess[str]:
    (repo / name).write_text(f"{name} = 1\n")
    git(repo, "add", name)
    return commit(repo, "-m", f"add {name}", check=False)


def _next_commit_lands_and_counts(repo: Path) -> None:
    """The commit after a record that could not finish its bookkeeping lands, is counted,
    and leaves no unstaged edit of tg-git's own behind."""
    before = used(repo)
    done = _commit_something(repo, "later.py")
    assert done.returncode == 0, done.stderr
    assert used(repo) > before
    clean(repo)


@pytest.mark.parametrize("limit", [40, 4000])
def test_full_disk_record_does_not_block_the_next_commit(repo: Path, limit: int) -> None:
    tg(repo, "record", "--tokens", "3")
    proc = restricted(repo, TG_GIT, "record", "--tokens", "5", fsize=limit)
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) <= 1, proc.stderr
    _next_commit_lands_and_counts(repo)


def test_record_whose_bookkeeping_failed_does_not_block_the_next_commit(repo: Path) -> None:
    """A record that could note neither what it wrote nor stage it (a full disk, a busy
    index) left tg-git's own append looking like a user's edit."""
    written = repo / ".git" / "tg-git" / "written.json"
    written.unlink(missing_ok=True)
    written.mkdir(parents=True)
    (repo / ".git" / "index.lock").write_text("")
    tg(repo, "record", "--tokens", "5", check=False)
    (repo / ".git" / "index.lock").unlink()
    written.rmdir()
    _next_commit_lands_and_counts(repo)
