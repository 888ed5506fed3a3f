"""What the agent hooks cost, run as the agent runs them: each command string is the one
`tg-git agent install` wrote into the agent's settings, run with the shell that agent runs a
hook command with (``formats.HOOK_SHELL``: Claude Code ``/bin/sh -c``, Gemini CLI
``bash -c``, Copilot CLI ``/bin/bash --norc --noprofile -c``, Codex CLI the user's login
shell with ``-c``) and the agent's JSON on stdin. Timed at 100 / 10,000 / 100,000 events in
the ledger:

- PreToolUse (a shell call, the session not at the halt), for Claude Code, Codex CLI, Gemini
  CLI and Copilot CLI, each with its own payload: the shell answers from the state the last
  Python left (``tg_git.repo.hotstate``); and once per round for Claude Code with the state
  taken away, so Python answers (what a call right after a change costs);
- UserPromptSubmit and Stop, after one new turn in a transcript imported before;
- the status line right after that turn (its first refresh: the turn's new lines folded into
  the kept figures), then again with nothing new but its JSON (a new fill each time);
- beside `python -c pass` (the same interpreter), `sh -c true` (the floor of a command
  Claude Code runs), `bash -c true` and `sh -c '/bin/sh -c true'`.

    python bench/agent_hook.py [--quick] [--rounds N] [--events 100 10000 100000]
                               [--megabytes 20] [--python PYTHON]

Runs are interleaved (one of each per round; three tool calls of each agent, in turn), CPU
time is user + system of the command and every process it waited for; min / median / max. tg-git runs from a regular install of this
checkout (``bench/_install.py``) unless ``--python`` names another interpreter. ``measure``
is what another script calls; ``main`` prints the table.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
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
from bench._install import regular_python
from bench._ledger import fill_session
from bench._transcripts import claude_assistant, claude_user
from tg_git.agents import formats
from tg_git.domain import eventlog, replay

HOT = "PreToolUse (shell)"
COLD = "PreToolUse (Python)"
MISSED = "PreToolUse (Python answered: no state, or a stale one)"
AGAIN = "statusline (again)"
TOOL_AGENTS = ("claude", "codex", "gemini", "copilot")  # each CLI's hook shell was seen
FLOORS = {"sh -c true": ["/bin/sh", "-c", "true"], "bash -c true": ["bash", "-c", "true"],
          "sh -c '/bin/sh -c true'": ["/bin/sh", "-c", "/bin/sh -c true"]}  # fmt: skip
NAMES = ("python -c pass", *FLOORS, *(f"{HOT} {a}" for a in TOOL_AGENTS), COLD,
         "UserPromptSubmit", "Stop", "statusline", AGAIN)  # fmt: skip


def hook_shell(agent: str) -> list[str]:
    """The argv the agent runs a hook command with: Codex CLI the user's login shell."""
    if agent == "codex":
        return [pwd.getpwuid(os.getuid()).pw_shell or "/bin/sh", "-c"]
    return list(formats.HOOK_SHELL[agent])


def run(cwd: Path, env: dict[str, str], args: list[str], stdin: str = "") -> tuple[float, float]:
    """Wall and CPU seconds of ``args`` and everything it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, env=env, input=stdin, text=True, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def setup(
    root: Path, python: str, events: int, megabytes: int
) -> tuple[Path, dict[str, str], Path]:
    """A repository with ``events`` events in its session, committed, a Claude transcript of
    ``megabytes`` imported once, and Claude Code's hooks installed by this Python."""
    tg_git = [python, "-m", "tg_git"]
    repo = root / "repo"
    repo.mkdir()
    claude_home = root / "claude"
    env = {**ENV, "CLAUDE_CONFIG_DIR": str(claude_home), "HOME": str(root / "home")}
    for args in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"],
                 [*tg_git, "init", "--max-tokens", str(10**9)]):  # fmt: skip
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
    subprocess.run(["git", "commit", "-q", "--no-verify", "-m", "ledger"], cwd=repo, env=env,
                   check=True)  # fmt: skip
    folder = claude_home / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    folder.mkdir(parents=True)
    transcript = folder / "bench.jsonl"
    n = 0
    with transcript.open("w") as fh:
        while fh.tell() < megabytes << 20:
            n += 1
            fh.write(claude_user() + claude_assistant(n, "bench", fill=60_000, copies=3))
    for args in ([*tg_git, "usage", "import"], [*tg_git, "agent", "install", *TOOL_AGENTS]):
        subprocess.run(args, cwd=repo, env=env, check=True, capture_output=True)
    (repo / ".git" / "info" / "exclude").write_text(".claude/\n.codex/\n.gemini/\n.github/\n")
    return repo, env, transcript


def installed(repo: Path) -> dict[str, str]:
    """Claude Code's command for each event, and its status line's, as `agent install` wrote
    them; and each agent's tool-call command (``tool AGENT``)."""
    data = json.loads((repo / ".claude" / "settings.local.json").read_text())
    found = {event: groups[0]["hooks"][0]["command"] for event, groups in data["hooks"].items()}
    found["statusline"] = data["statusLine"]["command"]
    for agent in TOOL_AGENTS:
        path = formats.target_file(agent, repo, user=False, shared=False)
        hooks = json.loads(path.read_text())["hooks"]
        event = next(e for e, kind in formats.HOOK_EVENTS[agent].items() if kind == "tool")
        entry = hooks[event][0]
        entry = entry["hooks"][0] if "hooks" in entry else entry
        found[f"tool {agent}"] = formats.command_of(entry)
    return found


def statusline_json(repo: Path, fill: int, spent: int) -> str:
    """Claude Code's status-line input, one fill and running total."""
    return json.dumps({
        "session_id": "bench", "cwd": str(repo), "model": {"id": "claude-opus-4-6"},
        "workspace": {"current_dir": str(repo), "project_dir": str(repo)},
        "cost": {"total_cost_usd": spent / 10**6},
        "context_window": {"total_input_tokens": spent, "total_output_tokens": spent // 50,
                           "context_window_size": 1_000_000, "current_usage": {
                               "input_tokens": 5, "output_tokens": 100,
                               "cache_creation_input_tokens": 500,
                               "cache_read_input_tokens": fill - 505}}})  # fmt: skip


def tool_call(repo: Path, agent: str = "claude") -> str:
    """The agent's tool-call JSON for a shell call, its keys in the order that CLI sends them
    (one line; Codex CLI's without an end of line)."""
    where = {"session_id": "0199-bench", "transcript_path": "/tmp/bench.jsonl", "cwd": str(repo)}
    if agent == "codex":
        data = {"session_id": "0199-bench", "turn_id": "0199-turn", **where,
                "hook_event_name": "PreToolUse", "model": "gpt-5.5",
                "permission_mode": "bypassPermissions", "tool_name": "Bash",
                "tool_input": {"command": "npm test"}, "tool_use_id": "call_2"}  # fmt: skip
        return json.dumps(data, separators=(",", ":"))
    if agent == "gemini":
        data = {**where, "hook_event_name": "BeforeTool", "timestamp": "2026-12-03T15:16:07.766Z",
                "tool_name": "run_shell_command", "tool_input": {"command": "npm test"}}  # fmt: skip
    elif agent == "copilot":
        data = {"sessionId": "0199-bench", "timestamp": 1796310961737, "cwd": str(repo),
                "toolName": "bash", "toolArgs": {"command": "npm test", "description": "tests"}}  # fmt: skip
    else:
        data = {**where, "prompt_id": "b5adfcb4", "permission_mode": "default",
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "npm test", "description": "run the tests"},
                "tool_use_id": "toolu_01"}  # fmt: skip
    return json.dumps(data, separators=(",", ":")) + "\n"


def _round(repo: Path, env: dict[str, str], python: str, transcript: Path, i: int,
           results: dict[str, list[tuple[float, float]]]) -> None:  # fmt: skip
    commands = installed(repo)
    sh = ["/bin/sh", "-c"]
    results["python -c pass"].append(run(repo, env, [python, "-c", "pass"]))
    for name, floor in FLOORS.items():
        results[name].append(run(repo, env, floor))
    payload = {"session_id": "bench", "transcript_path": str(transcript), "cwd": str(repo)}
    for event in ("UserPromptSubmit", "Stop"):
        # A new second for each turn (the ledger's times are whole seconds).
        time.sleep(1.02 - time.time() % 1)
        with transcript.open("a") as fh:
            fh.write(claude_user() + claude_assistant(10**6 + 2 * i + len(event), "bench",
                                                      fill=61_000, copies=3))  # fmt: skip
        stdin = json.dumps({**payload, "hook_event_name": event, "prompt": "go"})
        results[event].append(run(repo, env, [*sh, commands[event]], stdin))
    # A state's time is two seconds before its writer started, in whole seconds: the ledger
    # the turn wrote is older than a state written from now on only after three.
    time.sleep(3.05)
    line = statusline_json(repo, 61_000 + i * 100, 10**6 + i * 1000)
    results["statusline"].append(run(repo, env, [*sh, commands["statusline"]], line))
    line = statusline_json(repo, 61_050 + i * 100, 10**6 + i * 1000 + 500)  # nothing else new
    results[AGAIN].append(run(repo, env, [*sh, commands["statusline"]], line))
    # The status line's writes too: the state the next Python leaves must be newer than them.
    time.sleep(3.05)
    state = repo / ".git" / "tg-git" / "hot" / "state"
    state.unlink(missing_ok=True)
    results[COLD].append(run(repo, env, [*sh, commands["PreToolUse"]], tool_call(repo)))
    for _ in range(3):
        for agent in TOOL_AGENTS:
            before = _stamp(state)
            argv = [*hook_shell(agent), commands[f"tool {agent}"]]
            timed = run(repo, env, argv, tool_call(repo, agent))
            # Python answered when there was no state or it left a new one: counted apart.
            by_shell = before is not None and _stamp(state) == before
            results.setdefault(f"{HOT} {agent}" if by_shell else f"{MISSED} {agent}", []).append(
                timed
            )


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns


def measure(quick: bool = False, rounds: int | None = None,
            sizes: tuple[int, ...] = (100, 10_000, 100_000), megabytes: int | None = None,
            python: str | None = None) -> dict[int, dict[str, list[tuple[float, float]]]]:  # fmt: skip
    """{events: {what: [(wall, cpu) seconds, ...]}}, interleaved within each size."""
    python = python or regular_python()
    rounds = rounds or (3 if quick else 11)
    megabytes = megabytes or (2 if quick else 20)
    found: dict[int, dict[str, list[tuple[float, float]]]] = {}
    for events in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            repo, env, transcript = setup(Path(tmp), python, events, megabytes)
            results: dict[str, list[tuple[float, float]]] = {name: [] for name in NAMES}
            for i in range(rounds):
                _round(repo, env, python, transcript, i, results)
            found[events] = results
    return found


def _spread(values: list[float]) -> str:
    low, mid, high = (f(values) * 1000 for f in (min, statistics.median, max))
    return f"{low:.1f} / {mid:.1f} / {high:.1f}"


def table(found: dict[int, dict[str, list[tuple[float, float]]]]) -> str:
    rows = ["| events | what | runs | CPU ms min / med / max | wall ms min / med / max | CPU × `python -c pass` |",
            "|---:|---|---:|---|---|---:|"]  # fmt: skip
    for events, results in found.items():
        bare = statistics.median(cpu for _, cpu in results["python -c pass"])
        for name, values in results.items():
            if not values:
                continue
            walls, cpus = [w for w, _ in values], [c for _, c in values]
            ratio = f"{statistics.median(cpus) / bare:.2f}" if bare else "?"
            spread = f"{_spread(cpus)} | {_spread(walls)}"
            rows.append(f"| {events:,} | {name} | {len(values)} | {spread} | {ratio} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--quick", action="store_true", help="fewer rounds, a small transcript")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--events", type=int, nargs="+", default=[100, 10_000, 100_000])
    parser.add_argument("--megabytes", type=int)
    parser.add_argument("--python", help="whose tg-git to time (default: a regular install)")
    args = parser.parse_args(argv)
    python = args.python or regular_python()
    start = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    found = measure(args.quick, args.rounds, tuple(args.events), args.megabytes, python)
    print("## Agent hooks through `sh -c`, as `agent install` wrote them")
    print(table(found))
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"- interpreter: {python}; load average (1 / 5 / 15 min) {start} at the start, "
          f"{load} at the end")  # fmt: skip


if __name__ == "__main__":
    main()
