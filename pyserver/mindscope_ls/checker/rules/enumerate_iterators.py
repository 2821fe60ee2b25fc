"""MS141: `enumerate()` of a `reversed()` object (directly or zipped) in compiled code.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them): graph mode's
`enumerate` (`standard_method.enumerate_`) takes `len()` of its argument, and a `reversed()`
object, which graph mode leaves a Python iterator, has none ("AttributeError: 'reversed' object
has no attribute '__len__'"; over a list `'list_reverseiterator'`, over `range` `'range_iterator'`).
So fail `enumerate(reversed(self.scales))` of a tuple or list attribute, of a local tuple of
Tensors (STRICT refuses that `reversed()` first: MS206 leaves it to this rule), of a written-out
list or of `range(n)`, with a `start` too, `list(enumerate(reversed(seq)))`, and
`enumerate(zip(reversed(a), b))` (`'zip' object has no attribute '__len__'`). What compiles:
`enumerate(seq[::-1])`, `enumerate(tuple(reversed(seq)))` / `list(...)`, `enumerate(sorted(seq))`,
`enumerate(map(f, seq))`, `enumerate(filter(f, seq))`, `enumerate(zip(a, b))`, and a plain
`for v in reversed(seq)`. `reversed()` of a CellList or SequentialCell, or zipped with a
CellList, is MS187's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import calls_shared, cell_lists
from .helpers import receivers
from .helpers.base import FunctionContext
from .helpers.elements import Elements

ENUMERATE_OF_ITERATOR = Rule(
    "MS141",
    "enumerate-of-reversed",
    Group.FAILS,
    title="`enumerate()` of a `reversed()` object in compiled code",
    message=(
        "`{call}` gives `enumerate` {what}, which graph mode keeps a Python iterator: its "
        "`enumerate` takes `len()` of it and fails at every level ('{kind}' object has no "
        "attribute '__len__'){strict}; reverse with a slice instead (`{sliced}`)."
    ),
    why=(
        "Graph mode's `enumerate` pairs indexes with items through `len()` of its argument; a "
        "`reversed()` object (or a `zip` holding one) stays a Python iterator, which has no "
        "length."
    ),
    remedy=(
        "Reverse a tuple or list with a slice (`enumerate(seq[::-1])`) or make it a tuple first "
        "(`enumerate(tuple(reversed(seq)))`)."
    ),
    mindspore_says="AttributeError: 'reversed' object has no attribute '__len__'",
)


def _reversed(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "reversed"
        and len(expr.args) == 1
        and not expr.keywords
    )


def _cell_list(ctx: FunctionContext, expr: ast.expr) -> bool:
    held = receivers.self_attr(ctx, expr)
    return held is not None and held.kind == "cell" and held.class_qualname in cell_lists.LISTS


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name) and c.func.id == "enumerate" and c.args
    ]
    if not calls or not calls_shared.builtin(ctx, "enumerate"):
        return
    values: Optional[Elements] = None
    for call in calls:
        for rev in reversed_in_enumerate(ctx, call):
            seq = ast.unparse(rev.args[0])
            strict = ""
            if ctx.level == SyntaxLevel.STRICT:
                if values is None:
                    values = Elements(ctx.types, ctx.fn.node, ctx.lines)
                if values.variable(rev.args[0]) or values.names_variable(rev.args[0]):
                    strict = (
                        f"; STRICT refuses `reversed({seq})` first, {seq} being computed in the "
                        "graph (the inputs should be constant)"
                    )
            zipped = rev is not call.args[0]
            yield ENUMERATE_OF_ITERATOR.finding(
                rev,
                call=ast.unparse(call),
                what="a `zip` holding a `reversed()` object" if zipped else "a `reversed()` object",
                kind="zip" if zipped else "reversed",
                sliced=f"{seq}[::-1]",
                strict=strict,
            )


def reversed_in_enumerate(ctx: FunctionContext, call: ast.Call) -> list[ast.Call]:
    """The `reversed(...)` call `enumerate(...)` is given, directly or inside a `zip` (one
    finding per `enumerate`); none when MS187 owns it (a CellList/SequentialCell reversed, a
    CellList zipped)."""
    first = call.args[0]
    if _reversed(first):
        assert isinstance(first, ast.Call)
        return [] if _cell_list(ctx, first.args[0]) else [first]
    if (
        isinstance(first, ast.Call)
        and isinstance(first.func, ast.Name)
        and first.func.id == "zip"
        and not first.keywords
        and calls_shared.builtin(ctx, "zip")
    ):
        if any(_cell_list(ctx, a) for a in first.args):
            return []
        for arg in first.args:
            if _reversed(arg):
                assert isinstance(arg, ast.Call)
                return [] if _cell_list(ctx, arg.args[0]) else [arg]
    return []


def reported_reversed_calls(ctx: FunctionContext) -> frozenset[int]:
    """The ids of the `reversed(...)` calls this rule reports (MS206 leaves them to it)."""
    found: set[int] = set()
    for call in ctx.of(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id == "enumerate" and call.args:
            found.update(id(r) for r in reversed_in_enumerate(ctx, call))
    return frozenset(found)
