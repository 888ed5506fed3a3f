"""A change counted as git writes it, file by file and a large file piece by piece, counts what
the whole text counts: in every tier, on mixed text (CJK, emoji, CRLF, bytes that are not
UTF-8) and binary files, from canned patches cut anywhere and from real commits."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_at
from tg_git.domain import eventlog
from tg_git.domain.config import Config
from tg_git.estimate import estimator
from tg_git.repo import git as gitmod
from tg_git.repo import staged

MIXED = [
    "def parse(text: str) -> list[str]:\n    return [w for w in text.split() if w]\n",
    "    # indented comment with camelCaseWords and snake_case_words 12345 3.14159\n",
    "한국어 문장은 이렇게 씁니다. 토큰 수를 셉니다.\n",
    "漢字とかなの混じった文章です。絵文字も🙂🎉👩‍💻。\r\n",
    "Ελληνικά και Кириллица, עברית, العربية, हिन्दी, ไทย\r\n",
    '{"key": [1, 2, 3], "nested": {"a": null}}\n',
    "\n\n\n",
    "x" * 300 + "\n",
    "                            deeply indented line\n",
    "Prose: the quick brown fox jumps over the lazy dog, again and again.\n",
]


def _mixed(lines: int, seed: int) -> bytes:
    rng = random.Random(seed)
    out = bytearray()
    for _ in range(lines):
        out += rng.choice(MIXED).encode()
        if rng.random() < 0.02:
            out += b"\xff\xfe bad \xc3 bytes \xe2\x82\n"  # not UTF-8
    return bytes(out)


def _pieces(data: bytes, size: int) -> list[bytes]:
    """``data`` cut with ``safe_cut`` into pieces of about ``size`` bytes, as the hook does."""
    out, rest = [], bytearray(data)
    while len(rest) > size:
        cut = estimator.safe_cut(rest[: size + 1])
        if not cut:  # none yet: the hook reads on until there is one
            later = re.search(rb"\n[A-Za-z]", rest[size:])
            if later is None:
                break
            cut = size + later.start() + 1
        out.append(bytes(rest[:cut]))
        del rest[:cut]
    return [*out, bytes(rest)]


def _tiers() -> list[str]:
    tiers = ["fit", "vocab", "table"]
    try:
        import quicktok  # type: ignore[import-not-found, import-untyped, unused-ignore]  # noqa: F401
    except ImportError:
        return tiers
    return [*tiers, "exact"]


@pytest.mark.parametrize("chosen", _tiers())
@pytest.mark.parametrize("size", [64, 700, 5000])
def test_a_text_counted_in_safe_pieces_counts_as_the_whole(
    chosen: str, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TG_GIT_EXACT", "1")
    monkeypatch.setattr(estimator, "_EXACT", {})
    assert estimator.exact_version() or chosen != "exact"
    data = _mixed(400, size)
    pieces = _pieces(data, size)
    assert len(pieces) > 3 and b"".join(pieces) == data
    for profile in ("o200k", "cl100k") if chosen in ("exact", "vocab") else ("o200k", "claude"):
        profile = "seed" if chosen == "table" else profile
        for path in ("a.py", "notes.md", "data.json", None):
            whole = estimator.Tally(chosen, profile, path)
            whole.feed(data.decode("utf-8", "replace"))
            cut = estimator.Tally(chosen, profile, path)
            for piece in pieces:
                cut.feed(piece.decode("utf-8", "replace"))
            assert cut.total() == whole.total() > 0, (chosen, profile, path)
    if chosen == "fit":  # the whole-text tally is the byte-count tier's own estimate
        text = data.decode("utf-8", "replace")
        whole = estimator.Tally("fit", "o200k", "a.py")
        whole.feed(text)
        assert whole.total() == estimator.fitted_estimate(text, "a.py", "o200k")


def test_a_cut_is_only_ever_before_a_letter_after_a_newline() -> None:
    assert estimator.safe_cut(b"abc\n  def\nghi\n") == len(b"abc\n  def\n")
    assert estimator.safe_cut(b"abc\n  def\n\n") == 0  # no letter starts a line
    assert estimator.safe_cut(b"\xe4\xb8\x80\n\xe4\xb8\x80") == 0  # nor does a CJK one


PATCHES = Path(__file__).parents[1] / "repo" / "patches"


def _patch() -> bytes:
    """Every canned patch, and one of large mixed files (one binary), joined."""
    body = _mixed(3000, 7)
    big = b"".join(b"+" + ln + b"\n" for ln in body.split(b"\n"))
    parts = [p.read_bytes() for p in sorted(PATCHES.glob("*.diff"))]
    for name, extra in (("big.py", b""), ("blob.bin", b"+\0\n"), ("zz.md", b"")):
        parts.append(
            b"diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..1111111\n"
            b"--- /dev/null\n+++ b/%s\n@@ -0,0 +1,9 @@\n%s%s"
            % (name.encode(), name.encode(), name.encode(), big, extra)
        )
    return b"".join(parts)


@pytest.mark.parametrize("chunk", [1, 7, 4096, 1 << 16])
@pytest.mark.parametrize("limit", [10_000_000, 50_000])
def test_a_patch_read_in_any_pieces_counts_as_read_whole(
    chunk: int, limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(staged, "_PIECE", 2048)  # a large file counted in many pieces
    monkeypatch.setattr(staged, "VOCAB_MAX_BYTES", limit)  # below: one commit past it
    monkeypatch.setattr(estimator, "VOCAB_MAX_BYTES", limit)
    patch = _patch()
    config = Config()
    whole = staged.count_all(staged.parse_patch(patch), config)
    chunks = [patch[i : i + chunk] for i in range(0, len(patch), chunk)]
    if chunk == 1:
        chunks = [*chunks[:4000], patch[4000:]]  # byte by byte where the headers are
    assert staged.count_stream(chunks, config) == whole
    assert {c.path for c in whole if c.binary} >= {"blob.bin"}
    tiers = {c.estimator.split("/")[1].split("-")[0] for c in whole if c.estimator}
    assert tiers == ({"fit"} if limit == 50_000 else {"vocab"})


def _commit_tier(repo: Path, files: dict[str, bytes], exact: str) -> str:
    for name, data in files.items():
        (repo / name).write_bytes(data)
    git(repo, "add", *files)
    commit(repo, "-m", "work", env={"TG_GIT_EXACT": exact, "TG_GIT_ALLOW_HALT": "1"})
    events = [e for e in eventlog.parse(ledger_at(repo)).values() if e["kind"] == "commit"]
    return str(events[-1]["estimator"])


def test_a_commit_streamed_counts_what_its_whole_patch_counts(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {f"f{n}.py": _mixed(2500, n) for n in range(4)}
    files["blob.bin"] = b"\0\1\2" * 1000
    for name, data in files.items():
        (repo / name).write_bytes(data)
    git(repo, "add", *files)
    repo_ = gitmod.find_repo(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setattr(staged, "_PIECE", 4096)
    head = gitmod.head(repo_)
    config = Config()
    for limit in (100_000, 10_000_000):  # the commit past the vocabulary tier, and not
        monkeypatch.setattr(staged, "VOCAB_MAX_BYTES", limit)
        monkeypatch.setattr(estimator, "VOCAB_MAX_BYTES", limit)
        streamed = staged.staged_counts(repo_, config, head=head, tips=[])
        whole = staged.count_all(staged.index_added(repo_, head or repo_.empty_tree), config)
        assert streamed == whole and len(whole) == 5


needs_exact = pytest.mark.skipif("exact" not in _tiers(), reason="tg-git[exact] is not installed")


@needs_exact
def test_a_small_commit_never_loads_the_exact_backend_and_a_large_one_does(repo: Path) -> None:
    small = _commit_tier(repo, {"a.py": b"def counted():\n    return 'exactly'\n"}, "1")
    assert small.startswith("o200k/vocab-"), small
    big = {"big.py": _mixed(estimator.VOCAB_MAX_BYTES // 50, 3)}
    assert len(big["big.py"]) > estimator.VOCAB_MAX_BYTES
    assert _commit_tier(repo, big, "1").startswith("o200k/exact-quicktok-")
    assert _commit_tier(repo, {"c.py": b"x = 1\n"}, "0").startswith("o200k/vocab-")


@needs_exact
def test_the_tier_choice_imports_the_backend_only_for_a_large_text() -> None:
    code = (
        "import sys\n"
        "from tg_git.estimate import estimator as e\n"
        "from tg_git.repo import staged\n"
        "from tg_git.domain.config import Config\n"
        "staged.count_all({'a.py': [b'x = 1'] * 1000}, Config())\n"
        "print(e.tier('o200k', 1000), e.estimate_tokens('x' * 1000), 'quicktok' in sys.modules)\n"
        "print(e.tier('o200k', e.VOCAB_MAX_BYTES + 1), 'quicktok' in sys.modules)\n"
    )
    env = {**os.environ, "TG_GIT_EXACT": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.split() == ["vocab", "125", "False", "exact", "True"], out.stderr


def test_a_streamed_git_that_fails_says_so_and_one_left_early_ends(
    plain_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tg_git.domain.errors import GitError

    monkeypatch.chdir(plain_repo)
    with pytest.raises(GitError, match="diff-index"):
        list(gitmod.stream(["diff-index", "--cached", "no-such-revision"], plain_repo))
    (plain_repo / "big.txt").write_bytes(b"line\n" * 200_000)
    git(plain_repo, "add", "big.txt")
    empty = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
    pieces = gitmod.stream(["diff-index", "--cached", "-p", empty], plain_repo)
    assert next(pieces)  # git is still writing: the rest is left unread
    pieces.close()  # ends git, and waits for it
    whole = b"".join(gitmod.stream(["diff-index", "--cached", "-p", empty], plain_repo))
    assert whole.count(b"\n+line") == 200_000
