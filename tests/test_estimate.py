from __future__ import annotations

import random
import string

import pytest

from tg_git.estimate import PROFILE_NAMES, estimate_tokens, features, file_kind

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
