"""MS1001: builtin `round()` of Python floats and of Tensor items in compiled code. MS362: int
arithmetic on a rounded Python float, returned (a float in graph mode, an int in PyNative).

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them all):
- `round(f)` of a Python float (a literal, `self.ratio = 2.6`, a local, `x.shape[0] / 4`),
  without `ndigits`, gives an int that graph mode still types as a float: given to a Tensor
  operation that casts it to the Tensor's dtype it fails ("Cast failed, original value: 3, type:
  Int64Imm"). Measured failing: `x + r`, `r + x`, `x - r`, `x // r`, `x ** r`, `x > r`,
  `x.add(r)`, `ops.add(x, r)`, `ops.maximum(x, r)`, with `r` the call or a name bound once to
  it. Measured compiling: `x * r`, `x / r`, `x % r`, `x < r`, `x == r`, `x += r`, `r + 1` first
  (`n = round(f) + 1; x + n`), `int(round(f))`, `round(f, 1)`, `round(3)` of an int, and `r` used
  as a shape. Only the failing spellings are reported.
- `round(v)` / `round(v, 2)` of a Tensor's Python scalar (`t.item()`, `float(t)`, or a name bound
  to one) fails however it is used ("For Operator[Round], input's type 'Float32' does not match
  expected type 'Tensor'"; with ndigits "type NoneType doesn't define __round__ method").
  Round 31 measured the same failure for any number graph mode computes from one: `round(int(t))`
  ('Int64'), `round(k / 2)` / `round(k * 0.3)` with `k = int(t)`, `round(float(t) / 2)`,
  `round(t.item() * 0.5)`, `round(-float(t))`, `round(n / k)` with `n = x.shape[0]`,
  `round(k, -1)`, and a name bound to such a value. `round(x.shape[0] / 4)`, `round(3.7)` and
  `round()` of a Tensor itself compile.
- Round 31 also measured the rounded Python float failing where graph mode takes only ints:
  `x.reshape(r, -1)` / `x.view(r, -1)` ("reshape(): argument 'shape' (position 1) must be tuple
  of int, not float"), `x[:r]` (MakeSlice), `range(r)` (make_range), `ops.split(x, r)`,
  `ops.topk(x, r)`, with `r = round(x.shape[0] / 3)` or `round(2.6)`; `x.reshape((r, -1))`,
  `ops.zeros((r, 3))`, `ops.tile(x, (r, 1))`, `x * r` and `int(round(...))` compile.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared, divergence_scalars
from .helpers import names, receivers, shared_values
from .helpers.base import FunctionContext

ROUND_IN_GRAPH = Rule(
    "MS1001",
    "round-of-python-scalar",
    Group.FAILS,
    title="builtin `round()` of a Python float used with a Tensor or as an int, or of a number "
    "read from a Tensor",
    message="{what}; {advice}.",
    why=(
        "Graph mode's `round()` of a Python float gives an int it still types as a float, "
        "which Tensor operations then fail to cast and which fails where an int is required "
        "(`x.reshape(r, -1)`, `x[:r]`, `x[r]`, `range(r)`, `ops.split(x, r)`, an axis); of a "
        "number read from a Tensor (`t.item()`, `int(t)`, arithmetic on them) it dispatches to "
        "the Round operator, which takes only Tensors."
    ),
    remedy=(
        "Write `int(round(f))` (or round the value in `__init__`); round a Tensor with "
        "`ops.round(t)` instead of `round(t.item())`."
    ),
    mindspore_says="RuntimeError: Cast failed, original value: 3, type: Int64Imm",
)

# The `ops.`/Tensor calls measured failing on the rounded int as their second operand.
_CALLS = frozenset({"add", "maximum"})


def _round_call(expr: Optional[ast.expr]) -> Optional[ast.Call]:
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "round"
        and expr.args
        and len(expr.args) <= 2
        and not expr.keywords
        and not any(isinstance(a, ast.Starred) for a in expr.args)
    ):
        return expr
    return None


def _tensor_item(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """`t.item()`, `float(t)` of a Tensor, or a name bound only to one of those."""
    if isinstance(expr, ast.Call) and not expr.keywords:
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "item" and not expr.args:
            return ctx.types.is_tensor(func.value)
        if (
            isinstance(func, ast.Name)
            and func.id == "float"
            and len(expr.args) == 1
            and calls_shared.builtin(ctx, "float")
        ):
            return ctx.types.is_tensor(expr.args[0])
    if isinstance(expr, ast.Name) and depth < 3:
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _tensor_item(ctx, bound, depth + 1)
    return False


def _python_float(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A Python float the source fixes: a float, or `/` of Python numbers (`x.shape[0] / 4`)."""
    if ctx.types.is_tensor(expr):
        return False
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
        return _number(ctx, expr.left) and _number(ctx, expr.right)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult)):
        sides = (expr.left, expr.right)
        return all(_number(ctx, e) for e in sides) and any(_python_float(ctx, e) for e in sides)
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None and not isinstance(bound, ast.Name):
            return _python_float(ctx, bound)
    value = shared_values.abstract(ctx, module=True).of(expr)
    return value is not None and value.kind == "scalar" and value.dtype == "float"


def _number(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """A Python int or float (never a Tensor): constants, `x.shape[i]`, numbers' arithmetic."""
    if depth > 6 or ctx.types.is_tensor(expr):
        return False
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return _number(ctx, expr.operand, depth + 1)
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and ctx.types.is_tensor(expr.value.value)
        and isinstance(expr.slice, (ast.Constant, ast.UnaryOp))
    ):
        return True  # `x.shape[-1]`: an int when compiled
    if isinstance(expr, ast.BinOp) and isinstance(
        expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv)
    ):
        return _number(ctx, expr.left, depth + 1) and _number(ctx, expr.right, depth + 1)
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            return _number(ctx, bound, depth + 1)
    value = shared_values.abstract(ctx, module=True).of(expr)
    return value is not None and value.kind == "scalar" and value.dtype in ("int", "float")


def _rounded_float(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.Call]:
    """The `round(f)` (one argument, a Python float) `expr` is, or a name bound only to it."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None:
            return None
        expr = bound
    call = _round_call(expr)
    if call is None or len(call.args) != 1 or not _python_float(ctx, call.args[0]):
        return None
    return call


def _rounded_value(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[ast.Call]:
    """The `round(f)` that `expr` is, or carries through int arithmetic (`r + 1`, `r - 1`,
    `r * 2`, `r // 2`) or `abs(r)`: measured, they keep graph mode's float type (`max(r, 1)`,
    `math.floor(f)` and `round(n)` of an int give ints)."""
    if depth > 4:
        return None
    if isinstance(expr, ast.BinOp) and isinstance(
        expr.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
    ):
        for side, other in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(other, ast.Constant) and type(other.value) is int:
                found = _rounded_value(ctx, side, depth + 1)
                if found is not None:
                    return found
        return None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None or isinstance(bound, ast.Name):
            return None
        return _rounded_value(ctx, bound, depth + 1)
    inner = names.builtin_argument(expr, "abs")
    if inner is not None:
        return _rounded_value(ctx, inner, depth + 1)  # measured: `abs(r)` too
    return _rounded_float(ctx, expr)


def _operand_uses(ctx: FunctionContext) -> Iterator[tuple[ast.expr, ast.expr]]:
    """(Tensor, other operand) of the operations measured failing on a rounded float."""
    for binop in ctx.of(ast.BinOp):
        if isinstance(binop.op, (ast.Add, ast.Sub)):
            yield binop.left, binop.right
            yield binop.right, binop.left
        elif isinstance(binop.op, (ast.FloorDiv, ast.Pow)):
            yield binop.left, binop.right
    for compare in ctx.of(ast.Compare):
        if len(compare.ops) == 1 and isinstance(compare.ops[0], ast.Gt):
            yield compare.left, compare.comparators[0]
    for call in ctx.of(ast.Call):
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in _CALLS or call.keywords:
            continue
        if len(call.args) == 1 and func.attr == "add":
            yield func.value, call.args[0]  # `x.add(r)`
        elif len(call.args) == 2 and ctx.fn.module.qualname(func) in (
            f"mindspore.ops.{func.attr}",
            f"mindspore.ops.function.{func.attr}",
        ):
            yield call.args[0], call.args[1]


ROUNDED_ARITHMETIC_RETURNED = Rule(
    "MS362",
    "rounded-float-arithmetic-returned",
    Group.DIVERGES,
    title="`round()` of a Python float, then int arithmetic, returned from compiled code",
    message=(
        "`{text}` does int arithmetic on `{rounded}`, which graph mode types as a float, so "
        "it returns a float where PyNative returns an int (e.g. 3.0 for 3); write "
        "`int({rounded})`."
    ),
    why=(
        "Graph mode's `round()` of a Python float gives an int value typed as a float, and "
        "arithmetic with ints keeps that type: with `r = round(x.shape[0] / 4)`, `r + 1`, "
        "`r * 2`, `r // 2` and `7 % r` returned 3.0 / 4.0 / 1.0 / 1.0 in GRAPH_MODE and the "
        "ints 3 / 4 / 1 / 1 in PyNative (`return r` alone gave the int 2 in both)."
    ),
    remedy="Convert the rounded value: `int(round(f)) + 1`.",
    mindspore_says="(compiles; result differs from PyNative)",
)

# `ops.<name>(...)`: the positions measured failing on a rounded float (round 31).
_OPS_INT_ARGS: dict[str, tuple[int, ...]] = {
    "split": (1,),
    "topk": (1,),
    "one_hot": (1,),
    "ones": (0,),
    "full": (0,),
    "arange": (0, 1, 2),
}
# Tensor methods whose positional arguments must be ints (measured failing on a rounded float).
_METHOD_INT_ARGS = frozenset({"expand_dims", "squeeze", "narrow"})
_AXIS_METHODS = frozenset({"sum", "mean"})


def _int_uses(ctx: FunctionContext) -> Iterator[tuple[str, ast.expr]]:
    """(what takes it, value) of the places measured failing on a rounded Python float (round
    31): a size of `x.reshape(a, b)` / `x.view(a, b)` written out, the axis of
    `x.expand_dims(r)` / `x.squeeze(r)` / `x.sum(axis=r)`, `x.narrow(0, 0, r)`, an index or a
    slice bound of a Tensor, an index of `x.shape`, an argument of `range()`, `ops.split(x, r)`,
    `ops.topk(x, r)`, `ops.one_hot(i, r, ...)`, `ops.ones(r)`, `ops.full((r, 2), v)`,
    `ops.arange(r)`. Measured compiling: `x.reshape((r, -1))` (a tuple), `ops.zeros((r, 3))`,
    `ops.tile(x, (r, 1))`, `x.tile((r, 1))`, `ops.chunk(x, r)`, `broadcast_to((r, ...))`,
    `Tensor(r)`, a list indexed or repeated by it, `x * r`, `return r`."""
    for call in ctx.of(ast.Call):
        func = call.func
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        if isinstance(func, ast.Name):
            if func.id == "range" and calls_shared.builtin(ctx, "range"):
                for arg in call.args:
                    yield "`range()`", arg
            continue
        if not isinstance(func, ast.Attribute):
            continue
        qualname = ctx.fn.module.qualname(func) or ""
        if qualname in (f"mindspore.ops.{func.attr}", f"mindspore.ops.function.{func.attr}"):
            for index in _OPS_INT_ARGS.get(func.attr, ()):
                if index < len(call.args):
                    arg = call.args[index]
                    parts = [arg]
                    if isinstance(arg, ast.Tuple) and func.attr == "full":
                        parts = list(arg.elts)
                    for part in parts:
                        yield f"`ops.{func.attr}()`", part
            continue
        if not ctx.types.is_tensor(func.value):
            continue
        sizes = func.attr in ("reshape", "view") and len(call.args) >= 2
        if sizes or func.attr in _METHOD_INT_ARGS:
            for arg in call.args:
                yield f"`{func.attr}()`", arg
        elif func.attr in _AXIS_METHODS:
            for kw in call.keywords:
                if kw.arg in ("axis", "dim"):
                    yield f"`{func.attr}()`'s axis", kw.value
    for sub in ctx.of(ast.Subscript):
        value = sub.value
        shape = isinstance(value, ast.Attribute) and value.attr == "shape"
        if not shape and not ctx.types.is_tensor(value):
            continue
        parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        for part in parts:
            if isinstance(part, ast.Slice):
                for bound in (part.lower, part.upper, part.step):
                    if bound is not None:
                        yield "a slice bound", bound
            else:
                yield "an index", part


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    rounds = [c for c in ctx.of(ast.Call) if _round_call(c) is not None]
    if not rounds or not calls_shared.builtin(ctx, "round"):
        return
    for call in rounds:
        arg = call.args[0]
        if not _tensor_item(ctx, arg) and (
            not ctx.types.is_tensor(arg) and receivers.runtime_scalar(ctx, arg)
        ):
            yield ROUND_IN_GRAPH.finding(
                call,
                what=(
                    f"`{ast.unparse(call)}` rounds a number computed from a Tensor's value, "
                    "which fails to compile at every level (graph mode hands it to the Round "
                    "operator, which takes only Tensors)"
                ),
                advice="compute and round it as a Tensor (`ops.round(...)`) before reading it",
            )
            continue
        if _tensor_item(ctx, arg):
            yield ROUND_IN_GRAPH.finding(
                call,
                what=(
                    f"`{ast.unparse(call)}` of a Tensor's Python scalar fails to compile at "
                    "every level (graph mode hands it to the Round operator, which takes only "
                    "Tensors)"
                ),
                advice=f"round the Tensor instead (`ops.round({_receiver(ctx, call.args[0])})`)",
            )
    reported: set[int] = set()
    ints = ((use, other, _rounded_value(ctx, other)) for use, other in _int_uses(ctx))
    yield from _rounded_uses(
        ints, reported, "{use} fails to compile at every level (it takes ints only)"
    )
    yield from _returned_arithmetic(ctx)
    operands = (
        (f"using it with Tensor `{ast.unparse(tensor)}`", other, _rounded_float(ctx, other))
        for tensor, other in _operand_uses(ctx)
        if ctx.types.is_tensor(tensor)
    )
    yield from _rounded_uses(
        operands,
        reported,
        "{use} fails to compile at every level (the cast fails on its Int64Imm value)",
    )


def _rounded_uses(
    uses: Iterable[tuple[str, ast.expr, Optional[ast.Call]]], reported: set[int], failure: str
) -> Iterator[RawFinding]:
    """One finding per rounded operand: `round(f)` is an int graph mode still types as a float."""
    for use, other, rounded in uses:
        if rounded is None or id(other) in reported:
            continue
        reported.add(id(other))
        text = ast.unparse(rounded)
        yield ROUND_IN_GRAPH.finding(
            other,
            what=(
                f"`{text}` gives an int graph mode still types as a float, so "
                + failure.format(use=use)
            ),
            advice=f"write `int({text})` instead",
        )


def _receiver(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> str:
    """`t` of `t.item()` / `float(t)` (through a name bound to one), for the suggestion."""
    if isinstance(expr, ast.Name) and depth < 3:
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            return _receiver(ctx, bound, depth + 1)
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "item":
            return ast.unparse(expr.func.value)
        if expr.args:
            return ast.unparse(expr.args[0])
    return ast.unparse(expr)


def _returned_arithmetic(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS362: `r + 1` (with `r` a rounded Python float) returned from the graph's entry."""
    returns = ctx.of(ast.Return)
    if not returns or not divergence_scalars._entry(ctx):
        return
    for ret in returns:
        value = ret.value
        parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
        for part in parts:
            expr = part
            if isinstance(expr, ast.Name):
                bound = receivers.only_binding(ctx, expr.id)
                expr = bound if bound is not None else expr
            if not isinstance(expr, ast.BinOp):
                continue
            rounded = _rounded_value(ctx, expr)
            if rounded is None:
                continue
            yield ROUNDED_ARITHMETIC_RETURNED.finding(
                expr,
                text=ast.unparse(expr),
                rounded=ast.unparse(rounded),
            )
