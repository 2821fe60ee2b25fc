"""MS1145: an `@jit` function's first argument, an object with an attribute of the function's
own name.

Measured with MindSpore 2.10 on CPU (round 37, `jc_`), at LAX and STRICT alike (PyNative too,
since `@jit` compiles there as well): `graph/api.py` treats the first argument of a call of an
`@jit` function as the object the function is a method of when `hasattr(args[0],
func.__name__)` (`process_obj`). `@ms.jit def f(c, x)` called as `f(Cfg(3), x)` where `Cfg`
sets `self.f = 0.5` fails with "TypeError: unsupported callable" (no line named), for a
`@jit_class` and a plain class alike; the same class under another attribute name, or the
function under another name, compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import ModuleInfo
from ..model import Group, RawFinding
from ..rule import Rule
from .divergence_inputs import _bound_classes, _calls
from .helpers import names

JIT_ARGUMENT_HOLDS_FUNCTION_NAME = Rule(
    "MS1145",
    "jit-argument-has-function-name",
    Group.FAILS,
    title="An `@jit` function's first argument has an attribute named like the function",
    message=(
        "`{obj}`, a `{cls}`, is the first argument of the `@jit` function `{fn}` and has an "
        "attribute `{fn}`: MindSpore takes it for the object `{fn}` is a method of and the call "
        "fails; rename the attribute or the function, or pass the object later."
    ),
    why=(
        "`jit` looks for `self` by `hasattr(args[0], func.__name__)`: an object with an "
        "attribute of the function's name is taken for the function's owner, and its "
        "attribute for the function to compile."
    ),
    remedy="Rename the attribute (or the function), or move the object after another argument.",
    mindspore_says="TypeError: unsupported callable",
)


def check_module(module: ModuleInfo) -> Iterator[RawFinding]:
    tree = module.tree
    if tree is None:
        return
    jits = {
        stmt.name
        for stmt in tree.body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(names.is_jit(module, d) for d in stmt.decorator_list)
    }
    if not jits:
        return  # the common case: no `@jit` function in the module
    callers: list[ast.AST] = [tree] + [
        s
        for s in tree.body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name not in jits
    ]
    for caller in callers:
        calls = [
            c
            for c in _calls(caller)
            if isinstance(c.func, ast.Name) and c.func.id in jits and c.args
        ]
        if not calls:
            continue
        bound = _bound_classes(caller)
        for call in calls:
            assert isinstance(call.func, ast.Name)
            first = call.args[0]
            cls = _class_of(first, bound)
            node = module.classes.get(cls) if cls else None
            if node is None or call.func.id not in _data_attributes(module, node, 0):
                continue
            yield JIT_ARGUMENT_HOLDS_FUNCTION_NAME.finding(
                call, obj=ast.unparse(first), cls=node.name, fn=call.func.id
            )


def _class_of(expr: ast.expr, bound: dict[str, Optional[str]]) -> Optional[str]:
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        return expr.func.id
    if isinstance(expr, ast.Name):
        return bound.get(expr.id)
    return None


def _data_attributes(module: ModuleInfo, node: ast.ClassDef, depth: int) -> set[str]:
    """Names the class (and its bases of the module) set as data: `self.<name> = ...` in a
    method, or `name = ...` in the class body (not its methods)."""
    found: set[str] = set()
    methods: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods.add(stmt.name)
            for sub in ast.walk(stmt):
                if (
                    isinstance(sub, ast.Attribute)
                    and isinstance(sub.ctx, ast.Store)
                    and isinstance(sub.value, ast.Name)
                    and sub.value.id == "self"
                ):
                    found.add(sub.attr)
        elif isinstance(stmt, ast.Assign):
            found.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.value is not None
        ):
            found.add(stmt.target.id)
    if depth < 5:
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id in module.classes:
                found |= _data_attributes(module, module.classes[base.id], depth + 1)
    return found - methods
