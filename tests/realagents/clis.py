"""The real agent CLIs at pinned versions: installed from npm once into a cache folder kept
between runs and test sessions (``$TG_GIT_AGENT_CLIS``, else ``.venv/real-agents/`` of this
project), and each run's environment and settings in the test's own HOME, against the scripted
model server (``modelserver.py``)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.realagents.modelserver import ModelServer
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.agents import formats
from tg_git.agents.protocol import EVENTS

PROJECT = Path(__file__).resolve().parents[2]
# Read when the module loads: the suite's own fixture takes every TG_GIT_* variable away.
CACHE = Path(os.environ.get("TG_GIT_AGENT_CLIS") or PROJECT / ".venv" / "real-agents")

# agent -> (npm package at its pinned version, the entry point inside node_modules)
PINNED = {
    "claude": ("@anthropic-ai/claude-code@2.1.332",
               "node_modules/@anthropic-ai/claude-code-linux-x64/claude"),
    "codex": ("@openai/codex@0.171.0", "node_modules/@openai/codex-linux-x64/vendor"),
    "gemini": ("@google/gemini-cli@0.61.0", "node_modules/@google/gemini-cli/bundle/gemini.js"),
    "copilot": ("@github/copilot@1.0.102", "node_modules/@github/copilot/npm-loader.js"),
    "opencode": ("opencode-ai@1.18.33", "node_modules/opencode-linux-x64/bin/opencode"),
}  # fmt: skip
VERSIONS = {agent: spec.rsplit("@", 1)[1] for agent, (spec, _) in PINNED.items()}
KEY = "sk-test-0123456789abcdefghijklmnopqrstuv"


def _npm_install(folder: Path, target: Path, lock_name: str, package: str, *specs: str) -> None:
    """``npm install`` into ``folder`` (its ``package.json`` is ``package``) unless ``target``
    is there already, one process at a time (``lock_name`` in the cache); skips when npm is
    absent."""
    if target.exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the real agent CLIs come from npm")
    folder.mkdir(parents=True, exist_ok=True)
    with open(CACHE / lock_name, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.exists():
            (folder / "package.json").write_text(package)
            subprocess.run(
                [npm, "install", "--ignore-scripts", "--no-audit", "--no-fund",
                 "--loglevel=error", *specs],
                cwd=folder, check=True, capture_output=True, timeout=1800,
            )  # fmt: skip


def installed(agent: str) -> Path:
    """The agent's CLI entry point, installed from npm into the cache the first time (the
    packages' install scripts are not run); skips when npm is absent."""
    spec, entry = PINNED[agent]
    folder = CACHE / agent / VERSIONS[agent]
    target = folder / entry
    _npm_install(folder, target, f".{agent}.lock", '{"private": true}\n', spec)
    if agent == "codex":
        found = sorted(target.glob("*/bin/codex"))
        if not found:
            pytest.skip("no Codex binary for this platform")
        return found[0]
    if not target.exists():
        pytest.skip(f"no {agent} CLI for this platform in {spec}")
    return target


def wired(repo: Path, agent: str) -> Path:
    """The agent's CLI entry point (``installed``), wired in ``repo`` (``wire``)."""
    binary = installed(agent)
    wire(repo, agent)
    return binary


def first_told(server: ModelServer, before: int, why: str) -> str:
    """What the first main request after the first ``before`` told the model ("not sent: WHY"
    when there was none)."""
    sent = server.main_requests()[before:]
    return sent[0].text if sent else "not sent: " + why


def wire(repo: Path, agent: str) -> None:
    """``tg-git agent install AGENT`` in ``repo``, committed as a user would."""
    tg(repo, "agent", "install", agent)
    git(repo, "add", "-A")
    commit(repo, "-m", f"wire {agent}")


def transcript_lines(home: Path, kind: str) -> list[dict[str, Any]]:
    """Claude Code's transcript lines of one ``type``/``subtype`` under ``home``."""
    found = []
    for path in sorted((home / ".claude" / "projects").rglob("*.jsonl")):
        for line in path.read_text().splitlines():
            data = json.loads(line)
            if kind in (data.get("type"), data.get("subtype")):
                found.append(data)
    return found


def base_env(home: Path, server_url: str) -> dict[str, str]:
    """What every agent run gets: its own HOME and XDG folders, no telemetry, no updates."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    env.update(
        HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
        XDG_CACHE_HOME=str(home / ".cache"), XDG_STATE_HOME=str(home / ".local/state"),
        DISABLE_TELEMETRY="1", DISABLE_AUTOUPDATER="1", DISABLE_ERROR_REPORTING="1", NO_COLOR="1",
        MODEL_SERVER=server_url,
    )  # fmt: skip
    return env


# ---- Claude Code --------------------------------------------------------------------------
def claude_env(home: Path, repo: Path, server_url: str) -> dict[str, str]:
    """Claude Code against the server: onboarding done, the folder trusted, the key accepted."""
    (home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True, "bypassPermissionsModeAccepted": True,
        "projects": {str(repo): {"hasTrustDialogAccepted": True}},
        "customApiKeyResponses": {"approved": [KEY[-20:]], "rejected": []},
    }))  # fmt: skip
    return {**base_env(home, server_url), "ANTHROPIC_BASE_URL": server_url,
            "ANTHROPIC_API_KEY": KEY, "IS_SANDBOX": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}  # fmt: skip


def claude(binary: Path, repo: Path, env: dict[str, str], prompt: str,
           *session: str) -> dict[str, Any]:  # fmt: skip
    """One print-mode run (``session``: ``--session-id ID``, ``--resume ID``, …); its result."""
    proc = subprocess.run(
        [str(binary), "-p", prompt, "--dangerously-skip-permissions", "--output-format", "json",
         *session],
        cwd=repo, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    try:
        result = json.loads(proc.stdout)
    except ValueError:
        raise AssertionError(
            f"claude exited {proc.returncode}: {proc.stdout}\n{proc.stderr}"
        ) from None
    return result if isinstance(result, dict) else {"result": result}


# ---- Codex CLI ----------------------------------------------------------------------------
def codex_env(home: Path, repo: Path, server_url: str) -> dict[str, str]:
    """Codex against the server (a provider of its own, the Responses API), the folder trusted."""
    codex_home = home / ".codex"
    codex_home.mkdir(exist_ok=True)
    (codex_home / "config.toml").write_text(
        'model = "gpt-5.5"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\n'
        f'base_url = "{server_url}/v1"\nenv_key = "FAKE_MODEL_KEY"\nwire_api = "responses"\n\n'
        f'[projects."{repo}"]\ntrust_level = "trusted"\n'
    )
    return {**base_env(home, server_url), "CODEX_HOME": str(codex_home), "FAKE_MODEL_KEY": KEY}


def codex(binary: Path, repo: Path, env: dict[str, str], prompt: str, *resume: str,
          trusted: bool = True) -> tuple[list[dict[str, Any]], str]:  # fmt: skip
    """One ``codex exec`` (``resume``: ``resume ID``); its JSON events and stderr. ``trusted``:
    the hooks run as if the user had trusted them (``--dangerously-bypass-hook-trust``)."""
    trust = ["--dangerously-bypass-hook-trust"] if trusted else []
    proc = subprocess.run(
        [str(binary), "exec", "--dangerously-bypass-approvals-and-sandbox", *trust, "--json",
         "--skip-git-repo-check", *resume, prompt],
        cwd=repo, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    return json_lines(proc.stdout), proc.stderr


def json_lines(text: str) -> list[dict[str, Any]]:
    """The lines of ``text`` that are JSON (a CLI's event stream), in order; others skipped."""
    events = []
    for line in text.splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    return events


def thread_id(events: list[dict[str, Any]]) -> str:
    return next(str(e["thread_id"]) for e in events if e.get("type") == "thread.started")


# ---- OpenCode -----------------------------------------------------------------------------
OPENCODE_MODEL = "gpt-4.1"  # a model tg-git's price table knows: the spend budget counts it


def opencode_deps() -> Path:
    """``@opencode-ai/plugin`` at OpenCode's own version, installed once into the cache: OpenCode
    installs it into every config folder (``.opencode/``, the user's) with no ``node_modules``
    there, which takes it a minute or more; linked in, each run starts at once."""
    folder = CACHE / "opencode" / VERSIONS["opencode"] / "plugin-deps"
    target = folder / "node_modules" / "@opencode-ai" / "plugin"
    package = json.dumps({"dependencies": {"@opencode-ai/plugin": VERSIONS["opencode"]}})
    _npm_install(folder, target, ".opencode-deps.lock", package)
    return folder


def _link_deps(config: Path) -> None:
    deps = opencode_deps()
    config.mkdir(parents=True, exist_ok=True)
    (config / "package.json").write_text((deps / "package.json").read_text())
    if not os.path.lexists(config / "node_modules"):
        (config / "node_modules").symlink_to(deps / "node_modules")
    ignore = config / ".gitignore"  # what OpenCode writes there itself
    if not ignore.exists():
        ignore.write_text("node_modules\npackage.json\nbun.lock\n.gitignore")


def opencode_env(home: Path, repo: Path, server_url: str, context: int = 1_000_000,
                 auto_compact: bool = True) -> dict[str, str]:  # fmt: skip
    """OpenCode against the server: a provider of type ``@ai-sdk/openai-compatible`` in the
    user's config (the repository stays as the test made it), its plugin dependencies linked
    in, ``PWD`` the repository (``opencode run`` takes its folder from it)."""
    config = home / ".config" / "opencode"
    model = {"name": OPENCODE_MODEL, "tool_call": True, "limit": {"context": context, "output": 4096},
             "cost": {"input": 2, "output": 8, "cache_read": 0.5}}  # fmt: skip
    _link_deps(config)
    _link_deps(repo / ".opencode")
    (config / "opencode.json").write_text(json.dumps({
        "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "fake",
                              "options": {"baseURL": f"{server_url}/v1", "apiKey": KEY},
                              "models": {OPENCODE_MODEL: model}}},
        "model": f"fake/{OPENCODE_MODEL}", "small_model": f"fake/{OPENCODE_MODEL}",
        "permission": {"edit": "allow", "bash": "allow"}, "autoupdate": False,
        "share": "disabled", "compaction": {"auto": auto_compact},
    }))  # fmt: skip
    flags = (
        "MODELS_FETCH",
        "AUTOUPDATE",
        "DEFAULT_PLUGINS",
        "LSP_DOWNLOAD",
        "SHARE",
        "CLAUDE_CODE",
    )
    return {**base_env(home, server_url), "PWD": str(repo),
            **{f"OPENCODE_DISABLE_{flag}": "1" for flag in flags}}  # fmt: skip


def opencode(binary: Path, repo: Path, env: dict[str, str], prompt: str,
             *session: str) -> tuple[list[dict[str, Any]], str]:  # fmt: skip
    """One ``opencode run`` (``session``: ``--session ID``); its JSON events and stderr."""
    proc = subprocess.run(
        [str(binary), "run", "--format", "json", *session, prompt],
        cwd=repo, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    return json_lines(proc.stdout), proc.stderr


def session_of(events: list[dict[str, Any]]) -> str:
    return next(str(e["sessionID"]) for e in events if e.get("sessionID"))


# ---- Copilot CLI --------------------------------------------------------------------------
def copilot_env(home: Path, server_url: str, window: int = 0) -> dict[str, str]:
    """Copilot CLI in its offline bring-your-own-model mode against the server (Chat
    Completions); ``COPILOT_ALLOW_ALL`` also trusts the folder, which loads its hooks;
    ``window``: the prompt tokens it compacts against."""
    env = {**base_env(home, server_url), "COPILOT_OFFLINE": "true",
           "COPILOT_PROVIDER_BASE_URL": f"{server_url}/v1", "COPILOT_PROVIDER_TYPE": "openai",
           "COPILOT_PROVIDER_API_KEY": KEY, "COPILOT_MODEL": "gpt-4.1",
           "COPILOT_AUTO_UPDATE": "false", "COPILOT_HOME": str(home / ".copilot"),
           "COPILOT_ALLOW_ALL": "true"}  # fmt: skip
    if window:
        env["COPILOT_PROVIDER_MAX_PROMPT_TOKENS"] = str(window)
    return env


def copilot(entry: Path, repo: Path, env: dict[str, str], prompt: str,
            *resume: str) -> tuple[str, str]:  # fmt: skip
    """One ``copilot -p`` (``resume``: ``--resume=ID``); its stdout and stderr."""
    proc = subprocess.run(
        ["node", str(entry), "-p", prompt, "--allow-all-tools", "--no-auto-update", *resume],
        cwd=repo, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    return proc.stdout, proc.stderr


def copilot_sessions(env: dict[str, str]) -> list[str]:
    """The ids of Copilot's sessions (its ``session-state`` folder), oldest first."""
    state = Path(env["COPILOT_HOME"]) / "session-state"
    found = sorted(state.iterdir(), key=lambda p: p.stat().st_mtime) if state.is_dir() else []
    return [p.name.removesuffix(".jsonl") for p in found]


# ---- Gemini CLI ---------------------------------------------------------------------------
def env_of(agent: str, home: Path, repo: Path, server_url: str) -> dict[str, str]:
    """The environment ``agent``'s CLI runs in (``claude``, ``codex``, ``gemini``, ``copilot``)."""
    if agent == "claude":
        return claude_env(home, repo, server_url)
    if agent == "codex":
        return codex_env(home, repo, server_url)
    if agent == "gemini":
        return gemini_env(home, repo, server_url)
    return copilot_env(home, server_url)


def one_hook(agent: str, repo: Path, command: str, shared: bool) -> None:
    """``agent``'s hooks file in ``repo`` with one hook, ``command``, for its tool-call event."""
    event = next(e for e, kind in EVENTS[agent].items() if kind == "tool")
    entry: dict[str, Any] = formats.hook_entry(agent, event)
    handler = entry["hooks"][0] if "hooks" in entry else entry
    handler["bash" if agent == "copilot" else "command"] = command
    path = formats.target_file(agent, repo, user=False, shared=shared)
    path.parent.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {"version": 1} if agent == "copilot" else {}
    data["hooks"] = {event: [entry]}
    path.write_text(json.dumps(data))


def run(agent: str, entry: Path, repo: Path, env: dict[str, str], prompt: str) -> None:
    """One turn of ``agent``'s CLI (``claude``, ``codex``, ``gemini`` or ``copilot``)."""
    if agent == "claude":
        claude(entry, repo, env, prompt)
    elif agent == "codex":
        codex(entry, repo, env, prompt)
    elif agent == "gemini":
        gemini(entry, repo, env, prompt)
    else:
        copilot(entry, repo, env, prompt)


def node() -> str:
    """Node.js, which runs the CLIs published as JavaScript (skips without it)."""
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed")
    return found


def gemini_env(home: Path, repo: Path, server_url: str, threshold: float = 0.5) -> dict[str, str]:
    """Gemini CLI against the server: an API key's auth, the folder trusted, no telemetry;
    ``threshold``: its ``model.compressionThreshold``."""
    folder = home / ".gemini"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"disableAutoUpdate": True}, "telemetry": {"enabled": False},
        "privacy": {"usageStatisticsEnabled": False},
        "model": {"compressionThreshold": threshold},
    }))  # fmt: skip
    (folder / "trustedFolders.json").write_text(json.dumps({str(repo): "TRUST_FOLDER"}))
    return {**base_env(home, server_url), "GOOGLE_GEMINI_BASE_URL": server_url,
            "GEMINI_API_KEY": KEY}  # fmt: skip


def gemini(entry: Path, repo: Path, env: dict[str, str], prompt: str,
           *resume: str) -> dict[str, Any]:  # fmt: skip
    """One ``gemini -p`` (``resume``: ``--resume latest``); its JSON result."""
    proc = subprocess.run(
        ["node", str(entry), "-p", prompt, "--yolo", "-m", "gemini-2.5-pro", "--output-format",
         "json", *resume],
        cwd=repo, env=env, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    start = proc.stdout.find("{")
    try:
        result = json.loads(proc.stdout[start:]) if start >= 0 else {}
    except ValueError:
        result = {}
    return result if isinstance(result, dict) else {}
