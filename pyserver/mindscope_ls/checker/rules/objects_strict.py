"""MS233: under STRICT, reading back an attribute the graph wrote on a plain Python object.

Measured with MindSpore 2.10 in a Cell's `construct` (`generated/errors/`): writing
`OBJ.value = v` on a module-level instance of a plain class (or `self.obj.value = v` with
`self.obj = Custom()`) compiles at both levels, and so does reading an attribute that was not
written; but once written, the attribute is a Python object the graph holds through its
interpreter, and STRICT fails where it is read ("Illegal type in the graph: AbstractScalar(Type:
External, ...)" when returned, "the inputs should be constant" when computed with). LAX runs it,
and an `@ms.jit` function (compiled at LAX) too. `@jit_class` objects and Cells are not plain.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import globals as module_globals
from .helpers.base import FunctionContext
from .helpers.classes import ClassInfo
from .helpers.receivers import only_binding, self_attr

OBJECT_REREAD_UNDER_STRICT = Rule(
    "MS233",
    "object-attribute-reread-under-strict",
    Group.STRICT,
    title="Reading back an attribute written on a plain object, under STRICT",
    message=(
        "`{target}` was written on a plain `{cls}` object earlier in this graph; "
        "jit_syntax_level=STRICT cannot read it back; keep the value in a local variable."
    ),
    why=(
        "The graph writes a plain Python object's attribute through its Python interpreter; "
        "the value read back is an interpreted object, which STRICT cannot use."
    ),
    remedy=(
        "Keep the value in a local (`value = 2; OBJ.value = value; ... value ...`), make the "
        "class a `@jit_class`, or use the default LAX level."
    ),
    mindspore_says=(
        "RuntimeError: Illegal type in the graph: AbstractScalar(Type: External, Value: "
        "PythonObject(type: <class 'Custom'>, ...))"
    ),
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: reads the module's global instances."""
    written: dict[tuple[str, str], str] = {}  # (receiver, attr) -> class name
    attributes: list[ast.Attribute] = ctx.of(ast.Attribute)
    if not any(isinstance(a.ctx, ast.Store) for a in attributes):
        return
    for node in sorted(attributes, key=lambda a: (a.lineno, a.col_offset)):
        key = (ast.unparse(node.value), node.attr)
        if isinstance(node.ctx, ast.Store):
            cls = _plain_class(ctx, node.value)
            if cls is not None:
                written.setdefault(key, cls.node.name)
        elif isinstance(node.ctx, ast.Load) and key in written:
            target = f"{key[0]}.{key[1]}"
            yield OBJECT_REREAD_UNDER_STRICT.finding(node, target=target, cls=written[key])
            return


def _plain_class(ctx: FunctionContext, receiver: ast.expr) -> Optional[ClassInfo]:
    """The workspace class of a global instance or a `self.<attr>` object, when it is a plain
    class: not a Cell, not a `@jit_class`."""
    info: Optional[ClassInfo] = None
    if isinstance(receiver, ast.Name):
        info = module_globals.workspace_instance(ctx, receiver) or _created_here(ctx, receiver)
    elif isinstance(receiver, ast.Attribute):
        held = self_attr(ctx, receiver)
        if held is not None and held.kind == "object" and held.class_qualname is not None:
            info = ctx.classes.resolve(held.class_qualname)
    if info is None or info.is_cell or info.is_jit_class:
        return None
    return info


def _created_here(ctx: FunctionContext, receiver: ast.Name) -> Optional[ClassInfo]:
    """The class of `o` when the function's only binding of it is `o = Cls(...)` of a workspace
    class (measured: `o = Obj(); o.v = 5; return x * o.v` fails STRICT at the read, "the inputs
    should be constant")."""
    bound = only_binding(ctx, receiver.id)
    if not isinstance(bound, ast.Call):
        return None
    info = ctx.classes.resolve(ctx.fn.module.qualname(bound.func))
    if info is None or len(info.node.bases) != len(info.bases):
        return None
    if not all(_dataclass(ctx, d) for d in info.node.decorator_list):
        return None
    return info


def _dataclass(ctx: FunctionContext, decorator: ast.expr) -> bool:
    """`@dataclass` / `@dataclasses.dataclass(...)`: still a plain class (measured, round 35:
    `p = Pt(1, 2); p.a = 5; return x * p.a` fails STRICT at the read like a plain class)."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ctx.fn.module.qualname(func) == "dataclasses.dataclass"
