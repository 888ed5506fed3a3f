"""The commit hooks stay near the interpreter's start: what a usual commit's hooks
load and run, seen from a real `git commit` through the installed shims (no timings here:
bench/hook.py measures them)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import hooks_with_site_first
from tests.support.repos import status
from tg_git.estimate.estimator import estimate_tokens
from tg_git.githooks import gathering
from tg_git.githooks import install
from tg_git.services import recount

# Modules the usual commit does not need (each was measured by bench/hook.py on this path):
# ``subprocess`` (with threading, selectors, signal), ``tomllib`` (the config is remembered),
# ``datetime``, ``typing`` (tg_git.domain.typed) and the price table's module (no dollars in a
# plain commit); ``math`` and ``array``, extension modules only the byte-count tier and a
# big-endian machine need; the recount of a commit whose hook failed (none did here);
# ``pathlib`` (with ``urllib.parse`` and ``ipaddress``) and ``contextlib``: the hook's paths
# are strings (``os.path``); ``warnings`` (``os.get_exec_path`` imports it); ``fnmatch`` (the
# default globs are matched without it); ``tg_git.repo.gitquery`` (its queries serve rarer
# paths: a usual commit stages through ``tg_git.repo.ledger.stage``); ``tg_git.domain.carry``
# (what a new session carries over from the last one: no session starts in a usual commit);
# ``tg_git.repo.settled`` (a session of one file has no settled files to read or keep).
NOT_LOADED = (
    "subprocess",
    "threading",
    "selectors",
    "tomllib",
    "datetime",
    "typing",
    "tg_git.domain.prices",
    "math",
    "array",
    "tg_git.services.recount",
    "pathlib",
    "urllib.parse",
    "ipaddress",
    "contextlib",
    "warnings",
    "fnmatch",
    "tg_git.repo.gitquery",
    "tg_git.domain.carry",
    "tg_git.repo.settled",
)


def _with_site(repo: Path, tmp_path: Path, site: str) -> None:
    """Make the hooks' Python run ``site`` first (a ``sitecustomize``)."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(site)
    hooks_with_site_first(repo, tmp_path, folder)


def _record_modules(repo: Path, tmp_path: Path) -> Path:
    """Make the hooks' Python append the modules it loaded, at exit, to a file. The modules of
    ``NOT_LOADED`` that the test's own site loaded first (an editable install's finder loads
    ``pathlib``) are forgotten first, so that the hook's own import of one loads it again."""
    out = tmp_path / "modules.txt"
    _with_site(
        repo,
        tmp_path,
        "import atexit, sys\n"
        f"for name in {NOT_LOADED!r}:\n"
        "    sys.modules.pop(name, None)\n"
        "def _dump():\n"
        f"    with open({str(out)!r}, 'a') as fh:\n"
        "        fh.write(' '.join(sorted(sys.modules)) + '\\n')\n"
        "atexit.register(_dump)\n",
    )
    return out


def _ten_files(repo: Path, round_: int) -> None:
    for i in range(10):
        (repo / f"f{i}.py").write_text(f"# round {round_}\nvalue_{i} = compute({i}, {round_})\n")
    git(repo, "add", ".")


def test_a_usual_commit_loads_no_module_it_does_not_use(repo: Path, tmp_path: Path) -> None:
    _ten_files(repo, 1)
    commit(repo, "-m", "warm: the config is read once and remembered")
    out = _record_modules(repo, tmp_path)
    before = int(status(repo)["output"])
    _ten_files(repo, 2)
    commit(repo, "-m", "the measured commit")
    assert int(status(repo)["output"]) > before  # the hook ran, and counted
    hooks = [set(line.split()) for line in out.read_text().splitlines()]
    hook = [mods for mods in hooks if "tg_git.githooks.precommit" in mods]
    assert len(hook) == 1, "the pre-commit hook ran once, in one Python"
    assert [m for m in NOT_LOADED if m in hook[0]] == []


def test_a_hand_edited_glob_of_another_shape_loads_fnmatch_in_the_hook(repo: Path) -> None:
    """The default globs are matched without ``fnmatch``; globs of another shape (a folder's
    files, a ``?``), edited into the config by hand, load it where the hook needs it: the
    files they name are left out, and the rest is counted."""
    config = repo / ".tg-git" / "config.toml"
    text = config.read_text()
    assert '"*.lock",' in text
    config.write_text(text.replace('"*.lock",', '"*.lock", "gen/*", "*.d?ta",', 1))
    git(repo, "add", str(config))
    commit(repo, "-m", "leave the generated files out")
    before = int(status(repo)["output"])
    (repo / "gen").mkdir()
    (repo / "gen" / "big.py").write_text("value = compute(1, 2)\n" * 50)
    (repo / "table.data").write_text("row, row, row\n" * 50)
    kept = "def kept(a):\n    return a + 1"
    (repo / "kept.py").write_text(kept + "\n")
    git(repo, "add", ".")
    commit(repo, "-m", "one counted file, two left out")
    assert int(status(repo)["output"]) - before == estimate_tokens(kept, "kept.py") > 0


def test_the_collector_never_examines_what_the_hook_loaded(repo: Path, tmp_path: Path) -> None:
    """The cyclic garbage collector is off while a hook's modules load (they make no garbage;
    its passes over them cost a commit ~5 % of its instructions) and runs from where the
    work starts, over new objects only: every pass comes after what was loaded is frozen."""
    _ten_files(repo, 1)
    commit(repo, "-m", "warm: the config is read once and remembered")
    out = tmp_path / "passes.txt"
    _with_site(
        repo,
        tmp_path,
        "import atexit, gc, sys\n"
        "seen = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and seen.append("
        "gc.get_freeze_count()))\n"
        "def _dump():\n"
        f"    with open({str(out)!r}, 'a') as fh:\n"
        "        fh.write('%s %s\\n' % (sys.argv[2], seen))\n"
        "atexit.register(_dump)\n",
    )
    before = int(status(repo)["output"])
    _ten_files(repo, 2)
    commit(repo, "-m", "the measured commit")
    assert int(status(repo)["output"]) > before  # the hook ran, and counted
    passes = dict(line.split(" ", 1) for line in out.read_text().splitlines())
    assert "pre-commit" in passes
    for hook, frozen in passes.items():
        assert 0 not in json.loads(frozen), f"{hook}: a pass over the loaded modules"


def test_the_hook_s_python_ends_without_tearing_its_modules_down(
    repo: Path, tmp_path: Path
) -> None:
    """Once the hook has returned, its Python ends as soon as what it printed is out and its
    exit handlers ran: the interpreter's teardown (freeing every module and object it loaded,
    a last pass of the collector) costs a commit more than a millisecond and saves nothing.
    An object the modules hold is never finalised; an ``atexit`` handler still runs, and the
    commit's report still reaches git's stderr in full."""
    _ten_files(repo, 1)
    commit(repo, "-m", "warm: the config is read once and remembered")
    out = tmp_path / "ends.txt"
    _with_site(
        repo,
        tmp_path,
        "import atexit, sys\n"
        "def _say(what):\n"
        f"    with open({str(out)!r}, 'a') as fh:\n"
        "        fh.write('%s %s\\n' % (sys.argv[2], what))\n"
        "class _Held:\n"  # what it needs is bound now: teardown empties the modules
        f"    def __del__(self, _open=open, _line=sys.argv[2] + ' teardown\\n'):\n"
        f"        with _open({str(out)!r}, 'a') as fh:\n"
        "            fh.write(_line)\n"
        "sys.tg_git_test_held = _Held()\n"  # the sys module's names go last in a teardown
        "atexit.register(_say, 'atexit')\n",
    )
    before = int(status(repo)["output"])
    _ten_files(repo, 2)
    proc = commit(repo, "-m", "the measured commit")
    assert int(status(repo)["output"]) > before
    assert "this commit +" in proc.stderr  # everything the hook printed is out
    assert out.read_text().splitlines() == ["pre-commit atexit"]


@pytest.mark.skipif(not Path("/proc/self/comm").exists(), reason="reads the process table")
def test_the_shim_becomes_the_hook_s_python(repo: Path, tmp_path: Path) -> None:
    """No shell waits on the hooks' Python when nothing runs after it: git is its parent."""
    out = tmp_path / "parents.txt"
    parent = "open('/proc/%d/comm' % os.getppid()).read().strip()"
    code = f"import os, sys\nopen({str(out)!r}, 'a').write('%s %s\\n' % (sys.argv[2], {parent}))\n"
    _with_site(repo, tmp_path, code)
    _ten_files(repo, 1)
    (repo / ".git" / "tg-git" / "export-on").touch()  # post-commit's Python runs too
    commit(repo, "-m", "parents")
    parents = dict(line.split() for line in out.read_text().splitlines())
    assert parents == {"pre-commit": "git", "post-commit": "git"}


def test_the_hook_s_python_skips_the_site_module(repo: Path, tmp_path: Path) -> None:
    """The shim starts Python with -S (the site module and its .pth files cost every hook a
    few ms) and puts the folder tg-git was installed from on the path; a tg-git moved since
    is still found, through the site module, and the commit still counts."""
    args = tmp_path / "args.txt"
    wrapper = tmp_path / "python"
    wrapper.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$@" >>{shlex.quote(str(args))}\n'
        f'exec {shlex.quote(sys.executable)} "$@"\n'
    )
    wrapper.chmod(0o755)
    hook = repo / ".git" / "hooks" / "pre-commit"
    text = hook.read_text()
    hook.write_text(re.sub(r'(?m)^TG_GIT_PYTHON=".*"$', f'TG_GIT_PYTHON="{wrapper}"', text))
    before = int(status(repo)["output"])
    _ten_files(repo, 1)
    commit(repo, "-m", "no site module")
    assert int(status(repo)["output"]) > before
    given = args.read_text()
    assert given.startswith("-S\n-E\n-c\n") and repr(install.package_folder()) in given
    quoted = repr(install.package_folder()).replace("'", "'\\''")  # as the shim holds it
    assert f"+ [{quoted}]" in text
    moved = repr(str(tmp_path / "moved")).replace("'", "'\\''")
    hook.write_text(text.replace(f"+ [{quoted}]", f"+ [{moved}]"))
    before = int(status(repo)["output"])
    _ten_files(repo, 2)
    commit(repo, "-m", "tg-git moved since install")
    assert int(status(repo)["output"]) > before


def test_the_hook_finds_the_uncounted_commits_where_recount_keeps_them() -> None:
    assert gathering.UNCOUNTED == recount.PENDING


def test_a_changed_config_is_read_afresh(repo: Path) -> None:
    """The remembered config is only ever the parse of the exact text on disk: an edit of
    the same length still takes effect at the next commit."""
    config = repo / ".tg-git" / "config.toml"
    _ten_files(repo, 1)
    commit(repo, "-m", "config remembered")
    text = config.read_text()
    assert 'language = "en"' in text
    config.write_text(text.replace('language = "en"', 'language = "ko"'))
    _ten_files(repo, 2)
    proc = commit(repo, "-m", "in Korean now")
    assert "토큰" in proc.stderr
    config.write_text(text.replace("max_tokens = 200000", "max_tokens = [1]"))
    _ten_files(repo, 3)
    proc = commit(repo, "-m", "a broken config is said, as before")
    assert "max_tokens" in proc.stderr


def test_a_broken_memo_costs_only_a_parse(repo: Path) -> None:
    memo = Path(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip()) / "tg-git"
    _ten_files(repo, 1)
    commit(repo, "-m", "config remembered")
    assert (memo / "config.memo").is_file()
    (memo / "config.memo").write_bytes(b"\x00 not a memo")
    before = int(status(repo)["output"])
    _ten_files(repo, 2)
    commit(repo, "-m", "still counted")
    assert int(status(repo)["output"]) > before
    assert [name for name in os.listdir(memo) if name.startswith("config.memo")] == ["config.memo"]


# Programs a shell script would reach for; the shims use the shell's built-ins instead.
_TOOLS = "rm cat pwd mkdir mv cp sed dirname basename head tail tr touch ln readlink realpath env"
_TOOLS += " printf test [ stat"


def test_a_usual_commit_s_hooks_run_no_program_but_git_and_python(
    repo: Path, tmp_path: Path
) -> None:
    """A usual commit's hooks start nothing from the PATH but git and the hook's Python (a
    program is a fork and an exec, ~1 ms each): the post-commit shim ends the journal-due file
    by emptying it, with the shell's own redirection."""
    _ten_files(repo, 1)
    commit(repo, "-m", "warm: the config is read once and remembered")
    tools = tmp_path / "tools"
    tools.mkdir()
    ran = tmp_path / "ran.txt"
    for name in _TOOLS.split():
        real = shutil.which(name)
        if real:
            wrapper = tools / name
            wrapper.write_text(
                f"#!/bin/sh\necho {shlex.quote(name)} >>{shlex.quote(str(ran))}\n"
                f'exec {shlex.quote(real)} "$@"\n'
            )
            wrapper.chmod(0o755)
    before = int(status(repo)["output"])
    _ten_files(repo, 2)
    commit(repo, "-m", "the measured commit", env={"PATH": f"{tools}:{os.environ['PATH']}"})
    assert int(status(repo)["output"]) > before
    git_dir = Path(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip())
    assert (git_dir / "tg-git" / "journal").is_dir()
    assert not ran.exists(), ran.read_text()


def _can_trace() -> bool:
    if shutil.which("strace") is None:
        return False
    return subprocess.run(["strace", "-o", os.devnull, "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _can_trace(), reason="counts the shim's processes with strace")
def test_the_post_commit_shim_of_a_usual_commit_starts_one_process(
    repo: Path, tmp_path: Path
) -> None:
    """post-commit's shim, with an event to journal, forks once: for the `git rev-parse` that
    checks HEAD holds the ledger staged. The git dir (a plain work tree's), the lines copied
    and the journal-due file's end are the shell's own work (no subshell, no `rm`)."""
    _ten_files(repo, 1)
    commit(repo, "-m", "warm: the config is read once and remembered")
    hooks = repo / ".git" / "hooks"
    (hooks / "post-commit").rename(hooks / "post-commit.traced")  # the same folder: its here
    trace = tmp_path / "trace.txt"
    (hooks / "post-commit").write_text(
        f"#!/bin/sh\nexec strace -f -e trace=process -o {shlex.quote(str(trace))}"
        ' .git/hooks/post-commit.traced "$@"\n'
    )
    (hooks / "post-commit").chmod(0o755)
    before = int(status(repo)["output"])
    _ten_files(repo, 2)
    commit(repo, "-m", "the measured commit")
    assert int(status(repo)["output"]) > before
    calls = trace.read_text().splitlines()
    forks = [ln for ln in calls if re.match(r"\d+ +(clone3?|v?fork)\(", ln)]
    execs = [ln for ln in calls if re.match(r"\d+ +execve\(", ln)]
    assert len(forks) == 1, calls
    assert [ln.split('"')[1].rsplit("/", 1)[-1] for ln in execs] == ["post-commit.traced", "git"]


def _started(trace: Path) -> list[list[str]]:
    """The command lines of every git process a GIT_TRACE2_EVENT file saw start."""
    found = []
    for line in trace.read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "start":
            found.append(event["argv"])
    return found


def test_a_usual_commit_starts_four_git_processes(repo: Path, tmp_path: Path) -> None:
    """pre-commit: one cat-file batch, one diff, one add; post-commit's shim: one rev-parse
    of the ledger committed (the git dir of a plain work tree needs no process)."""
    _ten_files(repo, 1)
    trace = tmp_path / "trace.json"
    commit(repo, "-m", "traced", env={"GIT_TRACE2_EVENT": str(trace)})
    hooks = [argv[1:] for argv in _started(trace)[1:] if argv[1:2] != ["maintenance"]]
    assert [argv[0] for argv in hooks] == ["cat-file", "diff-index", "add", "rev-parse"]
    assert "--absolute-git-dir" not in hooks[-1]
    git_dir = Path(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip())
    due = git_dir / "tg-git" / "journal-due"
    assert not due.exists() or due.stat().st_size == 0  # the shim journaled the event
