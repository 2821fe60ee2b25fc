"""Module-level names bound once to an instance (`OBJ = Custom()`, `ACT = nn.ReLU()`): what a
compiled function reading that global holds.

Reading the module's tree, a rule using this is not cacheable (`base.cacheable`).
"""

from __future__ import annotations

import ast
from typing import Optional

from ...incremental.memo import NodeMemo
from ...index.module import ModuleInfo
from . import names
from .base import FunctionContext
from .classes import ClassInfo
from .walk import of_type

_INSTANCES: NodeMemo[dict[str, str]] = NodeMemo()


def instance_class(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The dotted class name of the global `expr` names, when the module binds it exactly once,
    at top level, to `Cls(...)`, and the function does not bind that name itself."""
    module = ctx.fn.module
    if not isinstance(expr, ast.Name) or module.tree is None or _bound_in(ctx, expr.id):
        return None
    found = _INSTANCES.get(module.tree, module.env, lambda: _instances(module))
    return found.get(expr.id)


def workspace_instance(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    return ctx.classes.resolve(instance_class(ctx, expr))


def is_cell_instance(ctx: FunctionContext, expr: ast.expr) -> bool:
    qualname = instance_class(ctx, expr)
    if qualname is None:
        return False
    if names.is_cell_qualname(qualname):
        return True
    info = ctx.classes.resolve(qualname)
    return info is not None and info.is_cell


def _instances(module: ModuleInfo) -> dict[str, str]:
    assert module.tree is not None
    found: dict[str, str] = {}
    for stmt in module.tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
        ):
            qualname = names.callee(module, stmt.value.func)
            if qualname:
                found[stmt.targets[0].id] = qualname
    if not found:
        return found  # the common case: no `NAME = Cls(...)`, no name of the module to count
    counts = dict.fromkeys(found, 0)
    # The shared per-statement node lists: after an edit only the re-parsed block is walked.
    for node in of_type(module.tree, ast.Name):
        if node.id in counts and isinstance(node.ctx, ast.Store):
            counts[node.id] += 1
    for declared in of_type(module.tree, ast.Global):
        for name in declared.names:
            if name in counts:
                counts[name] += 2  # rebound somewhere: not known
    return {name: q for name, q in found.items() if counts[name] == 1}


def _bound_in(ctx: FunctionContext, name: str) -> bool:
    args = ctx.fn.node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    if any(a is not None and a.arg == name for a in every):
        return True
    names_: list[ast.Name] = ctx.of(ast.Name)
    return any(n.id == name and isinstance(n.ctx, ast.Store) for n in names_)
