"""MS328, MS329: Tensor reductions whose graph-mode overload is not PyNative's.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative, on a (2, 2, 3) Tensor:
- `x.argmax()` without arguments: PyNative flattens (`Tensor(1)`, shape ()); graph mode takes
  the last axis (shape (2, 2)). `x.argmax(keepdims=True)` likewise; `x.argmax(None)`,
  `dim=None`, `keepdim=True`, an explicit axis, `ops.argmax(x)` and `x.argmin()` agree.
- `x.max(1)` / `x.min(1)` with a positional axis: PyNative returns `(values, indices)`
  (the `max(dim, keepdim)` overload), graph mode returns the values only (the `max(axis)`
  one). `x.max(1, True)` likewise. `x.max(dim=1)`, `x.max(1, keepdim=True)` (both a tuple),
  `x.max(axis=1)`, `x.max(1, keepdims=True)` (both the values) and `x.max()` agree.
A Tensor of rank 1 gives the same `argmax()` either way: a receiver whose static shape says so
is left alone, and so is one a reduction over given axes just made (`t.sum(axis=(1, 2))`, most
often a vector); another unknown rank is reported (model code reduces batches).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import shared_values
from .helpers.base import FunctionContext, cacheable

ARGMAX_FLATTENS_IN_PYNATIVE = Rule(
    "MS328",
    "argmax-without-axis",
    Group.DIVERGES,
    title="`x.argmax()` without an axis: PyNative flattens, graph mode takes the last axis",
    message=(
        "`{text}` has no axis: PyNative returns the index into the flattened Tensor, graph mode "
        "the index along the last axis (a Tensor of indices); pass the axis (`argmax(-1)`) or "
        "`None` to say which."
    ),
    why=(
        "Graph mode resolves `Tensor.argmax` without arguments to the overload whose default "
        "axis is -1, PyNative to the one whose default is None (measured on 2.10: a (2, 2, 3) "
        "Tensor gave Tensor(1) in PyNative and a (2, 2) Tensor of indices in GRAPH_MODE)."
    ),
    remedy="Write the axis: `x.argmax(-1)` (per row) or `x.argmax(None)` (over all elements).",
    mindspore_says="(compiles; result differs from PyNative)",
)

MAX_POSITIONAL_AXIS = Rule(
    "MS329",
    "max-positional-axis",
    Group.DIVERGES,
    title="`x.max(axis)` / `x.min(axis)` positional: PyNative returns (values, indices)",
    message=(
        "`{text}` gives the axis by position: PyNative returns `(values, indices)`, graph mode "
        "the values only; write `dim={axis}` for both, or `axis={axis}` for the values."
    ),
    why=(
        "PyNative resolves `Tensor.{max,min}(1)` to the `(dim, keepdim)` overload, which returns "
        "values and indices; graph mode resolves a positional axis to the `(axis, keepdims)` "
        "one, which returns the values (measured on 2.10). Unpacking the result then takes the "
        "first two rows of the values in GRAPH_MODE."
    ),
    remedy="Name the argument: `x.max(dim=1)` (a tuple in both modes) or `x.max(axis=1)`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    keys: Optional[set[int]] = None  # built only for a function with an axis-less argmax()
    for call in ctx.of(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("argmax", "max", "min"):
            continue
        if not ctx.types.is_tensor(func.value):
            continue
        if func.attr == "argmax":
            if not _argmax_without_axis(call):
                continue
            if keys is None:
                keys = _container_keys(ctx)
            if id(call) not in keys and not _rank_at_most_one(ctx, func.value):
                yield ARGMAX_FLATTENS_IN_PYNATIVE.finding(call, text=ast.unparse(call))
        elif _positional_axis(call) and not ctx.types.is_tensor(call.args[0]):
            axis = ast.unparse(call.args[0])
            yield MAX_POSITIONAL_AXIS.finding(call, text=ast.unparse(call), axis=axis)


def _container_keys(ctx: FunctionContext) -> set[int]:
    """Calls that index a value which is not a Tensor (`table[x.argmax()]`): a Tensor key of a
    dict, list or tuple fails to compile (MS117), so nothing runs to diverge."""
    values = shared_values.abstract(ctx)
    found: set[int] = set()
    for sub in ctx.of(ast.Subscript):
        if isinstance(sub.slice, ast.Call) and not ctx.types.is_tensor(sub.value):
            value = values.of(sub.value)
            if value is not None and value.kind in ("dict", "list", "tuple"):
                found.add(id(sub.slice))
    return found


def _argmax_without_axis(call: ast.Call) -> bool:
    return not call.args and all(k.arg == "keepdims" for k in call.keywords)


def _positional_axis(call: ast.Call) -> bool:
    """`x.max(1)`, `x.max(1, True)`: an axis that is not None, nothing named."""
    if not call.args or call.keywords or len(call.args) > 2:
        return False
    first = call.args[0]
    return not (isinstance(first, ast.Constant) and first.value is None) and not isinstance(
        first, ast.Starred
    )


AXIS_REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "prod", "all", "any", "norm", "std", "var", "amax", "amin"}
)


def _rank_at_most_one(ctx: FunctionContext, expr: ast.expr) -> bool:
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in AXIS_REDUCTIONS
        and (expr.args or expr.keywords)
    ):
        return True  # its rank is unknown, and most often 1
    shape = shared_values.shapes(ctx).of(expr)
    return shape is not None and len(shape) <= 1
