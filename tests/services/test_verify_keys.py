"""The keys verify keeps of each line a commit added (its memo's, the journal's comparison)
are ``eventlog.key_of``'s, whatever the line: read at C speed, not one call a line."""

from __future__ import annotations

from tg_git.domain import eventlog
from tg_git.services import verify_read

LINES = [
    'e1 = { "kind" = "usage" }',
    '  e2\t=\t{ "kind" = "commit", "label" = "a = b" }',
    "no sign at all",
    "=starts with one",
    "key=",
    " \t ",
    "\u3000wide\u3000= {}",
    "x == y",
    '"quoted = key" = 1',
    "",
]


def test_each_key_is_the_one_key_of_reads() -> None:
    assert verify_read._keys(LINES) == [eventlog.key_of(line) for line in LINES]
    assert verify_read._keys([]) == []
