"""MS348: a comparison of Python floats that graph mode decides in float32.

Measured with MindSpore 2.10 on CPU at LAX against PyNative: graph mode computes Python float
arithmetic in float32 and compares in float32 too, so `0.1 + 0.2 == 0.3` was True in GRAPH_MODE
(False in PyNative) and `0.1 * m > 0.3` with `m = x.shape[1] = 3` False (True); a branch on
such a comparison takes the other path. A float literal beyond float32's range is inf (or 0.0)
there: `math.inf > 1e300` was False, `1e39 == 1e40` True. Comparisons that float32 decides
the same way (`m / 10 <= 0.5`, `0.5 + 0.25 == 0.75`) agree. Only comparisons whose two sides
the source fixes (literals, float attributes, shapes) are judged, and a shape-dependent one only
when it differs for every sampled shape. Round 31: `math.isclose(0.1 + 0.2, 0.3)` and
`math.isclose(x.shape[0] * 0.1, 0.6)` were False in GRAPH_MODE (True in PyNative): graph mode
runs `math.isclose` in Python on the float32 sum; with `rel_tol=1e-6` both were True.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .divergence_scalars import INT_SAMPLES, _f32, evaluate, held_float
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

FLOAT32_COMPARE = Rule(
    "MS348",
    "float-compare-float32",
    Group.DIVERGES,
    title="A comparison of Python floats that graph mode decides in float32",
    message=(
        "`{text}` is {graph} in graph mode, which computes and compares Python floats in "
        "float32, but {pynative} in PyNative; compare with a tolerance "
        "(`abs(a - b) < 1e-6`) or decide it outside the compiled code."
    ),
    why=(
        "Graph mode folds Python float arithmetic in float32: `0.1 + 0.2 == 0.3` was True in "
        "GRAPH_MODE and False in PyNative, so a branch on it takes the other path; "
        "`math.isclose(0.1 + 0.2, 0.3)` was False (the float32 sum against the literal)."
    ),
    remedy="Compare floats with a tolerance, or compute the flag outside the compiled code.",
    mindspore_says="(compiles; result differs from PyNative)",
)

COMPARES: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in ctx.of(ast.Call):
        if _isclose(ctx, call):
            found = _isclose_results(ctx, call)
            if found is not None:
                yield FLOAT32_COMPARE.finding(
                    call, text=ast.unparse(call), graph=str(found[0]), pynative=str(found[1])
                )
    for node in ctx.of(ast.Compare):
        if len(node.ops) != 1 or type(node.ops[0]) not in COMPARES:
            continue
        sides = (node.left, node.comparators[0])
        if not any(isinstance(side, ast.BinOp) or _beyond_float32(ctx, side) for side in sides):
            continue  # a literal against a literal or a name: nothing computed here
        found = _results(ctx, node)
        if found is not None:
            graph, pynative = found
            yield FLOAT32_COMPARE.finding(
                node, text=ast.unparse(node), graph=str(graph), pynative=str(pynative)
            )


def _beyond_float32(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A float literal (or a float attribute's) that float32 makes inf or 0.0 (`1e300`)."""
    held = held_float(ctx, expr)
    if held is None or held == 0.0 or math.isinf(held):
        return False
    return math.isinf(_f32(held)) or _f32(held) == 0.0


def _results(ctx: FunctionContext, node: ast.Compare) -> Optional[tuple[bool, bool]]:
    """(graph mode's result, PyNative's) when they differ for every sample."""
    compare = COMPARES[type(node.ops[0])]

    def judge(left: Side, right: Side) -> Optional[tuple[bool, bool]]:
        (lw, ln, lf), (rw, rn, rf) = left, right
        try:
            graph = compare(_f32(ln) if lf else ln, _f32(rn) if rf else rn)
        except OverflowError:
            return None
        return graph, compare(lw, rw)

    return _always_differs(ctx, node.left, node.comparators[0], judge)


Side = tuple[float, float, bool]  # `evaluate`'s (Python value, float32 value, is a float)


def _always_differs(
    ctx: FunctionContext,
    left: ast.expr,
    right: ast.expr,
    judge: Callable[[Side, Side], Optional[tuple[bool, bool]]],
) -> Optional[tuple[bool, bool]]:
    """`judge`'s (graph mode's result, PyNative's) for the two sides evaluated on each sample,
    when they differ on every one; None when a side is unknown or only ints take part (exact
    in both modes)."""
    results: list[tuple[bool, bool]] = []
    for sample in INT_SAMPLES:
        sides = []
        for side in (left, right):
            try:
                found = evaluate(ctx, side, sample, 0, spread=True, tensors=False)
            except (ArithmeticError, ValueError, TypeError, OverflowError):
                return None
            if found is None:
                return None
            sides.append(found)
        if not (sides[0][2] or sides[1][2]):
            return None
        judged = judge(sides[0], sides[1])
        if judged is None or judged[0] == judged[1]:
            return None
        results.append(judged)
    return results[0]


_TOLERANCES = ("rel_tol", "abs_tol")


def _isclose(ctx: FunctionContext, call: ast.Call) -> bool:
    """`math.isclose(a, b)` with at most constant `rel_tol` / `abs_tol` keywords."""
    if not (
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "isclose"
        and len(call.args) == 2
        and all(k.arg in _TOLERANCES and isinstance(k.value, ast.Constant) for k in call.keywords)
    ):
        return False
    return ctx.fn.module.qualname(call.func) == "math.isclose"


def _isclose_results(ctx: FunctionContext, call: ast.Call) -> Optional[tuple[bool, bool]]:
    """(graph mode's `math.isclose`, PyNative's) when they differ for every sample. Measured:
    graph mode runs `math.isclose` in Python on the float32 value of the arithmetic it folded
    (a literal keeps its double), so `math.isclose(0.1 + 0.2, 0.3)` and
    `math.isclose(x.shape[0] * 0.1, 0.6)` were False in GRAPH_MODE (True in PyNative), and with
    `rel_tol=1e-6` True in both."""
    if not any(_computed(ctx, a) for a in call.args):
        return None  # nothing computed in float32
    tolerances = {k.arg: k.value.value for k in call.keywords if isinstance(k.value, ast.Constant)}
    if not all(type(v) in (int, float) for v in tolerances.values()):
        return None

    def judge(left: Side, right: Side) -> Optional[tuple[bool, bool]]:
        (lw, ln, _), (rw, rn, _) = left, right
        try:
            graph = math.isclose(ln, rn, **tolerances)  # type: ignore[arg-type]
            pynative = math.isclose(lw, rw, **tolerances)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None
        return graph, pynative

    return _always_differs(ctx, call.args[0], call.args[1], judge)


def _computed(ctx: FunctionContext, expr: ast.expr) -> bool:
    """Arithmetic, or a local bound only to arithmetic (`ratio = x.shape[0] * 0.1`)."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return isinstance(bound, ast.BinOp)
    return isinstance(expr, ast.BinOp)
