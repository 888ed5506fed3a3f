"""The token-guard skill: the seed's procedure in tg-git commands, as a SKILL.md where each
agent looks (``.claude/skills/token-guard/`` for Claude Code, ``.agents/skills/token-guard/``
for Codex, Gemini CLI and Antigravity, ``.cursor/skills/`` for Cursor, ``.github/skills/`` for
Copilot CLI). tg-git owns only the text between its markers: a
re-install updates that block and keeps everything a user wrote around it."""

from __future__ import annotations

import re
from pathlib import Path

from tg_git.agents.formats import user_file
from tg_git.agents.settings import prune, read_text, refuse_links
from tg_git.text import messages

NAME = "token-guard"
BEGIN = "<!-- tg-git:begin (tg-git agent install rewrites this block; edit outside it) -->"
END = "<!-- tg-git:end -->"
FOLDERS = {
    "claude": ".claude/skills",
    "codex": ".agents/skills",
    "gemini": ".agents/skills",
    "antigravity": ".agents/skills",
    "cursor": ".cursor/skills",
    "copilot": ".github/skills",
    "opencode": ".opencode/skills",
}
# where the user's own folder differs
USER_FOLDERS = {"copilot": ".copilot/skills", "opencode": ".config/opencode/skills"}


def path(agent: str, root: Path) -> Path:
    return root / FOLDERS[agent] / NAME / "SKILL.md"


def user_path(agent: str, home: Path) -> Path:
    """The user's own skill folder: Claude Code's config dir (``$CLAUDE_CONFIG_DIR`` or
    ``~/.claude``), ``~/.copilot/skills`` for Copilot CLI, the repository's folder name under
    ``~`` for the others."""
    if agent == "claude":
        return user_file("claude").parent / "skills" / NAME / "SKILL.md"
    return home / USER_FOLDERS.get(agent, FOLDERS[agent]) / NAME / "SKILL.md"


def front_matter(language: str) -> str:
    description = messages.text(language, "skill.description").replace('"', '\\"')
    return f'---\nname: {NAME}\ndescription: "{description}"\n---\n'


def block(language: str) -> str:
    return f"{BEGIN}\n{messages.text(language, 'skill.body')}\n{END}\n"


# A block holds no other begin marker: a begin whose end a user deleted stays their text,
# and the next block is never stretched back over what they wrote after it.
_BLOCK = re.compile(
    re.escape(BEGIN) + r"(?:(?!" + re.escape(BEGIN) + r").)*?" + re.escape(END) + r"\n?", re.S
)


def write(target: Path, language: str, root: Path | None = None) -> str:
    """Create the skill, or update tg-git's block in it; returns what happened. In the
    repository (``root``), no link on the way is written through."""
    if root is not None:
        refuse_links(target, root, language)
    current = read_text(target, language)
    if current is None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(front_matter(language) + "\n" + block(language), encoding="utf-8")
        return messages.text(language, "skill.written", path=target)
    on_disk = current
    for (
        other
    ) in messages.LANGUAGES:  # tg-git's own front matter in another language follows the config
        if other != language and current.startswith(front_matter(other)):
            current = front_matter(language) + current[len(front_matter(other)) :]
    if _BLOCK.search(current):
        new = _BLOCK.sub(lambda _m: block(language), current, count=1)
    else:
        sep = "" if current.endswith("\n") else "\n"
        new = f"{current}{sep}\n{block(language)}"
    if new == on_disk:
        return messages.text(language, "skill.up_to_date", path=target)
    target.write_text(new, encoding="utf-8")
    return messages.text(language, "skill.updated", path=target)


def remove(target: Path, stop: Path | None = None, language: str = "en") -> str:
    """Take tg-git's block out; a file left with nothing else goes, with the folders it
    leaves empty up to ``stop`` (default: the skills folder's parent; given, the work tree,
    where no link on the way is written through)."""
    if stop is not None:
        refuse_links(target, stop, language)
    current = read_text(target, language)
    if current is None:
        return messages.text(language, "agent.not_there", path=target)
    rest = _BLOCK.sub("", current)
    if rest == current:
        return messages.text(language, "skill.no_block", path=target)
    if rest.strip() in (front_matter("en").strip(), front_matter("ko").strip(), ""):
        target.unlink()
        prune(target.parent, stop or target.parents[2])
        return messages.text(language, "skill.removed", path=target)
    target.write_text(rest.rstrip("\n") + "\n", encoding="utf-8")
    return messages.text(language, "skill.block_removed", path=target)
