"""MS140: `Tensor.expand()` given a shape instead of a Tensor, in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them all): PyNative's
`Tensor.expand(self, *size)` takes the sizes as integers or a tuple, but graph mode resolves the
method to `standard_method.expand(input, size)`, which turns `size` into a tuple with
`TensorToTuple`: only a Tensor works. `x.expand(4, 2, 3)` and `x.expand(*x.shape)` fail ("The
parameters number of the function is 2, but the number of provided arguments is 4. FunctionGraph
: expand_"), `x.expand((4, 2, 3))` and `x.expand(x.shape)` fail ("The method 'GetShapeVector()'
doesn't implement"). What compiles: `x.expand(Tensor([4, 2, 3]))`, `x.broadcast_to((4, 2, 3))`
(even `x.broadcast_to(4, 2, 3)`), `ops.broadcast_to(x, shape)` and `x.expand_as(y)`. An argument
whose kind the source does not show (a parameter, an unknown call) is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import shared_values
from .helpers.base import FunctionContext, cacheable

EXPAND_WITH_SHAPE = Rule(
    "MS140",
    "expand-with-shape",
    Group.FAILS,
    title="`Tensor.expand()` given sizes or a tuple in compiled code",
    message=(
        "`{text}` gives `expand` {what}, but graph mode's `Tensor.expand(size)` takes the shape "
        "as one Tensor and fails at every level (PyNative runs it); use `{fixed}`."
    ),
    why=(
        "Graph mode compiles `Tensor.expand` as `expand(input, size)` with `size` converted from "
        "a Tensor; PyNative's `expand(*size)` also takes integers and tuples."
    ),
    remedy=(
        "Broadcast with a tuple shape: `x.broadcast_to((4, 2, 3))` or "
        "`ops.broadcast_to(x, shape)`; `x.expand_as(y)` for another Tensor's shape."
    ),
    mindspore_says=(
        "TypeError: The parameters number of the function is 2, but the number of provided "
        "arguments is 4. FunctionGraph : expand_"
    ),
)

SHAPE_KINDS = frozenset({"tuple", "list", "scalar"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute) and c.func.attr == "expand" and c.args
    ]
    for call in calls:
        assert isinstance(call.func, ast.Attribute)
        if call.keywords or not ctx.types.is_tensor(call.func.value):
            continue
        what = _not_a_tensor(ctx, call.args)
        if what is not None:
            shape = _shape_text(call.args)
            fixed = f"{ast.unparse(call.func.value)}.broadcast_to({shape})"
            yield EXPAND_WITH_SHAPE.finding(call, text=ast.unparse(call), what=what, fixed=fixed)


def _not_a_tensor(ctx: FunctionContext, args: list[ast.expr]) -> Optional[str]:
    """What the arguments are, when the source shows they are not one Tensor."""
    if len(args) > 1:
        return f"{len(args)} separate sizes"
    (arg,) = args
    if isinstance(arg, ast.Starred):
        return "the sizes unpacked"
    if isinstance(arg, ast.Attribute) and arg.attr == "shape":
        return "a shape tuple"
    if isinstance(arg, (ast.Tuple, ast.List)):
        return "a tuple" if isinstance(arg, ast.Tuple) else "a list"
    if isinstance(arg, ast.Constant) and type(arg.value) is int:
        return "an integer"
    if ctx.types.is_tensor(arg):
        return None
    value = shared_values.abstract(ctx).of(arg)
    if value is not None and value.kind in SHAPE_KINDS:
        return "a tuple" if value.kind == "tuple" else f"a {value.kind}"
    return None


def _shape_text(args: list[ast.expr]) -> str:
    if len(args) == 1:
        arg = args[0]
        inner = arg.value if isinstance(arg, ast.Starred) else arg
        if isinstance(inner, ast.List):
            return "(" + ", ".join(ast.unparse(e) for e in inner.elts) + ")"
        text = ast.unparse(inner)
        return f"({text},)" if isinstance(inner, ast.Constant) else text
    return "(" + ", ".join(ast.unparse(a) for a in args) + ")"
