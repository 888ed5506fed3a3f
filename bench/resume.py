"""How long `tg-git resume` takes in a big repository: 10,000 commits, 500 checkpoints.

    python bench/resume.py [--commits N] [--checkpoints M] [--repeat R]

The repository is built with `git fast-import` (plumbing, seconds): commits touch 100 files in
turn, every (N/M)-th commit is a checkpoint commit with `harness_checkpoint.json` and an
annotated `checkpoint/` tag, and the ledger holds one event per commit (10,000 lines at HEAD) in two per-session files.
The last session started 10 commits ago, so resume re-estimates those. Each run is
in a fresh `git clone` of it (no journal, no memo: what an agent on a new machine gets). Prints CPU and
wall time, min / median / max, of `tg-git resume --json` (a fresh process each time, as an
agent runs it, from a regular install: ``bench/_install.py``, or ``--python``) and of `python
-c pass` beside it, interleaved. Targets: under 0.5 s at 10,000 commits, under 1 s
at 100,000.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV
from bench._install import regular_python, run_timed, spread, workdir

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
    return json.dumps(
        {
            "schema_version": "1.0",
            "session": {
                "timestamp": f"2026-01-01T00:00:{n % 60:02d}Z",
                "project_name": "bench",
                "project_root": "/bench",
                "max_tokens": 10**9,
                "estimated_used": n * 10,
            },
            "token_thresholds": {"warning": 8 * 10**8, "force_save": 9 * 10**8, "halt": 95 * 10**7},
            "status": {
                "completed": [f"file{i}.txt" for i in range(10)],
                "in_progress": [{"task": "bench", "stopping_point": f"commit {n}", "blockers": []}],
                "pending": ["more"],
            },
            "critical_context": ["bench"],
            "next_steps": ["continue"],
            "resume_instructions": "resume",
        },
        indent=2,
    )


def build(repo: Path, commits: int, checkpoints: int) -> None:
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=ENV)
    every = max(1, commits // checkpoints)
    config = "[thresholds]\nwarning = 80\nforce_save = 90\nhalt = 95\n"
    old_lines = [
        's00000000-bench = { "kind" = "session", "at" = "2026-01-01T00:00:00Z", '
        '"id" = "old", "max_tokens" = 1000000000, "base" = "" }\n'
    ]
    new_lines: list[str] = []
    stream = bytearray()
    base_mark = commits - SESSION_COMMITS
    rewrite = max(500, commits // 20)
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
            stream += b"M 100644 inline .gitattributes\n" + data(
                ".tg-git/ledger/*.toml merge=union\n"
            )
        if is_cp:
            stream += b"M 100644 inline harness_checkpoint.json\n" + data(checkpoint_json(n))
        else:
            stream += b"M 100644 inline file%d.txt\n" % (n % 100)
            stream += data(f"line {n} of the file, with some words in it\n" * 5)
            new = n > base_mark
            (new_lines if new else old_lines).append(
                event(n, "commit", "new" if new else "old", tokens=60, files=1)
            )
        if n == base_mark:
            new_lines.append(
                f'e{n:08d}-start = {{ "kind" = "session", "at" = "2026-01-02T00:00:00Z", "id" = "new", '
                f'"max_tokens" = 1000000000, "base" = "BASE" }}\n'
            )
        # Per-session files: the old session's is rewritten every `rewrite` commits and at its
        # end, the new one on each of its commits.
        if n % rewrite == 0 or n == base_mark:
            stream += b"M 100644 inline .tg-git/ledger/old.toml\n" + data("".join(old_lines))
        if n >= base_mark:
            stream += b"M 100644 inline .tg-git/ledger/new.toml\n" + data("".join(new_lines))
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
    ledger = repo / ".tg-git" / "ledger" / "new.toml"
    ledger.write_text(ledger.read_text().replace('"base" = "BASE"', f'"base" = "{base}"'))
    subprocess.run(["git", "commit", "-qam", "set base"], cwd=repo, check=True, env=ENV)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--checkpoints", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--python", help="whose tg-git to time (default: a regular install)")
    parser.add_argument("--keep", type=Path, help="keep the repository and the last clone here")
    args = parser.parse_args()
    python = args.python or regular_python()
    with workdir(args.keep, "tg-git-resume-") as root:
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
        ledger = sum(f.read_text().count("\n") for f in (repo / ".tg-git" / "ledger").iterdir())
        print(f"ledger at HEAD: {ledger:,} events")
        cpu, wall, py_cpu, py_wall = [], [], [], []
        for n in range(args.repeat):
            clone = root / f"clone{n}"  # a fresh clone each time: no journal, no memo
            subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True, env=ENV)
            t = run_timed([python, "-c", "pass"], clone)
            py_wall.append(t.wall)
            py_cpu.append(t.cpu)
            t = run_timed([python, "-m", "tg_git", "resume", "--json"], clone, ENV)
            wall.append(t.wall)
            cpu.append(t.cpu)
            if args.keep is None or n + 1 < args.repeat:
                shutil.rmtree(clone)
        result = json.loads(t.stdout)
        print(
            f"newest checkpoint: {result['checkpoint']['tag']}; drift entries: {len(result['drift'])}"
        )
        print(f"{'ms':<22s} cpu min / med / max     wall min / med / max")
        print(f"{'python -c pass':<22s} {spread(py_cpu)}   {spread(py_wall)}")
        print(f"{'tg-git resume --json':<22s} {spread(cpu)}   {spread(wall)}  ({args.repeat} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
