"""`tg-git agent install opencode`: OpenCode's plugin file, local by default (kept out of
git, this Python by absolute path), portable with ``--shared``; uninstall puts the work tree
back byte for byte; a link in the repository is never written through; the hook answers in
the plugin's own fields."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.support.agents import hook
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import plant
from tests.support.repos import tg

PLUGIN = Path(".opencode/plugin/tg-git.js")


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file of the work tree (not .git) and its bytes."""
    found = {}
    for path in sorted(repo.rglob("*")):
        rel = path.relative_to(repo)
        if rel.parts[0] == ".git" or not path.is_file():
            continue
        found[str(rel)] = path.read_bytes()
    return found


def without_ledger(files: dict[str, bytes]) -> dict[str, bytes]:
    """The work tree but tg-git's ledger, which each commit adds to."""
    return {k: v for k, v in files.items() if not k.startswith(".tg-git/")}


def test_install_writes_a_local_plugin_out_of_git_and_uninstall_restores(repo: Path) -> None:
    plant(repo / ".opencode" / "plugin" / "theirs.js", "export const Theirs = async () => ({})\n")
    git(repo, "add", "-A")
    commit(repo, "-m", "their plugin")
    before = snapshot(repo)
    said = tg(repo, "agent", "install", "opencode").stdout
    plugin = repo / PLUGIN
    assert plugin.is_file() and "opencode" in said
    text = plugin.read_text()
    assert os.path.abspath(sys.executable) in text  # this machine's Python: a local file
    assert "tool.execute.before" in text and "message.updated" in text
    assert git(repo, "status", "--porcelain", "--", str(PLUGIN)).stdout == ""  # out of git
    listed = json.loads(tg(repo, "agent", "list", "--json").stdout)["agents"]
    row = next(r for r in listed if r["agent"] == "opencode")
    assert row["repo_hooks"] is True and "tool.execute.before" in row["events"]
    doctor = tg(repo, "doctor", check=False).stdout
    assert "opencode" in doctor
    tg(repo, "agent", "uninstall", "opencode")
    after = snapshot(repo)
    assert after == before  # byte for byte, their plugin kept
    assert not (repo / ".opencode" / "skills").exists()


def test_shared_is_portable_and_tracked(repo: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "tg-git").symlink_to(Path(sys.executable).with_name("tg-git"))
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    before = snapshot(repo)
    tg(repo, "agent", "install", "opencode", "--shared", env=env)
    text = (repo / PLUGIN).read_text()
    assert os.path.abspath(sys.executable) not in text and str(Path.home()) not in text
    assert str(repo) not in text and "exec tg-git hook agent opencode" in text
    assert git(repo, "status", "--porcelain", "--", str(PLUGIN)).stdout.strip() == f"?? {PLUGIN}"
    git(repo, "add", "-A")
    commit(repo, "-m", "wire opencode")
    # a local install now leaves the shared plugin as it is (it would run twice)
    said = tg(repo, "agent", "install", "opencode", env=env).stdout
    assert (repo / PLUGIN).read_text() == text and "--shared" in said
    tg(repo, "agent", "uninstall", "opencode", "--shared", env=env)
    git(repo, "add", "-A")
    commit(repo, "-m", "unwire opencode")
    assert without_ledger(snapshot(repo)) == without_ledger(before)


def test_a_user_file_or_a_link_in_the_repository_is_left_untouched(
    repo: Path, tmp_path: Path
) -> None:
    plant(repo / PLUGIN, "// my own plugin\n")
    proc = tg(repo, "agent", "install", "opencode", check=False)
    assert proc.returncode != 0 and (repo / PLUGIN).read_text() == "// my own plugin\n"
    (repo / PLUGIN).unlink()
    (repo / ".opencode" / "plugin").rmdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (repo / ".opencode" / "plugin").symlink_to(outside)
    proc = tg(repo, "agent", "install", "opencode", check=False)
    assert proc.returncode != 0 and list(outside.iterdir()) == []


def test_the_hook_answers_in_the_plugins_fields(repo: Path) -> None:
    started = hook(
        repo,
        "opencode",
        "session.start",
        {"session_id": "ses_1", "cwd": str(repo), "source": "startup"},
    )
    assert started.returncode == 0, started.stderr
    assert "tg-git 🔋" in json.loads(started.stdout)["context"]
    live = hook(
        repo,
        "opencode",
        "message.updated",
        {
            "session_id": "ses_1",
            "cwd": str(repo),
            "llm_response": {"usageMetadata": {"totalTokenCount": 192_000}},
            "llm_request": {"model": "gpt-4.1"},
        },
    )
    assert live.returncode == 0, live.stderr
    denied = hook(
        repo,
        "opencode",
        "tool.execute.before",
        {
            "session_id": "ses_1",
            "cwd": str(repo),
            "tool_name": "write",
            "tool_input": {"filePath": str(repo / "a.txt"), "content": "x"},
        },
    )
    assert denied.returncode == 0 and "write" in json.loads(denied.stdout)["deny"]
    landing = hook(
        repo,
        "opencode",
        "tool.execute.before",
        {
            "session_id": "ses_1",
            "cwd": str(repo),
            "tool_name": "bash",
            "tool_input": {"command": "git status"},
        },
    )
    assert landing.returncode == 0 and landing.stdout == ""
    refused = hook(repo, "opencode", "chat.message", {"session_id": "ses_1", "cwd": str(repo)})
    assert refused.returncode == 0 and "tg-git" in json.loads(refused.stdout)["block"]
