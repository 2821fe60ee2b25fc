"""Calls in compiled code that reach workspace code less directly than `f(x)` / `self.m(x)`.

Measured on MindSpore 2.10 (CPU, LAX and STRICT): each of these compiles the function it
reaches, so a statement graph mode rejects there (`del y`) fails the whole graph:
- a function transform applied to a function: `ms.grad(loss)(x)`, `g = ops.grad(f); g(x)`,
  `ms.value_and_grad(self.loss)(x)`, `ms.vmap(g)(x)`, `ops.GradOperation()(f)(x)`;
- a method of an object held by the Cell: `self.helper.go(x)`, plain class or `@jit_class`
  (graph mode parses its methods as it parses `construct`);
- a method of an object built in the function: `h = Helper(); h.go(x)`, `Helper().go(x)`;
- (resolved in discovery) `self.h(x)` of a held object (its `__call__`) and `self.act(x)` with
  `self.act = self._fast` set in `__init__` (the bound method).
"""

from __future__ import annotations

import ast
from typing import Optional

from ...index.module import FunctionNode, ModuleInfo
from .walk import of_type

# The last part of MindSpore's function transforms whose first argument is the function the
# returned callable compiles with its own arguments (`mindspore.grad`, `mindspore.ops.vmap`).
TRANSFORMS = frozenset({"grad", "value_and_grad", "vmap", "jacfwd", "jacrev"})
GRAD_OPERATION = "GradOperation"


def single_bindings(fn: FunctionNode) -> dict[str, ast.expr]:
    """The function's local names bound exactly once, by a plain `name = value`."""
    counts: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    for node in of_type(fn, ast.Name):
        if isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    for assign in of_type(fn, ast.Assign):
        target = assign.targets[0]
        if len(assign.targets) == 1 and isinstance(target, ast.Name):
            values[target.id] = assign.value
    return {name: value for name, value in values.items() if counts.get(name) == 1}


def transformed(
    module: ModuleInfo, func: ast.expr, bindings: dict[str, ast.expr]
) -> Optional[ast.expr]:
    """The function a call of `func` compiles when `func` is a transform's result
    (`ms.grad(loss)`, or a name bound once to one): the transform's first argument."""
    if isinstance(func, ast.Name):
        bound = bindings.get(func.id)
        if not isinstance(bound, ast.Call):
            return None
        func = bound
    if not isinstance(func, ast.Call):
        return None
    inner = func.func
    if isinstance(inner, ast.Call) and _is_mindspore(module, inner.func, GRAD_OPERATION):
        return func.args[0] if func.args else None  # ops.GradOperation(...)(f)
    if not any(_is_mindspore(module, inner, name) for name in TRANSFORMS):
        return None
    if func.args:
        return func.args[0]
    for kw in func.keywords:
        if kw.arg in ("fn", "func"):
            return kw.value
    return None


def member(func: ast.expr) -> Optional[str]:
    """`attr.method` for `self.attr.method`."""
    if not isinstance(func, ast.Attribute):
        return None
    holder = func.value
    if (
        isinstance(holder, ast.Attribute)
        and isinstance(holder.value, ast.Name)
        and holder.value.id == "self"
    ):
        return f"{holder.attr}.{func.attr}"
    return None


def instance_method(
    module: ModuleInfo, func: ast.expr, bindings: dict[str, ast.expr]
) -> Optional[tuple[str, str]]:
    """(class dotted name, method) for `Cls(...).method` or `obj.method` with `obj = Cls(...)`
    bound once, where `Cls` is not MindSpore's."""
    if not isinstance(func, ast.Attribute):
        return None
    made = func.value
    if isinstance(made, ast.Name):
        made = bindings.get(made.id)  # type: ignore[assignment]
    if not isinstance(made, ast.Call) or not isinstance(made.func, (ast.Name, ast.Attribute)):
        return None
    qualname = module.qualname(made.func)
    if qualname is None or qualname.startswith("mindspore.") or "." not in qualname:
        return None
    if not qualname.rsplit(".", 1)[-1][:1].isupper():
        return None  # a factory function's result: its class is not known
    return qualname, func.attr


def _is_mindspore(module: ModuleInfo, func: ast.expr, last: str) -> bool:
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return False
    qualname = module.qualname(func)
    return (
        qualname is not None
        and qualname.startswith("mindspore.")
        and qualname.rsplit(".", 1)[-1] == last
    )
