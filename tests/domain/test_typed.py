"""``tg_git.domain.typed``: the run-time ``NamedTuple`` builds what ``typing.NamedTuple``
builds (fields, defaults, methods, docstring, pickling), without ``typing``."""

from __future__ import annotations

import builtins
import collections
import copy
import inspect
import pickle
import typing
from typing import Any

import pytest

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


class Point(typed.NamedTuple):
    x: int
    label: str = "p"
    tags: tuple[str, ...] = ()


Plain = collections.namedtuple("Plain", ["x", "label", "tags"], defaults=["p", ()])
P: Any = Point  # both called wrongly below, on purpose
N: Any = Plain
META: Any = type(typed.NamedTuple)  # the run-time metaclass (mypy sees typing's)


def _error(make: Any) -> str:
    with pytest.raises(TypeError) as raised:
        make()
    return str(raised.value).replace("Plain", "Point")


def test_a_class_is_built_without_compiling_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """``collections.namedtuple`` compiles each class's ``__new__`` (``eval``): a commit loads
    ~28 of these classes, so they are built from precompiled templates instead."""

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("compiled code at a class build")

    monkeypatch.setattr(builtins, "eval", refused)  # what collections.namedtuple compiles with
    built = record(typed.NamedTuple, "Built")
    assert built("a", 2)._replace(size=3) == ("a", 3, ())


def test_the_class_is_collections_namedtuple_s_to_its_signature() -> None:
    assert str(inspect.signature(P)) == str(inspect.signature(N))
    assert P.__doc__ == N.__doc__.replace("Plain", "Point")
    assert Point.__new__.__qualname__ == "Point.__new__"
    assert P.__new__.__doc__ == N.__new__.__doc__.replace("Plain", "Point")
    assert (P._fields, P.__match_args__) == (N._fields, N.__match_args__)
    assert P._field_defaults == N._field_defaults
    extra = {"__annotations__", "__firstlineno__", "__static_attributes__"}  # a class body's
    assert set(dir(P)) - extra == set(dir(N))
    assert P(1, tags=("a",)) == N(1, tags=("a",)) == (1, "p", ("a",))
    assert (P(1).label, P(1)[2], P(1)._asdict()) == ("p", (), N(1)._asdict())
    assert repr(P(1, "q")) == repr(N(1, "q")).replace("Plain", "Point")
    assert _error(lambda: P()) == _error(lambda: N())
    assert _error(lambda: P(1, x=2)) == _error(lambda: N(1, x=2))
    assert _error(lambda: P(1, nope=2)) == _error(lambda: N(1, nope=2))
    assert _error(lambda: P(1, 2, 3, 4)) == _error(lambda: N(1, 2, 3, 4))
    assert _error(lambda: P._make([1])) == _error(lambda: N._make([1]))
    with pytest.raises(ValueError, match="unexpected field names"):
        P(1)._replace(nope=2)
    one = P(1, "q", ("t",))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(one, protocol)) == one
    assert copy.copy(one) == one and copy.deepcopy(one) == one
    match one:
        case Point(x, label):
            assert (x, label) == (1, "q")


def test_classes_of_many_fields_or_odd_names_are_namedtuple_s() -> None:
    """More fields than the templates hold: built by ``collections.namedtuple`` itself."""
    names = [f"f{i}" for i in range(40)]
    body = {"__module__": __name__, "__annotations__": dict.fromkeys(names, "int")}
    wide = META("Wide", (typed.NamedTuple,), body)
    assert wide(*range(40)).f39 == 39 and wide._fields == tuple(names)
    with pytest.raises(ValueError, match="underscore"):
        META("Odd", (typed.NamedTuple,), {"__module__": __name__, "__annotations__": {"_x": 1}})
