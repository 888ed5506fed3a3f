"""Checkpoint tag names and commit trailers: the one home of their format and validation.

Session ids come from the ledger, a tracked file anyone can edit, so no value reaches a ref
name or a trailer line as it is: ``safe_component`` turns any text into one valid ref
component (git's check-ref-format rules) of bounded length, and adds a short hash of the
original whenever it had to change it, so two different ids never share a tag.
"""

from __future__ import annotations

import hashlib
import re

TAG_PREFIX = "checkpoint/"
TAG_REFS = f"refs/tags/{TAG_PREFIX}"
SUBJECT_PREFIX = "checkpoint:"  # the first line of every checkpoint commit (`git log --grep`)
SESSION_TRAILER = "Tg-Git-Session: "
LEVEL_TRAILER = "Tg-Git-Level: "
MAX_COMPONENT = 64  # characters of a session id kept in a tag name

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")  # no dots at all: no `..`, `.lock`, leading `.`
_STAMP = re.compile(r"^[0-9]{8}T[0-9]{6}\.[0-9]{6}Z$")


def safe_component(value: str) -> str:
    """``value`` as one ref component: letters, digits, ``_`` and ``-`` only, at most
    ``MAX_COMPONENT`` characters; changed values get ``-h`` + 8 hex digits of their hash."""
    clean = _UNSAFE.sub("-", value).strip("-")
    if clean == value and 0 < len(value) <= MAX_COMPONENT:
        return value
    digest = hashlib.sha1(value.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{clean[: MAX_COMPONENT - 10]}-h{digest}".lstrip("-")


def tag_name(stamp: str, session_id: str, level: str) -> str:
    """The tag of a save: ``checkpoint/<UTC stamp>-<session>-<level>``; name order is time
    order because the stamp (``%Y%m%dT%H%M%S.%fZ``) comes first."""
    if not _STAMP.match(stamp):
        raise ValueError(f"not a checkpoint time stamp: {stamp!r}")
    return f"{TAG_PREFIX}{stamp}-{safe_component(session_id)}-{safe_component(level)}"


def tag_suffix(session_id: str, level: str) -> str:
    """How every tag of this session and level ends (one save per session and level)."""
    return f"-{safe_component(session_id)}-{safe_component(level)}"


def trailers(session_id: str, level: str) -> str:
    """The trailer lines of a checkpoint commit; values are one safe component each, so a
    newline in a hand-edited session id cannot add a line of its own."""
    return (
        f"{SESSION_TRAILER}{safe_component(session_id)}\n{LEVEL_TRAILER}{safe_component(level)}\n"
    )


def neutral_message(text: str) -> str:
    """A ``-m`` message for a checkpoint commit's body: lines that would read as tg-git's own
    trailers are indented, so a message cannot pose as a save of another session or level."""
    lines = text.strip().splitlines()
    return "\n".join(
        f"  {line}" if line.startswith((SESSION_TRAILER.strip(), LEVEL_TRAILER.strip())) else line
        for line in lines
    )
