"""What an agent hook costs on each turn: `tg-git hook agent claude UserPromptSubmit` (and
`Stop`) with a 10,000-event ledger and a 50 MB transcript that was imported before, after one
new turn was written, beside a bare `python -c pass`; and `tg-git statusline`, which Claude
Code runs after every assistant message, with its status-line JSON (a new fill each time).

    python bench/agent_hook.py [--rounds N] [--events 10000] [--megabytes 50] [--python PYTHON]

Prints min / median / max of wall time and of CPU time (user + system, git processes
included), and the hook's own median beyond starting the interpreter (`python -c pass` of the
same install): on a shared, loaded machine the wall time mostly measures the neighbours.
tg-git runs from a regular install of this checkout (``bench/_install.py``: an editable one
makes every start ~20 ms slower) unless ``--python`` names another interpreter.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench._git_env import ENV
from bench._install import regular_python, spread
from bench._ledger import fill_session
from bench._transcripts import claude_assistant, claude_user
from tg_git.domain import eventlog, replay

TG_GIT = [sys.executable, "-m", "tg_git"]


def run(cwd: Path, env: dict[str, str], args: list[str], stdin: str = "") -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, env=env, input=stdin, text=True, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def setup(root: Path, events: int, megabytes: int) -> tuple[Path, dict[str, str], Path]:
    repo = root / "repo"
    repo.mkdir()
    claude_home = root / "claude"
    env = {**ENV, "CLAUDE_CONFIG_DIR": str(claude_home), "HOME": str(root / "home")}
    for args in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"],
                 [*TG_GIT, "init", "--max-tokens", str(10**9)]):  # fmt: skip
        subprocess.run(args, cwd=repo, env=env, check=True, capture_output=True)
    ledger_path = next((repo / ".tg-git" / "ledger").glob("*.toml"))  # the session's own file
    session = replay.replay(eventlog.parse(ledger_path.read_text()))
    assert session is not None
    lines = []
    for i in range(events):
        kind = "commit" if i % 3 else "input"
        fields = {"tokens": 100 + i % 50, "label": f"src/module_{i % 400}.py"}
        if kind == "commit":
            fields["files"] = 1
        lines.append(eventlog.event_line(kind, session=session.id, **fields)[1])
    fill_session(repo, lines)  # its file, then segments, as tg-git writes them
    subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
    subprocess.run(
        ["git", "commit", "-q", "--no-verify", "-m", "ledger"], cwd=repo, env=env, check=True
    )
    folder = claude_home / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    folder.mkdir(parents=True)
    transcript = folder / "bench.jsonl"
    n = 0
    with transcript.open("w") as fh:
        while fh.tell() < megabytes << 20:
            n += 1
            fh.write(claude_user() + claude_assistant(n, "bench", fill=60_000, copies=3))
    subprocess.run([*TG_GIT, "usage", "import"], cwd=repo, env=env, check=True, capture_output=True)
    return repo, env, transcript


def statusline_json(repo: Path, fill: int, spent: int) -> str:
    """Claude Code's status-line input (notes/agent-surfaces.md), one fill and running total."""
    return json.dumps({
        "session_id": "bench", "cwd": str(repo), "model": {"id": "claude-opus-4-6"},
        "workspace": {"current_dir": str(repo), "project_dir": str(repo)},
        "cost": {"total_cost_usd": spent / 10**6},
        "context_window": {"total_input_tokens": spent, "total_output_tokens": spent // 50,
                           "context_window_size": 1_000_000, "current_usage": {
                               "input_tokens": 5, "output_tokens": 100,
                               "cache_creation_input_tokens": 500,
                               "cache_read_input_tokens": fill - 505}}})  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--python", help="whose tg-git to time (default: a regular install)")
    args = parser.parse_args()
    TG_GIT[0] = args.python or regular_python()
    with tempfile.TemporaryDirectory() as tmp:
        repo, env, transcript = setup(Path(tmp), args.events, args.megabytes)
        payload = {"session_id": "bench", "transcript_path": str(transcript), "cwd": str(repo)}
        results: dict[str, list[tuple[float, float]]] = {
            "python -c pass": [],
            "UserPromptSubmit": [],
            "Stop": [],
            "statusline": [],
        }
        for i in range(args.rounds):
            results["python -c pass"].append(run(repo, env, [TG_GIT[0], "-c", "pass"]))
            for event in ("UserPromptSubmit", "Stop"):
                # A new second for each turn, as an agent's turns are (the ledger's times are
                # whole seconds; an import in the same second as the newest event reads again).
                time.sleep(1.02 - time.time() % 1)
                with transcript.open("a") as fh:
                    fh.write(
                        claude_user()
                        + claude_assistant(
                            10**6 + 2 * i + len(event), "bench", fill=61_000, copies=3
                        )
                    )
                stdin = json.dumps({**payload, "hook_event_name": event, "prompt": "go"})
                results[event].append(
                    run(repo, env, [*TG_GIT, "hook", "agent", "claude", event], stdin)
                )
            line = statusline_json(repo, 61_000 + i * 100, 10**6 + i * 1000)
            results["statusline"].append(run(repo, env, [*TG_GIT, "statusline"], line))
        size = transcript.stat().st_size / 2**20
        print(
            f"## Agent hook per turn: {args.events:,}-event ledger, {size:.0f} MB transcript, "
            f"one new turn each (median of {args.rounds})"
        )
        print("| what | wall ms min / med / max | CPU ms min / med / max | own wall / CPU med |")
        print("|---|---|---|---:|")
        bare = statistics.median(v[0] for v in results["python -c pass"]) * 1000
        bare_cpu = statistics.median(v[1] for v in results["python -c pass"]) * 1000
        for name, values in results.items():
            walls, cpus = [v[0] for v in values], [v[1] for v in values]
            own = (f"{statistics.median(walls) * 1000 - bare:.0f} / "
                   f"{statistics.median(cpus) * 1000 - bare_cpu:.0f}")  # fmt: skip
            shown = own if name != "python -c pass" else ""
            print(f"| {name} | {spread(walls).strip()} | {spread(cpus).strip()} | {shown} |")
        print(f"- interpreter: {TG_GIT[0]}")
        status = subprocess.run(
            [*TG_GIT, "status", "--json"], cwd=repo, env=env, capture_output=True, text=True
        )
        print(f"- session after: source {json.loads(status.stdout)['source']}")


if __name__ == "__main__":
    main()
