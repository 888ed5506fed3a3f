"""``jsonfast`` gives what ``json`` gives: the same values, the same text, the same refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tg_git.domain import jsonfast

VALUES: list[Any] = [
    {"a": [1, 2.5, None, True, False, 'x\u00e9\ud800\n"\\', {"b": {}}], "c": 10**30},
    {"model": "claude-opus-4-6", "cost": 4.2, "fill": -0.0, "big": 1e300},
    [],
    {},
    "s",
    3,
    0.1,
    [float("inf"), float("-inf")],
]


@pytest.mark.parametrize("value", VALUES)
def test_the_same_text_and_values_as_json(value: Any) -> None:
    assert jsonfast.dumps(value) == json.dumps(value)
    assert jsonfast.dumps(value, compact=True) == json.dumps(value, separators=(",", ":"))
    text = " \n\t" + json.dumps(value, indent=1) + "\r\n "
    assert repr(jsonfast.loads(text)) == repr(json.loads(text))


@pytest.mark.parametrize(
    "text", ["", "  ", "{", "[1,]", "1 2", '"\x01"', "{'a': 1}", "nul", "[1] x", "\ufeff1", "\f1"]
)
def test_what_json_refuses_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        jsonfast.loads(text)


def test_what_json_cannot_write_is_a_type_error() -> None:
    for value in (object(), {1j: 2}, [b"bytes"]):
        with pytest.raises(TypeError):
            json.dumps(value)
        with pytest.raises(TypeError):
            jsonfast.dumps(value)


def test_nan_and_infinity_read_as_json_reads_them() -> None:
    found = jsonfast.loads('{"a": NaN, "b": -Infinity, "c": Infinity}')
    assert found["a"] != found["a"] and (found["b"], found["c"]) == (float("-inf"), float("inf"))
