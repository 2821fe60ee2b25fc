"""MS372: `len()` of a Tensor of run-time length, which graph mode reads wrong.

Measured with MindSpore 2.10 on CPU (GRAPH_MODE, LAX and STRICT alike, against PyNative), with
`x` of 5 elements, 4 of them positive: `len(ops.nonzero(x > 0))` returned 4294967300 where
PyNative gives 4, and `x * len(u)` for `u = ops.masked_select(x, x > 0)` or
`u, _ = ops.unique(x)` scaled by 4294967300 (2**32 + 4); `x + len(idx)` the same. The upper
half of the 64-bit length is not cleared. `u.shape[0]` gave 4, and `len(x[x > 0])` too: left
alone. Nothing fails, so only the printed numbers show it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers.base import FunctionContext, cacheable
from .helpers.dynamic_shapes import runtime_length

LEN_OF_DYNAMIC_LENGTH = Rule(
    "MS372",
    "len-of-dynamic-length-tensor",
    Group.DIVERGES,
    title="`len()` of a `unique`/`masked_select`/`nonzero` result",
    message=(
        "`len({name})` of a Tensor whose length is known only when it runs reads a wrong "
        "number in graph mode (measured: 4294967300 where PyNative gives 4); use "
        "`{name}.shape[0]`."
    ),
    why=(
        "Graph mode computes the length of a dynamic-shape Tensor at run time and reads it as "
        "a 64-bit int whose upper half is not set: `len(ops.nonzero(x > 0))` gave 2**32 + 4 "
        "for 4 rows, at LAX and STRICT, while `u.shape[0]` gave 4."
    ),
    remedy="Read the length as `u.shape[0]`.",
    mindspore_says="(nothing: the graph computes with 4294967300 where PyNative uses 4)",
)

DYNAMIC_KINDS = frozenset({"unique", "masked_select", "nonzero"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if not any(module.mentions(word) for word in DYNAMIC_KINDS):
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Name) and func.id == "len" and len(call.args) == 1):
            continue
        arg = call.args[0]
        if not isinstance(arg, ast.Name) or not builtin(ctx, "len"):
            continue
        if runtime_length(ctx, arg) in DYNAMIC_KINDS:
            yield LEN_OF_DYNAMIC_LENGTH.finding(call, name=arg.id)
