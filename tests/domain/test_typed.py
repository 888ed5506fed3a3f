"""``tg_git.domain.typed``: the run-time ``NamedTuple`` builds what ``typing.NamedTuple``
builds (fields, defaults, methods, docstring, pickling), without ``typing``."""

from __future__ import annotations

import pickle
import typing
from typing import Any

from tg_git.domain import typed

BUILT: dict[str, tuple[str, str | None, str]] = {}  # name: what the builder gave the class


def record(base: Any, name: str) -> Any:
    """One class body built by ``base`` (``typed.NamedTuple`` or ``typing.NamedTuple``), then
    named ``name`` as if defined at the top of this module (pickle finds it there)."""

    class Record(base):  # type: ignore[misc, valid-type]
        """A record."""

        name: str
        size: int = 0
        tags: tuple[str, ...] = ()

        @property
        def big(self) -> bool:
            return bool(self.size > 10)

        def label(self) -> str:
            return f"{self.name}:{self.size}"

    BUILT[name] = (Record.__qualname__, Record.__doc__, Record.__module__)
    Record.__name__ = Record.__qualname__ = name
    return Record


Ours = record(typed.NamedTuple, "Ours")
Theirs = record(typing.NamedTuple, "Theirs")


def test_the_same_class_as_typing_builds() -> None:
    for cls in (Ours, Theirs):
        one = cls("a", 12)
        assert (one, one.big, one.label(), one.tags) == (("a", 12, ()), True, "a:12", ())
        assert cls._fields == ("name", "size", "tags")
        assert cls._field_defaults == {"size": 0, "tags": ()}
        assert one._replace(size=1) == ("a", 1, ())
        assert pickle.loads(pickle.dumps(one)) == one
        assert isinstance(one, tuple) and type(one).__mro__[1:] == (tuple, object)
    assert BUILT["Ours"] == BUILT["Theirs"] == ("record.<locals>.Record", "A record.", __name__)
    assert repr(Ours("b")) == "Ours(name='b', size=0, tags=())"
    assert typed.cast(int, "kept") == "kept"  # type: ignore[comparison-overlap]
