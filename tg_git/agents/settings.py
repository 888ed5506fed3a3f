"""Each agent's own settings file: add tg-git's hook entries beside everyone else's, and take
only those out again (the formats: ``tg_git.agents.formats``; what is wired: ``wiring``).

The JSON is read, tg-git's entries are replaced, and it is written back with the file's own
indent and key order. The first install keeps the file's original bytes (a repository's under
its git dir, the user's under ``$XDG_CONFIG_HOME/tg-git``), so an uninstall of a file nobody
edited since restores it byte for byte (or removes the file tg-git created). A file that is not
valid JSON, or not a regular file, is left untouched. A symbolic link in the user's home is
written through (a settings file kept in a dotfiles repository stays a link); one in the
repository (the file or a folder on its way) is refused: a clone's link can lead anywhere. Claude Code's status line and each
agent's own compaction threshold (``--align-compaction``) are set and put back here too.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import stat
from pathlib import Path
from typing import Any

from tg_git.agents.formats import (
    EVENTS,
    FORMATS,
    NAMED_KEY,
    WRAPPER,
    hook_entry,
    settings_file,
    status_line_command,
    target_file,
    user_file,
    without_ours,
)
from tg_git.domain.errors import TgGitError
from tg_git.text import messages
from tg_git.usage import discover

KEPT = "tg-git/agents"  # under the git dir: original settings files
STATUS_LINE = "statusLine"  # Claude Code's status-line slot
_COMMENT = re.compile(r"^\s*//|/\*", re.M)  # Gemini CLI accepts comments in its settings
_OURS_LINE = re.compile(r"(?:^|[\s/\"'])(?:tg-git|tg_git)\b.*\bstatusline\s*$")
# The wrapper as written now (``-E -c '... from tg_git.agents.wrap import main ...'``) and
# as earlier releases wrote it (``-m tg_git.agents.wrap``), followed by the user's command.
_WRAPPED = re.compile(
    r"(?:(?:^|\s)-m\s+"
    + re.escape(WRAPPER)
    + r"|\bfrom "
    + re.escape(WRAPPER)
    + r" import main\b[^']*'\s+tg_git)\s+(.+)$",
    re.S,
)


def read_text(path: Path, lang: str) -> str | None:
    """The file's text (None: there is none); a FIFO, a directory, a dangling link or bytes
    that are not UTF-8 raise, so the file is left untouched."""
    if os.path.lexists(path) and not path.is_file():  # a FIFO would hang the read
        raise TgGitError(messages.text(lang, "agent.not_regular", path=path))
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise TgGitError(messages.text(lang, "agent.cannot_read", path=path, why=exc)) from None


def read_json(path: Path, lang: str = "en") -> tuple[str | None, dict[str, Any]]:
    text = read_text(path, lang)
    if text is None:
        return None, {}
    try:
        data = json.loads(text) if text.strip() else {}
    except (ValueError, RecursionError) as exc:
        hint = messages.text(lang, "agent.comments_hint") if _COMMENT.search(text) else ""
        raise TgGitError(
            messages.text(lang, "agent.not_json", path=path, hint=hint, why=exc)
        ) from None
    if not isinstance(data, dict):
        raise TgGitError(messages.text(lang, "agent.not_object", path=path))
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


def linked(path: Path, root: Path) -> Path | None:
    """The first symbolic link on the way from the work tree's top to ``path`` (``path``
    itself included); None when there is none or ``path`` is outside the work tree."""
    if not path.is_relative_to(root):
        return None
    current = root
    for part in path.relative_to(root).parts:
        current = current / part
        if current.is_symlink():
            return current
    return None


def refuse_links(path: Path, root: Path, lang: str) -> None:
    """A file in the repository is never written through a link a clone may have made: it
    can lead anywhere outside the repository (a file in HOME, another project)."""
    link = linked(path, root)
    if link is not None:
        raise TgGitError(
            messages.text(
                lang, "agent.linked", link=link.relative_to(root), path=path.relative_to(root)
            )
        )


def _kept(git_dir: Path, agent: str, user: bool, local: bool = False) -> Path:
    """Where the file's bytes before tg-git's first install are kept."""
    if local:
        return git_dir / KEPT / f"{agent}.local.json"
    if user:
        configured = os.environ.get("XDG_CONFIG_HOME", "")
        base = Path(configured) if configured.strip() else Path.home() / ".config"
        return base / "tg-git" / "agents" / f"user-{agent}.json"
    return git_dir / KEPT / f"{agent}.json"


def _record(kept: Path) -> dict[str, Any]:
    try:
        data = json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _add_hooks(
    agent: str, path: Path, data: dict[str, Any], lang: str, portable: bool = False
) -> None:
    events = EVENTS[agent]
    if FORMATS[agent].shape == "named":
        if NAMED_KEY in data:
            raise TgGitError(messages.text(lang, "agent.named_not_ours", path=path, name=NAMED_KEY))
        table: dict[str, Any] = {}
        for event in events:
            table[event] = [hook_entry(agent, event, portable)]
        data[NAMED_KEY] = table
        return
    if FORMATS[agent].shape == "flat":
        data.setdefault("version", 1)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise TgGitError(
            messages.text(lang, "agent.field_not", path=path, field="`hooks`", kind="object")
        )
    for event in events:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise TgGitError(
                messages.text(
                    lang, "agent.field_not", path=path, field=f"hooks.{event}", kind="list"
                )
            )
        groups.append(hook_entry(agent, event, portable))


def install(
    agent: str,
    root: Path,
    git_dir: Path,
    user: bool,
    language: str = "en",
    align: dict[str, Any] | None = None,
    *,
    shared: bool = False,
    portable: bool = False,
) -> str:
    """Add tg-git's hooks to the agent's settings (Claude Code: its status line too; with
    ``align``, the agent's own compaction threshold); returns what happened, in a few words.
    The file: the agent's local one unless ``shared`` (``target_file``); ``portable``
    entries run `tg-git` from PATH, the others this Python by absolute path."""
    path = target_file(agent, root, user, shared)
    if not user:
        refuse_links(path, root, language)
    text, data = read_json(path, language)
    kept = _kept(git_dir, agent, user, path != settings_file(agent, root, user))
    record = _record(kept)
    data = without_ours(data)
    _add_hooks(agent, path, data, language, portable)
    notes = []
    if agent == "gemini":  # on by default in current releases; older ones need it
        config = data.setdefault("hooksConfig", {})
        if isinstance(config, dict) and config.get("enabled") is False:
            notes.append(messages.text(language, "agent.gemini_off"))
        elif isinstance(config, dict):
            config["enabled"] = True
    if agent == "codex" and _toml_hooks(path.parent / "config.toml"):
        notes.append(messages.text(language, "agent.codex_toml_hooks"))
    if agent == "claude":
        said = _add_status_line(data, path, root, user, language, portable)
        if said:
            notes.append(said)
    if align:
        notes += _align_json(agent, data, record, align, language)
    note = f" ({'; '.join(notes)})" if notes else ""
    new_text = _dump(data, text)
    if new_text == text:
        return messages.text(language, "agent.already", path=path, note=note)
    if "original" not in record:
        record["original"] = text
    path.parent.mkdir(parents=True, exist_ok=True)
    write_file(path, new_text)
    record["written"] = _sha(new_text)
    _save_record(kept, record)
    return messages.text(
        language, "agent.hooks_added", path=path, events=", ".join(EVENTS[agent]), note=note
    )


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def _save_record(kept: Path, record: dict[str, Any]) -> None:
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(json.dumps(record), encoding="utf-8")


def _toml_hooks(config: Path) -> bool:
    """Whether a Codex config.toml holds hooks of its own (a `[hooks...]` table)."""
    try:
        text = config.read_text(encoding="utf-8") if config.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return False
    return bool(re.search(r"^\s*\[\[?\s*hooks\b", text, re.M))


# ---- Claude Code's status line ------------------------------------------------------------
def unwrapped(command_text: str) -> str | None:
    """The user's own status-line command inside tg-git's wrapper (None: not wrapped)."""
    match = _WRAPPED.search(command_text)
    if not match:
        return None
    try:
        words = shlex.split(match.group(1))
    except ValueError:
        return None
    return words[0] if len(words) == 1 else None


def is_our_line(value: Any) -> bool:
    cmd = value.get("command") if isinstance(value, dict) else None
    return isinstance(cmd, str) and (bool(_OURS_LINE.search(cmd)) or unwrapped(cmd) is not None)


def _users_line(root: Path, user: bool, path: Path | None = None) -> str | None:
    """The status line a repository install would hide, which tg-git's wrapper keeps on
    screen: for the local file, the shared file's own line, else the one from the user's
    home settings (a project's statusLine replaces theirs)."""
    if user:
        return None
    files = [user_file("claude")]
    if path is not None and path != settings_file("claude", root, False):
        files.insert(0, settings_file("claude", root, False))
    for file in files:
        try:
            _, data = read_json(file)
        except TgGitError:
            continue
        line = data.get(STATUS_LINE)
        cmd = line.get("command") if isinstance(line, dict) else None
        if isinstance(cmd, str) and cmd.strip() and not is_our_line(line):
            return cmd
    return None


def _add_status_line(
    data: dict[str, Any], path: Path, root: Path, user: bool, language: str, portable: bool
) -> str:
    """Point Claude Code's status line at tg-git's gauge; a line the user has is wrapped
    (in a portable file it is left as it is: the wrapper names this Python)."""
    line = data.get(STATUS_LINE)
    if line is None:
        theirs = None if portable else _users_line(root, user, path)
        data[STATUS_LINE] = {"type": "command", "command": status_line_command(theirs, portable)}
        return messages.text(language, "agent.line_wrapped_home") if theirs else ""
    cmd = line.get("command") if isinstance(line, dict) else None
    if not isinstance(cmd, str) or line.get("type", "command") != "command":
        return messages.text(language, "agent.line_not_command", path=path)
    if _OURS_LINE.search(cmd):
        line["command"] = status_line_command(None, portable)
        return ""
    inner = unwrapped(cmd)
    if portable:
        line["command"] = cmd if inner is None else inner
        return messages.text(language, "agent.line_kept_shared", path=path)
    line["command"] = status_line_command(cmd if inner is None else inner)
    return messages.text(language, "agent.line_wrapped")


def _remove_status_line(data: dict[str, Any], had: bool | None) -> None:
    """Take tg-git's status line out; a wrapped one gives the user's command back, unless
    it was copied from their home settings (``had`` False: the file had no line)."""
    line = data.get(STATUS_LINE)
    if not is_our_line(line):
        return
    assert isinstance(line, dict)
    inner = unwrapped(str(line["command"]))
    if inner is not None and had is not False:
        line["command"] = inner
    else:
        data.pop(STATUS_LINE)


# ---- compaction thresholds (--align-compaction) --------------------------------------------
ALIGN_KEYS = {"claude": ("autoCompactWindow",), "gemini": ("model", "compressionThreshold")}


def _align_json(
    agent: str, data: dict[str, Any], record: dict[str, Any], align: dict[str, Any], lang: str
) -> list[str]:
    """Set the agent's own compaction threshold in its settings; the value it had is kept
    in the record so that uninstall puts it back."""
    keys = ALIGN_KEYS.get(agent)
    if keys is None or agent not in align:
        return []
    holder = data
    for key in keys[:-1]:
        holder = holder.setdefault(key, {})
        if not isinstance(holder, dict):
            return [messages.text(lang, "agent.align_skipped", key=".".join(keys))]
    last = keys[-1]
    if "aligned" not in record:
        record["aligned"] = {"had": last in holder, "value": holder.get(last)}
    holder[last] = align[agent]
    return [messages.text(lang, "agent.aligned", key=".".join(keys), value=align[agent])]


def _unalign_json(agent: str, data: dict[str, Any], record: dict[str, Any]) -> None:
    keys = ALIGN_KEYS.get(agent)
    aligned = record.get("aligned")
    if keys is None or not isinstance(aligned, dict):
        return
    holder: Any = data
    for key in keys[:-1]:
        holder = holder.get(key) if isinstance(holder, dict) else None
    if not isinstance(holder, dict):
        return
    if aligned.get("had"):
        holder[keys[-1]] = aligned.get("value")
        return
    holder.pop(keys[-1], None)
    if len(keys) > 1 and not holder:  # the table tg-git created for it
        data.pop(keys[0], None)


def write_file(path: Path, text: str) -> None:
    """``text`` into ``path`` through a new file renamed over it: made afresh under a name no
    clone can foresee, never through a link (one planted there would lead anywhere), with the
    mode of the file it replaces (one kept private stays so); gone again on any error."""
    if path.is_symlink():  # write through the link: the user's dotfiles keep their link
        path = path.resolve()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            if path.exists() and os.chmod in os.supports_fd:
                os.chmod(fh.fileno(), stat.S_IMODE(path.stat().st_mode))
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def prune(folder: Path, stop: Path) -> None:
    """Remove the folders tg-git's files leave empty, up to (not including) ``stop``."""
    while folder != stop and folder.is_relative_to(stop):
        try:
            folder.rmdir()  # only when empty
        except OSError:
            return
        folder = folder.parent


def _parse(text: str | None) -> dict[str, Any] | None:
    try:
        before = json.loads(text) if text else None
    except ValueError:
        return None
    return before if isinstance(before, dict) else None


def uninstall(
    agent: str, root: Path, git_dir: Path, user: bool, lang: str = "en", *, shared: bool = False
) -> str:
    path = target_file(agent, root, user, shared)
    if not user:
        refuse_links(path, root, lang)
    text, data = read_json(path, lang)
    kept = _kept(git_dir, agent, user, path != settings_file(agent, root, user))
    record = _record(kept) if kept.is_file() else {}
    unchanged = text is not None and record.get("written") == _sha(text)
    if unchanged and "original" in record:
        original = record["original"]
        if original is None:
            path.unlink()
            prune(path.parent, root if not user else path.parent)
        else:
            write_file(path, original)
        kept.unlink()
        return messages.text(lang, "agent.restored", path=path)
    if text is None:
        return messages.text(lang, "agent.not_there", path=path)
    before = _parse(record.get("original")) or {}
    known = "original" in record  # else tg-git cannot tell what was the user's
    cleaned = without_ours(data)
    _remove_status_line(cleaned, STATUS_LINE in before if known else None)
    _unalign_json(agent, cleaned, record)
    if known and "hooksConfig" not in before and agent == "gemini":  # tg-git switched it on
        cleaned.pop("hooksConfig", None)
    if known and "version" not in before and "hooks" not in cleaned:  # Cursor's, Copilot's
        cleaned.pop("version", None)
    if kept.is_file():
        kept.unlink()
    if not cleaned and record.get("original", "") is None:
        path.unlink()  # tg-git created it and nothing else is in it
        prune(path.parent, root if not user else path.parent)
        return messages.text(lang, "agent.removed_created", path=path)
    new_text = _dump(cleaned, text)
    if new_text != text:
        write_file(path, new_text)
        return messages.text(lang, "agent.hooks_removed", path=path)
    return messages.text(lang, "agent.no_ours", path=path)


# ---- Codex: its threshold is in config.toml, beside hooks.json -----------------------------
CODEX_KEY = "model_auto_compact_token_limit"


def _codex_config(root: Path, user: bool) -> Path:
    return (discover.codex_home() if user else root / ".codex") / "config.toml"


def align_codex(root: Path, git_dir: Path, user: bool, value: int, lang: str) -> str:
    """Set ``model_auto_compact_token_limit`` in Codex's config.toml (comments and layout
    kept by tomlkit); the file's bytes before are kept so that uninstall restores them."""
    import tomlkit  # lazy: 13.1 ms

    path = _codex_config(root, user)
    if not user:
        refuse_links(path, root, lang)
    text = read_text(path, lang)
    try:
        doc = tomlkit.parse(text or "")
    except Exception as exc:  # tomlkit raises its own ParseError subclasses
        raise TgGitError(messages.text(lang, "agent.not_toml", path=path, why=exc)) from None
    kept = _kept(git_dir, "codex-config", user)
    record = _record(kept)
    if "original" not in record:
        record["original"] = text
    doc[CODEX_KEY] = value
    new_text = tomlkit.dumps(doc)
    if new_text != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, new_text)
    record["written"] = _sha(new_text)
    _save_record(kept, record)
    return f"{path}: " + messages.text(lang, "agent.aligned", key=CODEX_KEY, value=value)


def unalign_codex(root: Path, git_dir: Path, user: bool, lang: str = "en") -> str:
    """Put Codex's config.toml back: byte for byte when nobody edited it since, else only
    tg-git's key is taken out (or given its old value)."""
    import tomlkit  # lazy: 13.1 ms

    kept = _kept(git_dir, "codex-config", user)
    record = _record(kept) if kept.is_file() else {}
    if "original" not in record:
        return ""
    path = _codex_config(root, user)
    if not user and linked(path, root) is not None:
        return ""
    original = record["original"]
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return ""
    if text is not None and record.get("written") == _sha(text):
        if original is None:
            path.unlink()
        else:
            write_file(path, original)
    elif text is not None:
        try:
            doc = tomlkit.parse(text)
            before = tomlkit.parse(original or "")
        except Exception:  # an unreadable file stays as the user left it
            return ""
        if CODEX_KEY in before:
            doc[CODEX_KEY] = before[CODEX_KEY]
        else:
            doc.pop(CODEX_KEY, None)
        write_file(path, tomlkit.dumps(doc))
    kept.unlink()
    return "; " + messages.text(lang, "agent.codex_restored", path=path, key=CODEX_KEY)
