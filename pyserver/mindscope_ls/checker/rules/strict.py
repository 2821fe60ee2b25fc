"""MS201-MS204: code LAX accepts through its Python fallback but STRICT rejects (MS205: joins)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import RawFinding
from .helpers.base import FunctionContext, cacheable
from .helpers.walk import of_type

TO_NUMPY = frozenset({"numpy", "tolist"})  # besides `asnumpy`, which needs no type
LIST_METHODS = frozenset({"sort", "remove"})
PYTHON_ONLY_BUILTINS = frozenset({"str", "repr", "type"})
PYTHON_ONLY_MODULES = ("math.", "numpy.")


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    lists = _list_names(ctx.fn.node)
    for node in ctx.of(ast.Call, ast.Assign, ast.AugAssign, ast.AnnAssign):
        if isinstance(node, ast.Call):
            yield from _call(ctx, node, lists)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            yield from _attribute_writes(ctx, node)


def _call(ctx: FunctionContext, node: ast.Call, lists: set[str]) -> Iterator[RawFinding]:
    func = node.func
    if isinstance(func, ast.Attribute) and _to_numpy(ctx, node, func):
        yield ctx.finding(
            "MS201",
            f"`.{func.attr}()` is not supported under "
            "jit_syntax_level=STRICT; keep the computation in Tensor ops.",
            node,
        )
        return
    if (
        isinstance(func, ast.Attribute)
        and func.attr in LIST_METHODS
        and isinstance(func.value, ast.Name)
        and func.value.id in lists
    ):
        yield ctx.finding(
            "MS203",
            f"`list.{func.attr}()` is not supported under jit_syntax_level=STRICT; "
            + ("use `sorted(...)` or `ops.sort`." if func.attr == "sort" else "build a new list."),
            node,
        )
        return
    name = _python_function(ctx, func)
    if name is not None and any(ctx.types.is_tensor(arg) for arg in node.args):
        yield ctx.finding(
            "MS204",
            f"`{name}(...)` of a Tensor computed in the graph is not supported under "
            "jit_syntax_level=STRICT; use Tensor methods or `ops` instead.",
            node,
        )


def _to_numpy(ctx: FunctionContext, node: ast.Call, func: ast.Attribute) -> bool:
    if node.args or node.keywords:
        return False
    return func.attr == "asnumpy" or (func.attr in TO_NUMPY and ctx.types.is_tensor(func.value))


def _python_function(ctx: FunctionContext, func: ast.expr) -> Optional[str]:
    """`str`, `type`, `math.floor`, `np.array`, ...: functions only the Python fallback runs."""
    if isinstance(func, ast.Name) and func.id in PYTHON_ONLY_BUILTINS:
        return func.id
    qualname = ctx.fn.module.qualname(func)
    if qualname and qualname.startswith(PYTHON_ONLY_MODULES):
        return qualname
    return None


def _attribute_writes(
    ctx: FunctionContext, node: ast.Assign | ast.AugAssign | ast.AnnAssign
) -> Iterator[RawFinding]:
    if ctx.fn.cls is None:
        return
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if not (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
        ):
            continue
        attr = ctx.fn.cls.attr(target.attr)
        if attr is None or attr.kind == "tensor":
            continue
        yield ctx.finding(
            "MS202",
            f"`self.{target.attr}` is not a Parameter, and STRICT only allows writing Parameter "
            "attributes in compiled code; return the value or make it a Parameter.",
            target,
            related=[ctx.related(attr.node, f"`self.{target.attr}` set here")] if attr.node else [],
        )


def _list_names(fn: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in of_type(fn, ast.Assign):
        if isinstance(node.value, (ast.List, ast.ListComp)):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return found
