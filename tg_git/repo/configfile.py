"""Reading ``.tg-git/config.toml`` from a work tree (its schema is ``tg_git.domain.config``)."""

from __future__ import annotations

from pathlib import Path

from tg_git.domain.config import Config, from_mapping, language_in
from tg_git.domain.errors import CorruptFile, Said, os_reason
from tg_git.domain.layout import CONFIG_PATH
from tg_git.domain.tomltext import parse_toml


def load(root: Path) -> Config:
    """The config of the work tree at ``root`` (defaults when there is none)."""
    path = root / CONFIG_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:  # before `tg-git init`: the locale names the language
        from tg_git.text.term import locale_language

        return Config(language=locale_language())
    except (OSError, UnicodeDecodeError) as exc:
        why = os_reason(exc) if isinstance(exc, OSError) else Said("config_not_utf8")
        raise CorruptFile.said("config_unreadable", path=CONFIG_PATH, error=why) from None
    # The fix is said only if the TOML is broken (the hooks read the config on every commit).
    fix = Said("config_toml_fix", path=CONFIG_PATH)
    return from_mapping(parse_toml(text, CONFIG_PATH, fix))


def language_of(root: Path) -> str:
    """The language of the config at ``root``, even when another of its values is bad (or
    "en" when there is none): commands that report on a broken set-up still speak it."""
    from tg_git.text.term import locale_language

    try:
        text = (root / CONFIG_PATH).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):  # no config, unreadable: the locale says
        return locale_language()
    return language_in(text, unsaid=locale_language())
