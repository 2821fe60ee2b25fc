"""MS1035: a `masked_select` result (a Tensor of run-time length) iterated in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them all), with
`u = ops.masked_select(x, x > 3)` of a (4, 6) `x` (20 elements selected): `for v in u`,
`[v * 2 for v in u]`, `list(u)`, `tuple(u)` and `x.masked_select(mask)` iterated likewise fail
when run: graph mode unrolls the loop over the static upper bound (the input's 24 elements) and
indexing past the 20 selected fails ("For 'StridedSlice', ... 'begin[0]' must be in [-20, 20)");
`enumerate(u)` fails to compile (LAX: no `RealMakeTuple` kernel; STRICT: `sequence_len`
refuses it) and `zip(u, u)` too ("For 'zip', the dynamic length input is unsupported in graph
mode"). What compiles: `len(u)`, `u.sum()`, `u.shape[0]` as an int, `a, b = u[:2]`,
`ops.zeros((u.shape[0], 3))`. `for v in x[x > 3]` and `ops.nonzero(...)` iterated compiled
(left alone). A name bound more than once is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .tensor_views import only_binding

ITERATED_MASKED_SELECT = Rule(
    "MS1035",
    "masked-select-iterated",
    Group.FAILS,
    title="A `masked_select` result iterated in compiled code",
    message=(
        "{how} iterates `{source}`, whose length is known only when it runs: graph mode cannot "
        "loop over such a Tensor (it unrolls to the input's size and fails indexing past the "
        "selected elements, at every level; PyNative runs it); compute on the whole Tensor "
        "instead (`ops.where(mask, x, 0)`, `u.sum()`)."
    ),
    why=(
        "`masked_select` gives a Tensor of dynamic shape; a compiled loop over a Tensor is "
        "unrolled over its static length, which for that Tensor is only an upper bound."
    ),
    remedy=(
        "Keep the full shape and mask the values (`ops.where(mask, x, 0).sum()`), or reduce "
        "the selected Tensor with Tensor ops instead of a Python loop."
    ),
    mindspore_says=(
        "IndexError: For 'StridedSlice', the 'strides[0]' cannot be negative number and "
        "'begin[0]' must be in [-20, 20) when 'shrink_axis_mask' is greater than 0"
    ),
)

MASKED_SELECT = frozenset(
    {"mindspore.ops.masked_select", "mindspore.mint.masked_select", "mindspore.numpy.masked_select"}
)
ITERATING_BUILTINS = ("list", "tuple", "enumerate", "zip")


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    if not any(_select_call(ctx, c) for c in calls):
        return
    for node, iterated, how in _iterations(ctx, calls):
        source = _selected(ctx, iterated)
        if source is not None:
            yield ITERATED_MASKED_SELECT.finding(node, how=how, source=source)


def _iterations(
    ctx: FunctionContext, calls: list[ast.Call]
) -> Iterator[tuple[ast.AST, ast.expr, str]]:
    """(node to report, the iterated expression, how it is iterated)."""
    loops: list[ast.For] = ctx.of(ast.For)
    for loop in loops:
        yield loop.iter, loop.iter, f"`for {ast.unparse(loop.target)} in ...`"
    comprehensions: list[ast.comprehension] = ctx.of(ast.comprehension)
    for comp in comprehensions:
        yield comp.iter, comp.iter, "A comprehension"
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Name) and func.id in ITERATING_BUILTINS) or call.keywords:
            continue
        if func.id in ("list", "tuple", "enumerate") and len(call.args) != 1:
            continue
        if not calls_shared.builtin(ctx, func.id):
            continue
        for arg in call.args:  # one finding per call: the first argument that is one
            if _selected(ctx, arg) is not None:
                yield arg, arg, f"`{func.id}()`"
                break


def _selected(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """`ops.masked_select(...)` itself, or a name whose one binding it is: the text shown."""
    if _select_call(ctx, expr):
        return ast.unparse(expr)
    value = only_binding(ctx, expr)
    if value is not None and _select_call(ctx, value):
        return f"{ast.unparse(expr)} = {ast.unparse(value)}"
    return None


def _select_call(ctx: FunctionContext, expr: ast.expr) -> bool:
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr == "masked_select":
        if names.callee(ctx.fn.module, func) in MASKED_SELECT:
            return True
        return len(expr.args) + len(expr.keywords) == 1 and receivers.tensor_or_parameter(
            ctx, func.value
        )
    return names.callee(ctx.fn.module, func) in MASKED_SELECT
