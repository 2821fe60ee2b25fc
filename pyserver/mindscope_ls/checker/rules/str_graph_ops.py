"""MS1021, MS1022: a str given to `map()`, or repeated / indexed by a variable integer.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (each ran in PyNative):
- `list(map(ord, 'ab'))`, `sum(map(ord, self.name))`, `for v in map(ord, s)` with `s = 'ab'`,
  `map(lambda c: c + '!', 'ab')` fail at every level ("Map can only be applied to list, tuple,
  but got String"), and `map(f, 'ab', (1, 2))` too ("The types of arguments in Map must be
  consistent"): MS1021. `map(ord, ('a', 'b'))`, `zip('ab', (1, 2))` and `sorted('ba')` compile.
- `'ab' * n`, `n * 'ab'`, `'-' * (n + 1)` with `n = mutable(3)` or `n = int(x.sum())` fail at
  every level ("string_mul requires the input to be a string and an integer, but got ab and
  ValueAny"); `self.name[i]`, `self.name[n - 1]` likewise ("string_getitem ... ValueAny"):
  MS1022. `'-' * x.shape[0]`, `'-' * self.k` (an int attribute) and `self.name[i]` in a `for`
  over `range(3)` compile: those integers are constants when compiled. Inside a builtin the
  graph does not translate (`ord(self.name[i])`), LAX runs the whole call in Python and it
  compiles; STRICT fails there (needs constants).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import builtins, calls_shared
from .helpers import receivers, strs
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract
from .mutable_scalars import mutable_number

MAP_OVER_STR = Rule(
    "MS1021",
    "map-over-str",
    Group.FAILS,
    title="`map()` over a str",
    message=(
        "`{text}` maps over the str `{arg}`, and graph mode's `map` takes only lists and "
        "tuples; map over a tuple of characters (`tuple('ab')` outside compiled code) or use "
        "a comprehension."
    ),
    why=(
        "Graph mode compiles `map()` to its own `Map` operation, which applies a function to "
        "the items of lists and tuples only; a str is a single String value in the graph."
    ),
    remedy="Map over a tuple of strs (`('a', 'b')`), or compute the result outside the Cell.",
    mindspore_says="RuntimeError: Map can only be applied to list, tuple, but got String.",
)

STR_BY_VARIABLE_INT = Rule(
    "MS1022",
    "str-by-variable-int",
    Group.FAILS,
    title="A str repeated or indexed by an integer computed in the graph",
    message=(
        "`{text}` {what} the str `{string}` by `{number}`, an integer graph mode only knows "
        "when it runs (`mutable()` or read from a Tensor), and graph strs need a constant; "
        "use a constant integer or build the str outside compiled code."
    ),
    why=(
        "Graph mode builds strs at compile time: `string_mul` and `string_getitem` take a "
        "constant integer, and a `mutable()` number or one read from a Tensor is a variable "
        "scalar (ValueAny) there."
    ),
    remedy="Use a constant integer (a shape entry, an attribute), or build the str outside.",
    mindspore_says=(
        "RuntimeError: string_mul requires the input to be a string and an integer, but got ab "
        "and ValueAny."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _maps(ctx)
    yield from _repeats(ctx)
    yield from _indexes(ctx)


def _maps(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Name)
        and c.func.id == "map"
        and len(c.args) >= 2
        and not c.keywords
        and not any(isinstance(a, ast.Starred) for a in c.args)
    ]
    if not calls or not calls_shared.builtin(ctx, "map"):
        return
    values = abstract(ctx)
    for call in calls:
        arg = next((a for a in call.args[1:] if strs.is_str(ctx, values, a)), None)
        if arg is not None:
            yield MAP_OVER_STR.finding(call, text=ast.unparse(call), arg=ast.unparse(arg))


def _variable_int(ctx: FunctionContext, expr: ast.expr) -> bool:
    if ctx.types.is_tensor(expr):
        return False  # a Tensor operand is another story (MS150's)
    return mutable_number(ctx, expr) or receivers.runtime_scalar(ctx, expr)


def _in_fallback(ctx: FunctionContext) -> set[int]:
    """Ids of the nodes inside a call of a builtin the graph does not translate: LAX runs such
    a call whole in Python (measured: `ord(self.name[i])` compiles at LAX)."""
    if ctx.level == SyntaxLevel.STRICT:
        return set()
    inside: set[int] = set()
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name) and builtins.needs_constant_under_strict(func.id):
            inside.update(id(n) for n in ast.walk(call))
    return inside


def _repeats(ctx: FunctionContext) -> Iterator[RawFinding]:
    ops: list[ast.BinOp] = ctx.of(ast.BinOp)
    values = None
    skipped: set[int] | None = None
    for op in ops:
        if not isinstance(op.op, ast.Mult):
            continue
        if skipped is None:
            skipped = _in_fallback(ctx)
        if id(op) in skipped:
            continue
        if values is None:
            values = abstract(ctx)
        for string, number in ((op.left, op.right), (op.right, op.left)):
            if strs.is_str(ctx, values, string) and _variable_int(ctx, number):
                yield STR_BY_VARIABLE_INT.finding(
                    op,
                    text=ast.unparse(op),
                    what="repeats",
                    string=ast.unparse(string),
                    number=ast.unparse(number),
                )
                break


def _indexes(ctx: FunctionContext) -> Iterator[RawFinding]:
    subs: list[ast.Subscript] = ctx.of(ast.Subscript)
    values = None
    skipped: set[int] | None = None
    for sub in subs:
        if not isinstance(sub.ctx, ast.Load) or isinstance(sub.slice, (ast.Slice, ast.Tuple)):
            continue
        if not _variable_int(ctx, sub.slice):
            continue
        if skipped is None:
            skipped = _in_fallback(ctx)
        if id(sub) in skipped:
            continue
        if values is None:
            values = abstract(ctx)
        if strs.is_str(ctx, values, sub.value):
            yield STR_BY_VARIABLE_INT.finding(
                sub,
                text=ast.unparse(sub),
                what="indexes",
                string=ast.unparse(sub.value),
                number=ast.unparse(sub.slice),
            )
