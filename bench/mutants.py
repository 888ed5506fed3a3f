"""A scripted mutation run over the pure core: each hand mutation is applied to a
temporary copy of the package, the fast in-process core tests run against it, and the run
says which mutants the tests killed and which survived.

    python bench/mutants.py [--tests PATH ...] [--with-repos] [--only NAME ...] [--list] [--check]

Each mutant names a module (a path in the repository), an exact snippet of its source (found
exactly once, else the mutant is stale and the run stops), its replacement and why it matters:
every one changes what a user, a hook or a reader of the ledger sees. The working tree is
never edited: ``tg_git/``, ``tests/`` and ``pyproject.toml`` are copied to a temporary folder
(with ``bench/``, whose fixture writers ``tests/support/`` imports) that the tests then import from (``PYTHONPATH`` and the working directory point there, no
bytecode is written, so a restored module is never read from a stale ``.pyc``).

Why not mutmut (``mutmut`` 3.8 is on PyPI): it mutates every operator and string of a module,
so most of its mutants of this core are messages and equivalent rewrites to triage by hand,
and a full run over ten modules with pytest per mutant does not fit a shared two-core machine
in minutes. A scripted set says why each mutant matters and runs in about a second each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TESTS = ("tests/domain",)
TIMEOUT = 120  # seconds: a mutant that loops is killed by the clock
# tests/domain also holds a few tests that build a real repository (kept beside
# their module); the run leaves those out unless --with-repos: they take seconds each.
PLUGIN = "_tg_mutants_inprocess"
_PLUGIN_TEXT = """
def pytest_collection_modifyitems(config, items):
    git = [i for i in items if {"repo", "plain_repo"} & set(getattr(i, "fixturenames", ()))]
    if git:
        config.hook.pytest_deselected(items=git)
        items[:] = [i for i in items if i not in git]
"""


class Mutant(NamedTuple):
    name: str
    module: str  # the file, relative to the repository
    old: str  # an exact snippet of its source, found once
    new: str
    why: str


TABLE = Path(__file__).with_name("mutants.txt")  # the mutants themselves: data, one entry each


def read_table(text: str) -> tuple[Mutant, ...]:
    """The mutants of ``mutants.txt``: ``name:``, ``file:``, ``why:``, then ``old:`` and ``new:``
    each followed by its snippet, one source line per ``  |`` line."""
    found: list[Mutant] = []
    entry: dict[str, list[str]] = {}
    field = ""

    def close() -> None:
        if entry:
            found.append(
                Mutant(
                    entry["name"][0],
                    entry["file"][0],
                    "\n".join(entry["old"]),
                    "\n".join(entry["new"]),
                    entry["why"][0],
                )
            )
            entry.clear()

    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("  |") and field in ("old", "new"):
            entry[field].append(line[3:])
            continue
        key, colon, value = line.partition(":")
        if not line.strip() or line.startswith("#"):
            field = ""
        elif colon and key in ("name", "file", "why") and value.strip() != "":
            if key == "name":
                close()
            entry[key] = [value.strip()]
            field = ""
        elif colon and key in ("old", "new") and not value.strip():
            entry[key] = []
            field = key
        else:
            raise SystemExit(f"{TABLE.name}:{number}: not an entry line: {line!r}")
    close()
    return tuple(found)


MUTANTS = read_table(TABLE.read_text(encoding="utf-8"))


def _source(mutant: Mutant, root: Path) -> str:
    """The module's text, checked to hold the mutant's snippet exactly once."""
    path = root / mutant.module
    if not path.is_file():
        raise SystemExit(f"{mutant.name}: no module {mutant.module}")
    text = path.read_text(encoding="utf-8")
    found = text.count(mutant.old)
    if found != 1:
        raise SystemExit(
            f"{mutant.name}: its snippet is in {mutant.module} {found} times, not once"
        )
    return text


def _copy(workdir: Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    shutil.copytree(ROOT / "tg_git", workdir / "tg_git", ignore=skip)
    shutil.copytree(ROOT / "tests", workdir / "tests", ignore=skip)
    shutil.copytree(ROOT / "bench", workdir / "bench", ignore=skip)  # what tests/support/ imports
    shutil.copy2(ROOT / "pyproject.toml", workdir / "pyproject.toml")
    (workdir / f"{PLUGIN}.py").write_text(_PLUGIN_TEXT, encoding="utf-8")


def _pytest(workdir: Path, tests: list[str], repos: bool) -> tuple[str, str, float]:
    """Run the tests in ``workdir``: ("passed" | "failed" | "error" | "timeout", the first
    failing test, seconds)."""
    env = {**os.environ, "PYTHONPATH": str(workdir), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-rf",
        "-o",
        "addopts=",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        *([] if repos else ["-p", PLUGIN]),
        *tests,
    ]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            command, cwd=workdir, env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return "timeout", "", time.perf_counter() - start
    seconds = time.perf_counter() - start
    failed = re.search(r"^FAILED (\S+)", proc.stdout, re.M)
    outcome = {0: "passed", 1: "failed"}.get(proc.returncode, "error")
    detail = (
        failed[1] if failed else proc.stdout.strip().splitlines()[-1:][0] if proc.stdout else ""
    )
    return outcome, detail, seconds


def _imports_copy(workdir: Path) -> bool:
    """Whether the tests in ``workdir`` import the copied package (not the working tree's)."""
    env = {**os.environ, "PYTHONPATH": str(workdir), "PYTHONDONTWRITEBYTECODE": "1"}
    code = "import tg_git; print(tg_git.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=workdir, env=env, capture_output=True, text=True
    ).stdout
    return out.strip().startswith(str(workdir))


def run(mutants: list[Mutant], tests: list[str], repos: bool = False) -> int:
    for mutant in mutants:
        _source(mutant, ROOT)
    with tempfile.TemporaryDirectory(prefix="tg-mutants-") as tmp:
        workdir = Path(tmp)
        _copy(workdir)
        if not _imports_copy(workdir):
            raise SystemExit(
                "the copy is not what the tests import; is tg_git installed non-editable?"
            )
        outcome, detail, seconds = _pytest(workdir, tests, repos)
        if outcome != "passed":
            raise SystemExit(f"the tests fail without a mutant ({outcome}: {detail})")
        print(f"baseline: {' '.join(tests)} pass in {seconds:.1f} s; {len(mutants)} mutants\n")
        survived: list[Mutant] = []
        for mutant in mutants:
            path = workdir / mutant.module
            original = path.read_text(encoding="utf-8")
            path.write_text(original.replace(mutant.old, mutant.new, 1), encoding="utf-8")
            try:
                outcome, detail, seconds = _pytest(workdir, tests, repos)
            finally:
                path.write_text(original, encoding="utf-8")
            verdict = "SURVIVED" if outcome == "passed" else "killed"
            if outcome in ("error", "timeout"):
                verdict = f"killed ({outcome})"
            if outcome == "passed":
                survived.append(mutant)
            print(
                f"{verdict:<16} {mutant.name:<36} {seconds:5.1f}s  {detail if outcome != 'passed' else mutant.why}"
            )
            sys.stdout.flush()
    print(
        f"\n{len(mutants)} mutants: {len(mutants) - len(survived)} killed, {len(survived)} survived"
    )
    for mutant in survived:
        print(f"  survived: {mutant.name} ({mutant.module}): {mutant.why}")
    return 1 if survived else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tests",
        nargs="+",
        default=list(DEFAULT_TESTS),
        help="test paths, relative to the repository (default: tests/domain)",
    )
    parser.add_argument(
        "--with-repos", action="store_true", help="also run the tests that build a real repository"
    )
    parser.add_argument("--only", nargs="+", default=[], help="run these mutants only")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument(
        "--check",
        action="store_true",
        help="check that every snippet is in its module once, and exit",
    )
    args = parser.parse_args(argv)
    names = {m.name for m in MUTANTS}
    unknown = set(args.only) - names
    if unknown:
        parser.error(f"no mutant named {', '.join(sorted(unknown))}")
    if len(names) != len(MUTANTS):
        raise SystemExit("two mutants share a name")
    mutants = [m for m in MUTANTS if not args.only or m.name in args.only]
    if args.list or args.check:
        for mutant in mutants:
            _source(mutant, ROOT)
            if args.list:
                print(f"{mutant.name:<36} {mutant.module:<26} {mutant.why}")
        if args.check:
            print(f"{len(mutants)} mutants, every snippet found once")
        return 0
    return run(mutants, args.tests, args.with_repos)


if __name__ == "__main__":
    raise SystemExit(main())
