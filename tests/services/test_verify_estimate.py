"""A cold verify re-estimates a commit that added text to one counted file without
``staged.count_all``'s bookkeeping for many files (``verify_read.estimate_change``), and gets
what ``count_all`` gets for every change: one file or several, binary, empty, not UTF-8, not
counted, too large for the vocabulary tier, each profile, exact or not."""

from __future__ import annotations

import os
from pathlib import Path

import hypothesis
import pytest
from hypothesis import strategies as st

from bench.verify import build
from tg_git.domain.config import Config
from tg_git.domain.decide import FileCount
from tg_git.estimate.estimator import PROFILE_NAMES
from tg_git.estimate.estimator import VOCAB_MAX_BYTES
from tg_git.repo import staged
from tg_git.services import verify_read
from tg_git.services.startup import open_workspace
from tg_git.services.verify import verify_history


def _expected(changes: staged.Added, config: Config, exact: bool) -> tuple[str, int]:
    counts = [c for c in staged.count_all(changes, config, exact) if c.counted and not c.binary]
    return (counts[0].estimator if counts else ""), sum(c.tokens for c in counts)


PATHS = ["src/a.py", "README.md", "data.json", "package-lock.json", ".tg-git/ledger/s.toml"]
LINES = st.lists(
    st.one_of(
        st.binary(max_size=40),
        st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.sampled_from([b"", b"\0", b"\xff\xfe", b"def f(x):", b"    return x  # \xc3\xa9"]),
    ),
    max_size=6,
)


@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.given(
    files=st.dictionaries(st.sampled_from(PATHS), st.one_of(st.none(), LINES), max_size=3),
    profile=st.sampled_from(PROFILE_NAMES),
    exact=st.booleans(),
)
def test_a_change_is_estimated_as_count_all_estimates_it(
    files: staged.Added, profile: str, exact: bool
) -> None:
    config = Config(profile=profile)
    assert verify_read.estimate_change(files, config, exact) == _expected(files, config, exact)


@pytest.mark.parametrize("size", [VOCAB_MAX_BYTES - 1, VOCAB_MAX_BYTES, VOCAB_MAX_BYTES + 1])
def test_a_text_at_the_vocabulary_tier_s_end_is_estimated_as_count_all_estimates_it(
    size: int,
) -> None:
    lines = [b"x = 1" * (size // 5)][:1] + [b"y" * (size % 5)] * bool(size % 5)
    lines = [b"".join(lines)]
    assert len(lines[0]) == size
    for text in (lines, [b"\xff" * (size // 3 + 1)]):  # each invalid byte: 3 bytes decoded
        changes: staged.Added = {"src/big.py": text}
        config = Config()
        assert verify_read.estimate_change(changes, config, False) == _expected(
            changes, config, False
        )


def test_a_cold_verify_of_one_file_commits_does_not_go_through_count_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "h"
    build(repo, 200, 10, os.environ)  # tg-git set up, then 20 commits adding to one file each
    monkeypatch.chdir(repo)
    calls: list[staged.Added] = []
    real = staged.count_all

    def counting(added: staged.Added, config: Config, exact: bool | None = None) -> list[FileCount]:
        calls.append(added)
        return real(added, config, exact)

    monkeypatch.setattr(verify_read, "count_all", counting)
    report = verify_history(open_workspace())
    assert report.ok and report.checked == 21, report.lines()
    assert [sorted(added) for added in calls] == [[".gitattributes", ".tg-git/config.toml"]]
