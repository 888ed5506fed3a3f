"""``tg_git.domain.typed`` reads a NamedTuple's fields from the class body's
``__annotations__``. Python 3.14 evaluates annotations lazily (PEP 649): a class body without
``from __future__ import annotations`` holds an annotate function instead, and the fields
would be lost without a word. So every module that uses it keeps the future import (checked
here), and a class body that holds no annotations but an annotate function is refused at its
definition, with the fix."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tests.support.repos import PROJECT
from tg_git.domain import typed

META: Any = type(typed.NamedTuple)  # the run-time metaclass (mypy sees typing's)

_NAMES = ("__annotate__", "__annotate_func__")  # where 3.14 keeps it (annotationlib reads both)


def _users() -> list[Path]:
    """The modules of tg_git that import ``tg_git.domain.typed`` (or names from it)."""
    found = []
    for path in sorted((PROJECT / "tg_git").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            names = {alias.name for alias in node.names}
            if node.module == "tg_git.domain.typed" or (
                node.module == "tg_git.domain" and "typed" in names
            ):
                found.append(path)
                break
    return found


def _has_future_annotations(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(alias.name == "annotations" for alias in node.names)
        for node in tree.body
    )


def test_every_module_using_typed_keeps_the_future_import() -> None:
    users = _users()
    assert len(users) >= 10  # the walk finds them (budget, config, git, memo, ...)
    missing = [str(p.relative_to(PROJECT)) for p in users if not _has_future_annotations(p)]
    assert missing == [], f"add `from __future__ import annotations` to {missing}"


@pytest.mark.parametrize("key", _NAMES)
def test_a_class_body_with_lazy_annotations_is_refused_at_its_definition(key: str) -> None:
    """What a 3.14 class body without the future import hands the metaclass: no
    ``__annotations__``, an annotate function. Built into a field-less namedtuple, every
    ``Row(a, b)`` would fail far from here; refused, the error names the fix."""

    def annotate(_format: int) -> dict[str, type]:
        return {"name": str, "size": int}

    namespace = {"__module__": __name__, "__qualname__": "Row", key: annotate, "size": 0}
    with pytest.raises(TypeError, match="from __future__ import annotations"):
        META("Row", (typed.NamedTuple,), namespace)


def test_a_class_body_with_annotations_or_none_is_built_as_before() -> None:
    """The future import's string annotations give the fields; a body with no annotations
    at all (and no annotate function) is a field-less tuple, as ``typing`` builds it."""
    meta = META
    namespace = {
        "__module__": __name__,
        "__annotations__": {"name": "str", "size": "int"},
        "size": 0,
    }
    row = meta("Row", (typed.NamedTuple,), namespace)
    assert row._fields == ("name", "size") and row("a") == ("a", 0)
    assert meta("Empty", (typed.NamedTuple,), {"__module__": __name__})._fields == ()
