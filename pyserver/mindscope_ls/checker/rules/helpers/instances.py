"""Instances of the module's own plain classes (and jit_classes): which attributes they have.

Measured with MindSpore 2.10 (`generated/attributes/`, `calls/`, `iteration/`): reading an
attribute a plain object does not have, `len()` of one without `__len__` and a `for` over one
without `__iter__` fail at every level. Only classes the source fixes completely are answered:
no bases, no `__getattr__`/`__slots__`, no decorator but `jit_class`, and attributes written
nowhere but in their own methods.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Optional

from ...index.module import FunctionNode, ModuleInfo
from .module_values import global_binding

# Dunders a plain object lacks unless its class defines them.
PROTOCOL = frozenset({"__len__", "__iter__", "__getitem__"})
OPEN = frozenset({"__getattr__", "__getattribute__", "__slots__", "__dict__"})


_CLOSED = "_mindscope_closed_classes"  # kept on the module tree: freed with it


def closed_classes(module: ModuleInfo) -> frozenset[str]:
    """The module's classes whose attributes the source fixes (read once per module tree)."""
    tree = module.tree
    if tree is None:
        return frozenset()
    held: Optional[frozenset[str]] = tree.__dict__.get(_CLOSED)
    if held is None:
        held = frozenset(name for name, cls in module.classes.items() if _closed(cls))
        tree.__dict__[_CLOSED] = held
    return held


def instance_class(module: ModuleInfo, expr: ast.expr) -> Optional[ast.ClassDef]:
    """The class `expr` is an instance of: `Cls()` or a module name bound once to `Cls()`."""
    if not closed_classes(module):
        return None
    if isinstance(expr, ast.Name):
        binding = global_binding(module, expr.id)
        if binding is None:
            return None
        expr = binding.value
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)):
        return None
    return module.classes.get(expr.func.id) if expr.func.id in closed_classes(module) else None


def _closed(cls: ast.ClassDef) -> bool:
    if cls.bases or cls.keywords:
        return False
    for deco in cls.decorator_list:
        name = deco.id if isinstance(deco, ast.Name) else getattr(deco, "attr", None)
        if name != "jit_class":
            return False
    return not (attributes(cls) & OPEN)


def attributes(cls: ast.ClassDef) -> set[str]:
    """Names the class body binds and attributes its methods set on `self`."""
    names: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
            ):
                names.add(node.attr)
    return names


def lacks(module: ModuleInfo, cls: ast.ClassDef, attr: str) -> bool:
    """The class's instances have no `attr`, and nothing in the module writes one."""
    if attr in attributes(cls) or module.tree is None:
        return False
    if attr.startswith("__") and attr not in PROTOCOL:
        return False  # every object has its dunders
    return not any(
        isinstance(n, ast.Attribute) and n.attr == attr and not isinstance(n.ctx, ast.Load)
        for n in ast.walk(module.tree)
    ) and not any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr"
        for n in ast.walk(module.tree)
    )


def init_argument_values(
    calls: Iterable[ast.Call], init: FunctionNode, param: str, *, required: bool = False
) -> Optional[list[ast.expr]]:
    """What `__init__`'s `param` can hold: its default and what each of `calls` (the class's
    constructions) passes for it. None when it has no default (unless `required`: then every
    call must pass it), `__init__` takes `*args` or `**kwargs`, or a call spreads its
    arguments."""
    args = init.args
    positional = [a.arg for a in [*args.posonlyargs, *args.args]][1:]
    if param not in positional or args.vararg or args.kwarg:
        return None
    index = positional.index(param)
    offset = len(positional) - len(args.defaults)
    if index < offset and not required:
        return None
    passed: list[ast.expr] = [args.defaults[index - offset]] if index >= offset else []
    for call in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            return None
        given = [call.args[index]] if len(call.args) > index else []
        given.extend(k.value for k in call.keywords if k.arg == param)
        if index < offset and not given:
            return None  # a required parameter left out: not a construction we understand
        passed.extend(given)
    return passed
