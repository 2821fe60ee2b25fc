"""MS1016: `-` of a comparison of Python numbers (a Python bool) in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: graph mode's scalar
negation `ScalarUsub` refuses a bool ("For 'ScalarUsub, [bool] is not a valid input dtype"),
so `-(1 > 0)`, `-(n > 1)` with `n = x.shape[0]`, and `b = n > 1; -b` fail at every level
where PyNative gives -1 / 0. (`-True` itself is MS153's.) `~(n > 1)` (-2 in both modes),
`abs(True)`, `round(True)`, `True + True`, `-int(n > 1)` and `-` of a Tensor comparison compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

BOOL_NEGATED = Rule(
    "MS1016",
    "bool-negated",
    Group.FAILS,
    title="`-` of a comparison of Python numbers (a Python bool)",
    message=(
        "`{text}` negates the Python bool `{compare}`, and graph mode's scalar negation takes "
        "numbers only; cast it first (`-int({compare})`)."
    ),
    why=(
        "A comparison of Python numbers is a Python bool in the graph; graph mode negates "
        "scalars with `ScalarUsub`, which refuses bools (Python treats True as 1)."
    ),
    remedy="Cast the bool to int before negating: `-int(a > b)`.",
    mindspore_says="TypeError: For 'ScalarUsub, [bool] is not a valid input dtype.",
)

_VALUE_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    unary: list[ast.UnaryOp] = ctx.of(ast.UnaryOp)
    for node in unary:
        if not isinstance(node.op, ast.USub):
            continue
        compare = _compare(ctx, node.operand)
        if compare is None or not _python_values(ctx, compare):
            continue
        value = abstract(ctx).of(node.operand)
        if value is not None and value.kind == "scalar" and value.dtype == "bool":
            continue  # MS153 reports a bool the values know
        yield BOOL_NEGATED.finding(node, text=ast.unparse(node), compare=ast.unparse(compare))


def _compare(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.Compare]:
    """The comparison `expr` is, directly or through a local bound once to it."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        expr = bound if bound is not None else expr
    if isinstance(expr, ast.Compare) and all(isinstance(op, _VALUE_OPS) for op in expr.ops):
        return expr
    return None


def _python_values(ctx: FunctionContext, compare: ast.Compare) -> bool:
    """Every side is known to be a Python number (never a Tensor, never unknown)."""
    values = abstract(ctx)
    for side in (compare.left, *compare.comparators):
        if ctx.types.is_tensor(side):
            return False
        value = values.of(side)
        if value is None or value.kind != "scalar" or value.dtype not in ("int", "float", "bool"):
            return False
    return True
