"""MS115-MS117: objects compiled code cannot create or use (Parameters, context managers, keys)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from .. import names
from ..classes import ClassInfo
from ..model import RawFinding
from .base import FunctionContext


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and names.callee(module, node.func) in names.PARAMETER:
            yield ctx.finding(
                "MS115",
                "A Parameter cannot be created inside compiled code; create "
                "it in `__init__` and use `self.<name>` here.",
                node,
            )
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            yield from _with(ctx, node)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None and ctx.types.is_tensor(key):
                    yield ctx.finding(
                        "MS117",
                        "A non-constant Tensor cannot be a dict key in "
                        "graph mode; key the dict with a string or number.",
                        key,
                    )


def _with(ctx: FunctionContext, node: ast.With | ast.AsyncWith) -> Iterator[RawFinding]:
    for item in node.items:
        target = _class_of(ctx, item.context_expr)
        if target is None or target.is_jit_class:
            continue
        yield ctx.finding(
            "MS116",
            f"`with` needs a `@jit_class` object in graph mode, but `{target.name}` is a plain "
            "class; decorate it with `@mindspore.jit_class` or move the `with` out.",
            item.context_expr,
            related=[ctx.related(target.node, f"class `{target.name}` defined here")],
        )


def _class_of(ctx: FunctionContext, expr: ast.expr) -> Optional[ClassInfo]:
    """The workspace class of `self.attr` (assigned `Cls(...)` in the class) or of `Cls(...)`."""
    module = ctx.fn.module
    qualname: Optional[str] = None
    if (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "self"
        and ctx.fn.cls is not None
    ):
        attr = ctx.fn.cls.attr(expr.attr)
        if attr is not None and attr.kind == "object":
            qualname = attr.class_qualname
    elif isinstance(expr, ast.Call):
        qualname = module.qualname(expr.func)
    info = ctx.classes.resolve(qualname)
    if info is None or info.is_cell:
        return None
    return info
