"""MS1033: `x.view(dtype)` (a reinterpreting view by dtype) in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them all): graph
mode compiles `Tensor.view` given a dtype to the `ViewDtype` primitive, whose type inference is
not implemented ("RuntimeError: not impl", view_dtype.cc InferType). `x.view(ms.int32)`,
`x.view(mstype.float16)`, `x.view(ms.bool_)`, `x.view(x.dtype)`, `x.view(dtype=ms.float16)`,
`dt = ms.float16; x.view(dt)` and `self.w.view(ms.int32)` of a Parameter fail. A view by shape
compiles: `x.view(2, 12)`, `x.view((2, 12))`, `x.view(-1)`, `x.view(n, -1)`. An argument the
source does not show to be a dtype (a parameter, a call) is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.abstract import ALIASES, DTYPE_MODULES, DTYPES
from .helpers.base import FunctionContext, cacheable

VIEW_AS_DTYPE = Rule(
    "MS1033",
    "tensor-view-as-dtype",
    Group.FAILS,
    title="`x.view(dtype)` in compiled code",
    message=(
        "`{text}` views the Tensor as another dtype, which graph mode compiles to `ViewDtype` "
        "and fails at every level (RuntimeError: not impl; PyNative runs it); convert with "
        "`{receiver}.astype({dtype})` or do the view outside the compiled code."
    ),
    why=(
        "Graph mode's `ViewDtype` primitive has no type inference in MindSpore 2.10, so a "
        "`Tensor.view` given a dtype cannot be compiled; a view by shape is a plain reshape."
    ),
    remedy=(
        "Cast with `x.astype(dtype)` when the values, not the bits, are wanted; reinterpret the "
        "bits outside compiled code (PyNative, NumPy's `view`)."
    ),
    mindspore_says="RuntimeError: not impl (mindspore/ops/infer/ops_func_impl/view_dtype.cc)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "view"):
            continue
        arg = _dtype_argument(call)
        if arg is None or not receivers.tensor_or_parameter(ctx, func.value):
            continue
        if _is_dtype(ctx, arg) or _is_dtype(ctx, only_binding(ctx, arg)):
            yield VIEW_AS_DTYPE.finding(
                call,
                text=ast.unparse(call),
                receiver=ast.unparse(func.value),
                dtype=ast.unparse(arg),
            )


def _dtype_argument(call: ast.Call) -> Optional[ast.expr]:
    """The one argument of `x.view(a)` / `x.view(dtype=a)`."""
    if len(call.args) == 1 and not call.keywords:
        return call.args[0]
    if not call.args and len(call.keywords) == 1 and call.keywords[0].arg == "dtype":
        return call.keywords[0].value
    return None


def _is_dtype(ctx: FunctionContext, expr: Optional[ast.expr]) -> bool:
    """`ms.int32`, `mstype.float16`, `mindspore.common.dtype.bool_` or `<tensor>.dtype`."""
    if expr is None:
        return False
    if isinstance(expr, ast.Attribute) and expr.attr == "dtype":
        return receivers.tensor_or_parameter(ctx, expr.value)
    qualname = ctx.fn.module.qualname(expr)
    if not qualname or not qualname.startswith(DTYPE_MODULES):
        return False
    last = qualname.rsplit(".", 1)[-1]
    return ALIASES.get(last, last) in DTYPES


def only_binding(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """The value of `name = value` when that is the function's one binding of `expr`'s name."""
    return receivers.only_binding(ctx, expr.id) if isinstance(expr, ast.Name) else None
