"""Every bench in one command, and their tables written into docs/benchmarks.md.

    python -m bench [--quick] [--only usage,hook] [--no-write] [--timeout MINUTES]

Runs ``bench/agent_hook.py``, ``bench/hook.py``, ``bench/speed.py``, ``bench/verify.py`` and
``bench/usage.py`` one after the other, each through its own command line (``--quick`` is
passed to those that take it; the others run as they are), and prints what each prints. The
scripts time a regular install of this checkout (``bench/_install.py``: ``pip install .``, built
once here before the first), interleave the runs they compare and print min / median / max.
Then the section between the markers below in docs/benchmarks.md is replaced by this run's
tables, with the commit, the date and the load average before and after each script. A script
that is not in the checkout, or that fails, gets one line saying so; the others still run.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._install import ROOT, regular_python

DOC = ROOT / "docs" / "benchmarks.md"
START = "<!-- bench:all:start (python -m bench writes from here) -->"
END = "<!-- bench:all:end -->"
BENCHES = (  # (script, what it times)
    ("agent_hook", "Agent hooks"),
    ("hook", "Commit hooks"),
    ("speed", "Estimator speed"),
    ("verify", "Verify at scale"),
    ("usage", "Usage import against ccusage's native reader"),
)


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _commit() -> str:
    """HEAD's short hash, with "+ changes" when tracked files differ from it."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (head or "unknown") + (" + changes" if changed else "")


def _takes_quick(script: Path) -> bool:
    done = subprocess.run(
        [sys.executable, str(script), "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return "--quick" in done.stdout


def _demoted(text: str) -> str:
    """A script's output inside the page: its headings two levels down, under this run's, and
    no word of how the work was tracked (a script may name the issue its target came from)."""
    text = re.sub(r" ?\([Ii]ssues? #?\d+(?:, #?\d+)*\)", "", text)
    text = re.sub(r"\b[Ii]ssues? #?\d+(?:'s)? ", "", text)
    return re.sub(r"^(#+) ", lambda m: "#" * min(6, len(m.group(1)) + 2) + " ", text, flags=re.M)


def run_one(name: str, title: str, quick: bool, timeout: float) -> str:
    """The markdown of one script's run: a heading with the command, its output, the load."""
    script = ROOT / "bench" / f"{name}.py"
    if not script.exists():
        return f"### {title}\n\n- `bench/{name}.py` is not in this checkout: not run.\n"
    args = ["--quick"] if quick and _takes_quick(script) else []
    shown = " ".join(["python", f"bench/{name}.py", *args])
    print(f"== {shown} (load {_load()})", file=sys.stderr, flush=True)
    before, start = _load(), time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, str(script), *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return f"### {title}\n\n- `{shown}` did not finish in {timeout / 60:.0f} min: not shown.\n"
    took = time.perf_counter() - start
    head = (
        f"### {title}\n\n`{shown}`: {took:.0f} s, load average {before} before and"
        f" {_load()} after.\n"
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return f"{head}\n- it failed (exit {done.returncode}): {last}\n"
    print(done.stdout, flush=True)
    return f"{head}\n{_demoted(done.stdout.strip())}\n"


def write(doc: Path, body: str) -> None:
    """``body`` between the markers of ``doc`` (the markers and the rest of the page kept)."""
    text = doc.read_text(encoding="utf-8")
    first, last = text.find(START), text.find(END)
    if first < 0 or last < first:
        raise SystemExit(f"{doc}: the markers {START!r} and {END!r} are missing")
    doc.write_text(text[: first + len(START)] + "\n" + body + "\n" + text[last:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench", allow_abbrev=False, description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="--quick to the scripts taking it")
    parser.add_argument("--only", default="", help="comma-separated scripts, e.g. usage,hook")
    parser.add_argument("--no-write", action="store_true", help="print only, leave the page")
    parser.add_argument("--timeout", type=float, default=60, help="minutes a script may take")
    args = parser.parse_args(argv)
    chosen = [b for b in BENCHES if not args.only or b[0] in args.only.split(",")]
    regular_python()  # the regular install, built once for all of them
    started, commit = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), _commit()
    parts = [run_one(name, title, args.quick, args.timeout * 60) for name, title in chosen]
    command = "python -m bench" + (" --quick" if args.quick else "")
    if args.only:
        command += f" --only {args.only}"
    body = (
        f"Generated by `{command}` on {started} at `{commit}`, on {os.cpu_count()} cores;"
        " each script times a regular install (`pip install .`) of that commit, CPU time (user +"
        " system) min / median / max unless it says otherwise, its runs interleaved.\n\n"
        + "\n".join(parts)
    )
    if not args.no_write:
        write(DOC, body)
        print(f"written into {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
