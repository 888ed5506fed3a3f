"""Reading ``.tg-git/config.toml`` from a work tree (its schema is ``tg_git.domain.config``).

Every hook reads the config, and parsing it imports ``tomllib`` (with ``typing``, ``string``,
``datetime`` and its regular expressions: ~3-5 ms of a commit, bench/hook.py), so the mapping
it parsed to is kept under the git dir with the exact text it came from (``MEMO``); a config
whose text is the memo's is not parsed again. Any other text, however small the change, is
parsed afresh; a missing, stale or corrupt memo only costs that parse.
"""

from __future__ import annotations

import errno
import os
import stat

from tg_git.domain.config import Config, from_mapping, language_in
from tg_git.domain.errors import CorruptFile, Message, os_reason
from tg_git.domain.layout import CONFIG_PATH
from tg_git.domain.tomltext import parse_toml
from tg_git.repo.memo import pack, unpack

MEMO = "tg-git/config.memo"  # under the git dir, per worktree (git.Repo.git_path)
_FORMAT = 1
_MAX_SIZE = 1 << 20  # a config is a few hundred bytes: a larger config or memo is not one
TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any

    # Paths are ``str`` or ``os.PathLike``: the hooks import no ``pathlib`` (~5 ms a commit).
    Where = str | os.PathLike[str]


def load(root: Where, memo: Where | None = None) -> Config:
    """The config of the work tree at ``root`` (defaults when there is none); ``memo``: where
    the parsed config is kept between processes (None: parse every time)."""
    try:
        raw = _regular_bytes(os.path.join(root, CONFIG_PATH)).decode("utf-8")
        text = raw.replace("\r\n", "\n").replace("\r", "\n")  # as read_text gives it
    except FileNotFoundError:  # before `tg-git init`: the locale names the language
        from tg_git.text.messages import locale_language  # lazy: 0.4 ms

        return Config(language=locale_language())
    except (OSError, UnicodeDecodeError) as exc:
        why = os_reason(exc) if isinstance(exc, OSError) else Message("config_not_utf8")
        raise CorruptFile.from_key("config_unreadable", path=CONFIG_PATH, error=why) from None
    data = _remembered(memo, text) if memo is not None else None
    if data is None:
        # The fix is said only if the TOML is broken (the hooks read the config on every commit).
        fix = Message("config_toml_fix", path=CONFIG_PATH)
        data = parse_toml(text, CONFIG_PATH, fix)
        if memo is not None:
            _remember(memo, text, data)
    return from_mapping(data)


def _remembered(memo: Where, text: str) -> dict[str, Any] | None:
    """The mapping the memo keeps for exactly ``text``, else None."""
    try:
        kept = unpack(_regular_bytes(memo))
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if type(kept) is tuple and len(kept) == 3 and kept[0] == _FORMAT and kept[1] == text:
        data = kept[2]
        return data if type(data) is dict else None
    return None


def _regular_bytes(path: Where) -> bytes:
    """The bytes of ``path`` when it is a regular file of a config's size: opened non-blocking
    and checked on the open file, so a FIFO or a link to ``/dev/zero`` (a config or a memo)
    neither hangs nor floods the hook (OSError: not such a file)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_SIZE:
            raise OSError(errno.EINVAL, f"not a regular file under {_MAX_SIZE:,} bytes")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(_MAX_SIZE)
    finally:
        os.close(fd)


def _remember(memo: Where, text: str, data: dict[str, Any]) -> None:
    """Keep ``data`` as the parse of ``text`` (best effort: a config holding a value marshal
    cannot write, a TOML date, or a read-only git dir, is parsed every time)."""
    partial = f"{os.fspath(memo)}.{os.getpid()}.tmp"
    try:
        blob = pack((_FORMAT, text, data))
        os.makedirs(os.path.dirname(partial) or os.curdir, exist_ok=True)
        with open(partial, "wb") as fh:
            fh.write(blob)
        os.replace(partial, memo)  # a reader sees the old memo or the new one, never half
    except (OSError, ValueError):
        # A folder that cannot be written holds no partial memo.
        try:  # noqa: SIM105 (contextlib: ~1 ms of every commit)
            os.unlink(partial)
        except OSError:
            pass


def remembered_language(memo: Where) -> str | None:
    """The language of the config this clone last read (its memo), for a branch that holds
    none (an orphan branch): None when there is no memo, or it names none."""
    try:
        kept = unpack(_regular_bytes(memo))
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if type(kept) is tuple and len(kept) == 3 and kept[0] == _FORMAT and type(kept[1]) is str:
        return language_in(kept[1], unsaid="") or None
    return None


def language_of(root: Where) -> str:
    """The language of the config at ``root``, even when another of its values is bad (the
    locale's when it names none): commands that report on a broken set-up still speak it."""
    from tg_git.text.messages import locale_language  # lazy: 0.4 ms

    try:
        text = _regular_bytes(os.path.join(root, CONFIG_PATH)).decode("utf-8")
    except (OSError, UnicodeDecodeError):  # no config, unreadable, a FIFO: the locale says
        return locale_language()
    return language_in(text, unsaid=locale_language())
