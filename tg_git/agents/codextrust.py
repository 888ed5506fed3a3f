"""Whether Codex CLI will run tg-git's hooks: Codex 0.171 runs a hook only once the user has
trusted it (in its TUI: `/hooks`, "Trust all and continue"), and keeps that trust in
``$CODEX_HOME/config.toml`` as ``[hooks.state."<hooks.json path>:<event>:<group>:<hook>"]
trusted_hash = "sha256:…"``. Without it ``codex exec`` runs none of them and says nothing.
Only the entry's presence is checked: Codex hashes the hook in its own way and asks again when
the hook changes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tg_git.agents import formats


def _snake(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def tg_git_keys(hooks_file: Path) -> dict[str, str]:
    """tg-git's hooks in a Codex ``hooks.json``: the key Codex trusts each by -> its event."""
    try:
        data = json.loads(hooks_file.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    hooks = data.get("hooks") if isinstance(data, dict) else None
    keys = {}
    for event, groups in hooks.items() if isinstance(hooks, dict) else []:
        for g, group in enumerate(groups if isinstance(groups, list) else []):
            entries = group.get("hooks") if isinstance(group, dict) else None
            for h, entry in enumerate(entries if isinstance(entries, list) else []):
                if formats.is_ours(entry):
                    keys[f"{hooks_file.absolute()}:{_snake(str(event))}:{g}:{h}"] = str(event)
    return keys


def trusted_keys(codex_home: Path) -> set[str]:
    """The hook keys the user trusted, from ``config.toml`` (none when it is unreadable)."""
    import tomlkit  # lazy: 11.1 ms

    try:
        doc: Any = tomlkit.parse((codex_home / "config.toml").read_text(encoding="utf-8"))
    except Exception:  # missing, unreadable or not TOML: nothing is trusted
        return set()
    hooks = doc.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    if not isinstance(state, dict):
        return set()
    return {str(k) for k, v in state.items() if isinstance(v, dict) and v.get("trusted_hash")}


def untrusted(hooks_file: Path, codex_home: Path) -> list[str]:
    """tg-git's events in ``hooks_file`` that Codex has not been told to trust."""
    keys = tg_git_keys(hooks_file)
    trusted = trusted_keys(codex_home) if keys else set()
    return sorted({event for key, event in keys.items() if key not in trusted})
