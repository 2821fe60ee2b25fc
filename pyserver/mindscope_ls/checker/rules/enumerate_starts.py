"""MS1025: `enumerate(seq, start)` with a start graph mode knows only when it runs, and `zip()` /
`enumerate()` of a `range()` with such a bound.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: `for i, v in
enumerate((5, 6), n)` and `enumerate((5, 6), start=n)` with `n = mutable(1)` or
`n = int(x.sum())` fail at every level ("For 'zip', the dynamic length input is unsupported in
graph mode": graph mode builds `enumerate` as a `zip` with `range(start, ...)`, whose length is
then unknown). So do `zip(range(n), (5, 6))`, `zip((5, 6), range(n))`, `zip(range(n, 2), ...)`,
`enumerate(range(n))` and `list(zip(range(n), ...))` (same message). A constant start or bound
compiles: `start=1`, `self.k` (an int attribute), `x.shape[0]`, `zip(range(x.shape[0]), ...)`;
a `for i in range(n)` alone compiles too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers.base import FunctionContext, cacheable
from .helpers.receivers import only_binding
from .mutable_scalars import through_mutable_parameters, variable_int

ENUMERATE_VARIABLE_START = Rule(
    "MS1025",
    "enumerate-variable-start",
    Group.FAILS,
    title="`enumerate()` from a start, or `zip()` of a `range()`, computed in the graph",
    message=(
        "`{text}` {what} `{start}`, a number graph mode only knows when it runs (`mutable()` "
        "or read from a Tensor), and graph mode's `zip`/`enumerate` need a constant length; "
        "{advice}."
    ),
    why=(
        "Graph mode compiles `enumerate(seq, start)` as a `zip` of a `range` from `start` and "
        "`seq`; a variable start (or a `range` with a variable bound given to `zip`) has no "
        "length known at compile time."
    ),
    remedy="Enumerate from a constant (`enumerate(seq)`) and add the variable to the index.",
    mindspore_says=(
        "RuntimeError: For 'zip', the dynamic length input is unsupported in graph mode."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _findings(ctx, frozenset())


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The same through a parameter every caller passes `mutable(k)` for
    (`Net()(x, mutable(1))`, then `enumerate(xs, m)`: measured, the same error)."""
    yield from through_mutable_parameters(ctx, lambda params: _findings(ctx, params))


def _findings(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name) and c.func.id in ("enumerate", "zip") and c.args
    ]
    if not calls:
        return
    for call in calls:
        name = call.func.id  # type: ignore[attr-defined]
        if not calls_shared.builtin(ctx, name):
            continue
        start = _start(call) if name == "enumerate" else None
        if start is not None and variable_int(ctx, start, params):
            yield ENUMERATE_VARIABLE_START.finding(
                call,
                text=ast.unparse(call),
                what="starts counting at",
                start=ast.unparse(start),
                advice=f"enumerate from 0 and add `{ast.unparse(start)}` to the index",
            )
            continue
        bound = next(
            (b for a in call.args if (b := _variable_bound(ctx, a, params)) is not None), None
        )
        if bound is not None:
            yield ENUMERATE_VARIABLE_START.finding(
                call,
                text=ast.unparse(call),
                what="pairs items with a `range()` bounded by",
                start=ast.unparse(bound),
                advice="loop over `range(...)` alone and index the other sequence",
            )


def _start(call: ast.Call) -> Optional[ast.expr]:
    if len(call.args) == 2 and not call.keywords:
        return call.args[1]
    if len(call.args) == 1 and len(call.keywords) == 1 and call.keywords[0].arg == "start":
        return call.keywords[0].value
    return None


def _variable_bound(
    ctx: FunctionContext, arg: ast.expr, params: frozenset[str]
) -> Optional[ast.expr]:
    """The variable bound of `range(...)` given directly (or through a local bound once)."""
    if isinstance(arg, ast.Name):
        arg = only_binding(ctx, arg.id) or arg
    if not (
        isinstance(arg, ast.Call)
        and isinstance(arg.func, ast.Name)
        and arg.func.id == "range"
        and not arg.keywords
        and calls_shared.builtin(ctx, "range")
    ):
        return None
    return next((b for b in arg.args if variable_int(ctx, b, params)), None)
