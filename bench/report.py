"""How long `tg-git report` takes on a 10,000-event ledger; and the README's screenshot.

    python bench/report.py [--events N] [--sessions S] [--repeat R] [--segments]
                           [--against PYTHON]
    python bench/report.py --screenshot docs/report.png

The benchmark repository is built with `git fast-import` (seconds): S sessions of N/S events
each (commits, inputs, task changes; one file a session, as tg-git wrote them before segments,
or with `--segments` the session's file and its segments of `SEGMENT_LINES` lines, as it
writes them now), a checkpoint commit with its tag every 500 events, and
the newest 60 commit events each made by its own commit, so the report looks the costliest of
them up in history (ledger blobs of ~1 MB at each candidate commit) and re-estimates the
multi-file ones per file. Two more branches hold older ledgers. Prints the median time of
`report.data.build` + `report.html.render` in process, for the current session and for `--all`, and of
a fresh `tg-git report -o FILE` process, cold (without the settled files' kept parse,
``repo/parsed.py``, as after a clone) and warm (with the one the run before kept; the same
when no session has a settled file, as without ``--segments``). ``--against``: another
commit's regular install, cold, interleaved with it (see ``bench/usage.py``). Target
under one second.

`--screenshot PATH` instead builds a small repository through the real hooks (two sessions, a
branch, tasks, checkpoints, the halt and an override), writes its report and has headless
Chromium (`/usr/bin/chromium`) take a PNG of it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV
from bench._install import Timing, regular_python, run_timed, spread
from tg_git.domain import eventlog, layout

START = datetime(2026, 1, 5, 9, 0, 0, tzinfo=timezone.utc)
REAL_COMMITS = 60
CHROMIUM = "/usr/bin/chromium"


def data(raw: bytes) -> bytes:
    return b"data %d\n" % len(raw) + raw + b"\n"


def stamp(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def module(n: int, lines: int) -> bytes:
    return "".join(
        f"def handler_{n}_{i}(request, *, retries=3):\n    return route(request, {i} * {n})\n"
        for i in range(lines)
    ).encode()


def ledger_files(rel: str, lines: list[str], segments: bool) -> dict[str, bytes]:
    """A session's ledger files as tg-git writes them: one file, or (``segments``) the file
    and its later segments of ``SEGMENT_LINES`` lines each."""
    if not segments:
        return {rel: "".join([eventlog.HEADER, *lines]).encode()}
    size = layout.SEGMENT_LINES
    return {
        layout.segment_file(rel, at // size): "".join(
            [eventlog.HEADER, *lines[at : at + size]]
        ).encode()
        for at in range(0, len(lines), size)
    }


def build(repo: Path, events: int, sessions: int, segments: bool = False) -> None:
    """The repository: see the module's docstring."""
    rng = random.Random(15)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True, env=ENV)
    stream = bytearray()
    mark = 0
    t = START
    per_session = events // sessions
    real_from = events - REAL_COMMITS * 2  # the newest events: half of them real commits
    written: dict[str, bytes] = {}  # each path as the last commit left it

    def commit(files: dict[str, bytes], message: str, when: datetime) -> None:
        nonlocal mark
        mark += 1
        stream.extend(b"commit refs/heads/main\nmark :%d\n" % mark)
        stream.extend(b"committer bench <bench@example.com> %d +0000\n" % when.timestamp())
        stream.extend(data(message.encode()))
        if mark > 1:
            stream.extend(b"from :%d\n" % (mark - 1))
        for path, content in files.items():
            if written.get(path) != content:  # the files a commit did not change stay
                written[path] = content
                stream.extend(b"M 100644 inline " + path.encode() + b"\n" + data(content))

    attributes = b".tg-git/ledger/*.toml merge=union\n"
    commit({".tg-git/config.toml": b"max_tokens = 200000\n", ".gitattributes": attributes},
           "set up tg-git", t)  # fmt: skip
    by_file: dict[str, list[str]] = {}  # per-session ledger files, as tg-git writes them
    n = 0
    for s in range(sessions):
        sid = f"s{t:%Y%m%d%H%M%S}-{s:012x}"  # as tg-git names them: start time, hex
        rel = f".tg-git/ledger/{sid}.toml"
        lines = by_file.setdefault(rel, [])
        lines.append(
            eventlog.event_line(
                "session", key=f"e{n:07d}", at=stamp(t), id=sid, max_tokens=200_000, base=""
            )[1]
        )
        n += 1
        for i in range(per_session - 1):
            t += timedelta(seconds=7)
            key = f"e{n:07d}"
            real = n >= real_from and n % 2 == 0
            if i % 10 == 0:
                op = "start" if i % 20 == 0 else "done"
                lines.append(eventlog.event_line(
                    "task", key=key, at=stamp(t), session=sid, op=op, title=f"task {i // 20}"
                )[1])  # fmt: skip
            elif i % 5 == 0 and not real:
                lines.append(eventlog.event_line(
                    "input", key=key, at=stamp(t), session=sid, tokens=rng.randint(50, 500)
                )[1])  # fmt: skip
            else:
                files = 2 if real and n % 4 == 0 else rng.randint(1, 3)
                tokens = rng.randint(1000, 3000) if real else rng.randint(10, 60)
                label = f"src/mod{n % 97}.py" + (f" (+{files - 1})" if files > 1 else "")
                lines.append(eventlog.event_line(
                    "commit", key=key, at=stamp(t), session=sid, tokens=tokens, files=files,
                    label=label,
                )[1])  # fmt: skip
                if real:
                    changed = {
                        f"src/mod{n % 97}.py": module(n, 40),
                        **ledger_files(rel, lines, segments),
                    }
                    if files == 2:
                        changed[f"src/extra{n}.py"] = module(n + 1, 10)
                    commit(changed, f"work {n}: handler {n}", t + timedelta(seconds=1))
            n += 1
            if n % 500 == 0 and n < real_from:
                at = t + timedelta(seconds=2)
                saved = (
                    f'{{"schema_version": "1.0", "session": {{"timestamp": "{stamp(at)}", '
                    f'"estimated_used": {n * 20}, "max_tokens": 200000}}, "status": {{}}}}'
                )
                commit(
                    {
                        **ledger_files(rel, lines, segments),
                        "harness_checkpoint.json": saved.encode(),
                    },
                    f"checkpoint: force-save\n\nTg-Git-Session: {sid}\nTg-Git-Level: force-save\n",
                    at,
                )
                name = at.strftime("%Y%m%dT%H%M%S.000000Z")
                stream.extend(b"tag checkpoint/%s-%s-force-save\n" % (name.encode(), sid.encode()))
                stream.extend(b"from :%d\n" % mark)
                stream.extend(b"tagger bench <bench@example.com> %d +0000\n" % at.timestamp())
                stream.extend(data(b"checkpoint"))
                if n in (2000, 6000):
                    stream.extend(b"reset refs/heads/feature-%d\nfrom :%d\n\n" % (n, mark))
        t += timedelta(minutes=30)
    every = {
        p: b
        for rel, lines in by_file.items()
        for p, b in ledger_files(rel, lines, segments).items()
    }
    commit(every, "ledger", t)
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=repo, input=bytes(stream), check=True, env=ENV
    )
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=repo, check=True, env=ENV)


def bench(args: argparse.Namespace) -> int:
    root = Path(tempfile.mkdtemp(prefix="tg-git-report-"))
    try:
        repo = root / "repo"
        t0 = time.perf_counter()
        build(repo, args.events, args.sessions, args.segments)
        count = subprocess.run(
            ["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True
        ).stdout.strip()
        print(f"built {count} commits in {time.perf_counter() - t0:.1f} s")
        from tg_git.repo.workspace import Workspace
        from tg_git.report import data as report_data
        from tg_git.report import html as report_html

        os.environ.update({k: v for k, v in ENV.items() if k.startswith("GIT_")})
        ws = Workspace.open(repo)
        files = len(ws.all_ledger_files())
        print(
            f"ledger at HEAD: {len(ws.events()):,} events, {args.sessions} sessions, {files} files"
        )
        for label, all_sessions in (("current session", False), ("--all", True)):
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                data = report_data.build(ws, all_sessions=all_sessions)
                page = report_html.render(data, ws.config.profile)
                times.append(time.perf_counter() - t0)
            found = sum(1 for c in data["costliest_commits"] if c["commit"])
            print(
                f"build + render, {label:15}: {statistics.median(times) * 1000:6.0f} ms median of "
                f"{args.repeat}; page {len(page) / 1024:,.0f} KiB; costliest commits found in "
                f"history {found}/{len(data['costliest_commits'])}, re-estimated per file "
                f"{data['costliest_files']['reestimated_commits']}"
            )
        # A fresh process each time, as a user runs it, from a regular install (its bytecode
        # compiled at install); `tg-git status` (one ledger read and replay) beside it.
        env = dict(ENV)
        python = args.python or regular_python()
        print(f"{'fresh processes, ms':<22s} cpu min / med / max     wall min / med / max")
        report = [python, "-m", "tg_git", "report", "-o", str(root / "r.html")]
        kept = repo / ".git" / "tg-git" / "parsed"  # the settled files' parse (repo/parsed.py)
        commands = [  # label, command, whether the kept parse is removed before each run
            ("tg-git report, cold", report, True),
            ("tg-git report, warm", report, False),
            ("tg-git status", [python, "-m", "tg_git", "status"], False),
            ("python -c pass", [python, "-c", "pass"], False),
        ]
        if args.against:  # another commit's regular install, in the same rounds
            commands.insert(2, ("report, --against", [args.against, *report[1:]], True))
        runs: dict[str, list[Timing]] = {label: [] for label, _, _ in commands}
        for _ in range(args.repeat):  # interleaved: the neighbours' load falls on each alike
            for label, command, cold in commands:
                if cold:
                    shutil.rmtree(kept, ignore_errors=True)
                runs[label].append(run_timed(command, repo, env))
        for label, _, _ in commands:
            print(f"{label:<22s} {spread([r.cpu for r in runs[label]])}   "
                  f"{spread([r.wall for r in runs[label]])}"
                  + ("  target < 1000 ms" if label.startswith("tg-git report") else ""))  # fmt: skip
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


def _run(repo: Path, *args: str, env: dict[str, str] | None = None, check: bool = True) -> None:
    tg = [sys.executable, "-m", "tg_git"]
    cmd = [*tg, *args[1:]] if args[0] == "tg-git" else list(args)
    subprocess.run(cmd, cwd=repo, check=check, capture_output=True, env={**ENV, **(env or {})})


def demo(repo: Path) -> None:
    """A small story through the real hooks, for the screenshot."""
    repo.mkdir(parents=True)
    env = {**ENV, "HOME": str(repo.parent), "PATH": f"{Path(sys.executable).parent}:{ENV['PATH']}"}

    def run(*args: str, check: bool = True, **extra: str) -> None:
        _run(repo, *args, env={**env, **extra}, check=check)

    def write(name: str, lines: int, seed: int) -> None:
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(module(seed, lines))
        run("git", "add", name)

    run("git", "init", "-q", "-b", "main")
    (repo / "README.md").write_text("# parser\n")
    run("git", "add", "README.md")
    run("git", "commit", "-qm", "first")
    run("tg-git", "init", "--max-tokens", "12000")
    run("tg-git", "install")
    run("git", "commit", "-qm", "set up tg-git")
    run("tg-git", "record", "--tokens", "2100")
    run("tg-git", "task", "add", "tokenizer")
    run("tg-git", "task", "start", "tokenizer", "--at", "numbers and strings")
    for n, lines in enumerate((20, 35, 15), start=1):
        write(f"src/tokenizer_{n}.py", lines, n)
        run("git", "commit", "-qm", f"tokenizer part {n}")
    run("tg-git", "task", "done", "tokenizer")
    run("tg-git", "next", "the parser")
    run("git", "commit", "-qm", "tokenizer done", "--allow-empty")
    run("git", "checkout", "-q", "-b", "spike")  # another agent tries an idea on a branch
    run("tg-git", "session", "start", "--max-tokens", "8000")
    run("tg-git", "record", "--tokens", "1500")
    write("spike/idea.py", 30, 9)
    run("git", "commit", "-qm", "spike: a faster idea")
    run("git", "checkout", "-q", "main")
    run("tg-git", "session", "start")  # a new session on main
    run("tg-git", "task", "add", "parser")
    run("tg-git", "task", "start", "parser", "--at", "expressions")
    run("tg-git", "record", "--tokens", "900")
    run("git", "commit", "-qm", "new session")
    write("src/parser.py", 40, 4)
    write("src/ast.py", 25, 5)
    run("git", "commit", "-qm", "parser: expressions")
    run("tg-git", "task", "add", "statements")
    run("tg-git", "task", "start", "statements", "--at", "if and while")
    run("tg-git", "checkpoint", "-m", "before statements")

    def record_up_to(tokens: int) -> None:
        out = subprocess.run(
            [sys.executable, "-m", "tg_git", "status", "--json"],
            cwd=repo, env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        used = json.loads(out.stdout)["used"]
        run("tg-git", "record", "--tokens", str(max(0, tokens - used)))

    record_up_to(10_200)  # the next commit crosses 90 %: a force-save checkpoint
    write("src/statements.py", 30, 6)
    run("git", "commit", "-qm", "parser: statements")
    record_up_to(11_200)  # and this one 95 %: the halt, checkpointed once more
    write("tests/test_parser.py", 20, 7)
    run("git", "commit", "-qm", "parser tests")
    write("src/errors.py", 8, 8)
    run("git", "commit", "-qm", "refused at the halt", check=False)
    run("git", "commit", "-qm", "error messages (override)", TG_GIT_ALLOW_HALT="1")


def screenshot(target: Path) -> int:
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: apt-get install chromium", file=sys.stderr)
        return 1
    root = Path(tempfile.mkdtemp(prefix="tg-git-shot-"))
    try:
        repo = root / "parser"
        demo(repo)
        page = root / "report.html"
        _run(repo, "tg-git", "report", "-o", str(page))
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={root / 'profile'}", "--hide-scrollbars",
             "--window-size=1000,1500", f"--screenshot={target.resolve()}", page.as_uri()],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        print(f"{target}: {target.stat().st_size / 1024:.0f} KiB")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False, description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument(
        "--segments", action="store_true",
        help=f"each session's events in files of {layout.SEGMENT_LINES} lines, as tg-git writes them now",
    )  # fmt: skip
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--screenshot", type=Path, metavar="PNG")
    parser.add_argument("--python", help="whose tg-git to time (default: a regular install)")
    parser.add_argument("--against", help="another tg-git's python, timed in the same rounds")
    args = parser.parse_args()
    if args.screenshot:
        return screenshot(args.screenshot)
    return bench(args)


if __name__ == "__main__":
    raise SystemExit(main())
