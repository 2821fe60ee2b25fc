"""Failures while running the user's model: where in their code, and whether the inputs
were the problem (a shape, rank or dtype MindSpore rejected).

Pure: reads MindSpore's message text (its `# In file` lines through infile.py) and the Python
traceback; imports no MindSpore.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from mindscope_runtime.errors import RuntimeToolError, one_line
from mindscope_runtime.infile import Location, construct_locations, innermost, is_framework_file
from mindscope_runtime.targets import innermost_user_frame

# `construct_locations` is infile's, named here too for the callers that read it with the rest.
__all__ = [
    "construct_locations",
    "describe_inputs",
    "is_input_mismatch",
    "message_head",
    "run_failure",
    "user_location",
]

# MindSpore's operator checks that an input of the wrong shape, rank or dtype trips.
_INPUT_CHECK = re.compile(
    r"\bshape\b|\brank\b|\bdimensions?\b|\bdtype\b|type must be|must be a type of"
    r"|positional argument",
    re.IGNORECASE,
)
# Graph-mode shape errors that are not about the inputs (e.g. "Shape Join Failed" when two
# branches of a tensor `if` return different shapes): compile errors with a checker rule.
_GRAPH_ONLY = re.compile(r"\bjoin\b|branch", re.IGNORECASE)


def message_head(text: str) -> str:
    """MindSpore's own message, without its C++ stack and construct traceback."""
    return one_line(text.split("\n----", 1)[0], 300)


def user_location(locations: list[Location]) -> Optional[Location]:
    """The innermost location in the user's code (else the innermost one)."""
    found = innermost(locations, lambda path: not is_framework_file(path))
    return found or (locations[-1] if locations else None)


def is_input_mismatch(exc: BaseException) -> bool:
    """A ValueError/TypeError from an operator check on shapes, ranks or dtypes."""
    if not isinstance(exc, (ValueError, TypeError)):
        return False
    head = message_head(str(exc))
    return bool(_INPUT_CHECK.search(head)) and not _GRAPH_ONLY.search(head)


def describe_inputs(inputs: list[dict[str, Any]]) -> str:
    parts = []
    for item in inputs:
        shape = item.get("shape")
        shape_text = "(" + ", ".join(str(d) for d in shape) + ")" if shape is not None else "?"
        parts.append(f"{shape_text}:{item.get('dtype')}")
    return ", ".join(parts) or "no inputs"


def run_failure(
    exc: BaseException, *, kind: str, inputs: list[dict[str, Any]], root: str
) -> RuntimeToolError:
    """`input-mismatch` when MindSpore rejected an input's shape/dtype, else `kind`; both
    with MindSpore's message and the user's file and line."""
    location = user_location(construct_locations(str(exc)))
    if location is not None:
        file: Optional[str] = location.file
        line: Optional[int] = location.line
    else:
        file, line = innermost_user_frame(exc)
    head = message_head(str(exc))
    if is_input_mismatch(exc):
        message = f"{root} does not run on the inputs {describe_inputs(inputs)}: {head}"
        extra = {"inputs": inputs}
        return RuntimeToolError("input-mismatch", message, file=file, line=line, extra=extra)
    return RuntimeToolError(kind, f"{type(exc).__name__}: {head}", file=file, line=line)
