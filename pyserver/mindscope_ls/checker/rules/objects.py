"""MS115-MS117, MS121: objects compiled code cannot create or use (Parameters, with, dicts)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import RawFinding
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.classes import ClassInfo
from .helpers.flow import loads_after
from .helpers.walk import of_type

DICT_TRAPS = frozenset({"pop", "setdefault"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    dicts = _dict_names(ctx.fn.node)
    for node in ctx.of(ast.Call, ast.With, ast.AsyncWith, ast.Dict, ast.Subscript):
        if isinstance(node, ast.Call):
            if names.callee(module, node.func) in names.PARAMETER:
                yield ctx.finding(
                    "MS115",
                    "A Parameter cannot be created inside compiled code; create "
                    "it in `__init__` and use `self.<name>` here.",
                    node,
                )
            elif _is_dict_method(node, dicts):
                assert isinstance(node.func, ast.Attribute)
                assert isinstance(node.func.value, ast.Name)
                use = loads_after(ctx.fn.node, node.func.value.id, node)
                yield ctx.finding(
                    "MS121",
                    f"`dict.{node.func.attr}()` does not work as in Python in graph mode; read "
                    "with `d[key]` or `d.get(key, default)` and assign keys explicitly.",
                    node,
                    related=[ctx.related(use, "the dict is read here")] if use else [],
                )
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            yield from _with(ctx, node)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    yield from _tensor_key(ctx, key)
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in dicts
        ):
            yield from _tensor_key(ctx, node.slice)


def _tensor_key(ctx: FunctionContext, key: ast.expr) -> Iterator[RawFinding]:
    if ctx.types.is_tensor(key) and not ctx.types.is_constant_tensor(key):
        yield ctx.finding(
            "MS117",
            "A non-constant Tensor cannot be a dict key in "
            "graph mode; key the dict with a string or number.",
            key,
        )


def _dict_names(fn: ast.AST) -> set[str]:
    """Local names bound to a dict display or `dict(...)`."""
    found: set[str] = set()
    for node in of_type(fn, ast.Assign):
        if isinstance(node.value, (ast.Dict, ast.DictComp)) or (
            isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "dict"
        ):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return found


def _is_dict_method(call: ast.Call, dicts: set[str]) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in DICT_TRAPS
        and isinstance(func.value, ast.Name)
        and func.value.id in dicts
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
