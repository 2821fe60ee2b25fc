"""MS185: a `for` over a constant `range`, or a `while` on a Python int counter, longer than the
compiler can unroll.

Measured with MindSpore 2.10 on CPU (`tests/graphmode/cases/user2/`): graph mode unrolls a `for`
over a `range` of constants, each iteration one more level of its call stack; `range(480)`
compiles in a Cell's construct, `range(499)` and longer exceed the call-depth limit of 1000
("Exceed function call depth limit 1000"), with MindSpore naming the `for`. Only counts the
source fixes (literals, module constants bound once) are read.

A `while` whose condition compares a Python int counter with a constant (`i = 0`, `while i <
600:`, `i += 1` in the body) is unrolled the same way, its condition being known at compile time:
measured, 490 iterations compile and 499 (or `n = 1000; while n > 0: n -= 1`) exceed the limit,
at LAX and STRICT, with MindSpore naming the `while`. `sum` / `max` / `min` of a constant
`range` unroll the same way (round 34: `sum(range(499))` fails, `sum(range(480))` compiles).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers.base import FunctionContext, cacheable, keyword_range, within
from .helpers.module_values import WHOLE_MODULE, global_binding, note_read

FOR_UNROLLED_PAST_LIMIT = Rule(
    "MS185",
    "for-unrolled-past-depth-limit",
    Group.FAILS,
    title="A `for` over a constant `range` (or a `while` on an int counter) too long to unroll",
    message=(
        "This `{loop}` runs {count} times over {over}; graph mode unrolls it, one call "
        "level per iteration, past its call-depth limit of 1000: use a `while` loop on a Tensor "
        "counter, or fewer iterations."
    ),
    why=(
        "Graph mode unrolls a `for` over constants, and a `while` whose condition is a Python "
        "int it knows, iteration by iteration, each one a level of the compiler's call stack; "
        "about 500 iterations exceed its limit of 1000."
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
    exits: list[ast.stmt] = ctx.of(ast.Break, ast.Return)
    for loop in loops:
        if exits and within(loop, exits):
            continue  # an early exit: not measured
        count = _range_count(ctx, loop.iter)
        if count is not None and count >= LIMIT:
            yield FOR_UNROLLED_PAST_LIMIT.finding(
                keyword_range(loop, "for"), loop="for", count=count, over="a constant `range`"
            )
    yield from _reduced_ranges(ctx)
    whiles: list[ast.While] = ctx.of(ast.While)
    found = False
    for wloop in whiles:
        counted = _while_count(ctx, wloop)
        if counted is not None and counted[1] >= LIMIT:
            found = True
            yield FOR_UNROLLED_PAST_LIMIT.finding(
                keyword_range(wloop, "while"),
                loop="while",
                count=counted[1],
                over=f"the Python int `{counted[0]}`",
            )
    if found or len(loops) < 2:
        return
    if any(c is not None and c >= LIMIT for c in (_range_count(ctx, lp.iter) for lp in loops)):
        return  # reported above
    total, first = _unrolled(ctx, ctx.fn.node.body)
    if total >= LIMIT and first is not None:
        yield FOR_UNROLLED_PAST_LIMIT.finding(
            keyword_range(first, "for"),
            loop="for",
            count=total,
            over="constant ranges, counting the loops nested in it and after it",
        )


def _reduced_ranges(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`sum` / `max` / `min` of a constant `range`: unrolled like a `for` over it (round 34,
    `sc_`, at LAX and STRICT: `sum(range(480))` compiles, `sum(range(499))`,
    `sum(range(520), 0.5)`, `min(range(1, 500))` and `max(range(5000))` exceed the call-depth
    limit; `sum(range(0, 3000, 10))`, 300 items, compiles, as do `len(range(100000))` and
    `tuple(range(3000))`)."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not (isinstance(func, ast.Name) and func.id in ("sum", "max", "min")) or not call.args:
            continue
        if len(call.args) > (2 if func.id == "sum" else 1) or call.keywords:
            continue
        if not builtin(ctx, func.id):
            continue
        count = _range_count(ctx, call.args[0])
        if count is not None and count >= LIMIT:
            yield FOR_UNROLLED_PAST_LIMIT.finding(
                call, loop=f"{func.id}()", count=count, over="a constant `range`"
            )


def _unrolled(ctx: FunctionContext, block: list[ast.stmt]) -> tuple[int, Optional[ast.For]]:
    """Iterations the compiler unrolls along one call chain of `block`, and its first counted
    `for`. Measured on 2.10 in a Cell's construct: the passes of the loops nested in a `for`
    run within each of its passes and the loops that follow it are called from its last pass,
    so the cost of `for` over `range(n)` is `n * (1 + cost of its body)` and a block sums
    them: `range(22)` nested in `range(22)` (506) fails like `range(499)`, `range(240)` in
    `range(2)` (482) and `range(20)` in `range(20)` (420) compile; two `range(300)` in a row
    fail, two `range(200)` compile; the two branches of an `if` count as one path; a loop in
    a helper it calls starts a chain of its own (a `range(300)` there and one in construct
    compile). Loops with an early exit, and loops over anything but a constant `range` or a
    tuple or list display, count nothing."""
    total = 0
    first: Optional[ast.For] = None
    for stmt in block:
        cost, at = 0, None
        if isinstance(stmt, ast.For):
            count = _range_count(ctx, stmt.iter)
            if count is None and isinstance(stmt.iter, (ast.Tuple, ast.List)):
                count = len(stmt.iter.elts)  # measured: 24 numbers in `range(25)` fail
            exits = any(isinstance(n, (ast.Break, ast.Return)) for n in ast.walk(stmt))
            if count is not None and not exits and not stmt.orelse:
                inner, _ = _unrolled(ctx, stmt.body)
                cost, at = count * (1 + inner), stmt
        elif isinstance(stmt, ast.If):
            cost = max(_unrolled(ctx, stmt.body)[0], _unrolled(ctx, stmt.orelse)[0])
        elif isinstance(stmt, (ast.With, ast.Try)):
            cost = _unrolled(ctx, stmt.body)[0]
        total += cost
        if first is None and at is not None:
            first = at
    return total, first


# `i < n` read as `n > i` when the counter is on the right
_FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.Gt,
    ast.LtE: ast.GtE,
    ast.Gt: ast.Lt,
    ast.GtE: ast.LtE,
}


def _while_count(ctx: FunctionContext, loop: ast.While) -> Optional[tuple[str, int]]:
    """(counter, iterations) for `while i < N:` whose body steps the int `i` by a constant once,
    `i` bound once before the loop to an int constant; None for anything else."""
    test = loop.test
    if loop.orelse or not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(right, ast.Name) and not isinstance(left, ast.Name):
        left, right = right, left
        flipped = _FLIPPED.get(type(op))
        if flipped is None:
            return None
        op = flipped()
    if not isinstance(left, ast.Name) or type(op) not in _FLIPPED:
        return None
    bound = _int(ctx, right)
    if bound is None or any(
        isinstance(n, (ast.Break, ast.Return, ast.Continue)) for n in ast.walk(loop)
    ):
        return None  # an early exit or a skipped step: not measured
    counter = left.id
    start = _start(ctx, counter, loop)
    step = _step(counter, loop)
    if start is None or step is None:
        return None
    if isinstance(op, (ast.Lt, ast.LtE)) and step > 0:
        stop = bound + 1 if isinstance(op, ast.LtE) else bound
        return counter, len(range(start, stop, step))
    if isinstance(op, (ast.Gt, ast.GtE)) and step < 0:
        stop = bound - 1 if isinstance(op, ast.GtE) else bound
        return counter, len(range(start, stop, step))
    return None


def _start(ctx: FunctionContext, counter: str, loop: ast.While) -> Optional[int]:
    """The int constant `counter` is bound to, when the only other store of it is one
    `counter = <int>` before the loop (the loop's own step aside)."""
    inside = {id(n) for n in ast.walk(loop)}
    stores = [
        n
        for n in ctx.of(ast.Name)
        if n.id == counter and not isinstance(n.ctx, ast.Load) and id(n) not in inside
    ]
    args = ctx.fn.node.args
    if counter in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
        return None
    if len(stores) != 1 or (stores[0].lineno, stores[0].col_offset) > (loop.lineno, 0):
        return None
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        if len(assign.targets) == 1 and assign.targets[0] is stores[0]:
            value = assign.value
            if isinstance(value, ast.Constant) and type(value.value) is int:
                return value.value
    return None


def _step(counter: str, loop: ast.While) -> Optional[int]:
    """The constant the body adds to `counter` in one top-level `+=`/`-=` (or `i = i + k`),
    when nothing else in the loop stores it."""
    stores = [
        n
        for n in ast.walk(loop)
        if isinstance(n, ast.Name) and n.id == counter and not isinstance(n.ctx, ast.Load)
    ]
    if len(stores) != 1:
        return None
    for stmt in loop.body:
        op: Optional[ast.operator] = None
        amount: Optional[ast.expr] = None
        if isinstance(stmt, ast.AugAssign) and stmt.target is stores[0]:
            op, amount = stmt.op, stmt.value
        elif (
            isinstance(stmt, ast.Assign)
            and stmt.targets[0] is stores[0]
            and isinstance(stmt.value, ast.BinOp)
            and isinstance(stmt.value.left, ast.Name)
            and stmt.value.left.id == counter
        ):
            op, amount = stmt.value.op, stmt.value.right
        if op is None or not isinstance(amount, ast.Constant) or type(amount.value) is not int:
            continue
        if isinstance(op, ast.Add):
            return amount.value or None
        if isinstance(op, ast.Sub):
            return -amount.value or None
    return None


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
