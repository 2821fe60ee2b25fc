"""MS319: a Python int raised to a negative int power is 0 in graph mode.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative: `2 ** -1`,
`n ** -1` with `n = x.shape[-1]` and `self.d ** -1` with `self.d = 4` gave the int 0 in
GRAPH_MODE (graph mode's scalar power keeps int ** int an int), where Python gives the float
0.5 / 0.25, so `x * n ** -1` is all zeros. A float on either side (`n ** -0.5`,
`n ** -1.0`, `2.0 ** -1`) gives the same float in both modes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext
from .helpers.shared_values import abstract
from .helpers.walk import of_type as walk_of

INT_NEGATIVE_POWER = Rule(
    "MS319",
    "int-negative-power",
    Group.DIVERGES,
    title="A Python int raised to a negative int power is 0 in graph mode",
    message=(
        "`{text}` raises an int to a negative int power: graph mode keeps it an int (0), "
        "PyNative gives the float {value}; write `{base} ** {exponent}.0` or `1 / {base_p}`."
    ),
    why=(
        "Graph mode computes `int ** int` as an int even for a negative exponent, so `2 ** -1` "
        "is 0 where Python gives 0.5 (measured: `x * x.shape[-1] ** -1` was all zeros in "
        "GRAPH_MODE, `x / 4` in PyNative)."
    ),
    remedy="Make the exponent (or the base) a float: `n ** -1.0`, or divide: `1 / n`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    pows = [b for b in ctx.of(ast.BinOp) if isinstance(b.op, ast.Pow)]
    if not pows:
        return
    for node in pows:
        exponent = _negative_int(node.right)
        if exponent is None:
            continue
        if not _is_python_int(ctx, node.left):
            continue
        text = ast.unparse(node)
        base = ast.unparse(node.left)
        base_p = base if isinstance(node.left, (ast.Name, ast.Constant)) else f"({base})"
        value = _value(node.left, exponent)
        yield INT_NEGATIVE_POWER.finding(
            node,
            text=text,
            value=value,
            base=base_p,
            exponent=ast.unparse(node.right),
            base_p=base_p if exponent == -1 else f"{base_p} ** {-exponent}",
        )


def _negative_int(expr: ast.expr) -> Optional[int]:
    if (
        isinstance(expr, ast.UnaryOp)
        and isinstance(expr.op, ast.USub)
        and isinstance(expr.operand, ast.Constant)
        and type(expr.operand.value) is int
        and expr.operand.value > 0
    ):
        return -expr.operand.value
    return None


def _is_python_int(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """An int literal (not 0 or 1), `x.shape[i]`, `len(...)`, a local bound once to one of
    those, or `self.d` that `__init__` binds to an int literal only."""
    if isinstance(expr, ast.Constant):
        return type(expr.value) is int and expr.value not in (0, 1, -1)
    if _shape_item(expr):
        return True
    if isinstance(expr, ast.Name) and depth < 3:
        bound = [
            a.value
            for a in ctx.of(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == expr.id for t in a.targets)
        ]
        others = [n for n in ctx.of(ast.Name) if n.id == expr.id and isinstance(n.ctx, ast.Store)]
        if len(bound) == 1 and len(others) == 1:
            return _is_python_int(ctx, bound[0], depth + 1)
        return False
    attr = names.self_attribute(expr)
    if attr is not None and ctx.fn.cls is not None:
        return _int_attribute(ctx.fn.cls.node, attr)
    value = abstract(ctx).of(expr)
    return value is not None and value.kind == "scalar" and value.dtype == "int"


def _shape_item(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Subscript) and not isinstance(expr.slice, ast.Slice):
        value = expr.value
        return isinstance(value, ast.Attribute) and value.attr == "shape"
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "len"
        and len(expr.args) == 1
    )


def _int_attribute(cls: ast.ClassDef, attr: str) -> bool:
    """Every `self.<attr> = ...` of the class binds an int literal."""
    values = [
        node.value
        for node in walk_of(cls, ast.Assign)
        for t in node.targets
        if names.self_attribute(t) == attr
    ]
    writes = [
        node for node in walk_of(cls, ast.AugAssign) if names.self_attribute(node.target) == attr
    ]
    return (
        bool(values)
        and not writes
        and all(
            isinstance(v, ast.Constant) and type(v.value) is int and v.value not in (0, 1)
            for v in values
        )
    )


def _value(base: ast.expr, exponent: int) -> str:
    if isinstance(base, ast.Constant) and type(base.value) is int:
        return repr(base.value**exponent)
    return "(a fraction)"
