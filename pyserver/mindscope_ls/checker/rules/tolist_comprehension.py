"""MS188: a list comprehension over `tensor.tolist()` at LAX.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`, `user/`): at LAX `.tolist()` of a
Tensor computed in the graph runs in the Python fallback, and a list comprehension over its
result fails to compile ("The pointer[seq_abs] is null", no line named): `[labels[i] for i in
ids]`, `[i * 2 for i in ids]` with `ids = logits.argmax(-1).tolist()`. Indexing the list
(`ids[0]`) and a `for` statement over it compile. STRICT refuses `.tolist()` itself (MS201).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import parameters

COMPREHENSION_OVER_TOLIST = Rule(
    "MS188",
    "comprehension-over-tolist",
    Group.FAILS,
    title="A list comprehension over `tensor.tolist()` (LAX)",
    message=(
        "This comprehension iterates `{source}`, a list the Python fallback makes from a Tensor "
        "computed in the graph; LAX cannot compile a comprehension over it: compute on the "
        "Tensor (`ops.gather`, indexing) or convert after the network returns."
    ),
    why=(
        "`.tolist()` of a Tensor computed in the graph is only known when the graph runs; a list "
        "comprehension over it needs its elements when compiling."
    ),
    remedy=(
        "Keep the values in a Tensor and use Tensor ops (`ops.gather(table, ids, 0)`), or "
        "return the Tensor and convert it outside the network."
    ),
    mindspore_says="RuntimeError: The pointer[seq_abs] is null.",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return
    comps: list[ast.ListComp] = ctx.of(ast.ListComp)
    for comp in comps:
        source = _tolist(ctx, comp.generators[0].iter)
        if source is not None:
            yield COMPREHENSION_OVER_TOLIST.finding(comp, source=ast.unparse(source))


def _tolist(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """`t.tolist()` of a computed Tensor, directly or through a local bound only to it."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None:
            return None
        expr = bound
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "tolist"
        and not expr.args
        and not expr.keywords
    ):
        return None
    tensor = expr.func.value
    if not ctx.types.is_tensor(tensor) or ctx.types.is_constant_tensor(tensor):
        return None
    return expr if _from_input(ctx, tensor) else None


def _from_input(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """`expr` reads one of the function's Tensor inputs or calls a sub-Cell (`self.fc(x)`),
    through locals bound once: not a Tensor built from Python values in the graph, which the
    fallback may know when compiling."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Name):
        if expr.id in parameters(ctx.fn.node):
            stores: list[ast.Name] = ctx.of(ast.Name)
            rebound = any(n.id == expr.id and not isinstance(n.ctx, ast.Load) for n in stores)
            return not rebound and expr.id in ctx.types.names
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _from_input(ctx, bound, depth + 1)
    if isinstance(expr, ast.Call) and receivers.kind_of(ctx, expr.func) == receivers.CELL:
        return True
    return any(
        _from_input(ctx, child, depth + 1)
        for child in ast.iter_child_nodes(expr)
        if isinstance(child, ast.expr)
    )
