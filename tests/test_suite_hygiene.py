"""The test suite's own hygiene: the $HOME guard of conftest.py watches each test's own
temporary HOME, never the machine's real one (other processes write there while the suite
runs); coverage data is never tracked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
