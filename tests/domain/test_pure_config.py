"""The config from its TOML text in-process, at every bound of its checks; which paths count
as work; and the ledger paths a session id can name."""

from __future__ import annotations

import pytest

from tg_git.domain import config
from tg_git.domain import layout
from tg_git.domain import tomltext
from tg_git.domain.errors import CorruptFile
from tg_git.domain.eventlog import MAX_COUNT


def read(text: str) -> config.Config:
    return config.from_mapping(tomltext.parse_toml(text, layout.CONFIG_PATH, "fix it"))


@pytest.mark.parametrize(
    "text",
    [
        "max_tokens = true",
        "max_tokens = 0",
        f"max_tokens = {MAX_COUNT + 1}",
        "[thresholds]\nwarning = 0",
        "[thresholds]\nhalt = 100.5",
        "[thresholds]\nwarning = 91\nforce_save = 90",
        "[budget]\ncontext = 0",
        "[budget]\nspend_usd = -1",
        "[budget]\nspend_tokens = -1",
    ],
)
def test_a_value_out_of_bounds_is_a_clear_error(text: str) -> None:
    with pytest.raises(CorruptFile, match=r"\.tg-git/config\.toml"):
        read(text)


def test_every_bound_admits_its_own_value() -> None:
    cfg = read(f"max_tokens = {MAX_COUNT}\n[thresholds]\nwarning = 90\nforce_save = 90\nhalt = 100")
    assert (cfg.max_tokens, cfg.warning, cfg.force_save, cfg.halt) == (MAX_COUNT, 90, 90, 100)
    off = read("[budget]\nspend_usd = 0\nspend_tokens = 0\ncontext = 'auto'")
    assert (off.spend_usd, off.spend_tokens, off.budget_context) == (None, None, None)


@pytest.mark.parametrize(
    ("path", "counts"),
    [
        ("a.py", True),
        (".tg-git/notes.md", True),
        (".tg-git/ledger/s1.toml", False),
        (".tg-git/ledger.toml", False),
        ("web/package-lock.json", False),
        ("sub/yarn.lock", False),
        (".tg-git/ledger/sub/x.toml", True),
    ],
)
def test_which_paths_count_as_work(path: str, counts: bool) -> None:
    assert config.Config().counts(path) is counts


def test_include_globs_narrow_what_counts() -> None:
    only_src = config.Config(include=("src/*",))
    assert only_src.counts("src/a.py") and not only_src.counts("docs/a.md")


def test_a_ledger_file_is_one_file_of_the_ledger_folder() -> None:
    assert layout.is_ledger_file(".tg-git/ledger/s1.toml")
    assert not layout.is_ledger_file(".tg-git/ledger/sub/s1.toml")
    assert not layout.is_ledger_file(".tg-git/ledger/s1.txt")


@pytest.mark.parametrize("sid", ["s1/../../x", "s1\n", "../s1", "s1 x", "a" * 81])
def test_a_session_id_that_is_not_a_plain_name_cannot_leave_the_ledger_folder(sid: str) -> None:
    path = layout.ledger_file(sid)
    folder, _, name = path.rpartition("/")
    assert folder == layout.LEDGER_DIR and layout.is_ledger_file(path) and name.startswith("x")
    assert layout.ledger_file("s20261201100000-0123456789ab").endswith(
        "/s20261201100000-0123456789ab.toml"
    )
