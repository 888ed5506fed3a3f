"""Levels in-process: each threshold at its exact token, the one rounding rule, the budget
checks, and every text the pre-commit hook prints after a commit (no git, milliseconds)."""

from __future__ import annotations

import pytest

from tg_git.domain import gauge
from tg_git.domain import levels
from tg_git.domain import replay
from tg_git.domain.config import Config
from tg_git.domain.eventlog import MAX_COUNT
from tg_git.text import messages

CONFIG = Config()


def session(output: int, max_tokens: int = 1000, **tasks: str) -> replay.Session:
    """A session that has spent ``output`` tokens, with ``tasks`` (title=status)."""
    found = replay.Session("s1", "2026-12-01T10:00:00Z", max_tokens, "", output=output)
    for title, status in tasks.items():
        found.tasks[title] = replay.Task(title, status)
    return found


def test_a_threshold_with_decimals_is_the_one_written() -> None:
    assert levels.thresholds(1000, Config(warning=82.5))["warning"] == 825
    assert levels.fraction(82.5) == (825, 10)


@pytest.mark.parametrize(
    ("name", "at"), [(levels.WARNING, 801), (levels.FORCE_SAVE, 901), (levels.HALT, 951)]
)
def test_each_level_starts_at_the_ceiling_of_its_share(name: str, at: int) -> None:
    """1,001 tokens: 80 % is 800.8, so the warning is reached at 801, not 800."""
    assert levels.level(at, 1001, CONFIG) == name
    assert levels.level(at - 1, 1001, CONFIG) != name
    assert levels.thresholds(1001, CONFIG)[name.replace("-", "_")] == at


@pytest.mark.parametrize(
    ("used", "name"),
    [
        (799, "ok"),
        (800, "warning"),
        (899, "warning"),
        (900, "force-save"),
        (949, "force-save"),
        (950, "halt"),
        (10**6, "halt"),
    ],
)
def test_the_boundaries_of_a_round_budget(used: int, name: str) -> None:
    assert levels.level(used, 1000, CONFIG) == name


def test_a_budget_of_nothing_is_spent_at_once() -> None:
    assert levels.level(0, 0, CONFIG) == levels.HALT


def test_percentages_are_floored_never_rounded_up() -> None:
    assert levels.percent(94_999, 100_000) == 94.99
    assert levels.shown(949, 1000) == 94
    assert (levels.percent(5, 0), levels.shown(5, 0)) == (100.0, 100)


def test_a_budget_whose_last_two_levels_share_a_token_is_refused() -> None:
    """5 tokens: force-save (4.5) and halt (4.75) are both reached at the 5th token."""
    said = levels.check_budget(5, CONFIG)
    assert said is not None and "force-save and halt" in said and "(5 tokens)" in said


def test_the_largest_budget_the_ledger_reads_back_is_accepted() -> None:
    assert levels.check_budget(MAX_COUNT, CONFIG) is None
    assert levels.check_budget(MAX_COUNT + 1, CONFIG) is not None


def test_a_halt_whose_save_failed_still_says_how_to_resume() -> None:
    saved, unsaved = gauge.halt_block(CONFIG), gauge.halt_block(CONFIG, saved=False)
    assert "harness_checkpoint.json" in saved and "harness_checkpoint.json" not in unsaved
    assert "tg-git resume" in unsaved and unsaved.count("\n") == saved.count("\n") - 1


def report(s: replay.Session, crossed: str | None = None, override: bool = False) -> str:
    return gauge.commit_report(s, CONFIG, delta=10, current="", crossed=crossed, override=override)


def test_the_warning_block_shows_from_the_warning_level_on() -> None:
    assert "Token warning" not in report(session(799))
    assert "Token warning" in report(session(800))


def test_a_crossing_into_force_save_says_so_and_a_commit_within_the_band_does_not() -> None:
    reached = "force-save level reached"
    assert reached in report(session(900), crossed=levels.FORCE_SAVE)
    assert reached not in report(session(910), crossed=None)


def test_the_halt_crossing_says_the_next_commit_is_refused() -> None:
    said = report(session(960), crossed=levels.HALT)
    assert "The NEXT commit of this session will be refused" in said
    assert "override" not in said


def test_an_override_says_it_was_recorded_and_not_that_the_next_commit_is_refused() -> None:
    """With TG_GIT_ALLOW_HALT=1 the commit went past the halt on purpose: 'the next commit
    will be refused' would be wrong (it would be let through the same way)."""
    for crossed in (levels.HALT, None):
        said = report(session(960), crossed=crossed, override=True)
        assert "NEXT commit" not in said
        assert "the override is recorded in the ledger" in said


def test_the_override_in_korean_says_it_was_recorded_only() -> None:
    korean = Config(language="ko")
    said = gauge.commit_report(
        session(960), korean, delta=1, current="", crossed=levels.HALT, override=True
    )
    assert "다음 커밋은 거부" not in said and "원장에 기록" in said


def test_the_gauge_reads_against_the_context_window_the_level_is_judged_by() -> None:
    line = gauge.gauge_line(session(500), Config(budget_context=2000), delta=5)
    assert "~500/2,000 tokens (25%" in line and "· ok ·" in line


def test_the_warning_lists_the_work_in_progress_apart_from_what_remains() -> None:
    s = session(850, a="pending", b="in_progress", c="done")
    block = gauge.warning_block(s, CONFIG, current="b")
    assert "> Current work: b\n> Remaining: a" in block and block.endswith("Remaining: a")


KOREAN = Config(language="ko")


def test_nothing_used_is_nothing_shown_even_of_a_one_token_budget() -> None:
    assert (levels.level(0, 1, CONFIG), levels.level(1, 1, CONFIG)) == (levels.OK, levels.HALT)
    assert (levels.percent(0, 1000), levels.percent(-5, 1000), levels.percent(0, 1)) == (0, 0, 0)
    assert (levels.shown(0, 1000), levels.shown(0, 1), levels.shown(1, 1)) == (0, 0, 100)


def test_a_budget_that_is_not_positive_or_too_small_is_refused_with_the_least_that_works() -> None:
    assert "positive number of tokens, not 0" in (levels.check_budget(0, CONFIG) or "")
    assert "not -5" in (levels.check_budget(-5, CONFIG) or "")
    said = levels.check_budget(2, CONFIG) or ""
    assert "puts warning and force-save at the same point (2 tokens)" in said
    least = levels.smallest_budget(CONFIG)
    assert f"use at least {least} tokens" in said
    assert levels.collapsed(least - 1, CONFIG) and not levels.collapsed(least, CONFIG)


def test_the_budget_checks_speak_the_language_asked_for() -> None:
    assert levels.check_budget(0, KOREAN) == messages.text("ko", "budget_positive", n=0)
    assert levels.check_budget(0, CONFIG, language="ko") == levels.check_budget(0, KOREAN)
    too_large = levels.check_budget(MAX_COUNT + 1, KOREAN)
    assert too_large == messages.text("ko", "budget_too_large", most=f"{MAX_COUNT:.0e}")
    collapses = levels.check_budget(5, KOREAN) or ""
    assert "강제 저장 단계와 중단 단계" in collapses


def test_every_line_of_the_report_speaks_the_configs_language() -> None:
    s = session(960, a="pending", c="pending")
    said = gauge.commit_report(
        s, KOREAN, delta=10, current="b", crossed=levels.HALT, override=False
    )
    first = said.split("\n")[0]
    assert first == gauge.gauge_line(s, KOREAN, 10) and "토큰" in first and "· 중단 ·" in first
    assert "> 현재 작업: b\n> 남은 작업: a, c\n" in said
    assert said.endswith("\n" + messages.text("ko", "halt_crossed"))
    crossing = gauge.commit_report(
        session(900), KOREAN, delta=1, current="", crossed=levels.FORCE_SAVE, override=False
    )
    assert crossing.endswith("\n" + messages.text("ko", "force_save_crossed"))
    assert "> 현재 작업: 없음\n> 남은 작업: 없음" in gauge.warning_block(session(850), KOREAN, "")


def test_the_halt_block_is_the_seeds_lines_in_the_configs_language() -> None:
    lines = messages.text("ko", "halt").split("\n")
    assert gauge.halt_block(KOREAN) == "\n".join(lines)
    assert gauge.halt_block(KOREAN, saved=False) == f"{lines[0]}\n{lines[2]}"
    assert gauge.refusal(KOREAN) == "\n".join([*lines, messages.text("ko", "halt_fix")])


def test_a_threshold_written_with_an_exponent_still_reads() -> None:
    """``warning = 0.00001`` is a valid config; its shortest form is ``1e-05``."""
    assert levels.thresholds(1000, Config(warning=1e-05))["warning"] == 1
    assert levels.level(1, 10**9, Config(warning=1e-05)) == levels.OK


def test_a_one_token_budget_is_refused_for_its_levels_not_as_nothing() -> None:
    assert "use at least 10 tokens" in (levels.check_budget(1, CONFIG) or "")
