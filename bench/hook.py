"""What the native hooks cost on a real `git commit`, against a regular install.

    python bench/hook.py [--rounds N] [--skip-large] [--python PYTHON] [--against PYTHON]
    python bench/hook.py --history | --session-events [--rounds N]
    python bench/hook.py --floor [--rounds N]
    python bench/hook.py --exact [--rounds N]    (any of them with --quick: few rounds, 10 MB)

tg-git is measured as users get it: ``pip install .`` of this checkout into a scratch venv
(``bench/_install.py``; an editable install slows every interpreter start and flatters the
ratios), or the interpreter ``--python`` names. Every figure is CPU time (user + system of
git and everything it starts) and wall time, min / median / max of ``--rounds``, the runs
interleaved so that the machine's load hits all alike.

1. ``python -c pass`` of that interpreter, a 10-file ``git commit`` without hooks and with
   tg-git's native hooks; the hooks' cost (per round: with minus without) as a multiple of
   ``python -c pass`` (the target: <= 4.5x, CPU).
2. The post-commit shim alone when it has nothing to save.
3. Large changes of mixed text (100 MB in 1,000 files, in 100, and in one; ``--quick``: 10 MB),
   committed with the hooks and without: time, and the peak resident set of the hook's Python
   process (sampled from /proc), of the largest process of the commit, and of git alone.
4. ``--history``: a 10-file commit (its hooks' cost: with minus without hooks, in a copy of
   the repository's files without them) and the bytes it adds to the object store with 0, 10,000
   and 100,000 events of earlier sessions in the ledger (per-session files, 1,000 events a
   session): a commit reads and rewrites only its own session's file, so both stay flat.
5. ``--session-events``: the same with 0, 10,000 and 100,000 events in the *current*
   session, in its file and segments as tg-git writes them (the target: within 20 %
   of each other). One unmeasured commit comes first: the journal then holds the events and
   the settled files' replay is kept, as after any commit of a long session.
6. ``--exact``: ``pip install '.[exact]'`` against ``pip install .`` (separate scratch venvs),
   a 10-file commit and a 2 MB one, interleaved: what the optional backend costs a commit.
7. ``--floor``: what the pre-commit hook's process is made of, to show how far a Python hook
   can go: ``python -c pass``; importing the standard modules the hook imports (``re`` alone:
   the estimator's pre-tokenizer needs it); importing tg-git's modules too; the three git
   processes the hook starts (cat-file, diff-index, add), timed alone; and the whole hook.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV
from bench._install import regular_python, run_peak, run_timed, spread
from bench._ledger import fill_session

LINE = "    result = compute_value(alpha, beta) + offset  # a typical line of code\n"
HEADER = f"{'cpu min':>7s} {'med':>7s} {'max':>7s}   {'wall min':>8s} {'med':>7s} {'max':>7s}"


def sh(cwd: Path, *args: str) -> None:
    subprocess.run(args, cwd=cwd, env=ENV, check=True, capture_output=True)


def make_repo(root: Path, name: str, python: str | None) -> Path:
    """A repository with one commit; with ``python``, tg-git of that interpreter set up."""
    repo = root / name
    repo.mkdir()
    sh(repo, "git", "init", "-q")
    (repo / "README.md").write_text("bench\n")
    sh(repo, "git", "add", ".")
    sh(repo, "git", "commit", "-q", "-m", "init")
    if python:
        sh(repo, python, "-m", "tg_git", "init", "--max-tokens", str(10**12))
        sh(repo, python, "-m", "tg_git", "install")
        sh(repo, "git", "commit", "-q", "-m", "tg-git")
    return repo


def ten_file_commit(repo: Path, round_: int) -> tuple[float, float]:
    for i in range(10):
        (repo / f"f{i}.py").write_text(f"# round {round_}\n" + LINE * 20)
    sh(repo, "git", "add", ".")
    return run_timed(["git", "commit", "-q", "-m", f"round {round_}"], repo, ENV)


class Series:
    """Wall and CPU seconds of one measured thing, round by round."""

    def __init__(self, label: str) -> None:
        self.label, self.wall, self.cpu = label, [], []  # type: ignore[var-annotated]

    def add(self, timing: tuple[float, float]) -> None:
        self.wall.append(timing[0])
        self.cpu.append(timing[1])

    def minus(self, other: Series, label: str) -> Series:
        """Round by round difference (interleaved runs: each pair saw the same load)."""
        out = Series(label)
        out.wall = [a - b for a, b in zip(self.wall, other.wall)]
        out.cpu = [a - b for a, b in zip(self.cpu, other.cpu)]
        return out

    def row(self) -> str:
        return f"{self.label:<36s} {spread(self.cpu)}   {spread(self.wall)}"


def _session_file(repo: Path) -> Path:
    files = sorted((repo / ".tg-git" / "ledger").glob("*.toml"))
    return files[-1]


def current_session(repo: Path, events: int) -> None:
    """``events`` commit events in the current session, in the files tg-git writes them to
    (quoted keys, one line each, the session's own time; ``bench/_ledger.py``)."""
    path = _session_file(repo)
    start = next(ln for ln in path.read_text().splitlines() if '"kind" = "session"' in ln)
    at = start.split('"at" = "', 1)[1].split('"', 1)[0]
    sid = path.stem
    fill_session(
        repo,
        [
            f'e{at[:4]}{n:010d}-bench{n:07x} = {{ "kind" = "commit", "at" = "{at}", '
            f'"session" = "{sid}", "tokens" = {n % 500 + 1}, "files" = 1, "label" = "f{n}.py" }}\n'
            for n in range(events)
        ],
    )


def past_sessions(repo: Path, events: int, per_session: int = 1000) -> None:
    """``events`` events of earlier sessions, in the files tg-git would have written."""
    folder = repo / ".tg-git" / "ledger"
    for s in range(0, events, per_session):
        day, sec = divmod(s // per_session, 86400)
        sid = f"s2025{1 + day // 28:02d}{1 + day % 28:02d}{sec // 3600:02d}{sec // 60 % 60:02d}{sec % 60:02d}-{s:012x}"
        lines = [
            f'e2025{s:010d} = {{ "kind" = "session", "at" = "2025-01-01T00:00:00Z", '
            f'"id" = "{sid}", "max_tokens" = 200000, "base" = "" }}'
        ]
        lines += [
            f'e2025{s + i:010d}x = {{ "kind" = "commit", "at" = "2025-01-01T00:00:{i % 60:02d}Z", '
            f'"session" = "{sid}", "tokens" = {i}, "files" = 1, "label" = "f{i}.py" }}'
            for i in range(1, min(per_session, events - s))
        ]
        (folder / f"{sid}.toml").write_text("\n".join(lines) + "\n")


def _store_kib(repo: Path) -> int:
    out = subprocess.run(
        ["git", "count-objects", "-v"],
        cwd=repo,
        env=ENV,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    sizes = dict(line.split(": ") for line in out.splitlines())
    return int(sizes["size"]) + int(sizes["size-pack"])


def _loose_bytes(repo: Path) -> int:
    """The bytes of the loose objects (``_store_kib`` counts disk blocks: 4 KiB at least
    for each object, however small)."""
    folder = repo / ".git" / "objects"
    return sum(p.stat().st_size for p in folder.glob("[0-9a-f][0-9a-f]/*"))


def ledger_axis(python: str, rounds: int, what: str, fill: Callable[[Path, int], None]) -> None:
    """A 10-file commit's hook cost and what it adds to the object store, with 0, 10k and
    100k events put in place by ``fill`` (committed and packed first), the three repositories
    interleaved round by round (the machine's load hits all alike)."""
    print(f"\n{what}: hooks' cost per 10-file commit (with minus without hooks, ms)")
    print(f"{'events':>8s} {HEADER} {'KiB added':>10s} {'bytes':>8s}")
    root = Path(tempfile.mkdtemp(prefix="tg-git-bench-"))
    sizes = (0, 10_000, 100_000)
    try:
        repos, bares = {}, {}
        for events in sizes:
            repo = repos[events] = make_repo(root, f"h{events}", python)
            bares[events] = make_repo(root, f"b{events}", None)
            fill(repo, events)
            # The same files in the repository without hooks: a bigger index and tree cost
            # git's own commit too, and that is not the hooks' cost.
            shutil.copytree(repo / ".tg-git", bares[events] / ".tg-git")
            for one in (repo, bares[events]):
                sh(one, "git", "add", ".")
                sh(one, "git", "commit", "-q", "--allow-empty", "--no-verify", "-m", "events")
                sh(one, "git", "gc", "-q")
            # One commit first, unmeasured: as after any earlier commit of the session, the
            # journal then holds its events and the settled files' replay is kept.
            ten_file_commit(repo, -1)
            ten_file_commit(bares[events], -1)
        on = {n: Series("on") for n in sizes}
        off = {n: Series("off") for n in sizes}
        kib: dict[int, list[int]] = {n: [] for n in sizes}
        loose: dict[int, list[int]] = {n: [] for n in sizes}
        for r in range(rounds):
            for events in sizes:
                repo = repos[events]
                before, before_bytes = _store_kib(repo), _loose_bytes(repo)
                on[events].add(ten_file_commit(repo, r))
                kib[events].append(_store_kib(repo) - before)
                loose[events].append(_loose_bytes(repo) - before_bytes)
                off[events].add(ten_file_commit(bares[events], r))
        for events in sizes:
            hooks = on[events].minus(off[events], f"{events:,d}")
            print(
                f"{hooks.label:>8s} {spread(hooks.cpu)}   {spread(hooks.wall)} "
                f"{statistics.median(kib[events]):10.1f} "
                f"{statistics.median(loose[events]):8.0f}"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _line_pool() -> list[str]:
    """Lines of real text of every kind a change holds: this checkout's code and docs (English
    prose, tables), the seed skill (Korean), and lines in other scripts, emoji and CRLF."""
    root = Path(__file__).resolve().parents[1]
    pool: list[str] = []
    for path in sorted([*(root / "tg_git").rglob("*.py"), *(root / "docs").glob("*.md")]):
        pool += path.read_text(encoding="utf-8").splitlines(keepends=True)
    seed = root.parent.parent / "shared" / "seed" / "token-guard-skill.md"
    if seed.is_file():
        pool += seed.read_text(encoding="utf-8").splitlines(keepends=True) * 4
    pool += [
        "漢字とかなの混じった文章です。絵文字も🙂🎉。\r\n",
        "Ελληνικά, Кириллица, עברית, العربية, हिन्दी\n",
        '{"id": 12345, "ok": true}\n',
    ] * 50
    return pool


def mixed_text(size: int, seed: int, pool: list[str]) -> bytes:
    """``size`` bytes of ``pool``'s lines in a random order (one repeated line estimates 27 %
    cheaper than real text and compresses in git's object store)."""
    rng = random.Random(seed)
    out, total = [], 0
    while total < size:
        chunk = "".join(rng.choices(pool, k=256)).encode("utf-8")
        out.append(chunk)
        total += len(chunk)
    return b"".join(out)[:size].rsplit(b"\n", 1)[0] + b"\n"


HOOK_NEEDLE = b"tg_git.main"  # the hook's Python process (the shim's ``-c`` line)


def large(python: str, quick: bool) -> None:
    """Large changes of mixed text committed with the hooks: time, and the peak resident set
    of the hook's Python process and of the largest process the commit ran, against the
    same commit without hooks (git alone)."""
    total = 10_000_000 if quick else 100_000_000
    cases = [(1000, total // 1000), (100, total // 100), (1, total)]
    pool = _line_pool()
    root = Path(tempfile.mkdtemp(prefix="tg-git-bench-"))
    mib = 1 << 20
    try:
        with_hooks = make_repo(root, "with", python)
        without = make_repo(root, "without", None)
        print(f"\nlarge changes of mixed text, one commit each (interpreter: {python}):")
        print(
            f"{'files':>6s} {'MB':>5s} {'largest MiB':>11s} {'hooks CPU s':>11s} {'wall s':>7s} "
            f"{'no hooks s':>10s} {'hook MiB':>9s} {'any proc MiB':>12s} {'git alone MiB':>13s}"
        )
        for files, per_file in cases:
            peaks = []
            for repo in (with_hooks, without):
                folder = repo / f"big{files}"
                folder.mkdir()
                for i in range(files):
                    (folder / f"m{i}.py").write_bytes(mixed_text(per_file, i, pool))
                sh(repo, "git", "add", ".")
                args = ["git", "commit", "-q", "-m", f"big {files}"]
                peaks.append(run_peak(args, repo, ENV, HOOK_NEEDLE))
            on, off = peaks
            print(
                f"{files:6d} {files * per_file / 1e6:5.0f} {per_file / mib:11.1f} "
                f"{on.cpu - off.cpu:11.2f} {on.wall:7.2f} {off.wall:10.2f} {on.matched / mib:9.0f} "
                f"{on.largest / mib:12.0f} {off.largest / mib:13.0f}"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)


def exact_axis(rounds: int, quick: bool) -> None:
    """``pip install '.[exact]'`` against ``pip install .``: a 10-file commit and a commit past
    the vocabulary tier (2 MB of mixed text), interleaved round by round, CPU of the commit with
    hooks minus the same commit without."""
    plain, exact = regular_python(), regular_python("exact")
    pool = _line_pool()
    root = Path(tempfile.mkdtemp(prefix="tg-git-bench-"))
    try:
        repos = {
            "default": make_repo(root, "default", plain),
            "[exact]": make_repo(root, "exact", exact),
        }
        bare = make_repo(root, "bare", None)
        small = {name: Series(f"10 files, {name}") for name in repos}
        big = {name: Series(f"2 MB, {name}") for name in repos}
        off_small, off_big = Series("10 files, no hooks"), Series("2 MB, no hooks")
        for r in range(max(3, rounds // 3) if quick else rounds):
            for name, repo in repos.items():
                small[name].add(ten_file_commit(repo, r))
            off_small.add(ten_file_commit(bare, r))
            data = mixed_text(2_000_000, r, pool)
            for repo in (*repos.values(), bare):
                (repo / "large.md").write_bytes(data)
                sh(repo, "git", "add", ".")
            for name, repo in repos.items():
                big[name].add(run_timed(["git", "commit", "-q", "-m", f"big {r}"], repo, ENV))
            off_big.add(run_timed(["git", "commit", "-q", "-m", f"big {r}"], bare, ENV))
        print("\n[exact] against the default install, hooks' CPU (with minus without), ms")
        print(f"{'':<36s} {HEADER}")
        rows = {}
        for name in repos:
            rows[name] = (
                small[name].minus(off_small, f"10-file commit, {name}"),
                big[name].minus(off_big, f"2 MB commit, {name}"),
            )
        for pair in zip(*rows.values()):
            for series in pair:
                print(series.row())
        for i, what in enumerate(("10-file commit", "2 MB commit")):
            ratio = statistics.median(rows["[exact]"][i].cpu) / statistics.median(
                rows["default"][i].cpu
            )
            print(f"{what}: [exact] = {ratio:.2f}x the default install (CPU, medians)")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def commits(python: str, against: str | None, rounds: int, skip_large: bool) -> None:
    root = Path(tempfile.mkdtemp(prefix="tg-git-bench-"))
    try:
        with_hooks = make_repo(root, "with", python)
        without = make_repo(root, "without", None)
        other = make_repo(root, "other", against) if against else None
        py, on, off, alt = (
            Series(x)
            for x in (
                "python -c pass",
                "git commit, 10 files, hooks",
                "git commit, 10 files, no hooks",
                f"hooks of {against}",
            )
        )
        for r in range(rounds):  # interleaved, so drift hits all alike
            py.add(run_timed([python, "-c", "pass"], root))
            on.add(ten_file_commit(with_hooks, r))
            off.add(ten_file_commit(without, r))
            if other is not None:
                alt.add(ten_file_commit(other, r))
        shim = str(with_hooks / ".git" / "hooks" / "post-commit")
        post = Series("post-commit shim, nothing to save")
        for _ in range(rounds):
            post.add(run_timed([shim], with_hooks, ENV))
        hooks = on.minus(off, "both hooks (with minus without)")
        print(f"interpreter: {python} (regular install unless --python says otherwise)")
        print(f"{'ms, ' + str(rounds) + ' rounds':<36s} {HEADER}")
        for series in (py, off, on, hooks, post):
            print(series.row())
        cpu_py, wall_py = statistics.median(py.cpu), statistics.median(py.wall)
        print(
            f"both hooks = {statistics.median(hooks.cpu) / cpu_py:.1f}x python -c pass (CPU), "
            f"{statistics.median(hooks.wall) / wall_py:.1f}x (wall); the target: <= 4.5x"
        )
        if other is not None:
            theirs = alt.minus(off, f"both hooks of {against}")
            print(theirs.row())
            print(
                f"both hooks of {against} = {statistics.median(theirs.cpu) / cpu_py:.1f}x "
                "python -c pass (CPU)"
            )
            print(
                f"this checkout: {statistics.median(hooks.cpu) / statistics.median(theirs.cpu) - 1:+.0%} CPU"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)


_MODULES = """
import json, sys
from tg_git.main import main
sys.argv = ["tg-git", "hook", "pre-commit"]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def hook_modules(python: str, repo: Path) -> tuple[list[str], list[str]]:
    """The top-level standard modules and tg-git's modules a pre-commit hook run imports
    (run in process on a staged change of ``repo``, which it then stages)."""
    ten_file_commit(repo, -2)  # a commit, so that the next change is a new one
    for i in range(10):
        (repo / f"f{i}.py").write_text("# floor\n" + LINE * 20)
    sh(repo, "git", "add", ".")
    out = subprocess.run(
        [python, "-c", _MODULES], cwd=repo, env=ENV, capture_output=True, text=True, check=True
    ).stdout
    loaded = json.loads(out.splitlines()[-1])
    ours = [m for m in loaded if m.startswith("tg_git")]
    std = [
        m
        for m in loaded
        if "." not in m
        and not m.startswith(("_", "tg_git"))
        and m not in ("__main__", "builtins", "sys", "json")
    ]
    return [*std, "json"], ours  # the probe imports json itself; so does tg_git.main


def floor(python: str, rounds: int) -> None:
    """Each part of the pre-commit hook's process, timed alone and interleaved."""
    root = Path(tempfile.mkdtemp(prefix="tg-git-bench-"))
    try:
        repo = make_repo(root, "with", python)
        std, ours = hook_modules(python, make_repo(root, "probe", python))
        ledger = next(p for p in sorted((repo / ".tg-git" / "ledger").glob("*.toml")))
        rel = ledger.relative_to(repo).as_posix()
        parts = {
            "python -c pass": [python, "-c", "pass"],
            "import re": [python, "-c", "import re"],
            f"import the hook's {len(std)} std modules": [python, "-c", "import " + ",".join(std)],
            f"... and tg-git's {len(ours)} modules": [
                python,
                "-c",
                "import " + ",".join(std + ours),
            ],
            "git rev-parse HEAD (a git start)": ["git", "rev-parse", "HEAD"],
            "git diff-index --cached -p HEAD": ["git", "diff-index", "--cached", "-p", "HEAD"],
            "git add -A -- <ledger file>": ["git", "add", "-A", "--", rel],
            "pre-commit hook, 10 staged files": [str(repo / ".git" / "hooks" / "pre-commit")],
        }
        series = {label: Series(label) for label in parts}
        for r in range(rounds):
            for i in range(10):
                (repo / f"f{i}.py").write_text(f"# floor {r}\n" + LINE * 20)
            sh(repo, "git", "add", ".")
            for label, args in parts.items():
                series[label].add(run_timed(args, repo, ENV))
            sh(repo, "git", "commit", "-q", "--no-verify", "-m", f"floor {r}")
        print(f"interpreter: {python}")
        print(f"{'ms, ' + str(rounds) + ' rounds':<36s} {HEADER}")
        for one in series.values():
            print(one.row())
        print("standard modules:", " ".join(std))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument(
        "--quick", action="store_true", help="few rounds and 10 MB changes (for a bench runner)"
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="only [exact] against the default install, small and 2 MB commits",
    )
    parser.add_argument("--history", action="store_true", help="only the history-size figures")
    parser.add_argument(
        "--session-events", action="store_true", help="only the current-session-size figures"
    )
    parser.add_argument(
        "--python",
        help="the interpreter whose tg-git to time "
        "(default: a regular install of this checkout in a scratch venv)",
    )
    parser.add_argument(
        "--against",
        metavar="PYTHON",
        help="also time the hooks of the tg-git installed for this interpreter (e.g. another "
        "checkout's venv), interleaved in the same run",
    )
    parser.add_argument(
        "--floor", action="store_true", help="only the pre-commit hook's parts, each timed alone"
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds = min(args.rounds, 5)
    python = args.python or regular_python()
    if args.exact:
        exact_axis(args.rounds, args.quick)
        return 0
    if args.floor:
        floor(python, args.rounds)
        return 0
    if args.history:
        ledger_axis(python, args.rounds, "events of earlier sessions", past_sessions)
    if args.session_events:
        ledger_axis(python, args.rounds, "events of the current session", current_session)
    if not (args.history or args.session_events):
        commits(python, args.against, args.rounds, args.skip_large)
        if not args.skip_large:
            large(python, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
