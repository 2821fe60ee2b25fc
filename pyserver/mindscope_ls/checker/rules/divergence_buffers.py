"""MS321: an item write to a Tensor the graph takes from outside (not a Parameter) is lost.

Measured with MindSpore 2.10 on CPU, against PyNative: in `construct`, `self.count[0] += 1` or
`self.mask[0] = 0.0` on a Tensor attribute made with `Tensor(...)` (not a `Parameter`) compiles
at LAX, and the call computes with the written value, but the attribute keeps its old values:
the next call starts again from them (a counter returned 1 and 1 where PyNative returned 1 and
2) and the caller reads the old `net.mask`. STRICT refuses the write (`self.count should be
initialized as a 'Parameter'`). `CACHE[1] = 2.0` on a module-level Tensor in an `@ms.jit`
function is lost the same way, at both levels. A `Parameter` attribute, or a local copy
(`m = self.mask * 1; m[0] = 0.0`), behaves as in PyNative.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext

BUFFER_WRITE_LOST = Rule(
    "MS321",
    "tensor-buffer-write-lost",
    Group.DIVERGES,
    title="An item write to a Tensor attribute or module-level Tensor is lost in graph mode",
    message=(
        "`{write}` writes into {what}, which is not a Parameter: graph mode writes a copy, so "
        "{target} keeps its old values after the call (PyNative changes it); make it a "
        "`Parameter` or work on a local copy."
    ),
    why=(
        "Graph mode takes a Tensor the Cell or the module holds (not a Parameter) as a "
        "constant input: `t[i] = v` inside the graph builds a new Tensor, and the attribute "
        "itself is never written. Measured: a `self.count[0] += 1` counter returned 1 on every "
        "call in GRAPH_MODE (PyNative 1, 2, ...); STRICT refuses the write."
    ),
    remedy=(
        "Hold state in a `Parameter` (`self.count = Parameter(Tensor(...), name='count', "
        "requires_grad=False)`), or copy into a local and return the result."
    ),
    mindspore_says="(compiles at LAX; result differs from PyNative)",
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    writes = [
        node
        for node in ctx.of(ast.Assign, ast.AugAssign)
        if any(isinstance(t, ast.Subscript) for t in _targets(node))
    ]
    if not writes:
        return
    for node in writes:
        for target in _targets(node):
            if not isinstance(target, ast.Subscript):
                continue
            found = _held_tensor(ctx, target.value)
            if found is None:
                continue
            what, text, attribute = found
            if attribute and ctx.level == SyntaxLevel.STRICT:
                continue  # STRICT refuses the write: not a divergence
            yield BUFFER_WRITE_LOST.finding(node, write=_text(node), what=what, target=f"`{text}`")
            break


def _targets(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, ast.AugAssign):
        return [node.target]
    return []


def _held_tensor(ctx: FunctionContext, expr: ast.expr) -> Optional[tuple[str, str, bool]]:
    attr = names.self_attribute(expr)
    if attr is not None:
        cls = ctx.fn.cls
        held = cls.attr(attr) if cls is not None and cls.is_cell else None
        if held is None or held.kind != "const_tensor":
            return None
        return f"the Tensor attribute `self.{attr}`", f"self.{attr}", True
    name = expr.id if isinstance(expr, ast.Name) else None
    if name is not None and not _local(ctx, name) and _module_tensor(ctx, name):
        return f"the module-level Tensor `{name}`", name, False
    return None


def _local(ctx: FunctionContext, name: str) -> bool:
    fn = ctx.fn.node
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if name in params:
        return True
    return any(n.id == name and isinstance(n.ctx, ast.Store) for n in ctx.of(ast.Name))


def _module_tensor(ctx: FunctionContext, name: str) -> bool:
    tree = ctx.fn.module.tree
    if tree is None:
        return False
    values = [
        s.value
        for s in tree.body
        if isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
    ]
    return (
        len(values) == 1
        and isinstance(values[0], ast.Call)
        and names.callee(ctx.fn.module, values[0].func) in names.TENSOR_FACTORIES
    )


def _text(node: ast.stmt) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."
