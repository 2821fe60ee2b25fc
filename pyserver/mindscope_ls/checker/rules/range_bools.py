"""MS1079: a Python bool given to `range()` in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 34, `sc_`; a
Cell's `construct`): graph mode's `range` (`make_range`) takes int scalars only, and a bool is
not one, though Python's `range` takes it as 0 or 1: `range(True, 3)`, `range(True)`,
`range(0, 4, True)`, `range(flag, 4)` with `flag = True`, `skip = not True; range(skip, 3)`,
`range(bool(1), 3)`, `range(isinstance(x, Tensor), 3)`, `range(hasattr(self, 'w'), 3)`
and `range(x.shape[0] > 2, 4)` failed at both levels with "For 'make_range', the 0th input
should be a int scalar but got AbstractScalar(Type: Bool ...)". `range(int(flag), 4)` and
`range(True + 0, 3)` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

RANGE_OF_BOOL = Rule(
    "MS1079",
    "range-of-bool",
    Group.FAILS,
    title="A Python bool given to `range()` in compiled code",
    message=(
        "`{text}` is a bool, which graph mode's `range()` does not take as an int; write "
        "`int({text})`."
    ),
    why=(
        "Graph mode builds `range` with `make_range`, which takes int scalars only; Python "
        "treats True and False as 1 and 0."
    ),
    remedy="Convert it: `range(int(flag), n)`.",
    mindspore_says=(
        "TypeError: For 'make_range', the 0th input should be a int scalar but got "
        "AbstractScalar(Type: Bool, Value: true, Shape: NoShape)."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    ranges = [c for c in calls if isinstance(c.func, ast.Name) and c.func.id == "range"]
    if not ranges or not builtin(ctx, "range"):
        return
    for call in ranges:
        if call.keywords or not 1 <= len(call.args) <= 3:
            continue
        for arg in call.args:
            if _bool(ctx, arg, 0):
                yield RANGE_OF_BOOL.finding(arg, text=ast.unparse(arg))
                break


def _bool(ctx: FunctionContext, expr: ast.expr, depth: int) -> bool:
    """A Python bool: `True`/`False`, a comparison of shape entries and numbers, or a local
    bound once to one."""
    if depth > 4:
        return False
    if isinstance(expr, ast.Constant):
        return type(expr.value) is bool
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _bool(ctx, bound, depth + 1)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):  # `not True` (measured)
        return _bool(ctx, expr.operand, depth + 1) or _plain(expr.operand)
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        # `bool(1)`, `isinstance(x, Tensor)`, `hasattr(self, 'w')` (measured)
        name = expr.func.id
        return name in ("bool", "isinstance", "hasattr") and builtin(ctx, name)
    if isinstance(expr, ast.Compare) and not any(
        isinstance(op, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) for op in expr.ops
    ):
        return all(_plain(side) for side in [expr.left, *expr.comparators])
    return False


def _plain(expr: ast.expr) -> bool:
    """A number literal or a static shape entry (`x.shape[0]`, `len(x)`)."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    if isinstance(expr, ast.Constant):
        return type(expr.value) in (int, float)
    return names.is_static_size(expr)
