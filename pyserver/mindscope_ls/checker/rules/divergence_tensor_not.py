"""MS380: `not x` / `x in (a, b)` of Tensors returned from a Cell's `construct`.

Measured with MindSpore 2.10 on CPU (round 33, `dv_`), LAX and STRICT alike, against PyNative:
graph mode computes `not x` of a Tensor and `y in [x, y]` / `y not in (x,)` / `y in (x, 1)`
with Tensor items as a Bool Tensor, so a Cell's `construct` that returns it (alone, in the
output tuple, or through a local) hands back `Tensor(True)` where PyNative returns the Python
bool `True`. What agrees: `not x` used as an `if` test, `not x.shape[0]` and `not flag` of
Python values, `bool(x)`, `x is None`, `x == 0` (a Tensor in both), `x and y` (the operand in
both), and an `@ms.jit` function (PyNative compiles it too).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, within
from .helpers.flow import SCOPES

TENSOR_BOOL_RETURNED = Rule(
    "MS380",
    "tensor-not-returned-as-tensor",
    Group.DIVERGES,
    title="`not x` or `in` of Tensors returned from compiled code is a Bool Tensor",
    message=(
        "`{expr}` of a Tensor is a Bool Tensor in graph mode, so `construct` returns "
        "`Tensor(True)` where PyNative returns the bool `True`; return `{spelled}` (a Tensor in "
        "both) or convert it outside the graph."
    ),
    why=(
        "Graph mode computes `not` and `in` on Tensors with Tensor ops: `return not x` for "
        "`x = Tensor(0)` gave Tensor(True) in GRAPH_MODE where PyNative returned True."
    ),
    remedy="Return a Tensor in both modes (`x == 0`, `ops.logical_not(x)`) or convert outside.",
    mindspore_says="(compiles; result differs from PyNative)",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether a construct is the graph's entry depends on its callers.
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell or ctx.fn.level is not None:
        return
    if ctx.fn.caller is not None or ctx.fn.node.name != "construct":
        return
    if not ctx.of(ast.UnaryOp, ast.Compare):
        return
    returns: list[ast.Return] = ctx.of(ast.Return)
    nested = [n for n in ctx.of(*SCOPES) if n is not ctx.fn.node]
    for ret in returns:
        if ret.value is None or any(within(n, [ret]) for n in nested):
            continue
        for expr in _outputs(ctx, ret.value, 0):
            fix = _tensor_bool(ctx, expr)
            if fix is not None:
                yield TENSOR_BOOL_RETURNED.finding(expr, expr=ast.unparse(expr), spelled=fix)


def _outputs(ctx: FunctionContext, expr: ast.expr, depth: int) -> Iterator[ast.expr]:
    """`expr` and the items of a written-out tuple/list, through locals bound once."""
    if depth > 3:
        return
    if isinstance(expr, (ast.Tuple, ast.List)):
        for element in expr.elts:
            if not isinstance(element, ast.Starred):
                yield from _outputs(ctx, element, depth + 1)
        return
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            yield from _outputs(ctx, bound, depth + 1)
        return
    yield expr


def _tensor_bool(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The Tensor spelling of `not <Tensor>` / `<Tensor> in (<Tensors>)`, else None."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        if ctx.types.is_tensor(expr.operand):
            return f"{ast.unparse(expr.operand)} == 0"
        return None
    if (
        isinstance(expr, ast.Compare)
        and len(expr.ops) == 1
        and isinstance(expr.ops[0], (ast.In, ast.NotIn))
        and ctx.types.is_tensor(expr.left)
    ):
        seq = expr.comparators[0]
        if (
            isinstance(seq, (ast.Tuple, ast.List))
            and seq.elts
            and not any(isinstance(e, ast.Starred) for e in seq.elts)
            and any(ctx.types.is_tensor(e) for e in seq.elts)
            and all(ctx.types.is_tensor(e) or _number(e) for e in seq.elts)
        ):
            return "ops.stack([...]).eq(...).any()"
    return None


def _number(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)
