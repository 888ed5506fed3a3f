"""``typing``'s run-time pieces for the modules a commit hook loads, without importing
``typing``: bench/hook.py measured it, with the ``typing.NamedTuple`` and ``Protocol`` classes
built through it, at ~5 ms of every commit. mypy reads the real ones (``TYPE_CHECKING``); at
run time ``NamedTuple`` builds the class ``collections.namedtuple`` builds (a ``tuple``
subclass with the same fields, defaults, methods and signature), ``Protocol`` is a plain base
(protocols are only ever read by mypy here) and ``cast`` returns its value, as
``typing.cast`` does.

It saves the ``import typing`` (~3 ms, 20-30 % of ``python -c pass``) of every hook process.
``collections.namedtuple`` compiles each class's ``__new__`` from source (``eval``): for the
~28 classes a commit loads that was ~4 ms more, so the class is built here without a compile.
Its ``__new__`` is a precompiled function of the right arity (``_TEMPLATES``) given the
fields' names (``code.replace``), the methods are shared by every class (they read
``_fields``), the field getters are the C ones ``collections.namedtuple`` uses. A class of
more fields than the templates have, or of names it would refuse, goes through
``collections.namedtuple`` itself.

The price: the fields are read from the class body's ``__annotations__``, which Python 3.14
no longer writes (PEP 649: annotations are evaluated lazily, through an annotate function)
unless the module has ``from __future__ import annotations``. Every module that uses this one
keeps it (tests/domain/test_typed_guard.py), and a class body with an annotate function but no
``__annotations__`` is refused at its definition, with the fix, instead of losing its fields.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from keyword import iskeyword

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
        properties, the docstring) go onto the namedtuple class."""

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
            defaults = tuple(namespace[f] for f in fields if f in namespace)
            module = namespace["__module__"]
            if len(fields) < len(_TEMPLATES) and all(_plain_name(f) for f in fields):
                made = _namedtuple(name, fields, defaults, module)
            else:  # what collections.namedtuple refuses, or more fields than the templates
                made = namedtuple(name, fields, defaults=defaults, module=module)
            made.__annotations__ = annotations
            for key, value in namespace.items():
                if key not in ("__module__", "__annotations__") and key not in fields:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_NamedTupleType):
        pass

    # ---- the class collections.namedtuple builds, without compiling its __new__ -------------
    try:
        from _collections import _tuplegetter
    except ImportError:  # another Python: what collections.namedtuple falls back to
        from operator import itemgetter

        def _tuplegetter(index, doc):
            return property(itemgetter(index), doc=doc)

    _t = _tuple_new = tuple.__new__  # ``_t``: the name the templates call it by
    _HAS_QUALNAME = sys.version_info >= (3, 11)  # code objects carry co_qualname since 3.11
    _HAS_REPLACE = sys.version_info >= (3, 13)  # copy.replace: namedtuple's __replace__

    def _plain_name(name):
        """A name collections.namedtuple takes as it is (it refuses the others, and says why)."""
        return (
            type(name) is str
            and name.isidentifier()
            and not name.startswith("_")
            and not iskeyword(name)
        )

    @classmethod
    def _make(cls, iterable):
        result = _tuple_new(cls, iterable)
        if len(result) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
        return result

    def _replace(self, /, **kwds):
        result = self._make(map(kwds.pop, self._fields, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    def __repr__(self):
        """Return a nicely formatted representation string"""
        pairs = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
        return f"{self.__class__.__name__}({pairs})"

    def _asdict(self):
        """Return a new dict which maps field names to their values."""
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        """Return self as a plain tuple.  Used by copy and pickle."""
        return tuple(self)

    def _namedtuple(name, fields, defaults, module):
        """``collections.namedtuple(name, fields, defaults=defaults, module=module)``."""
        arg_list = ", ".join(fields)
        code = _TEMPLATES[len(fields)].__code__
        if _HAS_QUALNAME:
            code = code.replace(
                co_varnames=("_c", *fields), co_name="__new__", co_qualname=f"{name}.__new__"
            )
        else:
            code = code.replace(co_varnames=("_c", *fields), co_name="__new__")
        new = type(_make.__func__)(code, {"_t": _tuple_new}, "__new__", defaults or None)
        new.__doc__ = f"Create new instance of {name}({arg_list})"
        new.__qualname__ = f"{name}.__new__"
        namespace = {
            "__doc__": f"{name}({arg_list})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": dict(zip(fields[len(fields) - len(defaults) :], defaults)),
            "__new__": new,
            "_make": _make,
            "_replace": _replace,
            "__repr__": __repr__,
            "_asdict": _asdict,
            "__getnewargs__": __getnewargs__,
            "__match_args__": fields,
        }
        if _HAS_REPLACE:
            namespace["__replace__"] = _replace
        for index, field in enumerate(fields):
            namespace[field] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
        made = type(name, (tuple,), namespace)
        made.__module__ = module
        return made

    # One precompiled ``__new__`` per number of fields (``_namedtuple`` renames its arguments).
    _TEMPLATES = (
        lambda _c: _t(_c, ()),
        lambda _c, a: _t(_c, (a,)),
        lambda _c, a, b: _t(_c, (a, b)),
        lambda _c, a, b, c: _t(_c, (a, b, c)),
        lambda _c, a, b, c, d: _t(_c, (a, b, c, d)),
        lambda _c, a, b, c, d, e: _t(_c, (a, b, c, d, e)),
        lambda _c, a, b, c, d, e, f: _t(_c, (a, b, c, d, e, f)),
        lambda _c, a, b, c, d, e, f, g: _t(_c, (a, b, c, d, e, f, g)),
        lambda _c, a, b, c, d, e, f, g, h: _t(_c, (a, b, c, d, e, f, g, h)),
        lambda _c, a, b, c, d, e, f, g, h, i: _t(_c, (a, b, c, d, e, f, g, h, i)),
        lambda _c, a, b, c, d, e, f, g, h, i, j: _t(_c, (a, b, c, d, e, f, g, h, i, j)),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k: _t(_c, (a, b, c, d, e, f, g, h, i, j, k)),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m: _t(_c, (a, b, c, d, e, f, g, h, i, j, k, m)),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x, y: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x, y)
        ),
        lambda _c, a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x, y, z: _t(
            _c, (a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, x, y, z)
        ),
    )
