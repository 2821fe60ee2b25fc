"""MS1016: a Python bool negated or shifted / xor-ed in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: graph mode's scalar
kernels for `-`, `^`, `<<` and `>>` refuse bools ("For 'ScalarUsub, [bool] is not a valid
input dtype"; "For BitXor, only integer types are supported, but got type of x:BoolImm"), so
these fail at every level where PyNative treats True as 1:
- `-(1 > 0)`, `-(n > 1)` with `n = x.shape[0]`, `b = n > 1; -b` (`-True` itself is MS153's);
- `True << 1`, `False << 3`, `True >> 1`, `1 << flag` with `flag = x.shape[0] == 2`,
  `8 >> (n > 1)`;
- `True ^ 1`, `(n > 1) ^ 1`, `True ^ (n > 1)`, `(n > 1) ^ (n < 3)` (`True ^ False` of two bool
  literals is MS153's).
`~(n > 1)` (-2 in both modes), `(n > 1) & 1`, `True + True`, `abs(True)`, `round(True)`,
`-int(n > 1)` and the same operators on Tensor comparisons compile.
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

BOOL_IN_INT_KERNEL = Rule(
    "MS1016",
    "bool-in-int-kernel",
    Group.FAILS,
    title="A Python bool negated, shifted or xor-ed in compiled code",
    message=(
        "`{text}` applies `{op}` to the Python bool `{flag}`, and graph mode's scalar `{op}` "
        "takes numbers only; cast it first (`int({flag})`)."
    ),
    why=(
        "A comparison of Python numbers (or True / False) is a Python bool in the graph; graph "
        "mode's scalar negation (`ScalarUsub`), `BitXor`, `BitLeftShift` and `BitRightShift` "
        "refuse bools, where Python treats True as 1."
    ),
    remedy="Cast the bool to int first: `-int(a > b)`, `1 << int(flag)`.",
    mindspore_says=(
        "TypeError: For 'ScalarUsub, [bool] is not a valid input dtype. / Unsupported input "
        "type. For BitXor, only integer types are supported, but got type of x:BoolImm"
    ),
)

_VALUE_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
_BIT_OPS: dict[type[ast.operator], str] = {ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for node in ctx.of(ast.UnaryOp, ast.BinOp):
        if isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.USub):
                continue
            compare = _compare(ctx, node.operand)
            if compare is None or _known_bool(ctx, node.operand):
                continue  # MS153 reports a bool the values know
            yield BOOL_IN_INT_KERNEL.finding(
                node, text=ast.unparse(node), op="-", flag=ast.unparse(compare)
            )
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIT_OPS:
            found = _bool_side(ctx, node)
            if found is not None:
                yield BOOL_IN_INT_KERNEL.finding(
                    node, text=ast.unparse(node), op=_BIT_OPS[type(node.op)], flag=found
                )


def _bool_side(ctx: FunctionContext, node: ast.BinOp) -> Optional[str]:
    """The text of a Python bool operand of `^` / `<<` / `>>` whose other operand is a Python
    number or bool; None if there is none or MS153 reports it (`^` of two known bools)."""
    sides = (node.left, node.right)
    flags = [_flag(ctx, side) for side in sides]
    if not any(flags):
        return None
    if not all(flag is not None or _python_number(ctx, side) for side, flag in zip(sides, flags)):
        return None
    if isinstance(node.op, ast.BitXor) and all(_known_bool(ctx, side) for side in sides):
        return None  # MS153: `^` between two Python bools
    return next(flag for flag in flags if flag is not None)


def _flag(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`True` / `False`, or a comparison of Python numbers (directly or through a local)."""
    if isinstance(expr, ast.Constant) and type(expr.value) is bool:
        return repr(expr.value)
    compare = _compare(ctx, expr)
    return ast.unparse(compare) if compare is not None else None


def _compare(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.Compare]:
    """The comparison of Python numbers `expr` is, directly or through a local bound once."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        expr = bound if bound is not None else expr
    if (
        isinstance(expr, ast.Compare)
        and all(isinstance(op, _VALUE_OPS) for op in expr.ops)
        and all(_python_number(ctx, side) for side in (expr.left, *expr.comparators))
    ):
        return expr
    return None


def _python_number(ctx: FunctionContext, expr: ast.expr) -> bool:
    """Known to be a Python int, float or bool (never a Tensor, never unknown)."""
    if ctx.types.is_tensor(expr):
        return False
    if isinstance(expr, ast.Name) and unpacked_shape(ctx, expr.id):
        return True
    value = abstract(ctx).of(expr)
    return value is not None and value.kind == "scalar" and value.dtype in ("int", "float", "bool")


def unpacked_shape(ctx: FunctionContext, name: str) -> bool:
    """`name` is stored once, by `h, w = t.shape` of a Tensor `t` (a shape item is an int)."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store)]
    if len(stores) != 1:
        return False
    for assign in ctx.of(ast.Assign):
        if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Tuple):
            continue
        elts = assign.targets[0].elts
        if not any(e is stores[0] for e in elts):
            continue
        value = assign.value
        return (
            isinstance(value, ast.Attribute)
            and value.attr == "shape"
            and ctx.types.is_tensor(value.value)
        )
    return False


def _known_bool(ctx: FunctionContext, expr: ast.expr) -> bool:
    value = abstract(ctx).of(expr)
    return value is not None and value.kind == "scalar" and value.dtype == "bool"
