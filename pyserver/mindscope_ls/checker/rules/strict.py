"""MS201-MS203: code LAX accepts through its Python fallback but STRICT rejects."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import RawFinding
from ..walk import walk
from .base import FunctionContext


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    lists = _list_names(ctx.fn.node)
    for node in ctx.nodes():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "asnumpy" and not node.args:
                yield ctx.finding(
                    "MS201",
                    "`.asnumpy()` is not supported under "
                    "jit_syntax_level=STRICT; keep the computation in Tensor ops.",
                    node,
                )
            elif (
                node.func.attr == "sort"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in lists
            ):
                yield ctx.finding(
                    "MS203",
                    "`list.sort()` is not supported under "
                    "jit_syntax_level=STRICT; use `sorted(...)` or `ops.sort`.",
                    node,
                )
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            yield from _attribute_writes(ctx, node)


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
    for node in walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.List, ast.ListComp)):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return found
