"""MS193-MS194, MS247: Python's dynamic object model, which the graph does not have.

- MS193: `delattr(obj, name)` in compiled code fails at every level: LAX runs it through the
  Python fallback while compiling and again when the graph runs, so the second call finds the
  attribute gone ("'Net' object has no attribute 'act'"); STRICT cannot call it at all ("The
  third argument should be a dictionary"). Measured on 2.10, CPU, at the call.
- MS194: `obj.<new>` read on a `@jit_class` instance after compiled code set it, where the class
  (all of its lineage known) never sets `<new>`: a jit_class is compiled as a fixed record of
  the attributes its class sets, and the write does not add one, at every level ("ClassMember:
  '...<Box>' object has no attribute 'extra'", at the read).
- MS247: `exec(...)` in compiled code: LAX runs it in the Python fallback; STRICT has no
  fallback ("The third argument should be a dictionary, but got AbstractTuple{...}").
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo

DELATTR_IN_GRAPH = Rule(
    "MS193",
    "delattr-in-graph",
    Group.FAILS,
    title="`delattr()` in compiled code",
    message=(
        "`{call}` deletes an attribute inside compiled code, which graph mode cannot do (LAX "
        "runs it once while compiling and again when the graph runs; STRICT cannot run it); "
        "delete it outside the compiled function."
    ),
    why=(
        "A graph has no objects whose attributes come and go: LAX hands `delattr` to the "
        "Python interpreter, which runs it at compile time and again when the graph runs, so "
        "the second call fails; STRICT has no interpreter to hand it to."
    ),
    remedy="Delete the attribute before calling the Cell, or keep it and test a flag instead.",
    mindspore_says="AttributeError: 'Net' object has no attribute 'act'",
)

JIT_CLASS_NEW_ATTRIBUTE = Rule(
    "MS194",
    "jit-class-new-attribute",
    Group.FAILS,
    title="A new attribute of a `@jit_class` object, set and read in compiled code",
    message=(
        "`{target}` reads `{attr}`, which the `@jit_class` `{cls}` never sets (only this "
        "function does): graph mode compiles a jit_class as the fixed set of attributes its "
        "class assigns; set `self.{attr}` in `{cls}.__init__`."
    ),
    why=(
        "A `@jit_class` instance is a compiled record of the attributes its class sets; the "
        "graph cannot add a field to it."
    ),
    remedy="Give the class the attribute in `__init__` (`self.extra = 0`), then write it.",
    mindspore_says="AttributeError: ClassMember: '...<Box>' object has no attribute 'extra'",
)

EXEC_UNDER_STRICT = Rule(
    "MS247",
    "exec-under-strict",
    Group.STRICT,
    title="`exec()` in compiled code, under STRICT",
    message=(
        "`exec()` runs only in the Python fallback of jit_syntax_level=LAX, which STRICT does "
        "not have; run it outside the compiled function."
    ),
    why="STRICT has no Python fallback, and `exec` has no graph translation.",
    remedy="Move the `exec` out of compiled code, or use the default LAX level.",
    mindspore_says=(
        "RuntimeError: The third argument should be a dictionary, but got AbstractTuple{...}"
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for call in ctx.of(ast.Call):
        func = call.func
        if not isinstance(func, ast.Name) or func.id not in ("delattr", "exec"):
            continue
        if not builtin(ctx, func.id):
            continue
        if func.id == "delattr":
            yield DELATTR_IN_GRAPH.finding(call, call=ast.unparse(call))
        else:
            yield EXEC_UNDER_STRICT.finding(call)
    attributes: list[ast.Attribute] = ctx.of(ast.Attribute)
    written = {
        (a.value.id, a.attr)
        for a in attributes
        if isinstance(a.ctx, ast.Store) and isinstance(a.value, ast.Name)
    }
    for node in attributes:
        if not (isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)):
            continue
        if (node.value.id, node.attr) not in written:
            continue  # never set here: PyNative would fail on it too
        info = _jit_class_of(ctx, node.value)
        if info is not None and node.attr not in _set_attributes(info):
            yield JIT_CLASS_NEW_ATTRIBUTE.finding(
                node, target=ast.unparse(node), attr=node.attr, cls=info.name
            )
            written.discard((node.value.id, node.attr))  # the first read is the one named


def _jit_class_of(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The `@jit_class` of a local bound only to `Cls(...)`, when the class and its whole
    lineage are the workspace's own (a base from elsewhere may set anything)."""
    if not isinstance(expr, ast.Name):
        return None
    bound = receivers.only_binding(ctx, expr.id)
    if not isinstance(bound, ast.Call):
        return None
    info = ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    if info is None or not info.is_jit_class or info.is_cell:
        return None
    for each in info.lineage():
        if len(each.node.bases) != len(each.bases) or each.node.keywords:
            return None
    return info


def _set_attributes(info: ClassInfo) -> set[str]:
    """Every name the lineage's class bodies bind or its methods set on `self` (or on anything:
    `setattr`, `__dict__` and `__setattr__` make the set unknowable, so they give every name)."""
    found: set[str] = set()
    for each in info.lineage():
        for stmt in each.node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if stmt.name in ("__setattr__", "__getattr__", "__getattribute__"):
                    return _EVERYTHING
                found.add(stmt.name)
            for node in ast.walk(stmt):
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    found.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    found.add(node.id)
                elif _dynamic(node):
                    return _EVERYTHING
    return found


def _dynamic(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ("setattr", "__dict__", "vars")
    return isinstance(node, ast.Attribute) and node.attr == "__dict__"


class _Everything(set[str]):
    def __contains__(self, item: object) -> bool:
        return True


_EVERYTHING = _Everything()
