"""``domain.typed.NamedTuple`` refuses, as ``typing.NamedTuple`` does, the classes it would
otherwise build wrong: a field without a default after one with a default (its default would
go to the wrong field) and a body that overwrites what the namedtuple machinery owns."""

from __future__ import annotations

import typing

import pytest

from tg_git.domain import typed


@pytest.mark.parametrize("base", [typed.NamedTuple, typing.NamedTuple], ids=["typed", "typing"])
def test_a_field_without_a_default_after_one_with_is_refused(base: type) -> None:
    with pytest.raises(TypeError, match="cannot follow default field"):

        class Shifted(base):  # type: ignore[valid-type,misc]
            first: int = 1
            second: int


@pytest.mark.parametrize("base", [typed.NamedTuple, typing.NamedTuple], ids=["typed", "typing"])
def test_overwriting_the_namedtuple_machinery_is_refused(base: type) -> None:
    with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):

        class Replaced(base):  # type: ignore[valid-type,misc]
            value: int

            def _replace(self) -> int:
                return 1
