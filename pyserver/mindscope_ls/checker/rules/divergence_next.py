"""MS337: the builtin `next(it)` in compiled code gives the pair (item, the rest), not the item.

Graph mode compiles `iter(seq)` to the sequence itself and `next(seq)` to `ms_next`, which
returns `(seq[0], seq[1:])` (mindspore/graph/_parse/standard_method.py), so the value a program
reads is a tuple. Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative:
`next(iter(x))` of a (2, 2) Tensor returned (row 0, rows 1:) where PyNative returned row 0,
and `next(iter([x, x + 1]))`, `next(iter(d.values()))`, `next(map(f, [x, x]))` and
`next(t * 2 for t in [x, x])` returned such tuples too; `a = next(iter(x)); a * 2` repeated
the tuple, and `x + a`, `b - a` after two `next(it)` calls (each gives item 0 again) failed.
Iterators of Python numbers fail outright (MS197); `next(it, default)` too (MS196).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers.base import FunctionContext, cacheable
from .python_dynamic import iterates_scalars

NEXT_GIVES_PAIR = Rule(
    "MS337",
    "next-gives-pair",
    Group.DIVERGES,
    title="`next(it)` in compiled code gives the pair (item, rest), not the item",
    message=(
        "graph mode's `next({it})` returns the pair (first item, remaining items), not the "
        "item PyNative returns; index the sequence (`seq[0]`) or loop over it with `for`."
    ),
    why=(
        "Graph mode compiles `iter(seq)` to the sequence itself and `next(seq)` to "
        "`(seq[0], seq[1:])`, so the value read is a tuple and a second `next` gives the "
        "first item again (measured on 2.10: `next(iter(x))` returned (x[0], x[1:]))."
    ),
    remedy="Read `seq[0]` (and `seq[1]`, ...) directly, or loop with `for item in seq`.",
    mindspore_says="(compiles; result differs from PyNative, or a later operation fails)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [c for c in ctx.of(ast.Call) if isinstance(c, ast.Call) and _next_of_one(c)]
    if not calls or not builtin(ctx, "next"):
        return
    # `next(it)` as a statement of its own (skipping an item) reads no value: nothing differs
    discarded = {id(s.value) for s in ctx.of(ast.Expr) if isinstance(s, ast.Expr)}
    for call in calls:
        if id(call) in discarded or iterates_scalars(ctx, call.args[0]):
            continue
        yield NEXT_GIVES_PAIR.finding(call, it=ast.unparse(call.args[0]))


def _next_of_one(call: ast.Call) -> bool:
    return (
        isinstance(call.func, ast.Name)
        and call.func.id == "next"
        and len(call.args) == 1
        and not call.keywords
        and not isinstance(call.args[0], ast.Starred)
    )
