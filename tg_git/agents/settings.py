"""Each agent's own settings file: add tg-git's hook entries beside everyone else's, and take
only those out again.

The JSON is read, tg-git's entries (recognised by their command, ``... hook agent ...``) are
replaced, and it is written back with the file's own indent and key order. The first install
keeps the file's original bytes (a repository's under its git dir, the user's under
``$XDG_CONFIG_HOME/tg-git``), so an uninstall of a file nobody edited since restores it byte
for byte (or removes the file tg-git created). A file that is not valid JSON, or not a regular
file, is left untouched; a symbolic link is written through, so a settings file kept in a
dotfiles repository stays a link.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from tg_git.errors import TgGitError
from tg_git.usage import discover

AGENTS = ("claude", "codex", "gemini", "antigravity")
REPO_FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
}
EVENTS = {
    "claude": ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact"),
    "codex": ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact"),
    "gemini": ("SessionStart", "BeforeAgent", "AfterAgent", "PreCompress"),
}
KEPT = "tg-git/agents"  # under the git dir: original settings files
_COMMENT = re.compile(r"^\s*//|/\*", re.M)  # Gemini CLI accepts comments in its settings
_OURS = re.compile(r"(?:^|[\s/\"'])(?:tg-git|tg_git)\b.*\bhook agent\b")


def user_file(agent: str) -> Path:
    if agent == "claude":
        configured = os.environ.get("CLAUDE_CONFIG_DIR", "")
        base = discover.claude_dirs()[0] if configured.strip() else Path.home() / ".claude"
        return base / "settings.json"
    if agent == "codex":
        return discover.codex_home() / "hooks.json"
    return discover.gemini_dir() / "settings.json"


def settings_file(agent: str, root: Path, user: bool) -> Path | None:
    if agent not in REPO_FILES:
        return None  # Antigravity: hooks are a preview with an unverified format
    return user_file(agent) if user else root / REPO_FILES[agent]


def command(agent: str, event: str) -> str:
    """The command an agent runs: `tg-git` when that is this install on PATH, else this
    Python with ``-m tg_git`` (a virtualenv that is not on PATH)."""
    found = shutil.which("tg-git")
    here = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if found and here is not None and Path(found).resolve() == here:
        base = "tg-git"
    else:
        base = f"{shlex.quote(sys.executable)} -m tg_git"
    return f"{base} hook agent {agent} {event}"


def is_ours(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("command"), str)
        and bool(_OURS.search(entry["command"]))
    )


def _entry(agent: str, event: str) -> dict[str, Any]:
    hook: dict[str, Any] = {"type": "command", "command": command(agent, event)}
    if agent == "gemini":
        hook = {"name": "tg-git", **hook, "timeout": 30000}  # Gemini: milliseconds
        return {"matcher": "*", "hooks": [hook]}
    hook["timeout"] = 30
    if agent == "codex":
        return {"hooks": [hook]}
    return {"matcher": "", "hooks": [hook]}


def _read(path: Path) -> tuple[str | None, dict[str, Any]]:
    if os.path.lexists(path) and not path.is_file():  # a FIFO would hang the read
        raise TgGitError(f"{path} is not a regular file; it was left untouched.")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, {}
    except (OSError, UnicodeDecodeError) as exc:
        raise TgGitError(f"cannot read {path} ({exc}); it was left untouched.") from None
    try:
        data = json.loads(text) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        hint = (
            " (tg-git edits plain JSON only: take the comments out)"
            if _COMMENT.search(text)
            else ""
        )
        raise TgGitError(
            f"{path} is not valid JSON{hint} ({exc}); it was left untouched: fix it, then run "
            "`tg-git agent install` again."
        ) from None
    if not isinstance(data, dict):
        raise TgGitError(f"{path} does not hold a JSON object; it was left untouched.")
    return text, data


def _dump(data: dict[str, Any], like: str | None) -> str:
    indent: int | str = 2
    if like:
        match = re.search(r"\n([ \t]+)\S", like)
        if match:
            spaces = match.group(1)
            indent = "\t" if spaces.startswith("\t") else len(spaces)
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    return text + ("\n" if like is None or like.endswith("\n") else "")


def _without_ours(data: dict[str, Any]) -> dict[str, Any]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    kept: dict[str, Any] = {}
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            kept[event] = groups
            continue
        new_groups = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                inner = [h for h in group["hooks"] if not is_ours(h)]
                if inner:
                    new_groups.append({**group, "hooks": inner})
                elif not any(is_ours(h) for h in group["hooks"]):
                    new_groups.append(group)
            elif not is_ours(group):
                new_groups.append(group)
        if new_groups:
            kept[event] = new_groups
    result = dict(data)
    if kept:
        result["hooks"] = kept
    else:
        result.pop("hooks")
    return result


def _kept(git_dir: Path, agent: str, user: bool) -> Path:
    """Where the file's bytes before tg-git's first install are kept."""
    if user:
        configured = os.environ.get("XDG_CONFIG_HOME", "")
        base = Path(configured) if configured.strip() else Path.home() / ".config"
        return base / "tg-git" / "agents" / f"user-{agent}.json"
    return git_dir / KEPT / f"{agent}.json"


def install(agent: str, root: Path, git_dir: Path, user: bool) -> str:
    """Add tg-git's hooks to the agent's settings; returns what happened, in a few words."""
    path = settings_file(agent, root, user)
    if path is None:
        return "no hooks (Antigravity's hooks are a preview with an unverified format)"
    text, data = _read(path)
    data = _without_ours(data)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise TgGitError(f"{path}: `hooks` is not a JSON object; it was left untouched.")
    for event in EVENTS[agent]:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise TgGitError(f"{path}: hooks.{event} is not a list; it was left untouched.")
        groups.append(_entry(agent, event))
    note = ""
    if agent == "gemini":  # on by default in current releases; older ones need it
        config = data.setdefault("hooksConfig", {})
        if isinstance(config, dict) and config.get("enabled") is False:
            note = " (hooksConfig.enabled is false: Gemini CLI runs no hooks until it is true)"
        elif isinstance(config, dict):
            config["enabled"] = True
    if agent == "codex" and _toml_hooks(path.parent / "config.toml"):
        note = " (config.toml beside it has [hooks] too: Codex loads both and warns)"
    new_text = _dump(data, text)
    if new_text == text:
        return f"{path}: already installed{note}"
    kept = _kept(git_dir, agent, user)
    if not kept.exists():
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(json.dumps({"original": text}), encoding="utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(path, new_text)
    _remember_written(git_dir, agent, user, new_text)
    return f"{path}: hooks {', '.join(EVENTS[agent])}{note}"


def _toml_hooks(config: Path) -> bool:
    """Whether a Codex config.toml holds hooks of its own (a `[hooks...]` table)."""
    try:
        text = config.read_text(encoding="utf-8") if config.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return False
    return bool(re.search(r"^\s*\[\[?\s*hooks\b", text, re.M))


def _remember_written(git_dir: Path, agent: str, user: bool, text: str) -> None:
    kept = _kept(git_dir, agent, user)
    try:
        data = json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    data["written"] = hashlib.sha1(text.encode()).hexdigest()
    kept.write_text(json.dumps(data), encoding="utf-8")


def _write(path: Path, text: str) -> None:
    if path.is_symlink():  # write through the link: the user's dotfiles keep their link
        path = path.resolve()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def uninstall(agent: str, root: Path, git_dir: Path, user: bool) -> str:
    path = settings_file(agent, root, user)
    if path is None:
        return "no hooks to remove"
    text, data = _read(path)
    kept = _kept(git_dir, agent, user)
    record: dict[str, Any] = {}
    if kept.is_file():
        try:
            record = json.loads(kept.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            record = {}
    unchanged = (
        text is not None and record.get("written") == hashlib.sha1(text.encode()).hexdigest()
    )
    if unchanged and "original" in record:
        original = record["original"]
        if original is None:
            path.unlink()
        else:
            _write(path, original)
        kept.unlink()
        return f"{path}: restored as it was"
    if text is None:
        return f"{path}: not there"
    cleaned = _without_ours(data)
    if agent == "gemini" and "original" in record:  # hooksConfig was tg-git's if it was new
        try:
            before = json.loads(record["original"]) if record["original"] else {}
        except ValueError:
            before = {}
        if isinstance(before, dict) and "hooksConfig" not in before:
            cleaned.pop("hooksConfig", None)
    if kept.is_file():
        kept.unlink()
    if not cleaned and record.get("original", "") is None:
        path.unlink()  # tg-git created it and nothing else is in it
        return f"{path}: removed (tg-git had created it)"
    new_text = _dump(cleaned, text)
    if new_text != text:
        _write(path, new_text)
        return f"{path}: tg-git's hooks removed"
    return f"{path}: no tg-git hooks"


def installed(agent: str, root: Path, user: bool) -> bool | None:
    """Whether the agent's settings hold tg-git's hooks (None: unreadable or no hooks)."""
    path = settings_file(agent, root, user)
    if path is None:
        return None
    try:
        _, data = _read(path)
    except TgGitError:
        return None
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return False
    for groups in hooks.values():
        for group in groups if isinstance(groups, list) else []:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(is_ours(h) for h in inner):
                return True
    return False
