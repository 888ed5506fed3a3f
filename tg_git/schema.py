"""A small JSON Schema validator for the shipped checkpoint schema (the keywords it uses:
type, const, required, properties, additionalProperties, items, maxItems, maxLength,
minimum). The tests check the same files with the `jsonschema` package."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

_TYPES: dict[str, type | tuple[type, ...]] = {
    "object": dict, "array": list, "string": str, "integer": int, "number": (int, float),
    "boolean": bool,
}  # fmt: skip


@cache
def checkpoint_schema() -> dict[str, Any]:
    text = resources.files("tg_git").joinpath("schemas/checkpoint-1.0.schema.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


def errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema``, as ``path: problem`` strings."""
    if "const" in schema and value != schema["const"]:
        return [f"{where}: must be {schema['const']!r}"]
    kind = schema.get("type")
    if kind:
        expected = _TYPES[kind]
        if not isinstance(value, expected) or (isinstance(value, bool) and kind != "boolean"):
            return [f"{where}: must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}"]
    found: list[str] = []
    if isinstance(value, dict):
        props = schema.get("properties", {})
        found += [
            f"{where}: missing {key!r}" for key in schema.get("required", []) if key not in value
        ]
        if schema.get("additionalProperties") is False:
            found += [f"{where}: unexpected key {key!r}" for key in value if key not in props]
        for key, sub in props.items():
            if key in value:
                found += errors(value[key], sub, f"{where}.{key}")
    elif isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            found.append(f"{where}: more than {schema['maxItems']} items")
        elif "items" in schema:
            for n, item in enumerate(value):
                found += errors(item, schema["items"], f"{where}[{n}]")
    elif isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            found.append(f"{where}: longer than {schema['maxLength']} characters")
    elif isinstance(value, int) and value < schema.get("minimum", value):
        found.append(f"{where}: below {schema['minimum']}")
    return found
