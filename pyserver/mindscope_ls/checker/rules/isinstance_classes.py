"""MS3035: `isinstance(obj, Cls)` that graph mode answers False where PyNative answers True.

Measured with MindSpore 2.10 on CPU (round 37, `jc_`), LAX and STRICT alike, against PyNative:
- a namedtuple class (`collections.namedtuple` or a `typing.NamedTuple` class): graph mode holds
  a namedtuple built from constants as a plain tuple, so `isinstance(self.p, Pt)` is False
  (also `not isinstance`, `isinstance(p, (Pt, list))`, an IfExp, the result kept in a local,
  a `construct` argument, a local `Pt(1, 2)`). `isinstance(self.p, tuple)` agrees. A namedtuple
  the LAX fallback builds from a Tensor (`Pt(x, 2)` in `construct`) stays one: True, agrees.
- a plain (not `@jit_class`) base of a `@jit_class`'s class: `isinstance(self.c, Base)` with
  `@jit_class class Child(Base)` is False (through two plain levels too). The object's own
  class, and a base that is a `@jit_class` itself, agree; so do plain objects (the fallback).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import python_objects, receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo

ISINSTANCE_FALSE_IN_GRAPH = Rule(
    "MS3035",
    "isinstance-false-in-graph",
    Group.DIVERGES,
    title="`isinstance()` against a namedtuple class or a plain base of a `@jit_class`",
    message=(
        "`{call}` is False in graph mode ({why_false}) where PyNative answers True; test a "
        "flag set in `__init__`, or `isinstance({obj}, tuple)` for a namedtuple."
    ),
    why=(
        "Graph mode holds a namedtuple of constants as a plain tuple, and a `@jit_class` "
        "object as a compiled record whose class does not carry its plain Python bases."
    ),
    remedy="Decide in `__init__` and keep a bool attribute, or test against `tuple`.",
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name)
        and c.func.id == "isinstance"
        and len(c.args) == 2
        and not c.keywords
    ]
    if not calls or not builtin(ctx, "isinstance"):
        return
    for call in calls:
        obj, classes = call.args
        named = classes.elts if isinstance(classes, ast.Tuple) else [classes]
        for cls in named:
            if not isinstance(cls, (ast.Name, ast.Attribute)):
                continue
            why_false = _false_in_graph(ctx, obj, cls)
            if why_false is not None:
                yield ISINSTANCE_FALSE_IN_GRAPH.finding(
                    call, call=ast.unparse(call), why_false=why_false, obj=ast.unparse(obj)
                )
                break


def _false_in_graph(ctx: FunctionContext, obj: ast.expr, cls: ast.expr) -> Optional[str]:
    module = ctx.fn.module
    if isinstance(cls, ast.Name) and python_objects.namedtuple_fields(module, cls.id) is not None:
        if _built_from_values(ctx, obj) or _holds_other(ctx, obj, cls.id):
            return None  # the LAX fallback's own namedtuple (measured: True, agrees)
        return f"`{cls.id}` is a namedtuple class, which graph mode holds as a plain tuple"
    info = _object_class(ctx, obj)
    if info is None or not info.is_jit_class or info.is_cell:
        return None
    base = ctx.classes.resolve(module.qualname(cls))
    if base is None or base is info or base.is_jit_class:
        return None
    if any(each is base for each in info.lineage()):
        return (
            f"`{base.name}` is a plain base of the `@jit_class` `{info.name}`, which the "
            "compiled object does not carry"
        )
    return None


def _built_from_values(ctx: FunctionContext, obj: ast.expr) -> bool:
    """`obj` is a local bound to a call given a Tensor: built by the LAX fallback, not folded
    (measured: `Pt(x, 2)` agrees, `Pt(x.shape[0], 2)` is a tuple: False)."""
    if not isinstance(obj, ast.Name):
        return False
    bound = receivers.only_binding(ctx, obj.id)
    if not isinstance(bound, ast.Call):
        return False
    values = [*bound.args, *(k.value for k in bound.keywords)]
    return any(ctx.types.is_tensor(v) for v in values)


def _holds_other(ctx: FunctionContext, obj: ast.expr, name: str) -> bool:
    """`self.<attr>` assigned in `__init__` something other than `name(...)` (a tuple: the
    answer is False in PyNative too)."""
    held = receivers.self_attr(ctx, obj)
    if held is None or not isinstance(held.node, ast.expr):
        return False
    node = held.node
    return not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    )


def _object_class(ctx: FunctionContext, obj: ast.expr) -> Optional[ClassInfo]:
    """The workspace class of `self.<attr>` (assigned `Cls(...)`) or of a local bound once to
    `Cls(...)`."""
    if isinstance(obj, ast.Name):
        bound = receivers.only_binding(ctx, obj.id)
        if not isinstance(bound, ast.Call):
            return None
        return ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    return receivers.workspace_class(ctx, obj)
