"""tg-git through the pre-commit framework: the `repo: local` entry that calls the installed
`tg-git` (no second copy, no `rev` to pin), appending it to a user's `.pre-commit-config.yaml`
without touching their lines, and which of tg-git's hooks that config runs.

Imported by the git hooks when the framework runs a native shim as its "legacy" hook: plain
text and regular expressions only (no YAML parser on that path).
"""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

CONFIG = ".pre-commit-config.yaml"
# Each of tg-git's hook ids, the stages (git hook names) it runs at, and its entry.
HOOKS = {
    "tg-git-guard": (
        ("pre-commit", "pre-merge-commit"),
        "tg-git hook pre-commit",
        "tg-git token guard",
    ),
    "tg-git-checkpoint": (
        ("post-commit", "post-merge"),
        "tg-git hook post-commit",
        "tg-git checkpoint",
    ),
    "tg-git-verify": (("pre-push",), "tg-git hook pre-push", "tg-git verify"),
}
STAGES = tuple(s for stages, _, _ in HOOKS.values() for s in stages)
INSTALL = "pre-commit install " + " ".join(f"--hook-type {s}" for s in STAGES)
_ID = re.compile(r"""^\s*-?\s*id:\s*['"]?(tg-git-[a-z]+)['"]?\s*(?:#.*)?$""", re.M)


def block(indent: str = "  ") -> str:
    """The `repos:` item, with its `-` at ``indent``."""
    lines = [f"{indent}- repo: local  # tg-git as installed (`tg-git --version`): no rev to pin"]
    lines.append(f"{indent}  hooks:")
    for hook_id, (stages, entry, name) in HOOKS.items():
        lines += [
            f"{indent}    - id: {hook_id}",
            f"{indent}      name: {name}",
            f"{indent}      entry: {entry}",
            f"{indent}      language: system",
            f"{indent}      stages: [{', '.join(stages)}]",
            f"{indent}      pass_filenames: false",
            f"{indent}      always_run: true",
            f"{indent}      require_serial: true",
        ]
        if hook_id != "tg-git-verify":
            lines.append(f"{indent}      verbose: true  # print its lines even when it passes")
    return "\n".join(lines) + "\n"


def config_text() -> str:
    """A whole `.pre-commit-config.yaml` with tg-git alone."""
    return "repos:\n" + block()


def listed_ids(text: str) -> set[str]:
    """tg-git's hook ids a config text lists."""
    return {m for m in _ID.findall(text) if m in HOOKS}


def runs(root: Path, hook_name: str) -> bool:
    """Whether the repository's framework config runs one of tg-git's hooks at ``hook_name``."""
    try:
        text = (root / CONFIG).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return any(hook_name in HOOKS[i][0] for i in listed_ids(text))


class NotAppendable(ValueError):
    """The config has no block-style top-level `repos:` list to append to."""


def appended(text: str) -> str:
    """``text`` with tg-git's item added at the end of its `repos:` list, every other byte
    as it was. Raises NotAppendable when that cannot be done safely by text alone."""
    if not text.strip():
        return config_text()
    eol = "\r\n" if "\r\n" in text else "\n"
    lines = text.replace("\r\n", "\n").split("\n")
    start = next((n for n, ln in enumerate(lines) if re.match(r"repos:\s*(#.*)?$", ln)), None)
    if start is None:
        raise NotAppendable(CONFIG)
    end, indent = start + 1, None
    for n in range(start + 1, len(lines)):
        line = lines[n]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] not in " \t-":
            break  # the next top-level key
        if indent is None:
            match = re.match(r"([ \t]*)- ", line)
            if match is None:
                raise NotAppendable(CONFIG)
            indent = match.group(1)
        end = n + 1
    if indent is None:
        indent = "  "  # `repos:` with no item yet
    item = block(indent).rstrip("\n").split("\n")
    new = lines[:end] + item + lines[end:]
    result = "\n".join(new)
    if end == len(lines):  # appended at the very end: end with a line end
        result += "\n"
    return result.replace("\n", eol)


def check(before: str, after: str) -> None:
    """With PyYAML at hand (pre-commit's own dependency), prove the edit added tg-git's item
    and nothing else; without it, the text edit stands on its own."""

    try:
        yaml = import_module("yaml")
    except ImportError:
        return
    old, new = yaml.safe_load(before) or {}, yaml.safe_load(after)
    if not isinstance(new, dict) or not isinstance(old, dict):
        raise NotAppendable(CONFIG)
    mine = yaml.safe_load(config_text())["repos"]
    if new.get("repos") != [*(old.get("repos") or []), *mine]:
        raise NotAppendable(CONFIG)
    if {k: v for k, v in new.items() if k != "repos"} != {
        k: v for k, v in old.items() if k != "repos"
    }:
        raise NotAppendable(CONFIG)
