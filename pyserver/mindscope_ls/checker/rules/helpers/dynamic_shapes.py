"""Tensors whose length is known only when the graph runs: `ops.unique(...)`'s values,
`ops.masked_select(...)`, `ops.nonzero(...)` and a boolean-mask index `x[x > 0]`."""

from __future__ import annotations

import ast
from typing import Optional

from . import names, receivers
from .base import FunctionContext

MASKED_SELECT = frozenset({"mindspore.ops.masked_select", "mindspore.mint.masked_select"})
UNIQUE = frozenset({"mindspore.ops.unique"})
NONZERO = frozenset({"mindspore.ops.nonzero", "mindspore.mint.nonzero"})


def dynamic_call(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """ "masked_select" / "unique" / "nonzero" when `expr` calls one of them."""
    if not isinstance(expr, ast.Call):
        return None
    qualname = names.callee(ctx.fn.module, expr.func)
    if qualname in MASKED_SELECT:
        return "masked_select"
    if qualname in UNIQUE:
        return "unique"
    if qualname in NONZERO:
        return "nonzero"
    func = expr.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "masked_select"
        and len(expr.args) + len(expr.keywords) == 1
        and receivers.tensor_or_parameter(ctx, func.value)
    ):
        return "masked_select"
    return None


def runtime_length(ctx: FunctionContext, name: ast.Name) -> Optional[str]:
    """What gives `name` (by its one binding) a run-time length: "unique" (`u, _ =
    ops.unique(...)`), "masked_select", "nonzero", or "mask" (`x[x > 0]`, a mask computed in
    the graph); None otherwise."""
    value = receivers.only_binding(ctx, name.id)
    if value is None:
        return "unique" if unpacked_unique(ctx, name.id) is not None else None
    found = dynamic_call(ctx, value)
    if found is not None:
        return found
    masked = (
        isinstance(value, ast.Subscript)
        and isinstance(value.slice, ast.Compare)
        and ctx.types.is_tensor(value.value)
        and ctx.types.is_tensor(value.slice)
    )
    return "mask" if masked else None


def unpacked_unique(ctx: FunctionContext, name: str) -> Optional[ast.expr]:
    """`ops.unique(y)` when the function's one binding of `name` is `name, _ = ops.unique(y)`."""
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1:
        return None
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        target = assign.targets[0] if len(assign.targets) == 1 else None
        if (
            isinstance(target, (ast.Tuple, ast.List))
            and len(target.elts) == 2
            and target.elts[0] is stores[0]
            and dynamic_call(ctx, assign.value) == "unique"
        ):
            return assign.value
    return None
