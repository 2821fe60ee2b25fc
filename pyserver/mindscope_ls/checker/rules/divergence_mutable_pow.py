"""MS343: a Python int raised to `mutable()` of a negative int is 0 in graph mode.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: `2 ** mutable(-1)`
gave the int 0 in GRAPH_MODE where PyNative gives 0.5, and `n = mutable(-2); 3 ** n` gave 0
(PyNative: 0.111...). Graph mode's scalar power keeps int ** int an int, exactly as for the
constant exponents MS319 reports (`2 ** -1`); `mutable()` only hides the constant from it.
A float on either side (`2 ** mutable(-1.0)`, `2.0 ** mutable(-1)`) and a non-negative
exponent agree with PyNative.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .divergence_scalars import is_python_int, powers
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .mutable_scalars import mutable_argument

MUTABLE_NEGATIVE_POWER = Rule(
    "MS343",
    "int-mutable-negative-power",
    Group.DIVERGES,
    title="A Python int raised to `mutable()` of a negative int is 0 in graph mode",
    message=(
        "`{text}` raises an int to the negative int `{exponent}`: graph mode keeps int ** int "
        "an int ({zero}), PyNative gives a float; make one side a float "
        "(`mutable({value}.0)`)."
    ),
    why=(
        "Graph mode's scalar power of two ints is an int, so a negative exponent truncates "
        "the result to 0 where Python returns a float; `mutable()` does not change that."
    ),
    remedy="Use a float base or exponent (`2.0 ** e`, `mutable(-1.0)`).",
    mindspore_says="(compiles; PyNative gives a different result)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    pows = powers(ctx)
    for node, left, right in pows:
        value = _mutable_negative(ctx, right)
        if value is None or not is_python_int(ctx, left):
            continue
        yield MUTABLE_NEGATIVE_POWER.finding(
            node, text=ast.unparse(node), exponent=ast.unparse(right), zero="0", value=value
        )


def _mutable_negative(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    """The negative int literal of `mutable(-k)`, directly or through a local bound once."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None:
            return None
        expr = bound
    arg = mutable_argument(ctx, expr)
    if arg is None:
        return None
    if (
        isinstance(arg, ast.UnaryOp)
        and isinstance(arg.op, ast.USub)
        and isinstance(arg.operand, ast.Constant)
        and type(arg.operand.value) is int
        and arg.operand.value > 0
    ):
        return -arg.operand.value
    return None
