"""What the calls / attributes / unpacking / iteration rules share: a value's name in a
message, the module class a local is an instance of, and the names a function binds (each read
once per function and kept on its node)."""

from __future__ import annotations

import ast
from typing import Optional

from ..index.module import FunctionNode
from .helpers.abstract import Value
from .helpers.base import FunctionContext
from .helpers.elements import tensor_shape
from .helpers.instances import closed_classes, instance_class
from .helpers.module_values import (
    argument_values,
    call_lines,
    entry_point,
    note_read,
    ordered_parameters,
    parameters,
)
from .helpers.walk import of_type


def describe(value: Value) -> str:
    if value.kind == "None":
        return "None"
    if value.kind == "scalar" and value.dtype:
        return value.dtype
    return value.kind


def missing_advice(cls: ast.ClassDef, attr: str) -> str:
    return f"set `self.{attr}` in `{cls.name}.__init__`, or read an attribute it has"


def instance(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.ClassDef]:
    """The module class `expr` is an instance of, through one local `name = value` at most."""
    if not closed_classes(ctx.fn.module):
        return None  # the common case: no plain class in the module, nothing to walk
    if isinstance(expr, ast.Name) and expr.id in local_names(ctx.fn.node):
        bound = assigned(ctx.fn.node, expr.id)
        if len(bound) != 1 or (isinstance(bound[0], ast.Name) and bound[0].id == expr.id):
            return None
        expr = bound[0]
    return instance_class(ctx.fn.module, expr)


def assigned_any(fn: FunctionNode, name: str) -> bool:
    """`name` is stored or deleted anywhere in `fn` (read from the shared node index)."""
    found: list[ast.Name] = of_type(fn, ast.Name)
    return any(n.id == name and not isinstance(n.ctx, ast.Load) for n in found)


def assigned(fn: FunctionNode, name: str) -> list[ast.expr]:
    """The values of `name = value` in `fn`; [] when it is bound any other way too."""
    return _bindings(fn).get(name) or []


_BINDINGS = "_mindscope_calls_bindings"  # kept on the function node: freed with its tree


def _bindings(fn: FunctionNode) -> dict[str, Optional[list[ast.expr]]]:
    """name -> the values of its `name = value` bindings, or None when it is bound any other
    way too (one walk per function)."""
    held: Optional[dict[str, Optional[list[ast.expr]]]] = fn.__dict__.get(_BINDINGS)
    if held is not None:
        return held
    found: dict[str, Optional[list[ast.expr]]] = {}
    other: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values = found.setdefault(target.id, [])
                    if values is not None:
                        values.append(node.value)
                else:
                    other.update(_names_in(target))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            other.update(_names_in(node.target))
        elif isinstance(node, ast.With):
            for item in node.items:
                if item.optional_vars is not None:
                    other.update(_names_in(item.optional_vars))
        elif isinstance(node, ast.arguments):
            every = node.posonlyargs + node.args + node.kwonlyargs
            other.update(a.arg for a in every + [v for v in (node.vararg, node.kwarg) if v])
    for name in other:
        found[name] = None
    fn.__dict__[_BINDINGS] = found
    return found


def _names_in(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


# One walk per function, not one per node; kept on the function node: freed with its tree.
_LOCALS = "_mindscope_calls_locals"


def local_names(fn: FunctionNode) -> set[str]:
    held: Optional[set[str]] = fn.__dict__.get(_LOCALS)
    if held is None:
        held = fn.__dict__[_LOCALS] = _walk_local_names(fn)
    return held


def _walk_local_names(fn: FunctionNode) -> set[str]:
    # From the shared node index (`walk.of_type`), not a walk of the function's tree.
    names = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)}
    stored: list[ast.Name] = of_type(fn, ast.Name)
    names.update(node.id for node in stored if not isinstance(node.ctx, ast.Load))
    scopes: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = of_type(
        fn, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef
    )
    names.update(node.name for node in scopes if node is not fn)
    imports: list[ast.Import | ast.ImportFrom] = of_type(fn, ast.Import, ast.ImportFrom)
    for node in imports:
        names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def builtin(ctx: FunctionContext, name: str) -> bool:
    module = ctx.fn.module
    return (
        name not in local_names(ctx.fn.node)
        and name not in module.functions
        and name not in module.imports
        and name not in module.classes
    )


def module_function(ctx: FunctionContext, name: str) -> Optional[FunctionNode]:
    """The plain module-level `def` a name calls, when nothing else binds that name."""
    module = ctx.fn.module
    target = module.functions.get(name)
    if target is None or target.decorator_list or name in local_names(ctx.fn.node):
        return None
    if name in module.imports or name in module.classes or module.tree is None:
        return None
    defs, rebound = _module_names(module.tree)
    once = defs.get(name) == 1 and name not in rebound
    return target if once and isinstance(target, ast.FunctionDef) else None


_MODULES = "_mindscope_calls_module_names"  # kept on the module tree: freed with it


def _module_names(tree: ast.Module) -> tuple[dict[str, int], set[str]]:
    """How many top-level `def`/`class` statements bind each name, and the names the other
    top-level statements bind (read once per module tree)."""
    held: Optional[tuple[dict[str, int], set[str]]] = tree.__dict__.get(_MODULES)
    if held is not None:
        return held
    defs: dict[str, int] = {}
    rebound: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs[stmt.name] = defs.get(stmt.name, 0) + 1
            continue
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                rebound.add(n.id)
    tree.__dict__[_MODULES] = (defs, rebound)
    return defs, rebound


def tensor_shape_of(ctx: FunctionContext, expr: ast.expr) -> Optional[tuple[int, ...]]:
    """The shape of a Tensor the source fixes: a written-out one, a local bound once to one,
    or an input of an entry point every call in the module passes the same shape."""
    if isinstance(expr, ast.Name):
        fn = ctx.fn.node
        bound = assigned(fn, expr.id)
        if len(bound) == 1:
            return tensor_shape(bound[0])
        if bound or (expr.id in local_names(fn) and expr.id not in parameters(fn)):
            return None
        return _input_shape(ctx, expr.id)
    return tensor_shape(expr)


def _input_shape(ctx: FunctionContext, name: str) -> Optional[tuple[int, ...]]:
    """Read from the module's calls each time (not kept on the node: those calls may change
    while this function does not)."""
    fn = ctx.fn.node
    module = ctx.fn.module
    entry = entry_point(ctx.types, fn)
    if entry is None:
        return None
    params = ordered_parameters(fn, skip_self=ctx.types.cls is not None)
    passed = (argument_values(module, entry, params) or {}).get(name)
    for line in call_lines(module, entry):
        note_read(ctx.lines, line)
    shapes = {tensor_shape(v) if v is not None else None for v in passed or ()}
    return shapes.pop() if len(shapes) == 1 else None
