"""MS1068: `t.item()` of a one-element Tensor of two or more axes.

Measured with MindSpore 2.10 on CPU (GRAPH_MODE, LAX and STRICT, against PyNative): `x.item()`
of an input of shape (1, 1) or (1, 1, 1) fails to compile ("The tensor should have only one
element. But the shape of input tensor is (1, 1)"), and so does `x.sum(keepdims=True).item()`
of a (2, 3) input, while PyNative reads the one element. Shape () and (1,) compile. `int(t)`,
`float(t)`, `bool(t)` of such a Tensor fail the same way: MS129. The shape must be fixed by the
source (`helpers/shapes.py`: callers' inputs, slices, reductions); a constant Tensor is folded.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .builtins import multi_axis_shape
from .helpers.base import FunctionContext, cacheable

ITEM_OF_MULTI_AXIS_TENSOR = Rule(
    "MS1068",
    "item-of-multi-axis-tensor",
    Group.FAILS,
    title="`t.item()` of a one-element Tensor of two or more axes",
    message=(
        "`{tensor}.item()` reads a Python scalar only from a Tensor of shape () or (1,) in "
        "graph mode, and `{tensor}` has shape {shape}; flatten it first "
        "(`{tensor}.reshape(-1).item()`) or keep it a Tensor."
    ),
    why=(
        "Graph mode reads `item()` only from a Tensor of zero or one axis, even when a "
        "Tensor of more axes holds one element, which PyNative reads (measured: `x.item()` of "
        "an input of shape (1, 1) fails at LAX and STRICT)."
    ),
    remedy="Flatten first (`x.reshape(-1).item()`, `x.squeeze().item()`), or keep a Tensor.",
    mindspore_says=(
        "ValueError: The tensor should have only one element. But the shape of input tensor "
        "is (1, 1)."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if not ctx.fn.module.mentions(".item("):
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "item"):
            continue
        if call.args or call.keywords:
            continue
        shape = multi_axis_shape(ctx, func.value)
        if shape is not None:
            tensor = ast.unparse(func.value)
            yield ITEM_OF_MULTI_AXIS_TENSOR.finding(call, tensor=tensor, shape=str(shape))
