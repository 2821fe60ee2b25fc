"""MS332: `t in (1, 2)` with a Tensor `t` and a tuple or list of Python numbers.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: PyNative runs Python's
`in`, comparing the Tensor with each number (`Tensor(1) in (1, 2)` is True). Graph mode's
`in` on a Tensor (`_compile_utils.tensor_in_sequence`) compares it only with the items that are
Tensors of its shape and dtype and skips every other item, so against numbers it is always
False, and `not in` always True: `y in (1, 2)`, `y not in (1, 2)`, `z in [1.0, 2.0]` and
`x.sum() in (6.0, 7.0)` each took the other branch than PyNative (no error at either level).
Compared by value they agree: `int(t) in (1, 2)`, `x.shape[0] in (1, 2)`, `t in (t, t + 1)`
(Tensors of the same dtype) and `(t == 1) | (t == 2)`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

TENSOR_IN_NUMBERS = Rule(
    "MS332",
    "tensor-in-numbers",
    Group.DIVERGES,
    title="A Tensor tested with `in` against a tuple or list of Python numbers",
    message=(
        "`{text}` tests the Tensor `{tensor}` against Python numbers: graph mode's `in` "
        "compares a Tensor only with Tensors of its shape and dtype, so this is always "
        "{always} there (PyNative compares the values); compare values, e.g. "
        "`int({tensor}) {op} {seq}` or `({tensor} == a) | ({tensor} == b)`."
    ),
    why=(
        "Graph mode's `in` on a Tensor (`tensor_in_sequence`) skips every item that is not a "
        "Tensor of the same shape and dtype; PyNative runs Python's `in`, which compares the "
        "Tensor with each number (measured on 2.10: `Tensor(1) in (1, 2)` is True in PyNative, "
        "False in GRAPH_MODE)."
    ),
    remedy=(
        "Compare values: `int(t) in (1, 2)` at LAX, `(t == 1) | (t == 2)`, or "
        "`ops.isin`-style `(t == Tensor(seq)).any()`."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    compares = receivers.membership_tests(ctx)
    if not compares:
        return
    values = abstract(ctx)
    for compare in compares:
        seq = compare.comparators[0]
        if not _numbers(ctx, values, seq) or not ctx.types.is_tensor(compare.left):
            continue
        if ctx.types.is_constant_tensor(compare.left):
            continue
        negated = isinstance(compare.ops[0], ast.NotIn)
        yield TENSOR_IN_NUMBERS.finding(
            compare,
            text=ast.unparse(compare),
            tensor=ast.unparse(compare.left),
            always="True" if negated else "False",
            op="not in" if negated else "in",
            seq=ast.unparse(seq),
        )


def _numbers(ctx: FunctionContext, values: Abstract, seq: ast.expr) -> bool:
    """`seq` is a tuple or list whose items are all Python numbers (ints, floats, bools)."""
    if isinstance(seq, (ast.Tuple, ast.List)):
        return bool(seq.elts) and all(_number_constant(e) for e in seq.elts)
    held = receivers.self_attr(ctx, seq)
    if held is not None:
        node = held.node  # written out in __init__: `self.ignore = (0, 255)`
        return (
            isinstance(node, (ast.Tuple, ast.List))
            and bool(node.elts)
            and all(_number_constant(e) for e in node.elts)
        )
    known: Optional[Value] = values.of(seq) if isinstance(seq, ast.Name) else None
    if known is None or known.kind not in ("tuple", "list") or not known.items:
        return False
    return all(i is not None and i.kind == "scalar" for i in known.items)


def _number_constant(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float))
