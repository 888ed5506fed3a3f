"""How long `tg-git resume` takes in a big repository: 10,000 commits, 500 checkpoints.

    python bench/resume.py [--commits N] [--checkpoints M] [--repeat R]

The repository is built with `git fast-import` (plumbing, seconds): commits touch 100 files in
turn, every (N/M)-th commit is a checkpoint commit with `harness_checkpoint.json` and an
annotated `checkpoint/` tag, and the ledger holds one event per commit (10,000 lines at HEAD).
The last session started 10 commits ago, so resume re-estimates those. Prints the median
wall time of `tg-git resume --json` (a fresh process each time, as an agent runs it) and of
`python -c pass` beside it. Target (issue 5): under 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV

SESSION_COMMITS = 10


def data(text: str) -> bytes:
    raw = text.encode()
    return b"data %d\n" % len(raw) + raw + b"\n"


def event(n: int, kind: str, session: str, **extra: object) -> str:
    """A ledger line in the shape tg-git writes (quoted keys, JSON strings)."""
    fields = ", ".join(f'"{k}" = {json.dumps(v)}' for k, v in extra.items())
    at = f"2026-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
    return f'e{n:08d}-bench = {{ "kind" = "{kind}", "at" = "{at}", "session" = "{session}", {fields} }}\n'


def checkpoint_json(n: int) -> str:
    return json.dumps({
        "schema_version": "1.0",
        "session": {"timestamp": f"2026-01-01T00:00:{n % 60:02d}Z", "project_name": "bench",
                    "project_root": "/bench", "max_tokens": 10**9, "estimated_used": n * 10},
        "token_thresholds": {"warning": 8 * 10**8, "force_save": 9 * 10**8, "halt": 95 * 10**7},
        "status": {"completed": [f"file{i}.txt" for i in range(10)], "in_progress": [
            {"task": "bench", "stopping_point": f"commit {n}", "blockers": []}], "pending": ["more"]},
        "critical_context": ["bench"], "next_steps": ["continue"], "resume_instructions": "resume",
    }, indent=2)  # fmt: skip


def build(repo: Path, commits: int, checkpoints: int) -> None:
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=ENV)
    every = max(1, commits // checkpoints)
    config = "[thresholds]\nwarning = 80\nforce_save = 90\nhalt = 95\n"
    ledger_lines = [
        's00000000-bench = { "kind" = "session", "at" = "2026-01-01T00:00:00Z", '
        '"id" = "old", "max_tokens" = 1000000000, "base" = "" }\n'
    ]
    stream = bytearray()
    base_mark = commits - SESSION_COMMITS
    for n in range(1, commits + 1):
        is_cp = n % every == 0 and n != commits
        stream += b"commit refs/heads/main\nmark :%d\n" % n
        stream += b"committer bench <bench@example.com> %d +0000\n" % (1_700_000_000 + n)
        stream += data(
            f"checkpoint: manual at commit {n}\n\nTg-Git-Session: old\nTg-Git-Level: manual\n"
            if is_cp
            else f"change {n}\n"
        )
        if n > 1:
            stream += b"from :%d\n" % (n - 1)
        if n == 1:
            stream += b"M 100644 inline .tg-git/config.toml\n" + data(config)
        if is_cp:
            stream += b"M 100644 inline harness_checkpoint.json\n" + data(checkpoint_json(n))
        else:
            stream += b"M 100644 inline file%d.txt\n" % (n % 100)
            stream += data(f"line {n} of the file, with some words in it\n" * 5)
            session = "new" if n > base_mark else "old"
            ledger_lines.append(event(n, "commit", session, tokens=60, files=1))
        if n == base_mark:
            ledger_lines.append(
                f'e{n:08d}-start = {{ "kind" = "session", "at" = "2026-01-02T00:00:00Z", "id" = "new", '
                f'"max_tokens" = 1000000000, "base" = "BASE" }}\n'
            )
        # The ledger is rewritten every 500 commits and on each of the last session's commits.
        if n % 500 == 0 or n >= base_mark or n == commits:
            stream += b"M 100644 inline .tg-git/ledger.toml\n" + data("".join(ledger_lines))
        if is_cp:
            stream += b"tag checkpoint/2026%08dT000000.000000Z-old-manual\nfrom :%d\n" % (n, n)
            stream += b"tagger bench <bench@example.com> %d +0000\n" % (1_700_000_000 + n)
            stream += data(f"checkpoint {n}")
    subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=repo, input=bytes(stream), check=True, env=ENV
    )
    base = subprocess.run(
        ["git", "rev-parse", f"main~{SESSION_COMMITS}"],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
        env=ENV,
    ).stdout.strip()
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=repo, check=True, env=ENV)
    ledger = repo / ".tg-git" / "ledger.toml"
    ledger.write_text(ledger.read_text().replace('"base" = "BASE"', f'"base" = "{base}"'))
    subprocess.run(["git", "commit", "-qam", "set base"], cwd=repo, check=True, env=ENV)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--checkpoints", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="tg-git-resume-"))
    try:
        repo = root / "repo"
        start = time.perf_counter()
        build(repo, args.commits, args.checkpoints)
        built = time.perf_counter() - start
        count = subprocess.run(
            ["git", "rev-list", "--count", "HEAD"], cwd=repo, capture_output=True, text=True
        ).stdout.strip()
        tags = len(
            subprocess.run(
                ["git", "tag", "-l", "checkpoint/*"], cwd=repo, capture_output=True, text=True
            ).stdout.split()
        )
        print(f"built {count} commits, {tags} checkpoint tags in {built:.1f} s")
        ledger = (repo / ".tg-git" / "ledger.toml").read_text().count("\n")
        print(f"ledger at HEAD: {ledger:,} events")
        times, py = [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            py.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-m", "tg_git", "resume", "--json"],
                cwd=repo,
                capture_output=True,
                text=True,
                env=ENV,
            )
            times.append(time.perf_counter() - t0)
            if out.returncode != 0:
                print(out.stderr)
                return 1
            subprocess.run(
                ["git", "reset", "-q", "--hard"], cwd=repo, env=ENV
            )  # drop the new session event
        result = json.loads(out.stdout)
        print(
            f"newest checkpoint: {result['checkpoint']['tag']}; drift entries: {len(result['drift'])}"
        )
        print(f"python -c pass:       {statistics.median(py) * 1000:7.1f} ms")
        print(
            f"tg-git resume --json: {statistics.median(times) * 1000:7.1f} ms median of {args.repeat} (target < 500 ms)"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
