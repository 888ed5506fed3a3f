"""What the native hooks cost on a real `git commit`.

    python bench/hook.py [--rounds N] [--skip-large]

1. Median `git commit` time of a 10-file change, with tg-git's native hooks and without, in
   the same run, beside a bare `python -c pass` of this interpreter. Prints the overhead of
   both hooks together as a multiple of that interpreter start (target <= 6x).
2. The post-commit hook alone when it has nothing to save.
3. Large changes (100 / 500 / 1,000 files, 10 / 50 / 100 MB) committed with the hooks: time and
   MB/s, to show the cost grows linearly.
4. ``--history``: a 10-file commit and the bytes it adds to the object store with 0, 10,000
   and 100,000 events of earlier sessions in the ledger (per-session files, 1,000 events a
   session): a commit reads and rewrites only its own session's file, so both stay flat.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV

TG_GIT = [sys.executable, "-m", "tg_git"]
LINE = "    result = compute_value(alpha, beta) + offset  # a typical line of code\n"


def sh(cwd: Path, *args: str) -> None:
    subprocess.run(args, cwd=cwd, env=ENV, check=True, capture_output=True)


def timed(cwd: Path, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, env=ENV, check=True, capture_output=True)
    return time.perf_counter() - start


def make_repo(root: Path, name: str, hooks: bool, python: str = sys.executable) -> Path:
    repo = root / name
    repo.mkdir()
    sh(repo, "git", "init", "-q")
    (repo / "README.md").write_text("bench\n")
    sh(repo, "git", "add", ".")
    sh(repo, "git", "commit", "-q", "-m", "init")
    if hooks:
        tg_git = [python, "-m", "tg_git"]
        sh(repo, *tg_git, "init", "--max-tokens", str(10**12))
        sh(repo, *tg_git, "install")
        sh(repo, "git", "commit", "-q", "-m", "tg-git")
    return repo


def ten_file_commit(repo: Path, round_: int) -> float:
    for i in range(10):
        (repo / f"f{i}.py").write_text(f"# round {round_}\n" + LINE * 20)
    sh(repo, "git", "add", ".")
    return timed(repo, "git", "commit", "-q", "-m", f"round {round_}")


def _past_sessions(repo: Path, events: int, per_session: int = 1000) -> None:
    """``events`` events of earlier sessions, in the files tg-git would have written."""
    folder = repo / ".tg-git" / "ledger"
    for s in range(0, events, per_session):
        day, sec = divmod(s // per_session, 86400)
        sid = f"s2025{1 + day // 28:02d}{1 + day % 28:02d}{sec // 3600:02d}{sec // 60 % 60:02d}{sec % 60:02d}-{s:012x}"
        lines = [f'e2025{s:010d} = {{ "kind" = "session", "at" = "2025-01-01T00:00:00Z", '
                 f'"id" = "{sid}", "max_tokens" = 200000, "base" = "" }}']  # fmt: skip
        lines += [
            f'e2025{s + i:010d}x = {{ "kind" = "commit", "at" = "2025-01-01T00:00:{i % 60:02d}Z", '
            f'"session" = "{sid}", "tokens" = {i}, "files" = 1, "label" = "f{i}.py" }}'
            for i in range(1, min(per_session, events - s))
        ]
        (folder / f"{sid}.toml").write_text("\n".join(lines) + "\n")


def _store_kib(repo: Path) -> int:
    out = subprocess.run(["git", "count-objects", "-v"], cwd=repo, env=ENV, capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    sizes = dict(line.split(": ") for line in out.splitlines())
    return int(sizes["size"]) + int(sizes["size-pack"])


def history(rounds: int) -> None:
    print(f"{'events of history':>18s} {'commit ms':>10s} {'hook ms':>8s} {'KiB added':>10s}")
    root = Path(tempfile.mkdtemp(prefix="tg-git-bench-"))
    try:
        for events in (0, 10_000, 100_000):
            repo = make_repo(root, f"h{events}", True)
            bare = make_repo(root, f"b{events}", False)
            _past_sessions(repo, events)
            sh(repo, "git", "add", ".")
            sh(repo, "git", "commit", "-q", "--allow-empty", "--no-verify", "-m", "history")
            sh(repo, "git", "gc", "-q")
            on, off, kib = [], [], []
            for r in range(rounds):
                before = _store_kib(repo)
                on.append(ten_file_commit(repo, r))
                kib.append(_store_kib(repo) - before)
                off.append(ten_file_commit(bare, r))
            m_on, m_off = statistics.median(on) * 1000, statistics.median(off) * 1000
            print(f"{events:18,d} {m_on:10.1f} {m_on - m_off:8.1f} {statistics.median(kib):10.1f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--history", action="store_true", help="only the history-size figures")
    parser.add_argument(
        "--against", metavar="PYTHON",
        help="also time the hooks of the tg-git installed for this interpreter (e.g. another "
        "checkout's venv), interleaved in the same run",
    )  # fmt: skip
    args = parser.parse_args()
    if args.history:
        history(args.rounds)
        return 0
    root = Path(tempfile.mkdtemp(prefix="tg-git-bench-"))
    try:
        with_hooks = make_repo(root, "with", True)
        without = make_repo(root, "without", False)
        py = [timed(root, sys.executable, "-c", "pass") for _ in range(args.rounds)]
        other = make_repo(root, "other", True, args.against) if args.against else None
        on, off, alt = [], [], []
        for r in range(args.rounds):  # interleaved, so drift hits all alike
            on.append(ten_file_commit(with_hooks, r))
            off.append(ten_file_commit(without, r))
            if other is not None:
                alt.append(ten_file_commit(other, r))
        shim = str(with_hooks / ".git" / "hooks" / "post-commit")
        post = [timed(with_hooks, shim) for _ in range(args.rounds)]
        m_py, m_on, m_off = (statistics.median(x) * 1000 for x in (py, on, off))
        m_post = statistics.median(post) * 1000
        print(f"python -c pass ({sys.executable}): {m_py:6.1f} ms")
        print(f"git commit, 10 files, no hooks:     {m_off:6.1f} ms")
        print(f"git commit, 10 files, tg-git hooks: {m_on:6.1f} ms")
        print(
            f"overhead of both hooks:             {m_on - m_off:6.1f} ms = {(m_on - m_off) / m_py:.1f}x python start (target <= 6x)"
        )
        print(
            f"post-commit shim, nothing to save:  {m_post:6.1f} ms = {m_post / m_py:.1f}x python start"
        )
        if alt:
            m_alt = statistics.median(alt) * 1000
            print(
                f"overhead with {args.against}: {m_alt - m_off:6.1f} ms "
                f"(this checkout: {(m_on - m_off) / (m_alt - m_off) - 1:+.0%})"
            )
        if args.skip_large:
            return 0
        print("\nlarge changes, with hooks (one commit each):")
        print(
            f"{'files':>6s} {'MB':>6s} {'with hooks s':>13s} {'no hooks s':>11s} {'hook MB/s':>10s}"
        )
        for files in (100, 500, 1000):
            per_file = 100_000  # bytes: 1,000 files = 100 MB
            body = LINE * (per_file // len(LINE))
            times = []
            for repo in (with_hooks, without):
                folder = repo / f"big{files}"
                folder.mkdir()
                for i in range(files):
                    (folder / f"m{i}.py").write_text(body)
                sh(repo, "git", "add", ".")
                times.append(timed(repo, "git", "commit", "-q", "-m", f"big {files}"))
            mb = files * len(body) / 1e6
            print(
                f"{files:6d} {mb:6.0f} {times[0]:13.2f} {times[1]:11.2f} {mb / max(times[0] - times[1], 1e-9):10.1f}"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
