"""The test suite's own hygiene: the $HOME guard of conftest.py watches each test's own
temporary HOME, never the machine's real one (other processes write there while the suite
runs); coverage data is never tracked; the tests mirror the package, take their shared helpers
from tests/support/ (conftest.py keeps fixtures only), look up a program a lean machine may lack
before they run it, assert nothing that holds whatever happens, and are type-checked like the
package."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

PROJECT = Path(__file__).resolve().parents[1]

INNER = """
import os
from pathlib import Path


def test_another_process_writes_the_real_home():
    (Path(os.environ["OUTER_HOME"]) / "written-by-someone-else").write_text("x")


def test_writes_its_home_unasked():
    (Path(os.environ["HOME"]) / ".cache" / "tool").mkdir(parents=True)


def test_writes_its_home_on_purpose(home):
    assert home == Path(os.environ["HOME"]) and home != Path(os.environ["OUTER_HOME"])
    (home / ".claude").mkdir()
"""


def test_the_guard_watches_the_tests_own_home(tmp_path: Path) -> None:
    outer = tmp_path / "real-home"
    outer.mkdir()
    (tmp_path / "test_inner.py").write_text(INNER)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "-n", "0", "-q", "--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")],
        cwd=PROJECT, capture_output=True, text=True,
        env={**os.environ, "HOME": str(outer), "OUTER_HOME": str(outer)},
    )  # fmt: skip
    out = proc.stdout
    assert "ERROR at teardown of test_writes_its_home_unasked" in out, out
    assert "something wrote into $HOME" in out and ".cache/tool" in out
    assert "3 passed, 1 error" in out, out


def test_coverage_data_is_ignored_not_tracked() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "--", ".coverage", ".coverage.*"], cwd=PROJECT, capture_output=True,
        text=True, check=True,
    ).stdout  # fmt: skip
    assert tracked == ""
    ignored = subprocess.run(["git", "check-ignore", "-q", ".coverage"], cwd=PROJECT)
    assert ignored.returncode == 0


def _test_modules() -> list[Path]:
    return sorted((PROJECT / "tests").rglob("test_*.py"))


def test_every_test_folder_mirrors_a_layer_of_the_package() -> None:
    """A test module sits in the folder of the layer it tests (tests/domain/ for tg_git/domain/),
    in tests/cli/ for the entry (cli.py, main.py, commands/), in tests/e2e/ for a whole
    workflow, in tests/realagents/ for whole sessions of the real agent CLIs, or at the top for
    a check of the project itself (README, lint, layers)."""
    layers = {p.name for p in (PROJECT / "tg_git").iterdir() if (p / "__init__.py").is_file()}
    for path in _test_modules():
        folder = path.parent.relative_to(PROJECT / "tests")
        if folder == Path("."):
            continue
        assert len(folder.parts) == 1 and folder.name in layers | {"cli", "e2e", "realagents"}, path
        assert (path.parent / "__init__.py").is_file(), f"{folder} has no __init__.py"


def test_no_test_module_imports_another() -> None:
    """Helpers shared by several test modules live once, in tests/support/: a test module
    that imports another runs (and couples to) all of it."""
    for path in [*_test_modules(), PROJECT / "tests" / "conftest.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for name in names:
                assert not re.match(r"tests(\.\w+)*\.test_", name), f"{path}: imports {name}"


# What every machine that runs the suite has (git, a POSIX shell, and bash, which runs the CI
# script itself); any other program a test runs may be missing from a lean CI image.
BASE_PROGRAMS = {"git", "sh", "/bin/sh", "bash", "/bin/bash", "cat", "true", "env"}
RUNS = {"run", "Popen", "check_output", "check_call", "call"}


def _programs_run(tree: ast.AST) -> set[str]:
    """The programs named by a literal first word of a ``subprocess`` call's argument list."""
    found = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        if not (isinstance(owner, ast.Name) and owner.id == "subprocess"):
            continue
        argv = node.args[0] if node.func.attr in RUNS and node.args else None
        first = argv.elts[0] if isinstance(argv, (ast.List, ast.Tuple)) and argv.elts else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.add(first.value)
    return found


def _looked_up(tree: ast.Module) -> set[str]:
    """The programs ``shutil.which`` is asked for: by name, or (a variable) each name of the
    module's own tuples and lists of names."""
    asked = [
        node.args[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "which"
        and node.args
    ]
    found = {a.value for a in asked if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    if any(not isinstance(a, ast.Constant) for a in asked):
        for node in tree.body:
            value = node.value if isinstance(node, ast.Assign) else None
            for item in value.elts if isinstance(value, (ast.Tuple, ast.List)) else []:
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    found.add(item.value)
    return found


def test_a_program_a_lean_machine_may_lack_is_looked_up_before_it_runs() -> None:
    """A test that runs ``chattr``, ``strace``, ``apt-get``... looks it up first
    (``shutil.which``) and skips without it: running it raised FileNotFoundError, a failure
    that says nothing of the product."""
    unlooked = []
    for path in [*_test_modules(), *(PROJECT / "tests" / "support").glob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for program in sorted(_programs_run(tree) - BASE_PROGRAMS - _looked_up(tree)):
            unlooked.append(f"{path.relative_to(PROJECT)} runs {program}")
    assert not unlooked


def test_conftest_keeps_fixtures_only() -> None:
    """pytest loads conftest.py by itself; importing it as a library couples every test to it.
    It holds fixtures and what only they use; helpers live in tests/support/, and no test
    module imports conftest."""
    tree = ast.parse((PROJECT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            fixture = any("fixture" in ast.unparse(d) for d in node.decorator_list)
            assert fixture or node.name.startswith("_"), f"conftest.py: {node.name} is no fixture"
    for path in [*_test_modules(), *(PROJECT / "tests" / "support").glob("*.py")]:
        for each in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(each, ast.ImportFrom | ast.Import):
                modules = [getattr(each, "module", None), *(a.name for a in each.names)]
                assert not {"conftest", "tests.conftest"} & set(modules), f"{path} imports conftest"


def test_mypy_checks_the_tests_as_strictly_as_the_package() -> None:
    """The pre-commit hook and a bare `mypy` both cover tests/ (strict, from pyproject.toml)."""
    config = yaml.safe_load((PROJECT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (mypy_hook,) = [h for r in config["repos"] for h in r["hooks"] if h["id"] == "mypy"]
    assert {"tg_git", "tests"} <= set(mypy_hook["args"]), mypy_hook
    pyproject = (PROJECT / "pyproject.toml").read_text(encoding="utf-8")
    mypy = pyproject.split("[tool.mypy]", 1)[1].split("\n[", 1)[0]
    assert "strict = true" in mypy and re.search(r'^files = \[.*"tests".*\]$', mypy, re.M), mypy


def test_no_assertion_is_true_whatever_happens() -> None:
    """An ``assert "text"`` (a string meant to be looked for, its ``in`` forgotten) or an
    ``assert (x, "why")`` holds whatever the product does: a test that cannot fail."""
    vacuous = []
    for path in sorted((PROJECT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assert) and isinstance(
                node.test, ast.Constant | ast.JoinedStr | ast.Tuple
            ):
                vacuous.append(f"{path.relative_to(PROJECT)}:{node.lineno}")
    assert not vacuous
