"""Measured-usage import: cost of a first import (linear in the transcript's size), cost of an
incremental one-turn import, and agreement with ccusage, an independent reader of the logs.

    python bench/usage.py [--sizes 10,50,100] [--rounds N] [--ccusage PATH] [--python PYTHON]
    python bench/usage.py --speed-only [--speed-size 100] [--speed-rounds 5] [--against PYTHON]

`--speed-*`: the same transcript of each agent read by `tg-git usage import` and by
`ccusage AGENT session --json --offline`, in turn (interleaved, a fresh repository and agent
home each round), CPU and wall min / median / max of each whole command, and both totals.
ccusage is optional (`npm install ccusage@20.0.24` in a temp folder; pass its
`node_modules/.bin/ccusage`, or set TG_GIT_CCUSAGE). tg-git runs from a regular install of this
checkout (``bench/_install.py``) unless ``--python`` names another; ``--against`` names one more
(a regular install of another commit: ``git archive COMMIT | tar -x -C /tmp/old``, then
``pip install /tmp/old`` into a scratch venv), timed in the same rounds. Nothing here touches the
real agent homes: every transcript lives in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV
from bench._install import regular_python, run_timed, spread
from bench._transcripts import (
    claude_assistant,
    claude_user,
    codex_big,
    codex_rollout,
    gemini_big,
    gemini_chat,
)

TG_GIT = [sys.executable, "-m", "tg_git"]


def sh(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(args, cwd=cwd, env=env or ENV, check=True, capture_output=True, text=True)
    return proc.stdout


def make_repo(root: Path) -> tuple[Path, dict[str, str]]:
    repo = root / "repo"
    repo.mkdir()
    homes = {
        k: str(root / k.lower()) for k in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME")
    }
    for path in homes.values():
        Path(path).mkdir()
    env = {**ENV, **homes, "HOME": str(root / "home")}
    sh(repo, "git", "init", "-q", env=env)
    (repo / "README.md").write_text("bench\n")
    sh(repo, "git", "add", ".", env=env)
    sh(repo, "git", "commit", "-q", "-m", "init", env=env)
    sh(repo, *TG_GIT, "init", "--max-tokens", str(10**9), env=env)
    return repo, env


def claude_folder(repo: Path, env: dict[str, str]) -> Path:
    folder = Path(env["CLAUDE_CONFIG_DIR"]) / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def write_transcript(path: Path, megabytes: int) -> int:
    """A Claude transcript of about ``megabytes`` MB: turns of a tool result and an answer
    written in three streaming copies. Returns the number of requests."""
    target, n = megabytes << 20, 0
    with path.open("w") as fh:
        while fh.tell() < target:
            n += 1
            fh.write(claude_user())
            fh.write(claude_assistant(n, "big", fill=50_000 + n % 1000, copies=3))
    return n


def timed(cwd: Path, env: dict[str, str], *args: str) -> float:
    """CPU seconds (user + system) of the command and the git processes it starts: on a
    shared, loaded machine wall time mostly measures the neighbours."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    sh(cwd, *args, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def first_imports(sizes: list[int]) -> None:
    print("## First import of one Claude transcript (tg-git usage import, whole command, CPU time)")
    print("| size | requests | seconds | MB/s |")
    print("|---:|---:|---:|---:|")
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            repo, env = make_repo(Path(tmp))
            requests = write_transcript(claude_folder(repo, env) / "big.jsonl", size)
            seconds = timed(repo, env, *TG_GIT, "usage", "import")
            print(f"| {size} MB | {requests:,} | {seconds:.2f} | {size / seconds:.0f} |")


def incremental(rounds: int, size: int) -> None:
    print(
        f"\n## One new turn after a {size} MB transcript was imported (median of {rounds}, CPU time)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        repo, env = make_repo(Path(tmp))
        path = claude_folder(repo, env) / "big.jsonl"
        n = write_transcript(path, size)
        sh(repo, *TG_GIT, "usage", "import", env=env)
        nothing, one = [], []
        for i in range(rounds):
            nothing.append(timed(repo, env, *TG_GIT, "usage", "import"))
            with path.open("a") as fh:
                fh.write(claude_user() + claude_assistant(n + 1 + i, "big", fill=60_000, copies=3))
            one.append(timed(repo, env, *TG_GIT, "usage", "import"))
        # The import itself, in-process (no interpreter start, no imports).
        here, target = repr(str(Path(__file__).resolve().parents[1])), repr(str(path))
        code = "\n".join([
            f"import sys, time; sys.path.insert(0, {here})",
            "from tg_git.repo.workspace import Workspace",
            "from tg_git.usage.importer import import_usage",
            "from bench._transcripts import claude_user, claude_assistant",
            "ws = Workspace.open(); times = []",
            f"for i in range({rounds}):",
            f"    open({target}, 'a').write(claude_user() + claude_assistant(10**6 + i, 'big', fill=60_000, copies=3))",
            "    t = time.process_time(); import_usage(ws); times.append(time.process_time() - t)",
            "times.sort(); print(times[len(times) // 2])",
        ])  # fmt: skip
        inproc = float(sh(repo, sys.executable, "-c", code, env=env).strip())
    a, b = statistics.median(nothing), statistics.median(one)
    print(
        f"- `usage import` with nothing new: {a * 1000:.0f} ms; with one new turn: {b * 1000:.0f} ms"
        f" (+{(b - a) * 1000:.0f} ms)"
    )
    print(
        f"- import_usage() alone for one new turn, this process's CPU (the git add it starts not included): {inproc * 1000:.1f} ms"
    )


def fixtures(repo: Path, env: dict[str, str]) -> None:
    folder = claude_folder(repo, env)
    text = claude_assistant(1, "c-1", fill=30_000, copies=3) + claude_assistant(
        2, "c-1", fill=34_000, copies=2
    )
    (folder / "c-1.jsonl").write_text(claude_user() + text)
    sub = folder / "c-1" / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-a.jsonl").write_text(
        claude_assistant(1, "c-1s", fill=9_000, side=True, model="claude-haiku-4-5", copies=2)
    )
    (folder / "c-2.jsonl").write_text(claude_assistant(1, "c-2", fill=12_345, copies=4))
    day = Path(env["CODEX_HOME"]) / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    (day / "rollout-2026-11-30T10-00-00-0199-aaaa.jsonl").write_text(
        codex_rollout(
            str(repo), [(1000, 200, 50), (2500, 1200, 80), (6100, 2000, 300)], "0199-aaaa"
        )
    )
    chats = Path(env["GEMINI_CLI_HOME"]) / ".gemini" / "tmp" / "repo" / "chats"
    chats.mkdir(parents=True)
    (Path(env["GEMINI_CLI_HOME"]) / ".gemini" / "projects.json").write_text(
        json.dumps({"projects": {str(repo): "repo"}})
    )
    (chats / "session-2026-11-30T10-00-abcd1234.jsonl").write_text(
        gemini_chat("g-1", [("a", 15_327, 11_526, 23), ("b", 17_000, 15_000, 40)])
    )


def ccusage_env(agent: str, env: dict[str, str]) -> dict[str, str]:
    """``env`` with where ccusage looks for ``agent``'s logs (Gemini: not where the CLI does)."""
    extra = {"gemini": {"GEMINI_DATA_DIR": str(Path(env["GEMINI_CLI_HOME"]) / ".gemini")}}
    return {**env, **extra.get(agent, {})}


def ccusage_json(binary: str, agent: str, env: dict[str, str]) -> dict[str, Any] | None:
    """`ccusage AGENT session --json --offline` (its bundled prices, no network)."""
    out = subprocess.run(
        [binary, agent, "session", "--json", "--offline"],
        env=ccusage_env(agent, env),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if out.returncode != 0:
        return None
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def ccusage_usd(data: dict[str, Any]) -> float:
    """ccusage's USD over its sessions (`totalCost`, Codex: `costUSD`)."""
    return sum(float(s.get("totalCost", s.get("costUSD", 0)) or 0) for s in data["sessions"])


def ccusage_totals(data: dict[str, Any], agent: str) -> tuple[int, ...]:
    """(fresh input, cache writes, cache reads, total) summed over ccusage's per-model rows.
    Its session totals also count `<synthetic>` Claude lines, which are not API calls; its
    Gemini `outputTokens` leave the thoughts out (they are in its total)."""
    sums = [0, 0, 0, 0]
    for session in data.get("sessions", []):
        if agent == "claude":
            rows = session.get("modelBreakdowns") or []
        else:
            rows = list(session.get("models", {}).values()) or [session]
        for row in rows:
            fresh, write, read = (
                row.get(k, 0) for k in ("inputTokens", "cacheCreationTokens", "cacheReadTokens")
            )
            total = row.get("totalTokens", fresh + write + read + row.get("outputTokens", 0))
            sums = [a + b for a, b in zip(sums, (fresh, write, read, total))]
    return tuple(sums)


def oracle(binary: str | None) -> None:
    print("\n## Per-agent spend: tg-git vs ccusage 20.0.24, same fixtures")
    if not binary or not Path(binary).exists():
        print("- ccusage not found (pass --ccusage or set TG_GIT_CCUSAGE); skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        repo, env = make_repo(Path(tmp))
        fixtures(repo, env)
        sh(repo, *TG_GIT, "usage", "import", env=env)
        report = json.loads(sh(repo, *TG_GIT, "usage", "--json", env=env))
        print(
            "| agent | tg-git fresh / cache writes / cache reads / total | ccusage, same | equal |"
        )
        print("|---|---|---|---|")
        usd_rows = []
        for agent in ("claude", "codex", "gemini"):
            rows = [m for m in report["models"] if m["agent"] == agent]
            ours = tuple(
                sum(r[k] for r in rows)
                for k in ("fresh_input", "cache_write", "cache_read", "total")
            )
            data = ccusage_json(binary, agent, env)
            theirs = ccusage_totals(data, agent) if data else None
            shown = " / ".join(f"{n:,}" for n in theirs) if theirs else "ccusage failed"
            print(
                f"| {agent} | {' / '.join(f'{n:,}' for n in ours)} | {shown} | "
                f"{'yes' if ours == theirs else 'NO'} |"
            )
            our_usd = sum(r["usd"] or 0 for r in rows)
            models = ", ".join(sorted({r["model"] for r in rows}))
            usd_rows.append((agent, models, our_usd, ccusage_usd(data) if data else None))
        usd_table(usd_rows, report["prices"]["date"])


def usd_table(rows: list[tuple[str, str, float, float | None]], date: str) -> None:
    """tg-git's USD (its offline table) beside ccusage's (its bundled LiteLLM prices)."""
    print(f"\n## USD: tg-git's price table ({date}) vs ccusage 20.0.24 --offline, same fixtures")
    print("| agent | models | tg-git USD | ccusage USD | difference |")
    print("|---|---|---:|---:|---:|")
    for agent, models, ours, theirs in rows:
        if theirs is None:
            print(f"| {agent} | {models} | {ours:.6f} | ccusage failed | |")
            continue
        diff = ours - theirs
        pct = f" ({100 * diff / theirs:+.1f}%)" if theirs else ""
        print(f"| {agent} | {models} | {ours:.6f} | {theirs:.6f} | {diff:+.6f}{pct} |")


def gemini_chats(repo: Path, env: dict[str, str]) -> Path:
    """The chats folder Gemini CLI keeps for ``repo`` (registered in its projects.json)."""
    home = Path(env["GEMINI_CLI_HOME"]) / ".gemini"
    chats = home / "tmp" / "repo" / "chats"
    chats.mkdir(parents=True)
    (home / "projects.json").write_text(json.dumps({"projects": {str(repo): "repo"}}))
    return chats


def place_big(agent: str, repos: list[tuple[Path, dict[str, str]]], megabytes: int) -> None:
    """One transcript of ``agent`` of about ``megabytes`` MB in each repository's agent home,
    written after every repository's session started (so every request counts): one file
    linked into each (Claude, Gemini), or one per repository (a Codex rollout names its cwd)."""
    if agent == "codex":
        stamp = time.strftime("%Y-%m-%dT%H-%M-%S")
        body = ""
        for repo, env in repos:
            head, body = codex_big(str(repo), megabytes) if not body else (
                codex_rollout(str(repo), [], "0199-big"), body)  # fmt: skip
            day = Path(env["CODEX_HOME"]) / "sessions" / time.strftime("%Y/%m/%d")
            day.mkdir(parents=True)
            (day / f"rollout-{stamp}-0199-big.jsonl").write_text(head + body)
        return
    first = None
    for repo, env in repos:
        if agent == "claude":
            path = claude_folder(repo, env) / "big.jsonl"
        else:
            path = gemini_chats(repo, env) / f"session-{time.strftime('%Y-%m-%dT%H-%M')}-big1.jsonl"
        if first is None:
            if agent == "claude":
                write_transcript(path, megabytes)
            else:
                path.write_text(gemini_big(megabytes))
            first = path
        else:
            os.link(first, path)


def speed(python: str, binary: str | None, megabytes: int, rounds: int,
          against: str | None = None) -> None:  # fmt: skip
    """tg-git's `usage import` beside ccusage on the same transcript, interleaved (``against``:
    another tg-git's interpreter, a regular install of another commit, timed in the same
    rounds on a repository of its own)."""
    print(f"\n## Same {megabytes} MB transcript: `tg-git usage import` vs `ccusage AGENT session"
          f" --json --offline` (whole commands, {rounds} rounds interleaved, ms)")  # fmt: skip
    if not binary or not Path(binary).exists():
        print("- ccusage not found (pass --ccusage or set TG_GIT_CCUSAGE); skipped")
        return
    print("| agent | who | CPU min / med / max | wall min / med / max | MB/s (CPU med) | tokens |")
    print("|---|---|---|---|---:|---:|")
    command = ["-m", "tg_git", "usage", "import", "--json"]
    for agent in ("claude", "codex", "gemini"):
        with tempfile.TemporaryDirectory() as tmp:
            repos = []
            for i in range(rounds * (2 if against else 1)):
                (Path(tmp) / str(i)).mkdir()
                repos.append(make_repo(Path(tmp) / str(i)))
            place_big(agent, repos, megabytes)
            ours, theirs, other = [], [], []
            for i in range(rounds):
                repo, env = repos[i]
                ours.append(run_timed([python, *command], repo, env))
                theirs.append(run_timed([binary, agent, "session", "--json", "--offline"],
                                        repo, ccusage_env(agent, env)))  # fmt: skip
                if against:
                    other.append(run_timed([against, *command], *repos[rounds + i]))
            our_total = json.loads(ours[-1].stdout)["tokens"]
            their_total = ccusage_totals(json.loads(theirs[-1].stdout), agent)[3]
            rows = [("tg-git", ours, our_total), ("ccusage", theirs, their_total)]
            if other:
                rows.append(("tg-git --against", other, json.loads(other[-1].stdout)["tokens"]))
            for who, runs, total in rows:
                mbs = megabytes / statistics.median(r.cpu for r in runs)
                print(f"| {agent} | {who} | {spread([r.cpu for r in runs]).strip()} | "
                      f"{spread([r.wall for r in runs]).strip()} | {mbs:.0f} | {total:,} |")  # fmt: skip
            for who, runs, total in rows[:1] + rows[2:]:
                ratio = statistics.median(r.cpu for r in theirs) / statistics.median(
                    r.cpu for r in runs
                )
                wall = statistics.median(r.wall for r in theirs) / statistics.median(
                    r.wall for r in runs
                )
                same = "same totals" if total == their_total else "TOTALS DIFFER"
                print(f"| {agent} | ratio | ccusage / {who} CPU median {ratio:.2f}x | wall"
                      f" {wall:.2f}x | | {same} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--sizes", default="10,50,100")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--incremental-size", type=int, default=50)
    parser.add_argument(
        "--ccusage", default=os.environ.get("TG_GIT_CCUSAGE") or shutil.which("ccusage")
    )
    parser.add_argument("--python", help="whose tg-git to time (default: a regular install)")
    parser.add_argument("--speed-size", type=int, default=100, help="MB (0: no speed section)")
    parser.add_argument("--speed-rounds", type=int, default=5)
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--against", help="another tg-git's python to time in the same rounds")
    args = parser.parse_args()
    python = args.python or regular_python()
    TG_GIT[0] = python
    if not args.speed_only:
        oracle(args.ccusage)
        first_imports([int(s) for s in args.sizes.split(",") if s])
        incremental(args.rounds, args.incremental_size)
    if args.speed_size:
        speed(python, args.ccusage, args.speed_size, args.speed_rounds, args.against)


if __name__ == "__main__":
    main()
