"""MS372: `len()` of a Tensor of run-time length, which graph mode reads wrong.

Measured with MindSpore 2.10 on CPU (GRAPH_MODE, LAX and STRICT alike, against PyNative): the
length is written as 32 bits into a 64-bit slot, so its upper half is whatever the memory pool
held. A fresh process's first call reads zeroed memory and gets it right by luck; every later
call of the same Cell, or any graph compiled after another one, read stale bits: `x * len(u)`
for `u = ops.masked_select(x, x > 0)` scaled by 4629700416936869890 where PyNative uses 2, and
`len(ops.nonzero(x))` / `len(u)` of `u, _ = ops.unique(x)` gave 2**32 + n. `u.shape[0]` and
`len(x[x > 0])` were right on every call: left alone. Nothing fails, so only the numbers show it.
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
        "`len({name})` of a Tensor whose length is known only when it runs reads stale "
        "bits above 2**32 in graph mode (measured on a second call: 4294967300 where "
        "PyNative gives 4); use `{name}.shape[0]`."
    ),
    why=(
        "Graph mode computes the length of a dynamic-shape Tensor at run time and reads it as "
        "a 64-bit int whose upper half is never written, so it holds whatever the memory pool "
        "held: a fresh process's first call happens to read zeros, every later step reads "
        "stale bits (`len(ops.nonzero(x > 0))` gave 2**32 + 4 for 4 rows; `x * len(u)` "
        "scaled by 4.6e18), at LAX and STRICT, while `u.shape[0]` gave 4 on every call."
    ),
    remedy="Read the length as `u.shape[0]`.",
    mindspore_says=(
        "(nothing: from the second call on, the graph computes with 4294967300 where "
        "PyNative uses 4)"
    ),
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
