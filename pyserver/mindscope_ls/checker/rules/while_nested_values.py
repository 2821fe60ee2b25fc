"""MS1094: a `while` on a Tensor condition that puts a carried value into a tuple or list of
itself (`y = (y, x)`).

Measured with MindSpore 2.10 on CPU at LAX and STRICT (round 35, Cells' `construct` and
`@ms.jit` functions): `y = x` then `while x.sum() < 20: y = (y, x); x = x * 2` fails with
"Exceed function call depth limit 1000" (PyNative runs it): each pass gives `y` a deeper type,
so the loop cannot be a graph loop and the compiler unrolls it, pass by pass, until the limit,
whether `y` is read after the loop or not. So did a `while True:` left by a Tensor `break`,
`(x, y)`, `[y, x]`, `tuple([y, x])`, `(y[0], y)` and a `None` start (`(y,)` compiled for
more than the runner's 120 s). They compile: the same nesting in a `for` over a constant
`range()` or a `while` on a Python counter (unrolled a known number of times), `(y[1], x)`
(items of `y`, not `y` itself), `a, b = b, a * 2`, and `t = t + (x,)` (a tuple grown by
concatenation). Read after the loop, the value also fails to join (MS112 reports it there, so
this rule leaves that case to it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable, keyword_range
from .helpers.flow import bound_before, loads_after
from .joins import _tensor_break, runtime_test

TENSOR_WHILE_NESTS_ITSELF = Rule(
    "MS1094",
    "tensor-while-nests-carried-value",
    Group.FAILS,
    title="A `while` on a Tensor condition nests a carried value in a tuple of itself",
    message=(
        "`{name} = {value}` puts `{name}` inside a new {kind} on every pass of this `while` "
        "that only a Tensor condition ends, so its type deepens each time and the compiler "
        "unrolls the loop until its call-depth limit; collect the items in a flat list or tuple "
        "(`{name} = {name} + (item,)`) or loop a constant number of times."
    ),
    why=(
        "A compiled loop carries values of one type; a tuple holding the previous tuple is a "
        "new type on every pass, and a Tensor condition does not say when it stops, so the "
        "compiler unrolls the loop pass by pass until it exceeds its call-depth limit."
    ),
    remedy=(
        "Keep the carried value flat (`items = items + (x,)` or `items.append(x)`), or use a "
        "`for` over a constant `range(n)`."
    ),
    mindspore_says=(
        "RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, "
        "simulate call depth: 501)."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.While] = ctx.of(ast.While)
    for loop in loops:
        if not runtime_test(ctx, loop.test) and not _left_on_tensor(ctx, loop):
            continue
        found = _nesting(loop.body)
        if found is None:
            continue
        name, assign, kind = found
        fn = ctx.fn.node
        if not bound_before(fn, name, loop) or loads_after(fn, name, loop) is not None:
            continue  # read after the loop: MS112 reports the join there
        related = [
            ctx.related(assign, f"`{name}` is nested here"),
            ctx.related(loop.test, "the Tensor condition"),
        ]
        yield TENSOR_WHILE_NESTS_ITSELF.finding(
            keyword_range(loop, "while"),
            related=related,
            name=name,
            value=ast.unparse(assign.value),
            kind=kind,
        )


def _left_on_tensor(ctx: FunctionContext, loop: ast.While) -> bool:
    """`while True:` left by a `break` under a Tensor `if` (not the body's first statement)."""
    test = loop.test
    endless = isinstance(test, ast.Constant) and test.value is True
    return endless and _tensor_break(ctx, loop.body) is not None


def _nesting(body: list[ast.stmt]) -> Optional[tuple[str, ast.Assign, str]]:
    """The first `y = (..., y, ...)` (a tuple or list display, or `tuple([...])`/`list([...])`
    of one, holding `y` itself as an item) among the body's statements, outside nested loops
    and functions; with the name and the kind of display."""
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                kind = _holds_itself(stmt.value, target.id)
                if kind is not None:
                    return target.id, stmt, kind
        if isinstance(stmt, ast.If):
            found = _nesting(stmt.body) or _nesting(stmt.orelse)
            if found is not None:
                return found
    return None


def _holds_itself(value: ast.expr, name: str) -> Optional[str]:
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("tuple", "list")
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], (ast.List, ast.Tuple))
    ):
        return value.func.id if _holds_itself(value.args[0], name) else None
    if isinstance(value, (ast.Tuple, ast.List)) and any(
        isinstance(e, ast.Name) and e.id == name for e in value.elts
    ):
        return "tuple" if isinstance(value, ast.Tuple) else "list"
    return None
