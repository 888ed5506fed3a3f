"""A small JSON Schema validator for the shipped checkpoint schema (the keywords it uses:
type, const, required, properties, additionalProperties, items, maxItems, maxLength,
minimum). The tests check the same files with the `jsonschema` package."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

_TYPES: dict[str, type | tuple[type, ...]] = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
}


VERSIONS = ("1.0", "1.1", "1.2", "1.3")  # the shipped schemas, oldest first
LATEST = VERSIONS[-1]


@cache
def checkpoint_schema(version: str = "1.0") -> dict[str, Any]:
    name = f"schemas/checkpoint-{version}.schema.json"
    schema: dict[str, Any] = json.loads(resources.files("tg_git").joinpath(name).read_text())
    return schema


def minor(version: object) -> int | None:
    """The minor number of a ``1.x`` schema version, None for anything else."""
    if not isinstance(version, str) or not version.startswith("1."):
        return None
    rest = version[2:]
    return int(rest) if rest.isdigit() and len(rest) <= 4 else None


def checkpoint_errors(data: Any) -> list[str]:
    """Every way ``data`` breaks the checkpoint schema of its own 1.x version. A version newer
    than any shipped one is checked against the newest, its extra keys allowed: every 1.x
    checkpoint loads."""
    version = data.get("schema_version") if isinstance(data, dict) else None
    if version in VERSIONS:
        return errors(data, checkpoint_schema(version))
    return errors(data, checkpoint_schema(LATEST), lenient=True)


def errors(
    value: Any, schema: dict[str, Any], where: str = "$", lenient: bool = False
) -> list[str]:
    """Every way ``value`` breaks ``schema``, as ``path: problem`` strings; ``lenient``
    allows keys the schema does not know, and any ``1.x`` version where a ``const`` says one."""
    if (
        "const" in schema
        and value != schema["const"]
        and not (lenient and minor(value) is not None)
    ):
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
        if schema.get("additionalProperties") is False and not lenient:
            found += [f"{where}: unexpected key {key!r}" for key in value if key not in props]
        for key, sub in props.items():
            if key in value:
                found += errors(value[key], sub, f"{where}.{key}", lenient)
    elif isinstance(value, list):
        if len(value) > schema.get("maxItems", len(value)):
            found.append(f"{where}: more than {schema['maxItems']} items")
        elif "items" in schema:
            for n, item in enumerate(value):
                found += errors(item, schema["items"], f"{where}[{n}]", lenient)
    elif isinstance(value, str):
        if len(value) > schema.get("maxLength", len(value)):
            found.append(f"{where}: longer than {schema['maxLength']} characters")
    elif isinstance(value, int) and value < schema.get("minimum", value):
        found.append(f"{where}: below {schema['minimum']}")
    return found


def clamp(value: Any, schema: dict[str, Any]) -> Any:
    """``value`` cut to ``schema``'s bounds: strings to ``maxLength`` (ending in "…"), lists
    to ``maxItems``, throughout. What tg-git writes then always reads back: a 5,000-character
    project name or a 70,000-character note cannot make its own checkpoint unreadable."""
    if isinstance(value, str):
        limit = schema.get("maxLength")
        return value if limit is None or len(value) <= limit else value[: limit - 1] + "…"
    if isinstance(value, list):
        items = value[: schema.get("maxItems", len(value))]
        sub = schema.get("items", {})
        return [clamp(item, sub) for item in items]
    if isinstance(value, dict):
        props = schema.get("properties", {})
        return {key: clamp(item, props.get(key, {})) for key, item in value.items()}
    return value


MAX_NAME = 255  # bytes of one path component on every common file system
MAX_PATH = 4096  # bytes of a path (Linux's PATH_MAX)


def path_fits(path: str) -> bool:
    """Whether ``path`` can name a file in a work tree: git stores longer names, but no file
    system opens them, so such an entry is dropped from what tg-git writes and refused in a
    checkpoint it reads (else every resume would fail on it)."""
    data = path.encode("utf-8", "surrogateescape")
    return len(data) <= MAX_PATH and all(len(part) <= MAX_NAME for part in data.split(b"/"))
