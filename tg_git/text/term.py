"""Terminal output: control characters from data never reach the terminal; on a TTY the
seed's Markdown blocks are rendered (bold, colour, aligned tables); piped output stays the
seed's Markdown and ``NO_COLOR`` gives rendered text without colour.

``main`` wraps ``sys.stdout`` and ``sys.stderr`` in ``CleanStream`` for every command and
hook, so every line any module prints goes through ``strip_controls`` once. It is imported
on the hook path, so it uses nothing but ``os`` and ``re``. A rendering library was not
worth its import: the blocks use five Markdown constructs.
"""

from __future__ import annotations

import os
import re
from functools import cache

TYPE_CHECKING = False  # `import typing` costs a command ~2 ms (tg_git/domain/typed.py)
if TYPE_CHECKING:
    from typing import Any, TextIO

# ESC sequences first (CSI, OSC/DCS/APC/PM/SOS strings, two-byte escapes), then any other
# C0 control but tab and newline, DEL and the C1 controls (0x80-0x9f, which some terminals
# read as CSI), and the bidirectional controls (U+202A-U+202E embeddings and overrides,
# U+2066-U+2069 isolates, the LRM, RLM and ALM marks), which reorder what is shown so a
# name or title reads as something it is not. A lone CR can overwrite a printed line, so
# it goes too. The one sanitiser of terminal and report output (``mark_line``).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_LONE_SURROGATES = re.compile("[\ud800-\udfff]")

MARKDOWN, PLAIN, COLOR = "markdown", "plain", "color"


def strip_controls(text: str) -> str:
    """``text`` without escape sequences and control characters (tab and newline stay)."""
    if not _CONTROLS.search(text):
        return text
    if "\x1b" in text or "\x9b" in text or "\x9d" in text:
        text = _patterns()["escapes"].sub("", text)
    return _CONTROLS.sub("", text)


def mark_controls(text: str) -> str:
    """``text`` with each character ``strip_controls`` removes, and each lone surrogate (a
    byte of a name that is not UTF-8), shown as U+FFFD: for a page, where the reader should
    see that something was there."""
    return mark_surrogates(_CONTROLS.sub("\ufffd", text))


def mark_surrogates(text: str) -> str:
    """``text`` with each lone surrogate shown as U+FFFD, so that it encodes as UTF-8."""
    return _LONE_SURROGATES.sub("\ufffd", text)


def mark_line(text: str) -> str:
    """``mark_controls`` for text shown inside one line (the report's text and attributes, a
    name quoted in a message): tabs and line breaks become spaces."""
    return mark_controls(text).replace("\t", " ").replace("\n", " ")


def one_line(text: str, limit: int = 500) -> str:
    """Data shown inside a line (a task title, a commit subject): controls gone, line breaks
    folded to spaces, at most ``limit`` characters."""
    flat = " ".join(strip_controls(text.replace("\r", " ")).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def mode_for(stream: Any) -> str:
    """How to write to ``stream``: Markdown when piped, rendered on a terminal."""
    try:
        tty = bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        tty = False
    if not tty or os.environ.get("TERM") == "dumb":
        return MARKDOWN
    return PLAIN if os.environ.get("NO_COLOR") else COLOR


_BOLD, _DIM, _CYAN, _YELLOW, _RED, _RESET = (
    "\x1b[1m",
    "\x1b[2m",
    "\x1b[36m",
    "\x1b[33m",
    "\x1b[31m",
    "\x1b[0m",
)


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    """Compiled on first use: most hook runs print nothing that needs them."""
    return {
        "escapes": re.compile(
            r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
            r"|(?:\x1b[\]P^_X]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
            r"|\x1b[ -/]*[0-~]?"
        ),
        "strong": re.compile(r"\*\*(.+?)\*\*"),
        "code": re.compile(r"`([^`\n]+)`"),
        "heading": re.compile(r"^#{1,6} "),
        "rule": re.compile(r"^\|[\s:|-]+\|$"),
    }


def _inline(line: str, color: bool) -> str:
    line = _patterns()["strong"].sub(lambda m: f"{_BOLD}{m[1]}{_RESET}" if color else m[1], line)
    return _patterns()["code"].sub(lambda m: f"{_CYAN}{m[1]}{_RESET}" if color else m[1], line)


def width(text: str) -> int:
    """Terminal columns of ``text``: East Asian wide characters and emoji take two."""
    import unicodedata  # lazy: 0.3 ms

    return sum(
        2 if unicodedata.east_asian_width(ch) in "WF" else 0 if unicodedata.combining(ch) else 1
        for ch in text
        if ch != "\ufe0f"
    )


def wrap(text: str, columns: int) -> list[str]:
    """``text`` as lines of at most ``columns`` terminal columns, its runs of white space made
    one space and broken at spaces (``textwrap`` counts characters, and a Hangul syllable
    takes two columns); a word wider than a line is cut where the line is full."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        joined = f"{line} {word}" if line else word
        if width(joined) <= columns:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:  # a word of its own: whole when it fits, else cut
            if line and width(line + ch) > columns:
                lines.append(line)
                line = ""
            line += ch
    return [*lines, line] if line else lines


def _table(lines: list[str], color: bool) -> list[str]:
    rows = [
        [_inline(cell.strip(), False) for cell in line.strip().strip("|").split("|")]
        for line in lines
        if not _patterns()["rule"].match(line.strip())
    ]
    widths = [max(width(r[i]) for r in rows if i < len(r)) for i in range(max(map(len, rows)))]

    def pad(cell: str, i: int) -> str:
        gap = " " * (widths[i] - width(cell))
        return gap + cell if i and cell[:1] in "~0123456789" else cell + gap

    out = []
    for n, row in enumerate(rows):
        text = "  ".join(pad(cell, i) for i, cell in enumerate(row)).rstrip()
        bold = n == 0 or n == len(rows) - 1
        out.append(f"{_BOLD}{text}{_RESET}" if color and bold else text)
        if n == 0:
            rule = "─" * sum([*widths, 2 * (len(widths) - 1)])
            out.append(f"{_DIM}{rule}{_RESET}" if color else rule)
    return out


def render(text: str, mode: str) -> str:
    """The seed's Markdown ``text`` for a terminal (``COLOR`` or ``PLAIN``); unchanged for
    ``MARKDOWN``. Control characters are the caller's to strip first."""
    if mode == MARKDOWN or not any(c in text for c in "*`#>|"):
        return text
    color = mode == COLOR
    out: list[str] = []
    lines = text.split("\n")
    n = 0
    while n < len(lines):
        line = lines[n]
        if line.startswith("|") and line.rstrip().endswith("|"):
            end = n
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            out += _table(lines[n:end], color)
            n = end
            continue
        if _patterns()["heading"].match(line):
            title = _inline(line.lstrip("#").strip(), False)
            out.append(f"{_BOLD}{title}{_RESET}" if color else title)
        elif line.startswith(">"):
            body = _inline(line[1:].removeprefix(" "), color)
            tint = _RED if "🔴" in body else _YELLOW if "⚠️" in body else ""
            out.append(f"{tint}{body}{_RESET}" if color and tint else body)
        else:
            out.append(_inline(line, color))
        n += 1
    return "\n".join(out)


class CleanStream:
    """A text stream that strips control characters from everything written, and renders
    Markdown when it is a terminal (unless ``render_markdown`` is off: JSON output)."""

    def __init__(self, inner: TextIO, render_markdown: bool = True) -> None:
        self.inner = inner
        self.json = not render_markdown
        self.mode = mode_for(inner) if render_markdown else MARKDOWN

    def write(self, text: str) -> int:
        if self.json:  # JSON escapes C0 itself (a raw one is no JSON's: it goes); DEL, C1,
            if "\x1b" in text:  # bidi and lone surrogates become escapes that read back
                text = _patterns()["escapes"].sub("", text)
            clean = _LONE_SURROGATES.sub(_json_escape, _CONTROLS.sub(_json_escape, text))
        else:
            clean = _LONE_SURROGATES.sub(_replacement, strip_controls(text))
        self.inner.write(render(clean, self.mode))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, buffer...
        return getattr(self.inner, name)


# Lone surrogates are bytes of a name that is not UTF-8 (surrogateescape). Output stays
# UTF-8: JSON gets the \\udcXX escape (which reads back to the same name), text gets U+FFFD.
def _json_escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return "" if code < 0x20 else f"\\u{code:04x}"


def _replacement(match: re.Match[str]) -> str:
    return "\ufffd"
