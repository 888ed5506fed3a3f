"""TOML text to a mapping, with one clear line naming the file and the fix when it is not TOML.

The standard library's ``tomllib`` where there is one (several times faster to import than
tomlkit, and the hook reads the config on every commit); tomlkit on Python 3.10.
"""

from __future__ import annotations

import re
import sys

from tg_git.domain.errors import CorruptFile, Message

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any


def parse(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib  # lazy: 9.0 ms

        parsed: dict[str, Any] = tomllib.loads(text)
        return parsed
    import tomlkit  # lazy: 28.0 ms; Python 3.10 has no tomllib

    data: dict[str, Any] = tomlkit.parse(text).unwrap()
    return data


def parse_toml(text: str, what: str, fix: str | Message, language: str = "en") -> dict[str, Any]:
    """Parse TOML text, or raise one clear ``CorruptFile`` line naming ``what`` and ``fix``
    (a ``Message`` fix: a keyed error, said later in the reader's language)."""
    try:
        return parse(text)
    except Exception as exc:  # tomllib and tomlkit raise different types
        from tg_git.text import messages  # lazy: 0.3 ms

        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        at = re.search(r"line (\d+), column (\d+)", reason)
        if isinstance(fix, Message):
            where = {"line": at[1], "column": at[2]} if at else {}
            why = Message("toml_reason_at" if at else "toml_reason", reason=reason, **where)
            raise CorruptFile.from_key("toml_invalid", what=what, reason=why, fix=fix) from None
        if at and language != "en":  # the parser's words are English; where it stopped is not
            reason = messages.text(language, "toml_where", line=at[1], column=at[2])
        said = messages.text(language, "toml_invalid", what=what, reason=reason, fix=fix)
        raise CorruptFile(said) from None
