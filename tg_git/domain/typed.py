"""``typing``'s run-time pieces for the modules a commit hook loads, without importing
``typing``: bench/hook.py measured it, with the ``typing.NamedTuple`` and ``Protocol`` classes
built through it, at ~5 ms of every commit. mypy reads the real ones (``TYPE_CHECKING``); at
run time ``NamedTuple`` builds the same ``collections.namedtuple`` class ``typing`` builds,
``Protocol`` is a plain base (protocols are only ever read by mypy here) and ``cast`` returns
its value, as ``typing.cast`` does.

It saves the ``import typing`` (~3 ms, 20-30 % of ``python -c pass``) of every hook process.
The price: the fields are read from the class body's ``__annotations__``, which Python 3.14
no longer writes (PEP 649: annotations are evaluated lazily, through an annotate function)
unless the module has ``from __future__ import annotations``. Every module that uses this one
keeps it (tests/domain/test_typed_guard.py), and a class body with an annotate function but no
``__annotations__`` is refused at its definition, with the fix, instead of losing its fields.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # this module's point: no `import typing` at run time
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
    from typing import Protocol as Protocol
    from typing import cast as cast
else:

    def cast(_type, value):
        return value

    class Protocol:
        __slots__ = ()

    _OWNED = frozenset(
        {
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
            "_source",
        }
    )

    def _refuse_what_typing_refuses(fields, namespace):
        """typing's errors for a class namedtuple would build wrong: a default given to the
        wrong field (defaults fill the last fields), the machinery overwritten."""
        given = [f in namespace for f in fields]
        if given != sorted(given):
            late = fields[given.index(False, given.index(True))]
            first = fields[given.index(True)]
            raise TypeError(
                f"Non-default namedtuple field {late} cannot follow default field {first}"
            )
        for key in _OWNED.intersection(namespace):
            raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")

    _LAZY = ("__annotate__", "__annotate_func__")  # where Python 3.14 keeps a body's annotations

    class _NamedTupleType(type):
        """What ``typing.NamedTupleMeta`` does: the annotated names, in order, are the fields
        (those with a value, the defaults), and the class body's other names (methods,
        properties, the docstring) go onto the ``collections.namedtuple`` class."""

        def __new__(mcs, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(mcs, name, bases, namespace)
            if "__annotations__" not in namespace and any(k in namespace for k in _LAZY):
                raise TypeError(
                    f"{namespace['__module__']}.{name}: tg_git.domain.typed.NamedTuple reads"
                    " the fields from __annotations__, which this Python evaluates lazily:"
                    " add `from __future__ import annotations` at the top of the module"
                )
            annotations = namespace.get("__annotations__", {})
            fields = tuple(annotations)
            _refuse_what_typing_refuses(fields, namespace)
            defaults = [namespace[f] for f in fields if f in namespace]
            made = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            made.__annotations__ = annotations
            for key, value in namespace.items():
                if key not in ("__module__", "__annotations__") and key not in fields:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_NamedTupleType):
        pass
