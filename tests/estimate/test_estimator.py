from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_at
from tests.support.repos import tg
from tg_git.estimate.estimator import PROFILE_NAMES
from tg_git.estimate.estimator import estimate_tokens
from tg_git.estimate.estimator import features
from tg_git.estimate.estimator import file_kind

SAMPLES = {
    "english": "The quick brown fox jumps over the lazy dog, and then it naps in the sun.\n" * 3,
    "python": "def add(a: int, b: int) -> int:\n    return a + b\n\nprint(add(1, 2))\n",
    "korean": "토큰 추정은 외부 API 없이 출력 길이로 합니다. 체크포인트를 저장합니다.\n",
    "chinese": "这是一个用于测试的中文句子，包含一些常见的汉字。\n",
    "japanese": "これはテスト用の日本語の文章です。カタカナも含みます。\n",
    "emoji": "ship it 🚀🔥✨ done ✅ 🎉🎉🎉\n",
    "minified": "function a(b){return b.map(function(c){return c*2}).filter(Boolean)};" * 20,
    "base64": "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODk="
    * 8,
    "nul": "before\x00after\x00\x00",
    "surrogate": "bad \udcff bytes",
}


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_any_text_gives_a_positive_int(profile: str, name: str) -> None:
    tokens = estimate_tokens(SAMPLES[name], "x.txt", profile)
    assert isinstance(tokens, int) and tokens > 0


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_empty_is_zero(profile: str) -> None:
    assert estimate_tokens("", None, profile) == 0


@pytest.mark.parametrize("profile", [p for p in PROFILE_NAMES if p != "seed"])
def test_grows_with_text_and_is_roughly_additive(profile: str) -> None:
    rng = random.Random(7)
    alphabet = (
        string.ascii_letters + string.digits + " \n\t.,;:(){}[]=+-*/'\"" + "가나다라마한글漢字🙂é"
    )
    for _ in range(200):
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 300)))
        b = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 300)))
        ea, eb, eab = (estimate_tokens(t, "f.py", profile) for t in (a, b, a + b))
        assert eab >= ea and eab >= eb
        assert eab <= ea + eb + 2  # joins may merge, never explode
    long = SAMPLES["english"] * 50
    assert estimate_tokens(long, None, profile) > 20 * estimate_tokens(
        SAMPLES["english"], None, profile
    )


@pytest.mark.parametrize(
    "path,kind",
    [
        ("src/app.py", "code"),
        ("web/index.TS", "code"),
        ("Makefile", "code"),
        ("docs/guide.md", "markup"),
        ("schema.xsd", "markup"),
        ("LICENSE", "prose"),
        ("notes.txt", "prose"),
        ("package.json", "data"),
        (".gitignore", "data"),
        (None, "prose"),
        ("weird.unknown", "prose"),
    ],
)
def test_file_kind(path: str | None, kind: str) -> None:
    assert file_kind(path) == kind


def test_kind_changes_the_estimate_only_by_a_factor() -> None:
    text = SAMPLES["python"] * 10
    as_code, as_data = estimate_tokens(text, "a.py"), estimate_tokens(text, "a.json")
    assert 0.8 < as_code / as_data < 1.25


def test_seed_profile_follows_the_seed_table() -> None:
    assert estimate_tokens("한글", None, "seed") == 5  # 2 Korean characters x 2.5
    assert estimate_tokens("hello brave new world", None, "seed") == round(4 * 1.3)
    assert estimate_tokens("a = 1\nb = 2\n", "x.py", "seed") == 25  # 2 code lines x 12.5
    assert estimate_tokens("# t\n- item\n", "x.md", "seed") == 20  # 2 markdown lines x 10


def test_unknown_profile_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown profile"):
        estimate_tokens("x", None, "gpt9")


def test_huge_text_is_linear_enough() -> None:
    one = estimate_tokens(SAMPLES["python"] * 1000, "a.py")
    ten = estimate_tokens(SAMPLES["python"] * 10000, "a.py")
    assert 9.5 * one <= ten <= 10.5 * one


def test_non_ascii_features_are_zero_for_ascii() -> None:
    counts = dict(zip(("K", "C", "E"), features("plain ascii", ("K", "C", "E"))))
    assert counts == {"K": 0, "C": 0, "E": 0}
    assert features("한국어 テスト 🙂", ("K", "J", "E")) == [3, 3, 1]
    names = ("L", "G", "Y", "H", "I", "C", "runs:Y")
    assert features("é λ Мир שלום नमस 漢字", names) == [1, 1, 3, 4, 3, 2, 1]


# ---- the optional exact backend (tg-git[exact]) ----------------------------------------------
def _quicktok() -> object | None:
    try:
        import quicktok  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    module: object = quicktok  # untyped: an object to the tests
    return module


needs_exact = pytest.mark.skipif(_quicktok() is None, reason="tg-git[exact] is not installed")


def _commit_events(repo_path: object) -> list[dict[str, object]]:
    from pathlib import Path

    from tg_git.domain import eventlog

    assert isinstance(repo_path, Path)
    events = eventlog.parse(ledger_at(repo_path)).values()
    return [dict(e) for e in events if e["kind"] == "commit"]


def test_without_the_backend_the_built_in_tiers_count() -> None:
    import subprocess

    code = "from tg_git.estimate.estimator import estimator_id as e; print(e('o200k', 10), e('o200k', 10**8))"
    env = {"TG_GIT_EXACT": "0", "PATH": ""}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    vocab, fit = out.stdout.split()
    assert vocab.startswith("o200k/vocab-") and fit.startswith("o200k/fit-"), out.stderr


@needs_exact
def test_the_backend_counts_a_large_text_exactly_and_a_small_one_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tg_git.estimate import estimator as estimate

    monkeypatch.delenv("TG_GIT_EXACT")
    monkeypatch.setattr(estimate, "_EXACT", {})  # this process looked it up turned off
    quicktok = _quicktok()
    for profile, name in estimate.EXACT_ENCODINGS.items():
        encoding = quicktok.get_encoding(name)  # type: ignore[attr-defined]
        small = "def parse(text):\n    return 한국어 + text  # ✓\n"
        big = small * (estimate.VOCAB_MAX_BYTES // len(small) + 10)  # past the vocabulary tier
        for text, asked in ((small, True), (big, None)):
            count = estimate.estimate_tokens(text, "x.py", profile, exact=asked)
            assert count == len(encoding.encode(text))
            assert estimate.estimator_id(profile, len(text), asked).startswith(
                f"{profile}/exact-quicktok-"
            )
        assert estimate.estimator_id(profile, 10).startswith(f"{profile}/vocab-")
        assert estimate.estimator_id(profile, 10, exact=False).startswith(f"{profile}/vocab-")
    assert estimate.estimator_id("claude").startswith("claude/fit-")  # no exact encoding


@needs_exact
def test_a_commit_counted_exactly_says_so_and_verify_recounts_it(repo: object) -> None:
    from pathlib import Path

    assert isinstance(repo, Path)
    exact = {"TG_GIT_EXACT": "1", "TG_GIT_ALLOW_HALT": "1"}  # a commit past the vocabulary tier
    text = "def counted():\n    return 'exactly'\n" * 30_000
    (repo / "a.py").write_text(text)
    git(repo, "add", "a.py")
    commit(repo, "-m", "a", env=exact)
    event = _commit_events(repo)[-1]
    encoding = _quicktok().get_encoding("o200k_base")  # type: ignore[attr-defined]
    assert str(event["estimator"]).startswith("o200k/exact-quicktok-")
    assert event["tokens"] == encoding.count(text[:-1])
    proc = tg(repo, "verify", env=exact)
    assert "matches history" in proc.stdout and "not checked" not in proc.stdout, proc.stdout
    # Without the backend, history it counted is named, not re-estimated by another tier.
    proc = tg(repo, "verify")
    assert "matches history" in proc.stdout and "was not re-estimated" in proc.stdout
    # Built-in counts (earlier commits) stay checked by the built-in tiers with the backend on.
    (repo / "b.py").write_text("def sneaky():\n    return 'uncounted'\n")
    git(repo, "add", "b.py")
    commit(repo, "--no-verify", "-m", "sneaky")
    proc = tg(repo, "verify", check=False, env=exact)
    assert proc.returncode == 6 and "not counted" in proc.stdout, proc.stdout


def test_rare_script_runs_in_a_large_text_count_as_the_full_pass_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The byte-count tier's shortcut for a script that is rare in a large text (the
    speed) gives every feature the same value as mapping the whole text again."""
    from tg_git.estimate import estimator as estimate

    rng = random.Random(7)
    pieces = [
        "def f(x):\n    return x + 1\n",
        "한국어",
        "漢字",
        "Привет",
        "ünï",
        "🙂",
        "\n\n",
        "42",
    ]
    text = "".join(rng.choice(pieces[:1] * 30 + pieces[1:]) for _ in range(20_000))
    assert len(text.encode()) > 1 << 16
    fast = estimate.features(text)
    monkeypatch.setattr(estimate, "_rare_runs", lambda classes, cls: None)
    assert fast == estimate.features(text)


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "/etc/hostname"])
def test_estimate_never_follows_links_out_of_a_folder(tmp_path: Path, target: str) -> None:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "a.py").write_text("a = 1\n")
    if target == "fifo":
        os.mkfifo(tmp_path / "pipe")
        target = str(tmp_path / "pipe")
    (folder / "link").symlink_to(target)
    proc = subprocess.run(
        [TG_GIT, "estimate", str(folder), "--json"], capture_output=True, text=True, timeout=20
    )
    assert proc.returncode == 0, proc.stderr
    files = {Path(f["path"]).name: f["tokens"] for f in json.loads(proc.stdout)["files"]}
    assert files["link"] == estimate_tokens(target, "link")  # the link text, not the target
    if target == "/dev/zero":
        named = subprocess.run(
            [TG_GIT, "estimate", "/dev/zero"], capture_output=True, text=True, timeout=20
        )
        assert named.returncode == 1 and "not a regular file" in named.stderr
