"""What a commit adds, from canned `git diff -p` bytes (no repository): keyed by path, never by
position. The end-to-end cases are in tests/e2e/test_history.py and tests/githooks/test_runner.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tg_git.repo.staged import parse_patch
from tg_git.repo.staged import unquote

TYPE_CHANGE = (
    b"diff --git a/a.py b/a.py\n"
    b"index 1111111..2222222 100644\n"
    b"--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    b"diff --git a/link b/link\n"
    b"deleted file mode 100644\nindex 3333333..0000000\n"
    b"--- a/link\n+++ /dev/null\n@@ -1 +0,0 @@\n-plain text\n"
    b"diff --git a/link b/link\n"
    b"new file mode 120000\nindex 0000000..4444444\n"
    b"--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+target.py\n\\ No newline at end of file\n"
    b"diff --git a/z_big.py b/z_big.py\n"
    b"new file mode 100644\nindex 0000000..5555555\n"
    b"--- /dev/null\n+++ b/z_big.py\n@@ -0,0 +1,2 @@\n+one = 1\n+two = 2\n"
)


def test_a_type_change_lands_on_its_own_path_and_shifts_nothing() -> None:
    added = parse_patch(TYPE_CHANGE)
    assert added == {
        "a.py": [b"x = 2"],
        "link": [b"target.py"],
        "z_big.py": [b"one = 1", b"two = 2"],
    }


PATCHES = Path(__file__).parent / "patches"


@pytest.mark.parametrize(
    ("name", "added"),
    [
        ("symlink-back-to-a-file", {"link": [b"now a file"]}),
        ("rename-without-rename-detection", {"new.py": [b"body = 1"]}),  # a delete and an add
        ("mode-only-change-and-empty-file", {"b.py": [b"b = 1"]}),  # they add nothing
        ("nul-byte-in-text", {"img.png": None}),  # a NUL byte makes a file binary even as text
    ],
)
def test_each_file_of_a_patch_adds_its_own_lines(
    name: str, added: dict[str, list[bytes] | None]
) -> None:
    assert parse_patch((PATCHES / f"{name}.diff").read_bytes()) == added


def test_quoted_paths_with_odd_bytes_and_a_plus_plus_plus_line_inside_a_hunk() -> None:
    patch = (
        b'diff --git "a/caf\\303\\251 \\"x\\".py" "b/caf\\303\\251 \\"x\\".py"\n'
        b"new file mode 100644\n"
        b'--- /dev/null\n+++ "b/caf\\303\\251 \\"x\\".py"\n@@ -0,0 +1,2 @@\n'
        b"++++ b/not-a-header\n+diff --git a/x b/x\n"
    )
    assert parse_patch(patch) == {'café "x".py': [b"+++ b/not-a-header", b"diff --git a/x b/x"]}
    assert unquote(b'"a\\tb\\\\c"') == b"a\tb\\c" and unquote(b"plain") == b"plain"


def test_nothing_staged() -> None:
    assert parse_patch(b"") == {}
