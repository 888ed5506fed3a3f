"""The checkpoint document's validation in-process: the shipped schemas by version, the
validator's keywords at their bounds, and the clamp that keeps what tg-git writes readable."""

from __future__ import annotations

from typing import Any

import pytest

from tg_git.domain import schema


def document(version: str = "1.0", **extra: Any) -> dict[str, Any]:
    """The smallest valid checkpoint of ``version``."""
    return {
        "schema_version": version,
        "session": {
            "timestamp": "2026-12-01T10:00:00Z",
            "project_name": "p",
            "project_root": "/p",
            "max_tokens": 1000,
            "estimated_used": 0,
        },
        "token_thresholds": {"warning": 800, "force_save": 900, "halt": 950},
        "status": {"completed": [], "in_progress": [], "pending": []},
        "critical_context": [],
        "next_steps": [],
        "resume_instructions": "",
        **extra,
    }


def test_each_shipped_version_checks_its_own_keys() -> None:
    assert schema.checkpoint_errors(document()) == []
    assert schema.checkpoint_errors(document("1.2")) == []
    assert schema.checkpoint_errors(document(budgets={"level": "ok"})) == [
        "$: unexpected key 'budgets'"
    ]


def test_a_newer_minor_version_with_new_keys_loads() -> None:
    assert schema.checkpoint_errors(document("1.9", future={"x": 1})) == []


@pytest.mark.parametrize("version", ["1.x", "1.", "2.0", 1.0, None])
def test_a_version_that_is_not_1_x_is_an_error_not_a_crash(version: object) -> None:
    assert schema.minor(version) is None
    assert schema.checkpoint_errors(document(version)) != []  # type: ignore[arg-type]


def test_true_is_not_a_count() -> None:
    assert schema.errors(True, {"type": "integer"}) == ["$: must be an integer"]
    assert schema.errors(True, {"type": "boolean"}) == []


def test_every_bound_admits_its_own_value() -> None:
    assert schema.errors([1, 2], {"type": "array", "maxItems": 2}) == []
    assert schema.errors([1, 2, 3], {"maxItems": 2}) == ["$: more than 2 items"]
    assert schema.errors([1, 2], {"type": "array", "items": {"type": "integer"}}) == []
    assert schema.errors("ab", {"type": "string", "maxLength": 2}) == []
    assert schema.errors("abc", {"maxLength": 2}) == ["$: longer than 2 characters"]
    assert schema.errors("abc", {"type": "string"}) == []
    assert schema.errors(1, {"type": "integer", "minimum": 1}) == []
    assert schema.errors(0, {"minimum": 1}) == ["$: below 1"]


def test_a_clamped_value_fits_its_schema() -> None:
    bounds = {"type": "string", "maxLength": 5}
    assert schema.clamp("x" * 10, bounds) == "xxxx…" and schema.errors("xxxx…", bounds) == []
    assert schema.clamp("x" * 5, bounds) == "x" * 5


def test_a_path_fits_up_to_the_file_systems_bytes() -> None:
    assert schema.path_fits("a" * 255) and not schema.path_fits("a" * 256)
    assert schema.path_fits("가" * 85) and not schema.path_fits("가" * 86)  # 3 bytes each
    assert schema.path_fits("/".join(["d" * 200] * 20)) and not schema.path_fits("d/" * 2049)
