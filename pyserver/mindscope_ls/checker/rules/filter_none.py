"""MS1005: `filter(None, seq)` in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative keeps the true items):
graph mode's `filter` calls its first argument on every item, and `None` is not callable
("ValueError: The object is not callable. Please check code.", naming the filter's line):
`tuple(filter(None, (1, 0, 2)))`, `list(filter(None, (x.shape[0], 0)))` and
`for v in filter(None, [3, 0, 1])` fail. A predicate compiles
(`filter(lambda v: v != 0, (1, 0, 2))`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers.base import FunctionContext, cacheable

FILTER_OF_NONE = Rule(
    "MS1005",
    "filter-none-predicate",
    Group.FAILS,
    title="`filter(None, seq)` in compiled code",
    message=(
        "Graph mode's `filter` calls its first argument on each item and `None` is not "
        "callable (at every level); pass a predicate such as `lambda v: v` or use a "
        "comprehension with `if v`."
    ),
    why=(
        "The graph's `filter` has no special case for `None`: it calls the predicate on every "
        "item, so `filter(None, ...)` fails while compiling."
    ),
    remedy="Write `filter(lambda v: v, seq)` or `[v for v in seq if v]`.",
    mindspore_says="ValueError: The object is not callable. Please check code.",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [c for c in ctx.of(ast.Call) if isinstance(c, ast.Call) and _filter_of_none(c)]
    if not calls or not builtin(ctx, "filter"):
        return
    for call in calls:
        yield FILTER_OF_NONE.finding(call)


def _filter_of_none(call: ast.Call) -> bool:
    return (
        isinstance(call.func, ast.Name)
        and call.func.id == "filter"
        and len(call.args) == 2
        and not call.keywords
        and isinstance(call.args[0], ast.Constant)
        and call.args[0].value is None
    )
