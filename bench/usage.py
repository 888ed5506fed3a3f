"""Measured-usage import: cost of a first import (linear in the transcript's size), cost of an
incremental one-turn import, and agreement with ccusage, an independent reader of the logs.

    python bench/usage.py [--sizes 10,50,100] [--rounds N] [--ccusage PATH] [--python PYTHON]
    python bench/usage.py --speed-only [--speed-size 105] [--speed-rounds 5] [--against PYTHON]
    python bench/usage.py --quick     (the speed section alone: Claude, 3 rounds)
    python bench/usage.py --speed-only --extras fast   (tg-git installed with its fast extra)
    python bench/usage.py --floor [--extras fast]   (where a first import's CPU goes, piece by piece)

`--speed-*`: the same transcript of each agent read by `tg-git usage import` and by ccusage's
own reader, its native binary (`ccusage AGENT session --json --offline`, started directly, not
through its node launcher), in turn (interleaved, a fresh repository and agent home each
round), CPU (user and system apart) and wall min / median / max of each whole command, and both
totals. The Claude transcript is made up here in the shape Claude Code writes (see
``realistic_transcript``), never copied from a user's. ccusage's binary is installed with npm
(``@ccusage/ccusage-linux-x64@20.0.24``, the newest version that publishes one) into the
temporary folder; ``--ccusage PATH`` or TG_GIT_CCUSAGE names another. tg-git runs from a regular install of this
checkout (``bench/_install.py``) unless ``--python`` names another; ``--against`` names one more
(a regular install of another commit: ``git archive COMMIT | tar -x -C /tmp/old``, then
``pip install /tmp/old`` into a scratch venv), timed in the same rounds. Nothing here touches the
real agent homes: every transcript lives in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import _install
from bench._git_env import ENV
from bench._install import regular_python, spread
from bench._transcripts import (
    claude_assistant,
    claude_user,
    codex_big,
    codex_rollout,
    gemini_big,
    gemini_chat,
)

TG_GIT = [sys.executable, "-m", "tg_git"]
AGENTS = ("claude", "codex", "gemini")


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


_WORDS = [
    "def",
    "return",
    "import",
    "class",
    "self",
    "value",
    "line",
    "count",
    "token",
    "usage",
    "print",
    "if",
    "else",
    "for",
    "while",
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "it",
    "that",
    "with",
    "as",
    "on",
    "this",
    "be",
    "are",
    "from",
    "at",
    "by",
    "not",
    "or",
    "have",
    "error",
    "file",
    "path",
    "commit",
    "ledger",
    "hook",
    "agent",
    "session",
    "budget",
    "토큰",
    "예산",
    "커밋",
    "✓",
    "→",
    "é",
]


def _prose(rng: random.Random, size: int) -> str:
    """About ``size`` characters of code-like text: words, newlines, quotes, tabs, a line
    that says ``usage`` and one that holds ``{"usage": ...}`` as text (JSON escapes it)."""
    lines, total = [], 0
    while total < size:
        line = " ".join(rng.choices(_WORDS, k=rng.randrange(3, 14)))
        pick = rng.random()
        if pick < 0.1:
            line = f'    x = "{line}"'
        elif pick < 0.14:
            line = '\tprint("Usage: tg-git usage import")'
        elif pick < 0.16:
            line = '{"usage": {"input_tokens": 5, "output_tokens": 7}}'
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)


def realistic_transcript(path: Path, megabytes: int, seed: int = 7) -> int:
    """A Claude Code transcript of about ``megabytes`` MB, made up here (no user's data), in
    the shape Claude Code writes: prompts, each response streamed as one line per content
    block (thinking, text, tool use) with the same ids and growing ``output_tokens``, tool
    results with large text (copied again in ``toolUseResult``, a few of 200 KB), snapshot
    and system lines, text that mentions usage. Returns the number of requests."""
    rng = random.Random(seed)
    pool = _prose(rng, 1 << 20)  # text is cut from this: generating 100 MB word by word is slow
    start, session, parent = time.time(), str(uuid.UUID(int=rng.getrandbits(128))), None

    def text(size: int) -> str:
        at = rng.randrange(0, len(pool) - size) if size < len(pool) else 0
        return (pool * (1 + size // len(pool)))[at : at + size]

    def base(kind: str, n: int) -> dict[str, Any]:
        nonlocal parent
        this = str(uuid.UUID(int=rng.getrandbits(128)))
        moment = start + n * 0.05 + rng.random() * 0.04
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(moment))
        line = {"parentUuid": parent, "isSidechain": False, "userType": "external",
                "cwd": "/home/dev/project", "sessionId": session, "version": "2.1.87",
                "gitBranch": "main", "type": kind, "uuid": this,
                "timestamp": f"{stamp}.{int(moment * 1000) % 1000:03d}Z"}  # fmt: skip
        parent = this
        return line

    def dump(obj: dict[str, Any]) -> str:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"

    n, target = 0, megabytes << 20
    with path.open("w", encoding="utf-8") as fh:
        while fh.tell() < target:
            n += 1
            if n % 7 == 1:
                prompt = {"role": "user", "content": text(rng.randrange(50, 600))}
                fh.write(dump({**base("user", n), "message": prompt}))
            blocks: list[dict[str, Any]] = []
            if rng.random() < 0.5:
                blocks.append({"type": "thinking", "thinking": text(rng.randrange(100, 2000)),
                               "signature": "E" + "x" * rng.randrange(200, 800)})  # fmt: skip
            blocks.append({"type": "text", "text": text(rng.randrange(20, 1500))})
            tool = None
            if rng.random() < 0.8:
                tool = f"toolu_01{rng.getrandbits(64):016x}"
                name = rng.choice(["Bash", "Read", "Edit", "Write", "Grep"])
                given: dict[str, Any] = {"file_path": "/home/dev/project/src/app.py"}
                if name == "Bash":
                    given = {"command": "pytest -q tests/usage", "description": "run the tests"}
                elif name in ("Edit", "Write"):
                    given["content" if name == "Write" else "new_string"] = text(
                        rng.randrange(200, 6000)
                    )
                blocks.append({"type": "tool_use", "id": tool, "name": name, "input": given})
            request = f"req_011C{rng.getrandbits(64):016x}"
            message = f"msg_01{rng.getrandbits(64):016x}"
            fresh, write, read = (
                rng.randrange(1, 10),
                rng.randrange(0, 5000),
                rng.randrange(10**4, 15 * 10**4),
            )
            out = rng.randrange(20, 3000)
            for i, block in enumerate(blocks, 1):
                usage = {"input_tokens": fresh, "cache_creation_input_tokens": write,
                         "cache_read_input_tokens": read,
                         "cache_creation": {"ephemeral_5m_input_tokens": 0,
                                            "ephemeral_1h_input_tokens": write},
                         "output_tokens": out if i == len(blocks) else out * i // (len(blocks) + 1),
                         "service_tier": "standard"}  # fmt: skip
                head = base("assistant", n)
                line = {k: head[k] for k in ("parentUuid", "isSidechain", "userType", "cwd",
                                             "sessionId", "version", "gitBranch")}  # fmt: skip
                line["message"] = {"model": "claude-opus-4-6", "id": message, "type": "message",
                                   "role": "assistant", "content": [block],
                                   "stop_reason": "tool_use" if i == len(blocks) else None,
                                   "stop_sequence": None, "usage": usage}  # fmt: skip
                line.update(requestId=request, type="assistant", uuid=head["uuid"],
                            timestamp=head["timestamp"])  # fmt: skip
                fh.write(dump(line))
            if tool:
                size = 200_000 if rng.random() < 0.03 else int(rng.paretovariate(1.2) * 1500)
                result = text(min(size, 200_000))
                fh.write(dump({**base("user", n), "message": {"role": "user", "content": [
                    {"tool_use_id": tool, "type": "tool_result", "content": result,
                     "is_error": False}]},
                    "toolUseResult": {"stdout": result, "stderr": "", "interrupted": False,
                                      "isImage": False}}))  # fmt: skip
            if n % 50 == 0:
                fh.write(dump({"type": "file-history-snapshot", "messageId": str(uuid.uuid4()),
                               "snapshot": {"trackedFileBackups": {}}, "isSnapshotUpdate": False}))  # fmt: skip
                fh.write(dump({**base("system", n), "subtype": "compact_boundary",
                               "content": "Conversation compacted", "level": "info"}))  # fmt: skip
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
            requests = realistic_transcript(claude_folder(repo, env) / "big.jsonl", size)
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
                realistic_transcript(path, megabytes)
            else:
                path.write_text(gemini_big(megabytes))
            first = path
        else:
            os.link(first, path)


CCUSAGE = "20.0.24"  # the newest ccusage whose linux-x64 native binary is published (20.0.26: none)


def ccusage_native() -> str | None:
    """ccusage's own reader: the native binary of ``@ccusage/ccusage-linux-x64@CCUSAGE``
    (what the ``ccusage`` node launcher starts), installed with npm into the temporary folder
    once and started directly, without node. None (with a line saying why) when npm or the
    platform package is not there."""
    folder = Path(tempfile.gettempdir()) / f"tg-git-bench-ccusage-{CCUSAGE}"
    binary = folder / "node_modules" / "@ccusage" / "ccusage-linux-x64" / "bin" / "ccusage"
    if not binary.exists():
        npm = shutil.which("npm")
        if npm is None or sys.platform != "linux":
            print("- ccusage's native binary needs npm on linux-x64; skipped", file=sys.stderr)
            return None
        folder.mkdir(parents=True, exist_ok=True)
        # npm's cache and logs stay in the folder: never the caller's $HOME
        env = {**os.environ, "HOME": str(folder / "home"), "npm_config_cache": str(folder / "npm")}
        subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund",
                        f"@ccusage/ccusage-linux-x64@{CCUSAGE}"], cwd=folder, check=True, env=env)  # fmt: skip
    binary.chmod(0o755)  # the package ships it without the execute bit (the launcher sets it)
    return str(binary)


class Run(NamedTuple):
    user: float  # seconds of CPU in user mode, the command and what it waited for
    system: float  # seconds of CPU in the kernel (page faults, reads)
    wall: float
    stdout: bytes

    @property
    def cpu(self) -> float:
        return self.user + self.system


def run_split(args: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """``run_timed`` with user and system time apart: ccusage reads a whole transcript into
    fresh memory at once, and what the kernel charges for it varies 0.05-1.5 s between runs
    on a loaded machine, so both parts are shown."""
    return Run(*_install.run_split(args, cwd, env))


def speed(python: str, binary: str | None, megabytes: int, rounds: int,
          against: str | None = None, agents: tuple[str, ...] = AGENTS) -> None:  # fmt: skip
    """tg-git's `usage import` beside ccusage's native reader on the same transcript,
    interleaved (``against``: another tg-git's interpreter, a regular install of another
    commit, timed in the same rounds on a repository of its own)."""
    print(f"\n## Same {megabytes} MB transcript: `tg-git usage import --json` vs ccusage {CCUSAGE}'s"
          f" native binary `ccusage AGENT session --json --offline` (whole commands, {rounds}"
          f" rounds interleaved, each on a fresh repository and agent home; load average"
          f" {os.getloadavg()[0]:.1f}), ms")  # fmt: skip
    if not binary or not Path(binary).exists():
        print("- ccusage not found (npm install failed; pass --ccusage PATH); skipped")
        return
    print("| agent | who | CPU (user + system) min / med / max | user min / med / max |"
          " system min / med / max | wall min / med / max | MB/s (CPU med) | tokens |")  # fmt: skip
    print("|---|---|---|---|---|---|---:|---:|")
    command = ["-m", "tg_git", "usage", "import", "--json"]
    for agent in agents:
        with tempfile.TemporaryDirectory() as tmp:
            repos = []
            for i in range(rounds * (2 if against else 1)):
                (Path(tmp) / str(i)).mkdir()
                repos.append(make_repo(Path(tmp) / str(i)))
            place_big(agent, repos, megabytes)
            ours: list[Run] = []
            theirs: list[Run] = []
            other: list[Run] = []
            for i in range(rounds):
                repo, env = repos[i]
                ours.append(run_split([python, *command], repo, env))
                theirs.append(run_split([binary, agent, "session", "--json", "--offline"],
                                        repo, ccusage_env(agent, env)))  # fmt: skip
                if against:
                    other.append(run_split([against, *command], *repos[rounds + i]))
            our_total = json.loads(ours[-1].stdout)["tokens"]
            their_total = ccusage_totals(json.loads(theirs[-1].stdout), agent)[3]
            rows = [("tg-git", ours, our_total), ("ccusage", theirs, their_total)]
            if other:
                rows.append(("tg-git --against", other, json.loads(other[-1].stdout)["tokens"]))
            for who, runs, total in rows:
                med = statistics.median
                print(f"| {agent} | {who} | {spread([r.cpu for r in runs]).strip()} |"
                      f" {spread([r.user for r in runs]).strip()} | {spread([r.system for r in runs]).strip()} |"
                      f" {spread([r.wall for r in runs]).strip()} |"
                      f" {megabytes / med(r.cpu for r in runs):.0f} | {total:,} |")  # fmt: skip
            for who, runs, total in rows[:1] + rows[2:]:
                ratio = [statistics.median(f(r) for r in theirs) / statistics.median(f(r) for r in runs)
                         for f in (lambda r: r.cpu, lambda r: r.user, lambda r: r.wall)]  # fmt: skip
                low = min(r.cpu for r in theirs) / min(r.cpu for r in runs)
                same = "same totals" if total == their_total else "TOTALS DIFFER"
                user_low = min(r.user for r in theirs) / min(r.user for r in runs)
                print(f"| {agent} | ccusage / {who} | CPU median {ratio[0]:.2f}x, CPU min {low:.2f}x |"
                      f" user median {ratio[1]:.2f}x, user min {user_low:.2f}x | |"
                      f" wall median {ratio[2]:.2f}x | | {same} |")  # fmt: skip
    print(
        f"- load average at the end: {' / '.join(f'{x:.1f}' for x in os.getloadavg())} (1 / 5 / 15 min)"
    )


# The Claude reader's pieces timed alone in the regular install's interpreter, on the bench's
# transcript: process CPU, min / median of ROUNDS, the cycle collector off as in an import.
_FLOOR = """
import gc, json, os, sys, time
from pathlib import Path
from tg_git.usage import claude, importer, store
from tg_git.usage.records import Batch, line_value
path, rounds = sys.argv[1], int(sys.argv[2])
gc.disable()
def as_imported():
    mark = store.Mark(path=path, agent="claude")
    importer._read(Path(path), mark, lambda data, state: Batch(), os.stat(path))
def blocks(keep):
    out, offset = [], 0
    with open(path, "rb") as fh:
        while data := fh.read(importer.CHUNK):
            if keep:
                out.append(data)
            offset += data.rfind(b"\\n") + 1
            fh.seek(offset)
    return out
found = blocks(True)
spans = [claude._lines(data) for data in found]
lines = [data[a:b] for data, cut in zip(found, spans) for a, b in cut]
values = [[line_value(data[a:b]) for a, b in cut] for data, cut in zip(found, spans)]
def looked_up():  # each block's values, read before, handed to _parse in their order
    for data, got in zip(found, values):
        claude._parse(data, False, lambda line, given=iter(got).__next__: given())
pieces = [
    ("read in blocks of CHUNK, each a fresh bytes", lambda: blocks(False)),
    ("read as an import reads (importer._read, nothing parsed)", as_imported),
    ("bytes.count(NEEDLE) to each block's last newline: the search alone",
     lambda: [d.count(claude.NEEDLE, 0, d.rfind(b"\\n")) for d in found]),
    ("_lines over the blocks: the search and each line's bounds", lambda: [claude._lines(d) for d in found]),
    ("the request lines sliced out", lambda: [d[a:b] for d, cut in zip(found, spans) for a, b in cut]),
    ("their UTF-8 decoding alone", lambda: [line.decode("utf-8", "surrogatepass") for line in lines]),
    ("line_value: UTF-8 decoding and json's C scanner (each value dropped)",
     lambda: [line_value(line) and None for line in lines]),
]
start = time.process_time()
try:
    import orjson
except ImportError:
    pass
else:
    once = time.process_time() - start
    pieces.append(("import orjson (once: dataclasses, uuid, datetime with it)", lambda: once))
    fast = claude._fast(orjson.loads)
    pieces.append(("orjson's reading (the fast extra; each value dropped)",
                   lambda: [fast(line) and None for line in lines]))
pieces += [
    ("_parse, each line's value read before (search + loop; the values cold in memory)", looked_up),
    ("claude.parse, whole (as an import reads)", lambda: [claude.parse(d, {}) for d in found]),
]
rows = []
for name, piece in pieces:
    took = []
    for _ in range(rounds):
        start = time.process_time()
        said = piece()  # (a piece timed once says its time)
        took.append(said if type(said) is float else time.process_time() - start)
    took.sort()
    rows.append((name, took[0], took[len(took) // 2]))
print(json.dumps({"lines": len(lines), "bytes": sum(map(len, lines)), "rows": rows}))
"""


def _git_processes(command: list[str], repo: Path, env: dict[str, str]) -> int:
    """How many git processes ``command`` starts (each one git's ``GIT_TRACE`` names)."""
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "trace"
        sh(repo, *command, env={**env, "GIT_TRACE": str(trace)})
        text = trace.read_text() if trace.exists() else ""
    return len(re.findall(r"trace: built-in: git ", text))


def floor(python: str, megabytes: int, rounds: int) -> None:
    """Where a first import's CPU goes: the whole command, its fixed cost (an import that
    finds nothing new: the first after ``tg-git init``, as each round of ``speed`` is, which
    reads the session through git once, and a later one), the interpreter alone, then the
    reader's pieces in process."""
    with tempfile.TemporaryDirectory() as tmp:
        repos = []
        for i in range(3 * rounds):
            (Path(tmp) / str(i)).mkdir()
            repos.append(make_repo(Path(tmp) / str(i)))
        empty = repos[2 * rounds :]  # no transcript: what an import costs before it reads
        repos = repos[: 2 * rounds]
        place_big("claude", repos, megabytes)
        command = [python, "-m", "tg_git", "usage", "import", "--json"]
        whole, first, fixed, bare = [], [], [], []
        for i in range(rounds):
            whole.append(run_split(command, *repos[i]))
            first.append(run_split(command, *empty[i]))  # the first after init: nothing to read
            fixed.append(run_split(command, *repos[i]))  # read already: nothing new
            bare.append(run_split([python, "-c", "pass"], *repos[i]))
        gits = (_git_processes(command, *repos[rounds]), _git_processes(command, *repos[rounds]))
        transcript = claude_folder(*repos[-1]) / "big.jsonl"
        out = sh(repos[-1][0], python, "-c", _FLOOR, str(transcript), str(rounds), env=repos[-1][1])
    data = json.loads(out)
    med = statistics.median
    print(f"\n## Where a first import of the {megabytes} MB transcript goes (CPU ms; load average"
          f" {os.getloadavg()[0]:.1f}; {data['lines']:,} request lines, {data['bytes']:,} bytes)")  # fmt: skip
    print("| piece | min | median |")
    print("|---|---:|---:|")
    for name, runs in (("`usage import`, whole command", whole),
                       ("the first after `tg-git init` with nothing to read (start, imports,"
                        f" the session's first read: {gits[0]} git processes, discovery)", first),
                       ("a later one with nothing new to read (start, imports, session,"
                        f" discovery: {gits[1]} git processes)", fixed),
                       ("`python -c pass`", bare)):  # fmt: skip
        print(
            f"| {name} | {min(r.cpu for r in runs) * 1000:.0f} | {med(r.cpu for r in runs) * 1000:.0f} |"
        )
    for name, low, mid in data["rows"]:
        print(f"| {name} (in process) | {low * 1000:.1f} | {mid * 1000:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--sizes", default="10,50,100")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--incremental-size", type=int, default=50)
    parser.add_argument("--ccusage", default=os.environ.get("TG_GIT_CCUSAGE"),
                        help=f"a ccusage to run (default: the native binary of {CCUSAGE})")  # fmt: skip
    parser.add_argument("--python", help="whose tg-git to time (default: a regular install)")
    parser.add_argument("--speed-size", type=int, default=105, help="MB (0: no speed section)")
    parser.add_argument("--speed-rounds", type=int, default=5)
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--floor", action="store_true",
                        help="only where a first import's CPU goes, piece by piece")  # fmt: skip
    parser.add_argument("--agents", default=",".join(AGENTS), help="agents of the speed section")
    parser.add_argument("--quick", action="store_true",
                        help="the speed section alone, Claude only, 3 rounds")  # fmt: skip
    parser.add_argument("--against", help="another tg-git's python to time in the same rounds")
    parser.add_argument("--extras", default="",
                        help="the regular install's extras (fast: orjson's reading)")  # fmt: skip
    args = parser.parse_args()
    if args.quick:
        args.speed_only, args.speed_rounds, args.agents = True, 3, "claude"
    python = args.python or regular_python(args.extras)
    TG_GIT[0] = python
    if args.floor:
        floor(python, args.speed_size, args.speed_rounds)
        return
    binary = args.ccusage or ccusage_native()
    if not args.speed_only:
        oracle(binary)
        first_imports([int(s) for s in args.sizes.split(",") if s])
        incremental(args.rounds, args.incremental_size)
    if args.speed_size:
        agents = tuple(a for a in args.agents.split(",") if a)
        speed(python, binary, args.speed_size, args.speed_rounds, args.against, agents)


if __name__ == "__main__":
    main()
