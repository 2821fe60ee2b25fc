"""A small JSON Schema (draft 2020-12) validator for the subset MindScope's schemas use:
type, const, enum, properties, required, items, minimum, oneOf and local `$ref`s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

JsonDict = dict[str, Any]

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
    "number": (int, float),
    "integer": (int,),
}


def load_schema(path: Path) -> JsonDict:
    loaded: JsonDict = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def validate(document: Any, schema: JsonDict) -> list[str]:
    """Every violation as `<json path>: <problem>`; an empty list means valid."""
    errors: list[str] = []
    _check(document, schema, schema, "$", errors)
    return errors


def _is_type(value: Any, name: str) -> bool:
    if name in ("number", "integer") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES.get(name, (object,)))


def _resolve(ref: str, root: JsonDict) -> JsonDict:
    node: Any = root
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    resolved: JsonDict = node
    return resolved


def _check(value: Any, schema: JsonDict, root: JsonDict, path: str, errors: list[str]) -> None:
    if "$ref" in schema:
        _check(value, _resolve(schema["$ref"], root), root, path, errors)
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: expected {schema['const']!r}, got {value!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    if "oneOf" in schema:
        matches = sum(1 for option in schema["oneOf"] if not validate_sub(value, option, root))
        if matches != 1:
            errors.append(f"{path}: matches {matches} of oneOf")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, n) for n in names):
            errors.append(f"{path}: expected {'/'.join(names)}, got {type(value).__name__}")
            return
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if numeric and "minimum" in schema and value < schema["minimum"]:
        errors.append(f"{path}: {value} < minimum {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{path}: missing required {key!r}")
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                _check(value[key], sub, root, f"{path}.{key}", errors)
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            _check(item, schema["items"], root, f"{path}[{index}]", errors)


def validate_sub(value: Any, schema: JsonDict, root: JsonDict) -> list[str]:
    errors: list[str] = []
    _check(value, schema, root, "$", errors)
    return errors
