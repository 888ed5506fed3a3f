"""A regular install of this checkout for the benchmarks, and how they time a process.

Users get tg-git from ``pipx install`` or ``pip install``: a wheel in site-packages. An
editable install (the development venv's) puts an import hook in front of every start,
which makes ``python -c pass`` about 2.3x slower and flatters every ratio to it, so the
benchmarks measure a ``pip install .`` into a scratch venv instead. It is kept in the
temporary folder, keyed by a hash of the sources, and rebuilt when they change.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]


def _source_key() -> str:
    """A hash of everything that goes into the wheel (package files, the hook shim and
    pyproject.toml)."""
    digest = hashlib.sha1()
    sources = [*(ROOT / "tg_git").rglob("*"), *(ROOT / "hooks").rglob("*")]
    for path in sorted([ROOT / "pyproject.toml", *sources]):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def regular_python(extras: str = "") -> str:
    """The interpreter of a scratch venv with ``pip install .[EXTRAS]`` of this checkout."""
    venv = Path(tempfile.gettempdir()) / f"tg-git-bench-{_source_key()}{extras and '-' + extras}"
    python = venv / "bin" / "python"
    if not python.exists():
        print(
            f"installing this checkout into {venv} (pip install ., not editable)...",
            file=sys.stderr,
        )
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        spec = f"{ROOT}[{extras}]" if extras else str(ROOT)
        subprocess.run([str(python), "-m", "pip", "install", "-q", spec], check=True)
    return str(python)


class Timing(NamedTuple):
    wall: float  # seconds
    cpu: float  # user + system seconds of the command and everything it started and waited for
    stdout: bytes


def run_split(
    args: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None
) -> tuple[float, float, float, bytes]:
    """Run a command to its end (a failure raises, with its stderr): the user and system
    seconds of it and everything it started and waited for, the wall seconds, its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {proc.returncode}: {proc.stderr.decode()}")
    return after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, wall, proc.stdout


def run_timed(args: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> Timing:
    """Run a command to its end (a failure raises, with its stderr)."""
    user, system, wall, stdout = run_split(args, cwd, env)
    return Timing(wall, user + system, stdout)


@contextlib.contextmanager
def workdir(keep: Path | None, prefix: str) -> Iterator[Path]:
    """The folder a benchmark works in: ``keep`` (``--keep DIR``, left in place), else a
    temporary one removed at the end."""
    root = keep or Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield root
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)


def spread(seconds: Sequence[float]) -> str:
    """min / median / max in milliseconds."""
    low, mid, high = (f(seconds) * 1000 for f in (min, statistics.median, max))
    return f"{low:7.1f} {mid:7.1f} {high:7.1f}"


class Peak(NamedTuple):
    wall: float  # seconds
    cpu: float  # seconds: user + system of the command and everything it started
    largest: int  # bytes: the peak resident set of the largest process the command ran
    matched: int  # bytes: the peak of the processes whose command line holds ``needle``


_WRAPPER = (
    "import json, resource, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "proc = subprocess.run(sys.argv[1:], capture_output=True)\n"
    "wall = time.perf_counter() - start\n"
    "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "cpu, peak = use.ru_utime + use.ru_stime, use.ru_maxrss * 1024\n"
    "print(json.dumps([proc.returncode, wall, cpu, peak, proc.stderr.decode(errors='replace')]))\n"
)


def _descends(pid: int, root: int) -> bool:
    """Whether process ``pid`` was started, at any depth, by process ``root``."""
    for _ in range(32):
        if pid == root:
            return True
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
            pid = int(stat.rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid <= 1:
            return False
    return False


def _high_water(root: int, needle: bytes, seen: dict[int, int], stop: threading.Event) -> None:
    """Every few ms, the peak resident set (VmHWM) of each process under ``root`` whose
    command line holds ``needle``: the kernel keeps the peak, so the last reading before a
    process ends is it (less what it grew in its last few ms)."""
    proc = Path("/proc")
    while not stop.is_set():
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if needle not in (entry / "cmdline").read_bytes():
                    continue
                if not _descends(int(entry.name), root):
                    continue  # another user's commit on this machine
                for line in (entry / "status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        kib = int(line.split()[1])
                        seen[int(entry.name)] = max(seen.get(int(entry.name), 0), kib * 1024)
            except (OSError, ValueError):
                continue
        time.sleep(0.005)


def run_peak(args: Sequence[str], cwd: Path, env: Mapping[str, str], needle: bytes) -> Peak:
    """Run a command (a failure raises) and say how much memory it took at its peak."""
    seen: dict[int, int] = {}
    stop = threading.Event()
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRAPPER, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watcher = threading.Thread(target=_high_water, args=(proc.pid, needle, seen, stop), daemon=True)
    watcher.start()
    try:
        out, _err = proc.communicate()
    finally:
        stop.set()
        watcher.join()
    code, wall, cpu, largest, said = json.loads(out)
    if code != 0:
        raise SystemExit(f"{' '.join(args)} exited {code}: {said}")
    return Peak(wall, cpu, largest, max(seen.values(), default=0))
