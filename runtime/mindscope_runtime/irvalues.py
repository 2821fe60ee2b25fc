"""Pure parsers for the value syntax inside MindSpore IR dumps.

Covers what the `*_execute_*.ir` files of MindSpore 2.10 contain: abstract types
(`<Tensor[Float32], (2, 3, 8, 8)>`, `<Tuple[Tensor[Float32]*5], TupleShape((2, 8), (8))>`),
attribute values (`I64(1)`, `(3, 3)`, `[x, w]`, `"NCHW"`) and source lines
(`# In file /x.py:12, 33~45/    return self.relu(x)/`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

JsonDict = dict[str, Any]

_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSE = {v: k for k, v in _OPEN.items()}


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split on `sep` outside brackets and quotes; parts are stripped, empty input → []."""
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in _OPEN:
            depth += 1
        elif ch in _CLOSE and not (ch == ">" and i > 0 and text[i - 1] == "-"):
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i].strip())
            start = i + len(sep)
            i += len(sep)
            continue
        i += 1
    tail = text[start:].strip()
    if tail or parts:
        parts.append(tail)
    return parts


def bracket_depth(text: str) -> int:
    """Net count of open brackets (ignoring quotes and `->`), to join wrapped lines."""
    depth = 0
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch == '"':
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "<":
            depth += 1
        elif ch == ">" and not (i > 0 and text[i - 1] == "-"):
            depth -= 1
    return depth


def matching_close(text: str, start: int) -> int:
    """Index of the bracket closing the one at `start`, or -1."""
    depth = 0
    quote = ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch == '"':
            quote = ch
        elif ch in _OPEN and ch != "<":
            depth += 1
        elif ch in _CLOSE and ch != ">":
            depth -= 1
            if depth == 0:
                return i
    return -1


# ---- attribute and constant values -------------------------------------------------------

_SCALAR = re.compile(r"^(I8|I16|I32|I64|U8|U16|U32|U64|F16|F32|F64|BF16|Bool)\((.*)\)$")
_NUMBER = re.compile(r"^-?\d+(\.\d*)?([eE][-+]?\d+)?$")


def parse_value(text: str) -> Any:
    """IR value text → JSON value; anything unrecognised stays a string."""
    text = text.strip()
    scalar = _SCALAR.match(text)
    if scalar:
        kind, inner = scalar.groups()
        if kind == "Bool":
            return inner.strip() in ("1", "true", "True")
        return _number(inner.strip(), text)
    if text in ("None", "none"):
        return None
    if text in ("true", "True"):
        return True
    if text in ("false", "False"):
        return False
    if _NUMBER.match(text):
        return _number(text, text)
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    if text[:1] in "([" and matching_close(text, 0) == len(text) - 1:
        return [parse_value(part) for part in split_top(text[1:-1])]
    return text


def _number(text: str, fallback: str) -> Any:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return fallback
    return value if value == value and value not in (float("inf"), float("-inf")) else fallback


def parse_attr_block(text: str) -> JsonDict:
    """`{kernel_size: (3, 3), mode: I64(1)}` → {"kernel_size": [3, 3], "mode": 1}."""
    inner = text.strip()
    if inner.startswith("{") and inner.endswith("}"):
        inner = inner[1:-1]
    out: JsonDict = {}
    for item in split_top(inner):
        key, sep, value = item.partition(":")
        if sep:
            out[key.strip()] = parse_value(value)
    return out


# ---- abstract types (`<Tensor[Float32], (2, 3)>`) ---------------------------------------

_MONADS = ("UMonad", "IOMonad")


def parse_abstract(text: str) -> JsonDict:
    """One `<…>` abstract → {"kind": tensor|tuple|list|scalar|monad|func|none|other, …}."""
    text = text.strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    parts = split_top(text)
    if not parts:
        return {"kind": "other", "text": text}
    shape = parse_shape(parts[1]) if len(parts) > 1 else None
    return _combine(parts[0], shape)


def parse_shape(text: str) -> Any:
    """`(2, 3)` → [2, 3]; `()` → []; `NoShape` → None; `TupleShape(a, b)` → [[…], […]]."""
    text = text.strip()
    for prefix in ("TupleShape", "ListShape"):
        if text.startswith(prefix + "("):
            return [parse_shape(p) for p in split_top(text[len(prefix) + 1 : -1])]
    if text.startswith("(") and text.endswith(")"):
        dims = split_top(text[1:-1])
        if all(_NUMBER.match(d) for d in dims):
            return [int(d) for d in dims]
    if text.startswith("[") and text.endswith("]"):
        return parse_shape("(" + text[1:-1] + ")")
    return None


def _combine(type_text: str, shape: Any) -> JsonDict:
    type_text = type_text.strip()
    if type_text.startswith("Ref[") and type_text.endswith("]"):
        inner = _combine(type_text[4:-1], shape)
        inner["ref"] = True
        return inner
    if type_text.startswith("Tensor["):
        return {"kind": "tensor", "dtype": type_text[7:-1], "shape": _dims(shape)}
    if type_text == "Tensor":
        return {"kind": "tensor", "dtype": None, "shape": _dims(shape)}
    for seq in ("Tuple", "List"):
        if type_text.startswith(seq + "[") and type_text.endswith("]"):
            return _sequence(seq.lower(), type_text[len(seq) + 1 : -1], shape)
        if type_text == seq:
            return {"kind": seq.lower(), "elements": []}
    if type_text in _MONADS:
        return {"kind": "monad", "dtype": type_text}
    if type_text in ("Func", "FuncType") or type_text.startswith("Func"):
        return {"kind": "func"}
    if type_text in ("None", "NoneType"):
        return {"kind": "none"}
    if re.match(r"^(Int|UInt|Float|BFloat|Bool|Complex|String)\d*$", type_text):
        return {"kind": "scalar", "dtype": type_text}
    return {"kind": "other", "text": type_text}


def _sequence(kind: str, inner: str, shape: Any) -> JsonDict:
    element_types: list[str] = []
    for part in split_top(inner):
        repeated = re.match(r"^(.*)\*(\d+)$", part)
        if repeated:
            element_types.extend([repeated.group(1)] * int(repeated.group(2)))
        elif part:
            element_types.append(part)
    shapes = shape if isinstance(shape, list) and len(shape) == len(element_types) else None
    elements = [
        _combine(t, shapes[i] if shapes is not None else None) for i, t in enumerate(element_types)
    ]
    return {"kind": kind, "elements": elements}


def _dims(shape: Any) -> Optional[list[int]]:
    if isinstance(shape, list) and all(isinstance(d, int) for d in shape):
        return shape
    return None


def parse_signature(text: str) -> tuple[list[JsonDict], list[JsonDict]]:
    """`: (<A>, <B>) -> (<C>)` → ([A, B], [C]); a bare `: (<C>)` (Return) → ([], [C])."""
    text = text.strip()
    if text.startswith(":"):
        text = text[1:].strip()
    halves = split_top(text, "->") if "->" in text else [text]
    groups = [_group(h) for h in halves]
    if len(groups) == 1:
        return [], groups[0]
    return groups[0], groups[1]


def _group(text: str) -> list[JsonDict]:
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return [parse_abstract(p) for p in split_top(text) if p.startswith("<")]


def flatten_outputs(outputs: list[JsonDict]) -> list[JsonDict]:
    """A node's outputs as a flat list: a tuple result becomes its elements."""
    if len(outputs) == 1 and outputs[0].get("kind") in ("tuple", "list"):
        elements = outputs[0].get("elements")
        if isinstance(elements, list) and elements:
            return [e for e in elements if isinstance(e, dict)]
    return outputs


# ---- source locations ------------------------------------------------------------------

_IN_FILE = re.compile(
    r"^#\s*In file (?P<file>.+?):(?P<line>\d+)(?:~(?P<end>\d+))?"
    r"(?:, (?P<col>\d+)~(?P<endcol>\d+))?(?:/(?P<code>.*))?$"
)
_SHARED_NOTE = "<~~"


@dataclass(frozen=True)
class Location:
    file: str
    line: int
    end_line: int
    column: Optional[int]
    end_column: Optional[int]
    code: str

    def to_json(self) -> JsonDict:
        return {
            "file": self.file,
            "line": self.line,
            "endLine": self.end_line,
            "column": self.column,
            "endColumn": self.end_column,
            "code": self.code,
        }


def parse_location(text: str) -> Optional[Location]:
    """`# In file /x.py:12~13, 4~25/    code/` → Location; other comment lines → None."""
    text = text.strip()
    cut = text.find("/" + _SHARED_NOTE)
    if cut >= 0:
        text = text[: cut + 1]
    match = _IN_FILE.match(text)
    if not match:
        return None
    code = match.group("code") or ""
    if code.endswith("/"):
        code = code[:-1]
    line = int(match.group("line"))
    col = match.group("col")
    endcol = match.group("endcol")
    return Location(
        file=match.group("file"),
        line=line,
        end_line=int(match.group("end") or line),
        column=int(col) if col is not None else None,
        end_column=int(endcol) if endcol is not None else None,
        code=code.strip(),
    )
