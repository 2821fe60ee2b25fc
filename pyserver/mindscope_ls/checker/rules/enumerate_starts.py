"""MS1025: `enumerate(seq, start)` with a start graph mode knows only when it runs.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: `for i, v in
enumerate((5, 6), n)` and `enumerate((5, 6), start=n)` with `n = mutable(1)` or
`n = int(x.sum())` fail at every level ("For 'zip', the dynamic length input is unsupported in
graph mode": graph mode builds `enumerate` as a `zip` with `range(start, ...)`, whose length is
then unknown). A constant start compiles: `start=1`, `self.k` (an int attribute),
`x.shape[0]`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers.base import FunctionContext, cacheable
from .mutable_scalars import variable_int

ENUMERATE_VARIABLE_START = Rule(
    "MS1025",
    "enumerate-variable-start",
    Group.FAILS,
    title="`enumerate()` from a start computed in the graph",
    message=(
        "`{text}` starts counting at `{start}`, a number graph mode only knows when it runs "
        "(`mutable()` or read from a Tensor), and graph mode's `enumerate` needs a constant "
        "start; enumerate from 0 and add `{start}` to the index."
    ),
    why=(
        "Graph mode compiles `enumerate(seq, start)` as a `zip` of a `range` from `start` and "
        "`seq`; a variable start gives that range no length known at compile time."
    ),
    remedy="Enumerate from a constant (`enumerate(seq)`) and add the variable to the index.",
    mindspore_says=(
        "RuntimeError: For 'zip', the dynamic length input is unsupported in graph mode."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name) and c.func.id == "enumerate" and _start(c) is not None
    ]
    if not calls or not calls_shared.builtin(ctx, "enumerate"):
        return
    for call in calls:
        start = _start(call)
        if start is not None and variable_int(ctx, start):
            yield ENUMERATE_VARIABLE_START.finding(
                call, text=ast.unparse(call), start=ast.unparse(start)
            )


def _start(call: ast.Call) -> Optional[ast.expr]:
    if len(call.args) == 2 and not call.keywords:
        return call.args[1]
    if len(call.args) == 1 and len(call.keywords) == 1 and call.keywords[0].arg == "start":
        return call.keywords[0].value
    return None
