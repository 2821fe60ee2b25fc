"""MS340: a `range(...)` handed out of the graph comes back as a tuple.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike: graph mode builds `range(...)` as
a tuple of ints, so a Cell's `construct` that returns one gives the caller `(0, 1, 2)` where
PyNative gives `range(0, 3)`: `return range(x.shape[0])`, `r = range(1, 5, 2); return x, r`
(PyNative `range(1, 5, 2)`, graph `(1, 3)`). What agrees: `return list(range(3))`,
`tuple(range(3))`, and a range used inside the graph. An `@jit` function is left alone:
PyNative compiles it too, so both modes get the tuple.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import receivers
from .helpers.base import FunctionContext
from .returns import _is_construct, _outputs, _own_returns

RANGE_OUTPUT = Rule(
    "MS340",
    "range-output-tuple",
    Group.DIVERGES,
    title="A `range` returned from compiled code comes back as a tuple",
    message=(
        "Graph mode returns `{value}` as a tuple of ints, where PyNative returns a `range` "
        "object; return `tuple(...)` (or `list(...)`) of it so both modes agree."
    ),
    why="Graph mode builds `range(...)` as a tuple of ints; the graph's output keeps that tuple.",
    remedy="Return `tuple(range(...))` or `list(range(...))`, or build the range in Python.",
    mindspore_says="(compiles; the caller gets (0, 1, 2) instead of range(0, 3))",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether the function is the graph's entry depends on its callers.
    if ctx.fn.caller is not None or not _is_construct(ctx):
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    if not any(isinstance(c.func, ast.Name) and c.func.id == "range" for c in calls):
        return  # the cheap test first: `builtin()` reads the module's names
    if not builtin(ctx, "range"):
        return
    for ret in _own_returns(ctx):
        if ret.value is None:
            continue
        for value in _outputs(ret.value):
            if _is_range(ctx, value):
                yield RANGE_OUTPUT.finding(value, value=ast.unparse(value))


def _is_range(ctx: FunctionContext, value: ast.expr) -> bool:
    if isinstance(value, ast.Name):
        bound = receivers.only_binding(ctx, value.id)
        if bound is None:
            return False
        value = bound
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "range"
        and 1 <= len(value.args) <= 3
        and not value.keywords
    )
