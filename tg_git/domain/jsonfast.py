"""JSON for the status line's refresh without ``json``'s Python layer: ``loads`` and ``dumps``
call the same C scanner and encoder (``_json``) that ``json.loads`` and ``json.dumps`` call,
with the same options, and give the same values and text. ``json``'s package imports ``re``
(with ``enum`` and ``functools``) for the whitespace it skips around a document: ~0.4×
``python -c pass`` that a refresh spends on nothing else (bench/agent_hook.py). Where
``_json`` is missing (another Python), both are ``json``'s own.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `import typing` costs a refresh a few ms
if TYPE_CHECKING:
    from typing import Any

_SPACE = " \t\n\r"  # JSON's whitespace, all of it


class _Options:
    """What the C scanner reads from ``json.JSONDecoder``: its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


def _refuse(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


try:
    from _json import encode_basestring_ascii, make_encoder, make_scanner
except ImportError:  # not CPython: json's own
    import json as _json_module

    def loads(text: str) -> Any:
        return _json_module.loads(text)

    def dumps(value: Any, compact: bool = False) -> str:
        return _json_module.dumps(value, separators=(",", ":") if compact else None)

else:
    _scan = make_scanner(_Options())  # type: ignore[arg-type]  # what it reads of a decoder

    def loads(text: str) -> Any:
        """``json.loads(text)``: a ValueError for anything that is not one JSON document."""
        body = text.strip(_SPACE)
        try:
            value, end = _scan(body, 0)
        except StopIteration:
            raise ValueError("Expecting value") from None
        if end != len(body):
            raise ValueError("Extra data")
        return value

    def dumps(value: Any, compact: bool = False) -> str:
        """``json.dumps(value)`` (``compact``: with ``separators=(",", ":")``)."""
        key, item = (":", ",") if compact else (": ", ", ")
        encode = make_encoder(
            {}, _refuse, encode_basestring_ascii, None, key, item, False, False, True
        )
        return "".join(encode(value, 0))
