"""What a commit adds, from canned `git diff -p` bytes (no repository): keyed by path, never by
position. The end-to-end cases are in test_history.py and test_hooks.py."""

from __future__ import annotations

from tg_git.repo.staged import parse_patch, unquote

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


def test_symlink_back_to_a_file() -> None:
    patch = (
        b"diff --git a/link b/link\ndeleted file mode 120000\nindex 4444444..0000000\n"
        b"--- a/link\n+++ /dev/null\n@@ -1 +0,0 @@\n-target.py\n"
        b"diff --git a/link b/link\nnew file mode 100644\nindex 0000000..6666666\n"
        b"--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+now a file\n"
    )
    assert parse_patch(patch) == {"link": [b"now a file"]}


def test_rename_without_rename_detection_is_a_delete_and_an_add() -> None:
    patch = (
        b"diff --git a/old.py b/old.py\ndeleted file mode 100644\n"
        b"--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-body = 1\n"
        b"diff --git a/new.py b/new.py\nnew file mode 100644\n"
        b"--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+body = 1\n"
    )
    assert parse_patch(patch) == {"new.py": [b"body = 1"]}


def test_a_mode_only_change_and_an_empty_file_add_nothing() -> None:
    patch = (
        b"diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
        b"diff --git a/empty b/empty\nnew file mode 100644\nindex 0000000..e69de29\n"
        b"diff --git a/b.py b/b.py\n--- a/b.py\n+++ b/b.py\n@@ -0,0 +1 @@\n+b = 1\n"
    )
    assert parse_patch(patch) == {"b.py": [b"b = 1"]}


def test_a_nul_byte_makes_a_file_binary_even_as_text() -> None:
    patch = (
        b"diff --git a/img.png b/img.png\nnew file mode 100644\n"
        b"--- /dev/null\n+++ b/img.png\n@@ -0,0 +1,2 @@\n+\x89PNG\x00\x01\n+more\n"
    )
    assert parse_patch(patch) == {"img.png": None}


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
