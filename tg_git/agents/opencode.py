"""OpenCode: tg-git is a plugin file, not a settings entry. OpenCode loads every
``.opencode/plugin/*.js`` of the project (and ``~/.config/opencode/plugin/`` of the user): the
plugin (``opencode_plugin.js``, package data) runs tg-git's own hook command for each of
``EVENTS`` (``tg-git hook agent opencode EVENT``, the command ``formats.command`` gives every
agent) and hands its reply back to OpenCode: context for the model (a system text), a blocked
prompt or a denied tool call (a thrown error, whose message is the reason).

The file is tg-git's alone (its first line says so): an install never writes over a file that
is not, and an uninstall removes it and the folders it left empty, so the work tree is as it
was. By default it names this Python by absolute path and is kept out of git in this clone
(``info/exclude``); ``--shared`` writes the portable ``tg-git`` command, for a team to commit.
A link in the repository on the way to it is never written through.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from tg_git.agents import formats
from tg_git.agents.protocol import EVENTS as HOOK_EVENTS
from tg_git.agents.settings import prune, read_text, refuse_links, write_file
from tg_git.domain.errors import TgGitError
from tg_git.text import messages

AGENT = "opencode"
FILE = ".opencode/plugin/tg-git.js"
MARK = "// tg-git: Token Guard for Git."
EVENTS = tuple(HOOK_EVENTS[AGENT])
_SLOT = "__TG_GIT_COMMANDS__"
_COMMANDS = "const COMMANDS = "


def user_path() -> Path:
    configured = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(configured) if configured.strip() else Path.home() / ".config"
    return base / "opencode" / "plugin" / "tg-git.js"


def path(root: Path, user: bool) -> Path:
    return user_path() if user else root / FILE


def plugin_text(portable: bool) -> str:
    """The plugin with tg-git's command for each event (this Python, or ``tg-git``)."""
    template = resources.files("tg_git.agents").joinpath("opencode_plugin.js").read_text("utf-8")
    commands = {event: formats.command(AGENT, event, portable) for event in EVENTS}
    return template.replace(_SLOT, json.dumps(commands, indent=2, ensure_ascii=False))


def is_ours(text: str | None) -> bool:
    return text is not None and text.startswith(MARK)


def commands_in(text: str | None) -> dict[str, str]:
    """The event -> command table of a plugin file tg-git wrote ({} for any other file)."""
    if not is_ours(text):
        return {}
    assert text is not None
    start = text.find(_COMMANDS)
    if start < 0:
        return {}
    try:
        table, _ = json.JSONDecoder().raw_decode(text, start + len(_COMMANDS))
    except ValueError:
        return {}
    if not isinstance(table, dict):
        return {}
    return {str(k): v for k, v in table.items() if isinstance(v, str)}


def _read(target: Path, lang: str) -> str | None:
    return read_text(target, lang)


def install(root: Path, user: bool, lang: str, portable: bool) -> str:
    """Write the plugin (a file that is not tg-git's is left as it is: an error says so)."""
    target = path(root, user)
    if not user:
        refuse_links(target, root, lang)
    current = _read(target, lang)
    if current is not None and not is_ours(current):
        raise TgGitError(messages.text(lang, "agent.opencode_not_ours", path=target))
    text = plugin_text(portable)
    if current == text:
        return messages.text(lang, "agent.already", path=target, note="")
    target.parent.mkdir(parents=True, exist_ok=True)
    write_file(target, text)
    return messages.text(lang, "agent.hooks_added", path=target, events=", ".join(EVENTS), note="")


def uninstall(root: Path, user: bool, lang: str) -> str:
    target = path(root, user)
    if not user:
        refuse_links(target, root, lang)
    current = _read(target, lang)
    if current is None:
        return messages.text(lang, "agent.not_there", path=target)
    if not is_ours(current):
        return messages.text(lang, "agent.no_ours", path=target)
    target.unlink()
    prune(target.parent, root if not user else target.parent.parent)
    return messages.text(lang, "agent.removed_created", path=target)


def wired(root: Path, user: bool) -> dict[str, Any] | None:
    """What ``wiring.wired`` tells of the other agents: the events tg-git's plugin handles,
    the interpreters its commands name; None when the file cannot be read."""
    try:
        text = _read(path(root, user), "en")
    except TgGitError:
        return None
    commands = commands_in(text)
    interpreters = {formats.interpreter(c) for c in commands.values()} - {""}
    return {
        "events": [e for e in EVENTS if e in commands],
        "interpreters": sorted(interpreters),
        "status_line": False,
        "aligned": None,
        "older": [e for e, c in commands.items() if formats.is_older(AGENT, e, c)],
    }


def detected(root: Path) -> bool:
    """Whether OpenCode is in use here: its folder or config in the repository or the user's."""
    config = user_path().parent.parent
    marks = [root / ".opencode", root / "opencode.json", root / "opencode.jsonc", config]
    return any(os.path.lexists(p) for p in marks)
