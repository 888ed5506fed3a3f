"""Every user-facing line tg-git prints, keyed, English and Korean side by side.

``text(language, key, **values)`` formats one. The texts live in one module per area of
the tool (``AREAS``), each a block of entries that read as they print::

    gauge
        en  tg-git 🔋 ~{used:,}/{max:,} tokens ({pct}%) · {level}
        ko  tg-git 🔋 ~{used:,}/{max:,} 토큰 ({pct}%) · {level}

A key starts at the line's first column; ``en`` and ``ko`` lines are indented four spaces
and the text begins two spaces after the language; a line indented eight spaces continues
the text above it on a new line (blank lines just before it are part of the text); a text
with a leading or trailing space is quoted (``"  ✓ "``); ``#`` lines and other blank lines
are comments. The Korean texts are the seed's
own (``/work/shared/seed/token-guard-skill.md``); the English ones are their translation.

Imported on every hook path, so it imports nothing and reads an area only when a key is
asked for: the hooks' area first, so that a git hook or an agent turn loads the one or two
areas it says something from, not all of them, and parses only the entries it says (a
whole area's parse cost every commit about 1 ms). A test walks every key of every area and
fails on a malformed entry, a key in two areas, or a differently-shaped translation.
"""

from __future__ import annotations

from os import environ

LANGUAGES = ("en", "ko")

# Searched in this order: the areas the hooks speak from first. A new area: add its module
# here and in the docstring list of tests/test_messages.py (which loads every one).
AREAS = (
    "hooks",
    "agents",
    "usage",
    "plan",
    "checkpoint",
    "verify",
    "setup",
    "doctor",
    "errors",
    "report",
    "skill",
    "help",
)

_TABLE: dict[str, tuple[str, str]] = {}  # every area read whole (``table``)
_UNREAD = list(AREAS)
_FOUND: dict[str, tuple[str, str]] = {}  # the entries asked for, each parsed alone
_SOURCES: dict[str, str] = {}  # each area's text, from its module, as it was first needed
_INDENT = "    "


def parse(source: str, area: str = "?") -> dict[str, tuple[str, str]]:
    """The entries of one area's ``TEXTS``; a malformed line is a ValueError naming it."""
    table: dict[str, tuple[str, str]] = {}
    key = ""
    texts: dict[str, list[str]] = {}
    lines: list[str] = []
    blank = 0  # blank lines kept only when a continuation line follows them
    for number, line in enumerate(source.split("\n"), 1):
        if not line:
            blank += 1
            continue
        if line[:8] == _INDENT * 2 and texts:
            lines += [""] * blank + [line[8:]]
        elif line[0] == "#":
            pass
        elif line[0] != " ":
            _close(table, key, texts, area)
            key, texts = line, {}
        elif line[:4] == _INDENT and line[4:6] in LANGUAGES and line[6:8] == "  " and key:
            lines = texts[line[4:6]] = [line[8:]]
        else:
            raise ValueError(f"messages area {area}, line {number}: cannot read {line!r}")
        blank = 0
    _close(table, key, texts, area)
    return table


def _close(
    table: dict[str, tuple[str, str]], key: str, texts: dict[str, list[str]], area: str
) -> None:
    """Add the entry just read (``key`` with its texts) to ``table``."""
    if not key:
        return
    if key in table or set(texts) != set(LANGUAGES):
        raise ValueError(f"messages area {area}: {key!r} is there twice or lacks a language")
    en, ko = ("\n".join(texts[language]) for language in LANGUAGES)
    table[key] = (_unquote(en), _unquote(ko))


def _unquote(value: str) -> str:
    """A text as written, less the quotes that keep its leading or trailing spaces."""
    if len(value) > 1 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def _read(area: str) -> None:
    """Parse one area into the table; a key another area already has is a ValueError."""
    module = __import__(f"{__name__}.{area}", fromlist=["TEXTS"])
    entries = parse(module.TEXTS, area)
    twice = entries.keys() & _TABLE.keys()
    if twice:
        raise ValueError(f"messages area {area}: {sorted(twice)} are in another area too")
    _TABLE.update(entries)


def _source(area: str) -> str:
    """One area's text with a newline before its first line (every key then follows one)."""
    source = _SOURCES.get(area)
    if source is None:
        module = __import__(f"{__name__}.{area}", fromlist=["TEXTS"])
        source = _SOURCES[area] = "\n" + module.TEXTS
    return source


def _entry(source: str, key: str, area: str) -> tuple[str, str] | None:
    """The (en, ko) texts of ``key`` in one area's text, its entry alone parsed (from its key
    line to the next line at the first column that is not a comment); None when not there."""
    start = source.find(f"\n{key}\n")
    if start < 0:
        return None
    end = source.find("\n", start + len(key) + 1)
    while end >= 0 and end + 1 < len(source) and source[end + 1] in " #\n":
        end = source.find("\n", end + 1)
    block = source[start + 1 : end if end >= 0 else len(source)]
    return parse(block, area)[key]


def _pair(key: str) -> tuple[str, str]:
    """The (en, ko) texts of ``key``, from the first area in order that has it."""
    pair = _FOUND.get(key) or _TABLE.get(key)
    if pair is None:
        for area in AREAS:
            pair = _entry(_source(area), key, area)
            if pair is not None:
                break
        else:
            raise KeyError(key)
        _FOUND[key] = pair
    return pair


def locale_language() -> str:
    """The language of the user's locale, for what tg-git says where no config names one
    (outside a repository, before `tg-git init`, a config too broken to read): the first of
    LC_ALL, LC_MESSAGES and LANG that is set, as gettext reads them; ``ko...`` is Korean."""

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return "ko" if environ[name].lower().startswith("ko") else "en"
    return "en"


def has(key: str) -> bool:
    """Whether ``key`` is a message (e.g. a level that has a name to print)."""
    try:
        _pair(key)
    except KeyError:
        return False
    return True


def table() -> dict[str, tuple[str, str]]:
    """Every message, read from every area: for the tests and tools that walk them all."""
    while _UNREAD:
        _read(_UNREAD.pop(0))
    return dict(_TABLE)


def text(language: str, key: str, /, **values: object) -> str:
    """The message ``key`` in ``language`` (English for an unknown language), formatted."""
    pair = _pair(key)
    template = pair[1] if language == "ko" else pair[0]
    return template.format(**values) if values else template


def argparse_message(language: str, message: str) -> str:
    """One of argparse's error sentences in ``language`` (as argparse said it when unknown)."""
    if language != "ko":
        return message

    import re  # lazy: 6.2 ms (with enum, functools); every status-line refresh reads a message

    from tg_git.text.messages.errors import ARGPARSE_KO  # lazy: 0.3 ms

    for pattern, korean in ARGPARSE_KO:
        found = re.fullmatch(pattern, message)
        if found:
            return korean.format(*found.groups())
    return message
