"""MS345: a Python int power beyond int64 (or beyond a double's 53 bits) in compiled code.

Measured with MindSpore 2.10 on CPU at LAX against PyNative (a Cell's `construct`; `@jit`
compiles in both modes): graph mode computes `a ** b` of two Python ints through a double and
casts the result to int64, without the overflow check `+`, `-`, `*` have (MS175). So
`2 ** 70`, `10 ** 19`, `3 ** 41` and `n ** 64` (`n = x.shape[0]`) all returned
-9223372036854775808 (the cast of an out-of-range double), and `3 ** 39`, `pow(3, 39)`, `7 ** 20`
lost their low digits (4052555153018976256 for 4052555153018976267). `(-2) ** 63`, `2 ** 62`,
`10 ** 18` fit a double exactly and agree; a float operand (`2.0 ** 70`) is a float in both
modes. Only operands the source fixes are judged: int literals, locals bound once to them, and
a dim of a Tensor whose static shape the module gives (`x.shape[0] ** 64` of a (2, 3) input).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .divergence_scalars import powers
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import shapes
from .scalars import (
    INT64,
    MAX_BITS,
    cast_power_overflows,
    constant_int_locals,
    fold_int,
    graph_power,
)

INT_POWER_CAST = Rule(
    "MS345",
    "int-power-beyond-int64",
    Group.DIVERGES,
    title="A Python int power beyond int64 or a double's precision in compiled code",
    message=(
        "`{text}` is {exact} in Python, but graph mode computes an int power through a double "
        "cast to int64 and gets {graph}; use a float (`{float_text}`) or compute it outside "
        "the compiled code."
    ),
    why=(
        "Graph mode computes `a ** b` of two Python ints as a double and casts it to int64, "
        "with no overflow check: `2 ** 70` and `n ** 64` returned -9223372036854775808 in "
        "GRAPH_MODE, and `3 ** 39` returned 4052555153018976256 for 4052555153018976267."
    ),
    remedy="Use a float power (`2.0 ** 70`), or compute the int outside the compiled code.",
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    pows = powers(ctx)
    if not pows:
        return
    constants = constant_int_locals(ctx)
    in_tensor_math = _tensor_operands(ctx)
    # `2 ** 63 - 1`: the cast power makes the `-` overflow, a compile error (MS175's)
    failing = {id(cast) for _, _, cast in cast_power_overflows(ctx.of(ast.BinOp), constants)}
    negated = {id(u.operand) for u in ctx.of(ast.UnaryOp) if isinstance(u.op, ast.USub)}
    for node, left, right in pows:
        if id(node) in failing:
            continue
        base, exponent = _int_of(ctx, left, constants), _int_of(ctx, right, constants)
        if base is None or exponent is None or exponent < 0:
            continue  # a negative exponent is MS319's
        if not (_int64(base) and _int64(exponent)):
            continue  # an operand beyond int64 is reported itself
        if abs(base).bit_length() * exponent > MAX_BITS:
            continue  # far beyond int64 (`10 ** 10 ** 10`): not computed here
        exact = base**exponent
        graph = graph_power(base, exponent)
        if graph == exact or (exact == 2**63 and id(node) in negated):
            continue  # `-(2 ** 63)`: int64's minimum in both modes (measured)
        if _int64(exact) and id(node) in in_tensor_math:
            continue  # a few low digits lost in a float32 Tensor product: the same Tensor
        yield INT_POWER_CAST.finding(
            node,
            text=ast.unparse(node),
            exact=_short(exact),
            graph=str(graph),
            float_text=_float_text(node, left, right),
        )


def _int_of(ctx: FunctionContext, expr: ast.expr, constants: dict[str, ast.expr]) -> Optional[int]:
    """An int the source fixes, or a dim of a Tensor whose static shape is known
    (`x.shape[0]`, `n = x.shape[0]`, `b, c = x.shape`)."""
    folded = fold_int(expr, constants)
    if folded is not None:
        return folded
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            return _dim(ctx, bound)
        return _unpacked_dim(ctx, expr.id)
    return _dim(ctx, expr)


def _dim(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    """`x.shape[i]` of a Tensor whose static shape is known."""
    if not (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and isinstance(expr.slice, (ast.Constant, ast.UnaryOp))
        and ctx.types.is_tensor(expr.value.value)
    ):
        return None
    index = fold_int(expr.slice, {})
    shape = shapes(ctx).of(expr.value.value)
    if index is None or shape is None or not -len(shape) <= index < len(shape):
        return None
    return shape[index]


def _unpacked_dim(ctx: FunctionContext, name: str) -> Optional[int]:
    """`name` bound once, by `b, c = x.shape` of a Tensor whose static shape is known."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Store)]
    if len(stores) != 1:
        return None
    for assign in ctx.of(ast.Assign):
        target = assign.targets[0] if len(assign.targets) == 1 else None
        value = assign.value
        if not isinstance(target, ast.Tuple) or not any(e is stores[0] for e in target.elts):
            continue
        if not (isinstance(value, ast.Attribute) and value.attr == "shape"):
            return None
        if not ctx.types.is_tensor(value.value):
            return None
        shape = shapes(ctx).of(value.value)
        if shape is None or len(shape) != len(target.elts):
            return None
        return shape[[id(e) for e in target.elts].index(id(stores[0]))]
    return None


def _int64(value: int) -> bool:
    return INT64[0] <= value <= INT64[1]


def _short(value: int) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"about {'-' if value < 0 else ''}10**{len(text) - 1}"


def _float_text(node: ast.expr, left: ast.expr, right: ast.expr) -> str:
    if isinstance(left, ast.Constant) and type(left.value) is int:
        base = f"{left.value}.0"
    elif (
        isinstance(left, ast.UnaryOp)
        and isinstance(left.op, ast.USub)
        and isinstance(left.operand, ast.Constant)
        and type(left.operand.value) is int
    ):
        base = f"(-{left.operand.value}.0)"
    else:
        base = f"float({ast.unparse(left)})"
    if isinstance(node, ast.Call):
        return f"pow({base}, {ast.unparse(right)})"
    return f"{base} ** {ast.unparse(right)}"


def _tensor_operands(ctx: FunctionContext) -> set[int]:
    """The ids of the operands of binary operators whose other operand is a Tensor."""
    found: set[int] = set()
    for op in ctx.of(ast.BinOp):
        if ctx.types.is_tensor(op.left):
            found.add(id(op.right))
        if ctx.types.is_tensor(op.right):
            found.add(id(op.left))
    return found
