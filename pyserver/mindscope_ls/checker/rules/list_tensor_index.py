"""MS167: `list.insert(i, v)` / `list.pop(i)` with a Tensor position in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them, converting the
Tensor to an int): graph mode's list methods take their position as a compile-time int. A Tensor
position (a graph input, `t + 1`, `x.sum(1).argmax()`) fails: `l.insert(t, v)` with "For
'ListInsert', input[1] should be Scalar, but got Tensor[Int32]", `l.pop(t)` with "Integer argument
expected, but got ValueAny", whether the list holds numbers or Tensors. What compiles: an int
position (`l.insert(-1, v)`, `l.pop()`, `l.pop(x.shape[0] - 1)`) and `l.insert(int(t), v)`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

LIST_METHOD_TENSOR_POSITION = Rule(
    "MS167",
    "list-method-tensor-position",
    Group.FAILS,
    title="`list.insert()` / `list.pop()` given a Tensor position in compiled code",
    message=(
        "`{call}` gives the list's `{method}` the Tensor `{index}` as its position, which graph "
        "mode needs as a Python int when compiling (fails at every level); pass an int "
        "(`int({index})` or a constant) or select among Tensors with `ops.gather`."
    ),
    why=(
        "Graph mode's `list.insert` and `list.pop` resolve the position while compiling; a "
        "Tensor's value is only known when the graph runs."
    ),
    remedy=(
        "Use a Python int position, convert with `int(t)` at LAX, or keep the items in one "
        "Tensor and index it with `ops.gather`."
    ),
    mindspore_says=(
        "TypeError: For 'ListInsert', input[1] should be Scalar, but got Tensor[Int32] / "
        "Integer argument expected, but got ValueAny"
    ),
)
# The method and which argument is its position.
_POSITION = {"insert": 0, "pop": 0}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute)
        and c.func.attr in _POSITION
        and len(c.args) == (2 if c.func.attr == "insert" else 1)
        and not c.keywords
    ]
    if not calls:
        return
    values = abstract(ctx)
    for call in calls:
        assert isinstance(call.func, ast.Attribute)
        index = call.args[_POSITION[call.func.attr]]
        if not ctx.types.is_tensor(index) or not _is_list(ctx, call.func.value, values):
            continue
        yield LIST_METHOD_TENSOR_POSITION.finding(
            call,
            call=ast.unparse(call),
            method=call.func.attr,
            index=ast.unparse(index),
        )


def _is_list(ctx: FunctionContext, receiver: ast.expr, values: Abstract) -> bool:
    """The receiver is a list on every path: a local list or a list attribute of the Cell."""
    held = receivers.self_attr(ctx, receiver)
    if held is not None:
        return held.kind == "list"
    return values.kind(receiver) == "list"
