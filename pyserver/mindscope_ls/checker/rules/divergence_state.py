"""MS310: writes to the state of an object the Cell holds, which the graph does not see.

Measured with MindSpore 2.10 on CPU, against PyNative: in `construct`, `self.box.value = 2` on a
`@jit_class` instance compiles at LAX, but the graph keeps reading the compile-time value (x * 1
where PyNative gives x * 2; the object holds 2 afterwards); `self.obj.d['k'] = 2` on a dict
attribute of a plain object is lost at both levels (the dict still holds 1 afterwards, and the
graph reads 1). Writing a plain object's attribute (`self.obj.value = 2`) and the Cell's own
dict (`self.d['k'] = 2`) behave as in PyNative at LAX, so they are left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

OBJECT_WRITE_UNSEEN = Rule(
    "MS310",
    "object-write-unseen",
    Group.DIVERGES,
    title="Writing the state of an object the Cell holds, in compiled code",
    message=(
        "`{target}` is {what}: {effect}, unlike PyNative; keep the value in a Parameter or a "
        "local and pass it on."
    ),
    why=(
        "The graph takes the objects a Cell holds as compile-time constants. Writing an "
        "attribute of a `@jit_class` instance reaches the object through LAX's fallback, but "
        "the graph goes on reading the value it compiled with (GRAPH_MODE returned x * 1 where "
        "PyNative returned x * 2); writing an item of a plain object's dict is lost altogether "
        "(the dict still held 1 afterwards, where PyNative's held 2)."
    ),
    remedy=(
        "Keep changing state in a Parameter of the Cell (`ops.assign`), or compute the value "
        "as a local in `construct` and return it."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell:
        return
    writes: list[ast.Assign] = ctx.of(ast.Assign)
    for node in writes:
        for target in node.targets:
            found = _unseen(ctx, node, target)
            if found is not None:
                yield OBJECT_WRITE_UNSEEN.finding(
                    target, target=ast.unparse(target), what=found[0], effect=found[1]
                )


def _unseen(ctx: FunctionContext, node: ast.Assign, target: ast.expr) -> Optional[tuple[str, str]]:
    if isinstance(target, ast.Attribute):
        # Under STRICT the write fails instead (MS210).
        if ctx.level == SyntaxLevel.STRICT or receivers.self_attr_name(target.value) is None:
            return None
        if receivers.kind_of(ctx, target.value) != receivers.JIT_CLASS:
            return None
        if not _read_after(ctx, target, node):
            return None
        return (
            "an attribute of a `@jit_class` object",
            "the graph goes on reading the value it was compiled with",
        )
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute):
        holder = target.value
        if receivers.self_attr_name(holder.value) is None:
            return None
        if receivers.kind_of(ctx, holder.value) is not None:
            return None  # a Cell, Parameter, jit_class, dict or list: not a plain object
        info = receivers.workspace_class(ctx, holder.value)
        if info is None or info.is_cell or info.is_jit_class:
            return None
        held = info.attr(holder.attr)
        if held is None or not isinstance(held.node, (ast.Dict, ast.DictComp)):
            return None
        return "an item of a plain object's dict", "graph mode loses the write"
    return None


def _read_after(ctx: FunctionContext, target: ast.Attribute, node: ast.stmt) -> bool:
    text = ast.unparse(target)
    end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
    reads: list[ast.Attribute] = ctx.of(ast.Attribute)
    return any(
        isinstance(r.ctx, ast.Load)
        and r.attr == target.attr
        and (r.lineno, r.col_offset) >= end
        and ast.unparse(r) == text
        for r in reads
    )
