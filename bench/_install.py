"""A regular install of this checkout for the benchmarks, and how they time a process.

Users get tg-git from ``pipx install`` or ``pip install``: a wheel in site-packages. An
editable install (the development venv's) puts an import hook in front of every start,
which makes ``python -c pass`` about 2.3x slower and flatters every ratio to it, so the
benchmarks measure a ``pip install .`` into a scratch venv instead. It is kept in the
temporary folder, keyed by a hash of the sources, and rebuilt when they change.
"""

from __future__ import annotations

import hashlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]


def _source_key() -> str:
    """A hash of everything that goes into the wheel (package files and pyproject.toml)."""
    digest = hashlib.sha1()
    for path in sorted([ROOT / "pyproject.toml", *(ROOT / "tg_git").rglob("*")]):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def regular_python(extras: str = "") -> str:
    """The interpreter of a scratch venv with ``pip install .[EXTRAS]`` of this checkout."""
    venv = Path(tempfile.gettempdir()) / f"tg-git-bench-{_source_key()}{extras and '-' + extras}"
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"installing this checkout into {venv} (pip install ., not editable)...",
              file=sys.stderr)  # fmt: skip
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        spec = f"{ROOT}[{extras}]" if extras else str(ROOT)
        subprocess.run([str(python), "-m", "pip", "install", "-q", spec], check=True)
    return str(python)


class Timing(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds of the command and everything it started and waited for
    stdout: bytes


def run_timed(args: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> Timing:
    """Run a command to its end (a failure raises, with its stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {proc.returncode}: {proc.stderr.decode()}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Timing(wall, cpu, proc.stdout)


def spread(seconds: Sequence[float]) -> str:
    """min / median / max in milliseconds."""
    low, mid, high = (f(seconds) * 1000 for f in (min, statistics.median, max))
    return f"{low:7.1f} {mid:7.1f} {high:7.1f}"
