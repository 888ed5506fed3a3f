"""The ledger's line format: one TOML event a line, written, parsed, unioned and salvaged.

Each line is ``KEY = { kind = "...", ... }`` with a unique key, so ``merge=union`` merges,
rebases and cherry-picks keep it valid TOML and keep every event once. Nothing is stored
that can be derived: totals, levels and the plan come from ``replay``. Pure: text in, text
or events out; reading and writing the files is ``tg_git.repo.ledger``'s.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Iterable, Mapping, Sequence

from tg_git.domain.counts import COUNTS as COUNTS  # its readers import them from here
from tg_git.domain.counts import MAX_COUNT as MAX_COUNT
from tg_git.domain.counts import count as count
from tg_git.domain.errors import CorruptFile, Message
from tg_git.domain.layout import LEDGER_PATH
from tg_git.domain.tomltext import parse_toml
from tg_git.domain.typed import cast

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any

    # the records of each kind: for the type checker only (see eventkinds)
    from tg_git.domain.eventkinds import Event as Event
else:
    Event = dict  # at run time an event is the dict the parser made (a type alias can name it)

HEADER = (
    "# tg-git ledger: one event a line, append-only. Totals are replayed from these lines,\n"
    "# never stored. `.gitattributes` merges this file with merge=union. Holds numbers,\n"
    "# paths and the agent's short notes, never file contents.\n"
)
SESSION_ID = r"s[0-9]{14}-[0-9a-f]{12}"  # "s" + UTC start time + random
KINDS = ("session", "commit", "input", "task", "note", "next", "usage", "budget")
_KIND_SET = frozenset(KINDS)
TASK_OPS = ("add", "start", "done", "block")
MAX_LINE = 64 * 1024  # a real event line is under 1 KiB
MAX_TOML = 8 << 20  # a file the fast reader cannot take is parsed as TOML only up to this size


# The regular expressions below are pattern texts, compiled (and cached by ``re``) at their
# first use: bench/hook.py measured ~0.1-0.3 ms a compile, and a commit uses one or two.


def is_session_id(text: str) -> bool:
    return re.fullmatch(SESSION_ID, text) is not None


def now() -> str:
    # ``time``, not ``datetime``: bench/hook.py measured importing datetime on every commit
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def new_key() -> str:
    """``e`` + the UTC second + 12 hex digits: the microsecond (5 digits), then 7 random ones.
    Keys made in one second, and so session ids (``s`` + the same), sort in the order they
    were made: a clone without a pointer of its own takes the newest session by name."""
    moment = time.time()
    stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(moment))
    return f"e{stamp}-{int(moment % 1 * 1_000_000):05x}{os.urandom(4).hex()[:7]}"


# ---- writing one line ---------------------------------------------------------------------
# Characters a TOML basic string must escape that json.dumps leaves raw (DEL), and those
# Python's str.splitlines() would break a line at.
_MORE_ESCAPES = str.maketrans(
    {"\x7f": "\\u007f", "\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


_SURROGATE = "[\ud800-\udfff]"  # in a str, only ever a lone one (never in ASCII text)


def _toml_string(text: str) -> str:
    """A TOML basic string that is also a JSON string, on one line. Non-ASCII stays readable
    (TOML has no surrogate escapes, so no \\ud83d-style pairs); lone surrogates (undecodable
    bytes in a path) become U+FFFD."""
    clean = text if text.isascii() else re.sub(_SURROGATE, "\ufffd", text)
    return json.dumps(clean, ensure_ascii=False).translate(_MORE_ESCAPES)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):  # quoted keys: valid TOML, and JSON after one replace
        return "{ " + ", ".join(f'"{k}" = {_value(v)}' for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} to the ledger")


def event_line(kind: str, key: str | None = None, **fields: Any) -> tuple[str, str]:
    """One ledger line for an event; returns ``(key, line)``."""
    assert kind in KINDS, kind
    assert set(fields) <= set(FIELDS), set(fields) - set(FIELDS)  # the fast reader knows them
    key = key or new_key()
    body = {"kind": kind, "at": fields.pop("at", None) or now(), **fields}
    return key, f"{key} = {_value(body)}\n"


# ---- reading -----------------------------------------------------------------------------
# Reading fast. The hook reads the ledger on every commit, and a TOML parser takes ~240 ms
# for 10,000 events. The lines tg-git writes are TOML inline tables whose keys are quoted
# and come from FIELDS, and whose strings are JSON strings; such a line turns into JSON by
# replacing each `"field" = ` with `"field": ` (inside a string a quote is always escaped,
# so `"field" = ` can only be a key) and the whole file is read by one json.loads (~25 ms).
# Other lines (hand-written TOML) are tokenised exactly, strings skipped, one by one; any
# line that is not a `key = { ... }` table sends the file through the TOML parser.
FIELDS = (
    "kind", "at", "session", "tokens", "files", "label", "override", "id", "max_tokens", "base",
    "pending", "in_progress", "context", "next", "resumed_from", "op", "title", "note", "text",
    "task", "stopping_point", "blockers", "estimator",
    "agent", "model", "requests", "fresh_input", "cache_write", "cache_read", "output", "fill",
    "window", "transcript", "spent", "cost_pico",
    "recount",  # the commit a late count is for (tg_git.services.recount)
    "path",  # a commit's first file (``files``: how many it counted)
)  # fmt: skip
_EVENT_LINE = r"^([A-Za-z0-9_-]+)[ \t]*=[ \t]*(\{.*\})[ \t]*$"
_OUR_LINES = r'(?:[A-Za-z0-9_-]+ = \{ "[^\n]*\}\n)*'
_BLANK_OR_COMMENT = r"(?m)^[ \t]*(?:#[^\n]*)?(?:\n|\Z)"
_TOKEN = (
    r'("(?:[^"\\]|\\.)*")([ \t]*=(?!=)[ \t]*)?'  # a string, and if `=` follows, a quoted key
    r"|([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=(?!=)[ \t]*"  # a bare key
)


def _to_json(match: re.Match[str]) -> str:
    string, equals, bare = match.groups()
    if bare:
        return f'"{bare}": '
    return f"{string}: " if equals else string


def _ended(body: str) -> str:
    return body + "\n" if body and not body.endswith("\n") else body


def _our_lines(body: str) -> str | None:
    """``body`` without blank and comment lines, ending in a line break, when every other
    line is one as tg-git writes it; else None. The pattern is tried first: the text has
    no such lines when it matches, and looking for them costs ~30 ms at 100,000 lines."""
    body = _ended(body)
    if re.fullmatch(_OUR_LINES, body):
        return body
    if not ("\n#" in body or "\n\n" in body or body.startswith(("\n", " ", "\t"))):
        return None
    body = _ended(re.sub(_BLANK_OR_COMMENT, "", body))
    return body if re.fullmatch(_OUR_LINES, body) else None


def _whole_file_parse(text: str) -> dict[str, object] | None:
    """Every line as tg-git writes it, each key once: a few C-speed passes over the file.
    Each pass makes a copy of the text, and at 100,000 events a copy costs more in page
    faults than in the pass (five copies, not nine: 60-110 ms of a 100,000-event report)."""
    start = 0
    while text.startswith("#", start):  # the header, skipped without a copy a line
        end = text.find("\n", start)
        start = len(text) if end < 0 else end + 1
    body = _our_lines(text[start:] if start else text)
    if body is None:
        return None
    if not body:
        return {}
    lines = body.count("\n")
    fields_only = '\\" = ' in body  # a string holding `" = `: turn only the field names' `=`
    if body.count(" = { ") == lines:  # one a line: the key's (each line starts with one)
        keyed = body.replace(" = { ", '": { ').replace("\n", ',"', lines - 1)  # not the last
    else:  # a string or a nested table holds one too: the key's is each line's first
        split = (ln.partition(" = ") for ln in body[:-1].split("\n"))
        keyed = ',"'.join([f'{key}":{rest}' for key, _, rest in split])
    if fields_only:
        for name in FIELDS:
            keyed = keyed.replace(f'"{name}" = ', f'"{name}": ')
    else:  # no string can hold `" = ` unescaped: every one ends a key (one pass, not 33)
        keyed = keyed.replace('" = ', '": ')
    as_json = "".join(('{"', keyed, "}"))
    del keyed  # one copy of the text less at the parse's peak
    try:
        data: dict[str, object] = json.loads(as_json)
    except (ValueError, RecursionError):  # the careful path, or the TOML parser, will say
        return None
    return data if len(data) == lines else None  # a key twice: the careful path decides


def _long_line(line: str) -> dict[str, object] | None:
    """A line over ``MAX_LINE`` read the linear way (as tg-git writes lines), or None: such a
    line never reaches the slow parsers, but one tg-git wrote is still an event."""
    data = _whole_file_parse(line + "\n")
    return data if data is not None and len(data) == 1 else None


def _fast_parse(text: str) -> dict[str, object] | None:
    """The ledger as tg-git writes it, or None when some line needs the real TOML parser."""
    whole = _whole_file_parse(text)
    if whole is not None:
        return whole
    parts = []
    seen: dict[str, str] = {}
    for line in text.split("\n"):  # TOML's only line break (splitlines knows more)
        stripped = line.strip()
        if not stripped or stripped[0] == "#":
            continue
        if len(stripped) > MAX_LINE:
            long = _long_line(stripped)  # a resume's start of tg-git < 0.3 could be one
            if long is None:
                raise CorruptFile.from_key("ledger_long_line", n=MAX_LINE)
            stripped = f"{next(iter(long))} = {json.dumps(next(iter(long.values())))}"
        match = re.match(_EVENT_LINE, stripped)
        if match is None:
            return None
        key, body = match.groups()
        if key in seen:
            if seen[key] != body:
                return None  # the TOML parser will name the duplicate key
            continue  # the same event twice (a union merge of a cherry-pick): once
        seen[key] = body
        parts.append(f'"{key}":{re.sub(_TOKEN, _to_json, body)}')
    try:
        data: dict[str, object] = json.loads("{" + ",".join(parts) + "}")
    except (ValueError, RecursionError):  # the TOML parser will say what is wrong
        return None
    return data


def normalise(text: str) -> str:
    """What every reader sees: no byte-order mark, LF line ends (a CRLF checkout reads the same)."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n") if "\r" in text else text


def parse(text: str, where: str = LEDGER_PATH) -> dict[str, Event]:
    """Events by key, in file order. A broken file raises one clear ``CorruptFile``; time and
    memory stay bounded whatever the text (long lines never reach the slow parsers)."""
    text = normalise(text)
    data = _fast_parse(text)
    if data is None:
        if len(text) > MAX_TOML:
            raise CorruptFile.from_key("ledger_too_large", where=where)
        data = parse_toml(text, where, Message("ledger_repair"))
    return _events(data, where)


def _events(data: dict[str, object], where: str) -> dict[str, Event]:
    """``data`` as events, once every value is a table of a known kind (its values are read
    with care); else the ``CorruptFile`` that names the first that is not."""
    try:  # one C-speed pass (100,000 events: ~6 ms, a loop ~30); TypeError: a value no table
        kinds = set(map(dict.get, data.values(), ["kind"] * len(data)))  # type: ignore[arg-type]
    except TypeError:
        kinds = {None}
    if not kinds <= _KIND_SET:
        for key, value in data.items():
            if not isinstance(value, dict) or value.get("kind") not in KINDS:
                raise CorruptFile.from_key("ledger_not_event", where=where, key=key)
    return cast("dict[str, Event]", data)


def read_whole(text: str) -> dict[str, object] | None:
    """What ``parse_union`` makes of one text when every line is as tg-git writes it (a
    memo of it stands in for the text: ``repo.parsed``); None when it must take the union."""
    return _whole_file_parse(normalise(text))


def parse_union(
    texts: Sequence[str | None],
    where: str = LEDGER_PATH,
    parsed: Sequence[dict[str, object] | None] = (),
) -> dict[str, Event]:
    """``parse`` of the ``union`` of ``texts``, the same events in the same order, with each
    text parsed on its own: no 15 MB union of 100,000 lines at each read. A key
    in two texts keeps its first version, as ``union`` does; a text the whole-file reader
    cannot take (hand-written TOML, a key twice, a blank-led line) sends all through
    ``union`` and ``parse``, which also word any error. ``parsed[n]``, where not None, is
    ``read_whole(texts[n])`` made before."""
    given = [(n, t) for n, t in enumerate(texts) if t]
    parts: list[dict[str, object]] = []
    merged: dict[str, object] = {}
    total = 0
    for n, text in given:
        data = parsed[n] if n < len(parsed) and parsed[n] is not None else read_whole(text)
        if data is None:
            return parse("\n".join(union(*(t for _, t in given))), where)
        parts.append(data)
        merged.update(data)
        total += len(data)
    if len(merged) != total:  # a key in two texts (the journal's copy): its first version
        merged = {}
        for data in parts:
            for key, value in data.items():
                merged.setdefault(key, value)
    return _events(merged, where)


# A line exactly as ``event_line`` writes an event whose values are strings, integers and
# booleans: the kind first and once, each string a JSON string (no raw control character, known
# escapes), each integer short and without leading zeros. Such a line parses alone (``parse``)
# to the event its JSON reading gives, in any text, so checking it needs no parse (one C-speed
# match a line, under half of what parsing it costs); lines of any other form are parsed.
# Where the engine has them (3.11+), every repeat is possessive (``*+``, ``++``): each part
# ends where the next one's first character begins (a quote, a space, a comma), so giving back
# a character never lets a line match that did not, and a match keeps no place to return to
# (~25 % less time a line); before 3.11 the same expression with plain repeats.
_POSSESSIVE = sys.version_info >= (3, 11)


def _written_form(kinds: Iterable[str], possessive: bool = _POSSESSIVE) -> str:
    more = "+" if possessive else ""  # after a repeat: possessive
    string = (
        rf'"[^"\\\x00-\x1f]*{more}'
        rf'(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{{4}}{more})[^"\\\x00-\x1f]*{more})*{more}"'
    )
    plain = rf"(?:{string}|-?{more}(?:0|[1-9][0-9]{{0,17}}{more})|true|false)"
    kind = "|".join(kinds)
    return (
        rf'[A-Za-z0-9_-]+{more} = \{{ "kind" = "(?:{kind})"'
        rf'(?:, "(?!kind")[a-z_]+{more}" = {plain})*{more} \}}'
    )


_WRITTEN = _written_form(KINDS)
_CLAIMLESS = _written_form(k for k in KINDS if k != "commit")


def written(lines: Sequence[str]) -> dict[str, Event] | None:
    """The commit events of ``lines`` by line, when each line is an event exactly as
    ``event_line`` writes one with plain values (``parse`` of the line alone gives it, and
    every other line's event claims nothing); None when one is not (parse them)."""
    claimless = re.compile(_CLAIMLESS).fullmatch
    others = [ln for ln, match in zip(lines, map(claimless, lines)) if match is None]
    commits = re.compile(_WRITTEN).fullmatch
    if not all(map(commits, others)):
        return None
    bodies = [ln.partition(" = ")[2] for ln in others]
    joined = ",".join(bodies)
    try:
        if '\\" = ' in joined:  # a string holds `" = `: each line its own way
            return {ln: next(iter(parse(ln).values())) for ln in others}
        events: list[Event] = json.loads("[" + joined.replace('" = ', '": ') + "]")
    except (CorruptFile, ValueError, RecursionError):  # not expected of them: the parse decides
        return None
    return dict(zip(others, events)) if len(events) == len(others) else None


def decode(data: bytes | None, where: str = LEDGER_PATH) -> str | None:
    if data is None:
        return None
    try:
        return normalise(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise CorruptFile.from_key("ledger_not_utf8", where=where) from None


# ---- lines: the unit that merges, journals and repairs work on ---------------------------
def key_of(line: str) -> str:
    return line.split("=", 1)[0].strip()


def event_lines(text: str | None) -> list[str]:
    """The event lines of a ledger text, in order: no header, blanks or comments."""
    if not text:
        return []
    return [
        ln
        for ln in normalise(text).split("\n")
        if ln and (ln[0] not in "# \t" or (ln.strip() and not ln.lstrip().startswith("#")))
    ]


def union(*texts: str | None) -> list[str]:
    """Every event line of ``texts`` once, first seen first. A key seen twice with different
    bodies (a hand edit) keeps its first version: callers pass the most trusted text first."""
    distinct: dict[str, None] = {}
    for text in texts:
        distinct.update(dict.fromkeys(event_lines(text)))
    keys: set[str] = set()
    result = []
    for line in distinct:
        key = line.split("=", 1)[0].strip()
        if key not in keys:
            keys.add(key)
            result.append(line)
    return result


def salvage(text: str | None) -> tuple[list[str], int]:
    """The lines of ``text`` that read as tg-git events on their own, each key once, and how
    many did not (junk, conflict markers, half-written lines): what a repair keeps and drops."""
    kept, _events, dropped = _salvaged(text)
    return kept, dropped


def _salvaged(text: str | None) -> tuple[list[str], dict[str, Event], int]:
    """``salvage`` with the event each kept line read as on its own (kept lines need not
    read together: a line only the per-line reading takes sends the whole to TOML's)."""
    kept, events, dropped = [], {}, 0
    for raw in event_lines(text):
        line = raw.lstrip("\ufeff")
        try:
            if len(line) <= MAX_LINE or _long_line(line) is not None:
                parsed = parse(line)
                check_values(parsed)
                ((key, event),) = parsed.items()
                if key not in events:
                    events[key] = event
                    kept.append(line)
                continue
        except (CorruptFile, ValueError):
            pass
        dropped += 1
    return kept, events, dropped


def rewrite(text: str | None, lines: Iterable[str]) -> str:
    """``text`` holding exactly the event ``lines``: its comments and blank lines and the
    order of the lines it had stay, lines it lacks are appended, others are dropped."""
    if not text:
        return render(lines)
    wanted = dict.fromkeys(lines)
    out = []
    for raw in normalise(text).split("\n"):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            out.append(raw)
        elif raw in wanted:
            out.append(raw)
            del wanted[raw]
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out + list(wanted)) + "\n"


def clean_lines(text: str | None) -> tuple[list[str], int]:
    """A text's event lines and how many had to be dropped; line by line (``salvage``) only
    when the whole does not read."""
    lines, _events, dropped = clean_events(text)
    return lines, dropped


def clean_events(text: str | None) -> tuple[list[str], dict[str, Event], int]:
    """``clean_lines`` with the events they hold (parsed once)."""
    lines = event_lines(text)
    if not lines:
        return [], {}, 0
    try:
        events = parse("\n".join(lines))
        check_values(events)
        return lines, events, 0
    except Exception:  # CorruptFile, or anything a parser raises on hostile text
        return _salvaged(text)


def render(lines: Iterable[str]) -> str:
    """A ledger file: the header, then one event a line."""
    return HEADER + "".join(f"{ln}\n" for ln in lines)


def appended(text: str | None, lines: Iterable[str]) -> str:
    base = text if text else HEADER
    if not base.endswith("\n"):
        base += "\n"
    return base + "".join(lines)


# ---- values: counts that a hand edit could make hostile -----------------------------------
# ``COUNTS``, ``MAX_COUNT`` and ``count`` live in ``tg_git.domain.counts`` (imported above).


def check_values(events: Mapping[str, Event]) -> None:
    """Raise ``CorruptFile`` for an event whose counts replay would refuse."""
    for event in events.values():
        for name in COUNTS:
            if name in event:
                count(event, name)
