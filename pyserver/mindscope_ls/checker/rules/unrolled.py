"""MS185: a `for` over a constant `range` longer than the compiler can unroll.

Measured with MindSpore 2.10 on CPU (`tests/graphmode/cases/user2/`): graph mode unrolls a `for`
over a `range` of constants, each iteration one more level of its call stack; `range(480)`
compiles in a Cell's construct, `range(499)` and longer exceed the call-depth limit of 1000
("Exceed function call depth limit 1000"), with MindSpore naming the `for`. Only counts the
source fixes (literals, module constants bound once) are read.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable, keyword_range
from .helpers.module_values import WHOLE_MODULE, global_binding, note_read

FOR_UNROLLED_PAST_LIMIT = Rule(
    "MS185",
    "for-unrolled-past-depth-limit",
    Group.FAILS,
    title="A `for` over a constant `range` too long to unroll",
    message=(
        "This `for` runs {count} times over a constant `range`; graph mode unrolls it, one call "
        "level per iteration, past its call-depth limit of 1000: use a `while` loop on a Tensor "
        "counter, or fewer iterations."
    ),
    why=(
        "Graph mode unrolls a `for` over constants iteration by iteration, each one a level of "
        "the compiler's call stack; about 500 iterations exceed its limit of 1000."
    ),
    remedy=(
        "Loop with `while i < n:` on a Tensor `i` (compiled as a loop, not unrolled), or "
        "vectorize the iterations."
    ),
    mindspore_says=(
        "RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, "
        "simulate call depth: 1000)."
    ),
)
# The shortest range measured to fail (480 compiles) in a Cell's construct called directly;
# deeper calls only lower it.
LIMIT = 499


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.For] = ctx.of(ast.For)
    for loop in loops:
        if any(isinstance(n, (ast.Break, ast.Return)) for n in ast.walk(loop)):
            continue  # an early exit: not measured
        count = _range_count(ctx, loop.iter)
        if count is not None and count >= LIMIT:
            yield FOR_UNROLLED_PAST_LIMIT.finding(keyword_range(loop, "for"), count=count)


def _range_count(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)):
        return None
    if expr.func.id != "range" or expr.keywords or not 1 <= len(expr.args) <= 3:
        return None
    module = ctx.types.module
    if "range" in module.functions or global_binding(module, "range") is not None:
        return None  # a module's own `range`
    bounds = [_int(ctx, a) for a in expr.args]
    if any(b is None for b in bounds):
        return None
    ints = [b for b in bounds if b is not None]
    start, stop, step = (0, ints[0], 1) if len(ints) == 1 else (ints[0], ints[1], 1)
    if len(ints) == 3:
        step = ints[2]
    if step == 0:
        return None
    return len(range(start, stop, step))


def _int(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    if isinstance(expr, ast.Name) and expr.id not in _locals(ctx):
        bound = global_binding(ctx.types.module, expr.id)
        if bound is None:
            # A module-level `N = 600` added later must re-check the loop: the cached "no
            # finding" depends on the name being unbound (found by test_interrupted).
            note_read(ctx.lines, WHOLE_MODULE)
            return None
        for line in range(bound.lineno, (bound.end_lineno or bound.lineno) + 1):
            note_read(ctx.lines, line)
        value = bound.value
        if isinstance(value, ast.Constant) and type(value.value) is int:
            return value.value
    return None


def _locals(ctx: FunctionContext) -> set[str]:
    stored: list[ast.Name] = ctx.of(ast.Name)
    args = ctx.fn.node.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    return params | {n.id for n in stored if not isinstance(n.ctx, ast.Load)}
