"""How long `tg-git verify` takes as a session's ledger grows: 1,000, 10,000 and 100,000 events.

    python bench/verify.py [--events N ...] [--per-commit K] [--repeat R] [--quick]
                           [--against PYTHON]

Each repository is built with `git fast-import` (plumbing, seconds, no hook runs): one session
that started at the first commit, then one commit every ``--per-commit`` events (10 by default:
1 commit event and 9 agent usage events, as an agent's turns land between commits). Each commit
appends a few lines of code to one of 50 source files, and its commit event claims exactly what
tg-git's estimator counts for those lines, with the estimator's id, so verify re-counts every
commit and finds the history honest. The ledger is written as tg-git writes it: the session's
file up to ``layout.SEGMENT_LINES`` event lines, then segments of as many, each commit changing
only the file its events went to.

Prints the CPU time (user + system, git included), min / median / max, of `tg-git verify` (a
fresh process each run, from a regular install: ``bench/_install.py``, or ``--python``) at each
size and shape (``--per-commit 10 100``: one history each), three ways: cold (no memo of an
earlier verify: every commit read from git), warm (the memo the run before left, nothing new)
and after one new commit (``extend``: an honest commit made on top, the memo of the run
before). The sizes are interleaved in every round so that the machine's load hits them alike,
``python -c pass`` beside them, the load average, and the growth exponent of the CPU median
between sizes (``log(t2 / t1) / log(n2 / n1)``: 1.0 is linear). Target: under 1 s at 100,000
events, exponent <= 1.1 from 10,000 to 100,000. ``--quick``: 1,000 and 10,000 events, 3
rounds. ``--against PYTHON``: another tg-git's interpreter (a regular install of another
commit), timed the same three ways in the same rounds, right after this one at each size.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV
from bench._install import regular_python, run_timed, spread, workdir
from tg_git.domain import config as config_mod
from tg_git.domain import eventlog, layout
from tg_git.domain.tomltext import parse_toml
from tg_git.repo import journal
from tg_git.repo.git import find_repo
from tg_git.repo.staged import count_all

SESSION = "s20260101000000-0123456789ab"
CONFIG = (
    'max_tokens = 1000000000\nlanguage = "en"\nprofile = "o200k"\nproject_name = "bench"\n\n'
    "[thresholds]\nwarning = 80\nforce_save = 90\nhalt = 95\n"
)
SOURCES = 50  # source files the commits append to, in turn
START = 1_700_000_000


def data(raw: bytes) -> bytes:
    return b"data %d\n" % len(raw) + raw + b"\n"


def at(second: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(START + second))


def key(second: int, n: int) -> str:
    return f"e{time.strftime('%Y%m%d%H%M%S', time.gmtime(START + second))}-{n:012x}"


def code(n: int) -> list[bytes]:
    """The lines commit ``n`` appends to its source file."""
    return [
        f"def step_{n}(value, scale={n % 13}):".encode(),
        f"    # commit {n}: scale the value and keep a record of it".encode(),
        f"    return compute(value * scale + {n}, label='step {n}')".encode(),
    ]


class Ledger:
    """The session's event lines, as files: the session's own, then segments."""

    def __init__(self) -> None:
        self.files: list[list[str]] = [[]]

    def add(self, line: str) -> int:
        """Append ``line``; the number of the file it went to."""
        if len(self.files[-1]) == layout.SEGMENT_LINES:
            self.files.append([])
        self.files[-1].append(line)
        return len(self.files) - 1

    def text(self, n: int) -> bytes:
        return eventlog.render(ln.rstrip("\n") for ln in self.files[n]).encode()


def build(
    repo: Path, events: int, per_commit: int, env: Mapping[str, str] = ENV, session: str = SESSION
) -> int:
    """A repository whose session holds ``events`` events, one commit every ``per_commit``
    of them; the number of commits after the first. (The tests build their histories with it too.)"""

    def git(*args: str, input: bytes | None = None) -> str:
        done = subprocess.run(
            ["git", *args], cwd=repo, input=input, env=env, check=True, capture_output=True
        )
        return done.stdout.decode().strip()

    repo.mkdir(parents=True)
    git("init", "-q", "-b", "main")
    (repo / "README.md").write_text("# bench\n")
    git("add", "README.md")
    git("commit", "-qm", "first")
    base = git("rev-parse", "HEAD")
    ledger_path = f"{layout.LEDGER_DIR}/{session}.toml"
    config = config_mod.from_mapping(parse_toml(CONFIG, layout.CONFIG_PATH, ""))
    ledger = Ledger()
    ledger.add(
        eventlog.event_line(
            "session", key(0, 0), at=at(0), id=session, max_tokens=10**9, base=base
        )[1]
    )
    stream = bytearray(b"commit refs/heads/main\nmark :1\n")
    stream += b"committer bench <bench@example.com> %d +0000\n" % START
    stream += data(b"set up tg-git\n") + b"from %s\n" % base.encode()
    stream += b"M 100644 inline %s\n" % layout.CONFIG_PATH.encode() + data(CONFIG.encode())
    attributes = "".join(f"{a}\n" for a in layout.LEDGER_ATTRIBUTES).encode()
    stream += b"M 100644 inline .gitattributes\n" + data(attributes)
    stream += b"M 100644 inline %s\n" % ledger_path.encode() + data(ledger.text(0))
    sources: list[list[bytes]] = [[] for _ in range(SOURCES)]
    commits, written = 1, 1
    while written < events:
        n, second = commits, commits * 60
        path = f"src/module_{n % SOURCES:02d}.py"
        added = code(n)
        sources[n % SOURCES] += added
        changed = set()
        for turn in range(min(per_commit, events - written) - 1):  # the agent's turns
            changed.add(
                ledger.add(
                    eventlog.event_line(
                        "usage",
                        key(second - 30 + turn, n * per_commit + turn),
                        at=at(second - 30 + turn),
                        session=session,
                        agent="claude",
                        model="claude-sonnet-4",
                        requests=1,
                        fresh_input=200 + turn,
                        cache_read=30_000 + n,
                        output=400 + n % 97,
                        transcript="bench-transcript",
                        spent=n * 1000 + turn,
                    )[1]
                )
            )
        line = commit_line(
            path, added, config, key(second, n * per_commit + per_commit - 1), second, session
        )
        changed.add(ledger.add(line))
        written += per_commit
        commits += 1
        stream += b"commit refs/heads/main\nmark :%d\n" % commits
        stream += b"committer bench <bench@example.com> %d +0000\n" % (START + second)
        stream += data(f"step {n}\n".encode()) + b"from :%d\n" % (commits - 1)
        stream += b"M 100644 inline %s\n" % path.encode()
        stream += data(b"".join(ln + b"\n" for ln in sources[n % SOURCES]))
        for file in sorted(changed):
            name = layout.segment_file(ledger_path, file).encode()
            stream += b"M 100644 inline %s\n" % name + data(ledger.text(file))
    git("fast-import", "--quiet", input=bytes(stream))
    git("reset", "-q", "--hard", "main")
    return commits


def commit_line(
    path: str, added: list[bytes], config: Any, key_: str, second: int, session: str
) -> str:
    """The commit event tg-git's hook would write for ``added`` at ``path``."""
    counts = [c for c in count_all({path: added}, config, exact=False) if c.counted]
    return eventlog.event_line(
        "commit",
        key_,
        at=at(second),
        session=session,
        tokens=sum(c.tokens for c in counts),
        files=1,
        label=path,
        estimator=counts[0].estimator,
    )[1]


MEMO = Path(".git") / "tg-git" / "verified"  # verify's memo of the commits it has read


def extend(repo: Path, n: int, env: Mapping[str, str] = ENV) -> None:
    """One more honest commit on top of ``repo``'s branch, as tg-git's hook would make it (a
    few lines of code and a commit event claiming what they count, in the ledger file the
    last commit wrote), made with plumbing: the commit a verify has not seen yet."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
        return done.stdout.decode()

    last = git("diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD", "--", layout.LEDGER_DIR)
    ledger = repo / last.split()[-1]
    path = f"src/extra_{n}.py"
    added = code(10**6 + n)
    config = config_mod.from_mapping(parse_toml(CONFIG, layout.CONFIG_PATH, ""))
    line = commit_line(path, added, config, key(10**7 + n, 10**9 + n), 10**7 + n, SESSION)
    (repo / path).write_bytes(b"".join(ln + b"\n" for ln in added))
    with ledger.open("a", encoding="utf-8") as fh:
        fh.write(line.rstrip("\n") + "\n")
    git("add", path, str(ledger.relative_to(repo)))
    git("commit", "-q", "--no-verify", "-m", f"extra {n}")


def journal_of(repo: Path) -> int:
    """This clone's journal as the clone that made the session holds it: every event of the
    session (a teammate's clone or CI has none); how many events."""
    found = find_repo(repo)
    files = subprocess.run(
        ["git", "ls-files", "-z", layout.LEDGER_DIR],
        cwd=repo,
        env=ENV,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\0")
    lines = [ln for f in files if f for ln in eventlog.event_lines((repo / f).read_text())]
    journal.record(found, f"{layout.LEDGER_DIR}/{SESSION}.toml", lines)
    return len(lines)


def _verify(python: str, repo: Path) -> tuple[float, float]:
    t = run_timed([python, "-m", "tg_git", "verify"], repo, ENV)
    if b"matches history" not in t.stdout:
        raise SystemExit(f"verify in {repo}: {t.stdout.decode()}")
    return t.cpu, t.wall


def _round(python: str, repo: Path, n: int, cpu: dict[str, list[float]]) -> None:
    """One round at one size: cold (no memo), warm (the memo of the run before, nothing
    new) and after one new commit (the memo of the run before), each a fresh process.
    The memo is taken away first: one left by another tg-git is of another version."""
    tip = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, env=ENV, check=True, capture_output=True, text=True
    ).stdout.strip()
    shutil.rmtree(repo / MEMO, ignore_errors=True)
    for what in ("cold", "warm"):
        cpu[f"{what} cpu"].append(_verify(python, repo)[0])
    extend(repo, n)
    cpu["one new commit cpu"].append(_verify(python, repo)[0])
    subprocess.run(["git", "reset", "-q", "--hard", tip], cwd=repo, env=ENV, check=True)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument(
        "--per-commit",
        type=int,
        nargs="+",
        default=[10, 100],
        help="events a commit (each a history of its own)",
    )
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="1,000 and 10,000 events, 3 rounds")
    parser.add_argument("--python", help="whose tg-git to time (default: a regular install)")
    parser.add_argument("--against", help="another tg-git's python, timed in the same rounds")
    parser.add_argument("--keep", type=Path, help="keep the repositories here")
    journal_help = "each history with this clone's journal of the session"
    parser.add_argument("--journal", action="store_true", help=journal_help)
    args = parser.parse_args()
    if args.quick:
        args.events, args.repeat = [1_000, 10_000], 3
    python = args.python or regular_python()
    with workdir(args.keep, "tg-git-verify-") as root:
        repos = {}
        for per_commit, events in itertools.product(args.per_commit, args.events):
            repo = root / f"events-{events}-{per_commit}{'-journal' if args.journal else ''}"
            if not (repo / ".git").exists():  # `--keep DIR` keeps them for the next run
                start = time.perf_counter()
                commits = build(repo, events, per_commit)
                if args.journal:
                    journal_of(repo)
                took = time.perf_counter() - start
                print(f"{events:,} events in {commits:,} commits, built in {took:.1f} s")
            _verify(python, repo)
            repos[per_commit, events] = repo
        load = [os.getloadavg()[0]]
        kinds = ("cold cpu", "warm cpu", "one new commit cpu")
        pythons = {"": python, **({" (against)": args.against} if args.against else {})}
        cpu: dict[tuple[int, int, str], dict[str, list[float]]] = {
            (p, e, who): {kind: [] for kind in kinds} for p, e in repos for who in pythons
        }
        base: list[float] = []
        for n in range(args.repeat):
            base.append(run_timed([python, "-c", "pass"], root).cpu)
            for size, repo in repos.items():
                for who, timed in pythons.items():
                    _round(timed, repo, n, cpu[size[0], size[1], who])
        load.append(os.getloadavg()[0])
        _table(args.repeat, load, base, cpu)
    return 0


def _table(
    repeat: int,
    load: list[float],
    base: list[float],
    cpu: dict[tuple[int, int, str], dict[str, list[float]]],
) -> None:
    print(f"\n{repeat} rounds, sizes interleaved; load average {load[0]:.1f} -> {load[1]:.1f}")
    print("CPU ms (user + system, git included), min / median / max")
    print(f"{'python -c pass':<56s} {spread(base)}")
    for (per_commit, events, who), found in cpu.items():
        for kind, seconds in found.items():
            name = f"{events:,} events, {per_commit} a commit, {kind[:-4]}{who}"
            print(f"{name:<56s} {spread(seconds)}")
    for per_commit, who in sorted({(p, w) for p, _, w in cpu}):
        sizes = sorted(e for p, e, w in cpu if (p, w) == (per_commit, who))
        for small, large in itertools.pairwise(sizes):
            for kind in cpu[per_commit, small, who]:
                grow = statistics.median(cpu[per_commit, large, who][kind]) / statistics.median(
                    cpu[per_commit, small, who][kind]
                )
                exponent = math.log(grow) / math.log(large / small)
                print(
                    f"growth {small:,} -> {large:,} events, {per_commit} a commit, "
                    f"{kind[:-4]}{who}: x{grow:.2f}, exponent {exponent:.2f}"
                )


if __name__ == "__main__":
    raise SystemExit(main())
