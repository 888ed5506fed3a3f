"""``tg_git.domain.typed``: the run-time ``NamedTuple`` builds what ``typing.NamedTuple``
builds (fields, defaults, methods, docstring, pickling), without ``typing``."""

from __future__ import annotations

import pickle
import typing

from tg_git.domain import typed


class Ours(typed.NamedTuple):
    """A record."""

    name: str
    size: int = 0
    tags: tuple[str, ...] = ()

    @property
    def big(self) -> bool:
        return self.size > 10

    def label(self) -> str:
        return f"{self.name}:{self.size}"


class Theirs(typing.NamedTuple):
    """A record."""

    name: str
    size: int = 0
    tags: tuple[str, ...] = ()

    @property
    def big(self) -> bool:
        return self.size > 10

    def label(self) -> str:
        return f"{self.name}:{self.size}"


def test_the_same_class_as_typing_builds() -> None:
    for cls in (Ours, Theirs):
        one = cls("a", 12)
        assert (one, one.big, one.label(), one.tags) == (("a", 12, ()), True, "a:12", ())
        assert cls._fields == ("name", "size", "tags")
        assert cls._field_defaults == {"size": 0, "tags": ()}
        assert one._replace(size=1) == ("a", 1, ())
        assert pickle.loads(pickle.dumps(one)) == one
        assert isinstance(one, tuple) and type(one).__mro__[1:] == (tuple, object)
    assert (Ours.__doc__, Ours.__module__, Ours.__qualname__) == (
        Theirs.__doc__, Theirs.__module__, "Ours"
    )  # fmt: skip
    assert repr(Ours("b")) == "Ours(name='b', size=0, tags=())"
    assert typed.cast(int, "kept") == "kept"  # type: ignore[comparison-overlap]
