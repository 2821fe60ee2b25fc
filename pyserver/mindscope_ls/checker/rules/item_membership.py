"""MS164: `t.item() in (1, 2)`: a Tensor's number tested against numbers of another type.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them): graph mode's
`in` on a number (`InSequence`) requires every item of the tuple or list to have the number's
exact type, and written-out ints are Int64 and floats Float32 there. So `t.item() in (1, 2)`
fails for an int32 `t` ("For InSequence, the list existing item abstract 'AbstractScalar(Type:
Int64, Value: 1 ...)' is not same with the new added item abstract 'AbstractScalar(Type: Int32,
...)'"), and so do an int8, int16, uint8 or float32 `t` against ints, an int32, float16,
bfloat16 or float64 `t` against floats (`(1.0, 2.0)`), `not in`, a list, a one-item tuple, a
tuple attribute of the Cell, `range(3)`, shape reads (`(x.shape[0], 5)`, `(n, 3)` with
`n = x.shape[0]`) and a local bound to `t.item()`. What compiles: an int64 `t`
against ints, a float32 `t` against floats, `int(t) in (1, 2)` and `float(t) in (1.0, 2.0)`
whatever `t`'s dtype (the suggested fix; same values as PyNative), `x.shape[0] in (1, 2)`,
`t.item() == 1`, and a Tensor built from literals. The Tensor's dtype must be known from the
source (the callers in the module, a cast, a fixed-dtype op); otherwise nothing is reported.
`t in (1, 2)` of the Tensor itself is MS332's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

ITEM_IN_NUMBERS = Rule(
    "MS164",
    "item-in-numbers-of-another-type",
    Group.FAILS,
    title="A Tensor's `.item()` tested with `in` against numbers of another type",
    message=(
        "`{text}` tests the {dtype} number `{item}` against {kind}s, which graph mode types "
        "{graph}: its `in` needs the same type on both sides and fails at every level; cast "
        "first, e.g. `{cast}`."
    ),
    why=(
        "Graph mode's `in` on a number (`InSequence`) requires each item to have the number's "
        "exact type; written-out ints are Int64 and floats Float32 when compiled, while "
        "`.item()` keeps the Tensor's dtype (int32, uint8, float64 ...)."
    ),
    remedy=(
        "Convert to a Python number first (`int(t) in (1, 2)`, `float(t) in (0.5, 1.0)`), or "
        "compare values (`(t == 1) | (t == 2)`)."
    ),
    mindspore_says=(
        "TypeError: For InSequence, the list existing item abstract 'AbstractScalar(Type: "
        "Int64, Value: 1, Shape: NoShape)' is not same with the new added item abstract "
        "'AbstractScalar(Type: Int32, Value: ValueAny, Shape: NoShape)'."
    ),
)

# What written-out numbers are when compiled, and the one Tensor dtype that matches each.
GRAPH_TYPE = {"int": ("Int64", "int64"), "float": ("Float32", "float32")}
NUMERIC = ("int", "uint", "float", "bfloat")


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    compares = receivers.membership_tests(ctx)
    if not compares:
        return
    values = abstract(ctx, module=True)
    for compare in compares:
        source = item_of(ctx, compare.left)
        if source is None:
            continue
        kind = _numbers_kind(ctx, compare.comparators[0])
        if kind is None:
            continue
        dtype = values.dtype(source)
        graph, matching = GRAPH_TYPE[kind]
        if dtype is None or not dtype.startswith(NUMERIC) or dtype == matching:
            continue
        op = "not in" if isinstance(compare.ops[0], ast.NotIn) else "in"
        yield ITEM_IN_NUMBERS.finding(
            compare,
            text=ast.unparse(compare),
            dtype=dtype,
            item=f"{ast.unparse(source)}.item()",
            kind=kind,
            graph=graph,
            cast=f"{kind}({ast.unparse(source)}) {op} {ast.unparse(compare.comparators[0])}",
        )


def item_of(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """The Tensor `t` when `expr` is `t.item()` (or a local bound once to it), `t` computed in
    the graph (a Tensor of literals is folded: it compiles)."""
    found = receivers.computed_tensor_method(ctx, expr, "item")
    return found[1] if found is not None else None


def _numbers_kind(ctx: FunctionContext, seq: ast.expr) -> Optional[str]:
    """ "int" or "float" when `seq` is a written-out tuple or list of numbers all of that type
    (directly, through a local bound once, or a Cell attribute `__init__` writes out), an int
    being a literal or a shape read (`x.shape[0]`, `n = x.shape[0]`), or `range(...)` (ints)."""
    if isinstance(seq, ast.Name):
        seq = receivers.only_binding(ctx, seq.id) or seq
    if (
        isinstance(seq, ast.Call)
        and isinstance(seq.func, ast.Name)
        and seq.func.id == "range"
        and calls_shared.builtin(ctx, "range")
    ):
        return "int"
    held = receivers.self_attr(ctx, seq)
    node = held.node if held is not None else seq  # `self.ids = (3, 4)` in `__init__`
    if not isinstance(node, (ast.Tuple, ast.List)) or not node.elts:
        return None
    kinds = {_number_kind(e) or _shape_item(ctx, e) for e in node.elts}
    return kinds.pop() if len(kinds) == 1 else None


def _shape_item(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """ "int" for `x.shape[i]` of a Tensor, directly or through a local bound once to it (a
    Python int, Int64 when compiled)."""
    if isinstance(expr, ast.Name):
        expr = receivers.only_binding(ctx, expr.id) or expr
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and isinstance(expr.slice, (ast.Constant, ast.UnaryOp))
        and ctx.types.is_tensor(expr.value.value)
    ):
        return "int"
    return None


def _number_kind(expr: ast.expr) -> Optional[str]:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        return type(expr.value).__name__
    return None
