"""MS1031: a Cell's or a Primitive's `__call__` called by name in compiled code.

Measured with MindSpore 2.10 on CPU (PyNative runs the call): `self.fc.__call__(x)`,
`self.layers[0].__call__(x)`, `layer.__call__(x)` over a CellList, a workspace Cell's
`self.block.__call__(x)` and `nn.Cell.__call__(self.fc, x)` fail at every level: graph mode
compiles `Cell.__call__` itself instead of the Cell's graph (LAX: "the method or function
'mindspore.context._get_mode' is not supported in 'construct'"; STRICT: "if need to modify a
member attribute of a class with self._compiled ..."), at the call. `self.relu.__call__(x)` of
a Primitive fails too (LAX: "name '__py_exec_index1_getattr__' is not defined"; STRICT: "cannot
get attributes __call__"). `self.fc(x)` and `self.fc.construct(x)` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .cell_membership import loop_over_cells
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

DUNDER_CALL = Rule(
    "MS1031",
    "explicit-dunder-call",
    Group.FAILS,
    title="A Cell's or Primitive's `__call__` called by name in compiled code",
    message=(
        "`{call}` calls the {kind}'s `__call__` by name, which graph mode compiles as a Python "
        "method instead of the {kind} itself and fails at every level; call it directly: "
        "`{direct}`."
    ),
    why=(
        "Graph mode turns `cell(x)` into a call of the Cell's graph; `cell.__call__(x)` instead "
        "compiles `Cell.__call__`, whose Python (context checks, `self._compiled = True`) "
        "has no graph translation."
    ),
    remedy="Call the Cell (or Primitive) itself: `self.fc(x)` instead of `self.fc.__call__(x)`.",
    mindspore_says=(
        "RuntimeError: Failed to compile in GRAPH_MODE because the method or function "
        "'mindspore.context._get_mode' is not supported in 'construct' or function with @jit "
        "decorator."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None:
        return
    for call in ctx.of(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr != "__call__":
            continue
        found = _callee(ctx, func.value, call)
        if found is None:
            continue
        kind, obj, args = found
        direct = f"{obj}({', '.join(ast.unparse(a) for a in args)})"
        yield DUNDER_CALL.finding(call, call=ast.unparse(call), kind=kind, direct=direct)


def _callee(
    ctx: FunctionContext, owner: ast.expr, call: ast.Call
) -> Optional[tuple[str, str, list[ast.expr]]]:
    """(Cell or Primitive, the object's text, the arguments it is called with)."""
    if call.keywords:
        return None
    if receivers.kind_of(ctx, owner) == receivers.CELL and not _is_self(owner):
        info = receivers.workspace_class(ctx, owner)
        if info is not None and info.find_method("__call__") is not None:
            return None  # the class's own `__call__`: compiled as written
        return "Cell", ast.unparse(owner), list(call.args)
    if isinstance(owner, ast.Name) and owner.id != "self" and loop_over_cells(ctx, owner.id):
        return "Cell", owner.id, list(call.args)
    held = receivers.self_attr(ctx, owner)
    if held is not None and held.kind == "cell" and names.is_primitive_class(held.class_qualname):
        return "Primitive", ast.unparse(owner), list(call.args)
    # `nn.Cell.__call__(self.fc, x)`: the unbound method of the Cell class
    qualname = ctx.fn.module.qualname(owner) if isinstance(owner, ast.Attribute) else None
    if names.is_cell_qualname(qualname) and call.args:
        first = call.args[0]
        if receivers.kind_of(ctx, first) == receivers.CELL and not _is_self(first):
            return "Cell", ast.unparse(first), list(call.args[1:])
    return None


def _is_self(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Name) and expr.id == "self"
