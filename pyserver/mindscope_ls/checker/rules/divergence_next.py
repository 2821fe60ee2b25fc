"""MS337: the builtin `next(it)` in compiled code gives the pair (item, the rest), not the item.

Graph mode compiles `iter(seq)` to the sequence itself and `next(seq)` to `ms_next`, which
returns `(seq[0], seq[1:])` (mindspore/graph/_parse/standard_method.py), so the value a program
reads is a tuple. Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative:
`next(iter(x))` of a (2, 2) Tensor returned (row 0, rows 1:) where PyNative returned row 0,
and `next(iter([x, x + 1]))`, `next(iter(d.values()))`, `next(map(f, [x, x]))` and
`next(t * 2 for t in [x, x])` returned such tuples too; `a = next(iter(x)); a * 2` repeated
the tuple, and `x + a`, `b - a` after two `next(it)` calls (each gives item 0 again) failed.
Iterators of Python numbers fail outright (MS197); `next(it, default)` too (MS196).

MS1004: where the pair is then used as the item, compiling fails at every level (measured the
same way, PyNative runs them): `x + a`, `x * a`, `x / a` (MindSpore stacks the pair: "For
'Stack', the len of x_shape[1] should be = len of x_shape[0]"), `b - a`, `a - 1`, `a ** 2`,
`a + 1.0`, `-a` ("unsupported operand type(s)"), `a.sum()`, `a.shape` ("'Tuple' object has no
attribute"). Those uses are reported instead of the warning. Tuple operations compile and stay
MS337's: `a * 2` and `a + a` (repeat, concatenate), `a[0]`, returning `a`. Only pairs of a
Tensor or a written-out tuple or list count: `next(self.get_parameters())` fails first (MS130).

MS1017: calling the pair as the item fails at every level ("The object is not callable"),
measured the same way: `next(iter(self.blocks))(x)` of a CellList or SequentialCell attribute,
`it = iter(self.seq); c = next(it); c(x)`, `next(iter((ops.relu, ops.sigmoid)))(x)` and
`next(iter([self.a, self.b]))(x)` (PyNative calls the first item). `self.blocks[0](x)`, a `for`
over the CellList, and a pair never called compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.types import CELL_LISTS
from .module_state import itertools_object
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

NEXT_PAIR_USED = Rule(
    "MS1004",
    "next-pair-used-as-item",
    Group.FAILS,
    title="The pair graph mode's `next(it)` gives, used as the item",
    message=(
        "`{use}` treats `{value}` as the item, but graph mode's `next({it})` gives the pair "
        "(first item, remaining items), so this fails at every level; index the sequence "
        "(`seq[0]`) instead."
    ),
    why=(
        "Graph mode compiles `next(seq)` to `(seq[0], seq[1:])`; Tensor arithmetic, unary "
        "operators and Tensor attributes on that tuple fail while compiling."
    ),
    remedy="Read `seq[0]` (and `seq[1]`, ...) directly, or loop with `for item in seq`.",
    mindspore_says=(
        "ValueError: For 'Stack', the len of x_shape[1] should be = len of x_shape[0]: 1, but "
        "got 2. / TypeError: unsupported operand type(s) for -: 'tuple' and 'int'"
    ),
)

NEXT_PAIR_CALLED = Rule(
    "MS1017",
    "next-pair-called",
    Group.FAILS,
    title="The pair graph mode's `next(it)` gives, called as the item (a Cell or function)",
    message=(
        "`{use}` calls `{value}` as the item, but graph mode's `next({it})` gives the pair "
        "(first item, remaining items), which is not callable; call the first item by index "
        "(`{seq}[0](...)`)."
    ),
    why=(
        "Graph mode compiles `next(seq)` to `(seq[0], seq[1:])`, so calling its result calls "
        "a tuple, which fails while compiling (a CellList or SequentialCell is a tuple of Cells "
        "in the graph)."
    ),
    remedy="Index the sequence (`self.blocks[0](x)`) or loop over it with `for`.",
    mindspore_says="ValueError: The object is not callable. Please check code.",
)

# Operators a tuple has none of, whatever the other operand (measured: `b - a`, `a - 1`,
# `x / a`, `a ** 2` fail); `+` and `*` only fail with a Tensor or a number the tuple cannot take
NO_TUPLE_OPERATOR = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)
# The methods a tuple has; any other attribute of the pair fails
TUPLE_ATTRIBUTES = frozenset({"count", "index"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [c for c in ctx.of(ast.Call) if isinstance(c, ast.Call) and _next_of_one(c)]
    if not calls or not builtin(ctx, "next"):
        return
    # `next(it)` as a statement of its own (skipping an item) reads no value: nothing differs
    discarded = {id(s.value) for s in ctx.of(ast.Expr) if isinstance(s, ast.Expr)}
    pairs = {
        id(call): call
        for call in calls
        if id(call) not in discarded
        and not iterates_scalars(ctx, call.args[0])
        and itertools_object(ctx, call.args[0]) is None  # fails instead: MS1136
    }
    failed: set[int] = set()
    reported: set[int] = set()
    for called, func, pair in _called(ctx, pairs):
        failed.add(id(pair))
        reported.add(id(called))
        seq = _sequence(ctx, pair.args[0])
        yield NEXT_PAIR_CALLED.finding(
            called,
            use=ast.unparse(called),
            value=ast.unparse(func),
            it=ast.unparse(pair.args[0]),
            seq=ast.unparse(seq) if seq is not None else "seq",
        )
    for use, value, call in _failing_uses(ctx, pairs):
        failed.add(id(call))
        if id(use) in reported:
            continue
        reported.add(id(use))
        yield NEXT_PAIR_USED.finding(
            use, use=ast.unparse(use), value=ast.unparse(value), it=ast.unparse(call.args[0])
        )
    for call in pairs.values():
        if id(call) not in failed:
            yield NEXT_GIVES_PAIR.finding(call, it=ast.unparse(call.args[0]))


def _failing_uses(
    ctx: FunctionContext, pairs: dict[int, ast.Call]
) -> Iterator[tuple[ast.expr, ast.expr, ast.Call]]:
    """Uses of a pair (the `next` call itself or a name bound only to it) that surely fail."""

    # Only pairs of a sequence the graph surely holds: `next(self.get_parameters())` fails
    # earlier for its own reason (MS130), which this must not repeat on another line
    pairs = {k: c for k, c in pairs.items() if _graph_sequence(ctx, c.args[0])}

    def pair_of(expr: ast.expr) -> Optional[ast.Call]:
        if isinstance(expr, ast.Name) and isinstance(expr.ctx, ast.Load):
            bound = receivers.only_binding(ctx, expr.id)
            return pairs.get(id(bound)) if bound is not None else None
        return pairs.get(id(expr))

    if not pairs:
        return
    for binop in ctx.of(ast.BinOp):
        if not isinstance(binop, ast.BinOp):
            continue
        for side, other in ((binop.left, binop.right), (binop.right, binop.left)):
            call, other_call = pair_of(side), pair_of(other)
            if call is not None and _fails_with(ctx, binop.op, other, other_call):
                yield binop, side, call
                if other_call is not None:  # `b - a`: one error for both, no warning left
                    yield binop, other, other_call
                break
    for unary in ctx.of(ast.UnaryOp):
        if isinstance(unary, ast.UnaryOp) and not isinstance(unary.op, ast.Not):
            call = pair_of(unary.operand)
            if call is not None:
                yield unary, unary.operand, call
    for attr in ctx.of(ast.Attribute):
        if isinstance(attr, ast.Attribute) and attr.attr not in TUPLE_ATTRIBUTES:
            call = pair_of(attr.value)
            if call is not None and isinstance(attr.ctx, ast.Load):
                yield attr, attr.value, call


def _called(
    ctx: FunctionContext, pairs: dict[int, ast.Call]
) -> Iterator[tuple[ast.Call, ast.expr, ast.Call]]:
    """Calls of a pair (`next(...)(x)`, or `c(x)` with `c` bound only to it) whose sequence is
    a Tensor, a written-out tuple or list, or a CellList / SequentialCell attribute."""
    for use in ctx.of(ast.Call):
        if not isinstance(use, ast.Call):
            continue
        func = use.func
        if isinstance(func, ast.Name) and isinstance(func.ctx, ast.Load):
            bound = receivers.only_binding(ctx, func.id)
            call = pairs.get(id(bound)) if bound is not None else None
        else:
            call = pairs.get(id(func))
        if call is not None and _sequence(ctx, call.args[0]) is not None:
            yield use, func, call


def _sequence(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """The sequence `next` reads when it is a written-out tuple or list, a Tensor or a
    CellList / SequentialCell attribute (directly, through `iter(...)` or a local bound once)."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None:
            return expr if ctx.types.is_tensor(expr) else None
        expr = bound
    expr = _through_iter(ctx, expr)
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if isinstance(bound, (ast.Tuple, ast.List)):
            return expr
    if isinstance(expr, (ast.Tuple, ast.List)) or ctx.types.is_tensor(expr):
        return expr
    held = receivers.self_attr(ctx, expr)
    if held is not None and held.kind == "cell" and held.class_qualname in CELL_LISTS:
        return expr
    return None


def _through_iter(ctx: FunctionContext, expr: ast.expr) -> ast.expr:
    """`seq` for the builtin `iter(seq)`, else `expr` itself."""
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "iter"
        and len(expr.args) == 1
        and builtin(ctx, "iter")
    ):
        return expr.args[0]
    return expr


def _graph_sequence(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A Tensor or a written-out tuple or list, directly, through `iter(...)` or through a
    local bound once to one (`it = iter(x)`)."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None:
            return ctx.types.is_tensor(expr)
        expr = bound
    expr = _through_iter(ctx, expr)
    return isinstance(expr, (ast.Tuple, ast.List)) or ctx.types.is_tensor(expr)


def _fails_with(
    ctx: FunctionContext, op: ast.operator, other: ast.expr, other_pair: Optional[ast.Call]
) -> bool:
    if isinstance(op, NO_TUPLE_OPERATOR):
        return True
    if other_pair is not None:
        return False  # two pairs concatenate (measured: `a + a` compiles)
    if ctx.types.is_tensor(other):
        return isinstance(op, (ast.Add, ast.Mult))
    number = isinstance(other, ast.Constant) and type(other.value) in (int, float)
    if isinstance(op, ast.Add):
        return number  # a tuple plus a number fails; plus a tuple concatenates
    if isinstance(op, ast.Mult):
        return number and type(other.value) is float  # type: ignore[attr-defined]
    return False


def _next_of_one(call: ast.Call) -> bool:
    return (
        isinstance(call.func, ast.Name)
        and call.func.id == "next"
        and len(call.args) == 1
        and not call.keywords
        and not isinstance(call.args[0], ast.Starred)
    )
