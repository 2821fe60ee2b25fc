"""MS1001: builtin `round()` of Python floats and of Tensor items in compiled code.

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
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import receivers, shared_values
from .helpers.base import FunctionContext

ROUND_IN_GRAPH = Rule(
    "MS1001",
    "round-of-python-scalar",
    Group.FAILS,
    title="builtin `round()` of a Python float used with a Tensor, or of a Tensor item",
    message="{what}; {advice}.",
    why=(
        "Graph mode's `round()` of a Python float gives an int it still types as a float, "
        "which Tensor operations then fail to cast; of a Tensor's item it dispatches to the "
        "Round operator, which takes only Tensors."
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


# `ops.<name>(x, k)` whose second argument must be an int (measured failing on a rounded float).
_INT_SECOND = frozenset({"split", "topk"})


def _int_uses(ctx: FunctionContext) -> Iterator[tuple[str, ast.expr]]:
    """(what takes it, value) of the places measured failing on a rounded Python float (round
    31): a size of `x.reshape(a, b)` / `x.view(a, b)` written out, a bound of a Tensor slice,
    an argument of `range()`, the count of `ops.split(x, k)` and `ops.topk(x, k)`. Measured
    compiling: `x.reshape((r, -1))` (a tuple), `ops.zeros((r, 3))`, `ops.tile(x, (r, 1))`,
    `broadcast_to((r, ...))`, `x * r` and `return r`."""
    for call in ctx.of(ast.Call):
        func = call.func
        if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            continue
        if isinstance(func, ast.Attribute) and func.attr in ("reshape", "view"):
            if len(call.args) >= 2 and ctx.types.is_tensor(func.value):
                for arg in call.args:
                    yield f"`{func.attr}()`", arg
        elif isinstance(func, ast.Name) and func.id == "range":
            if calls_shared.builtin(ctx, "range"):
                for arg in call.args:
                    yield "`range()`", arg
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in _INT_SECOND
            and len(call.args) >= 2
            and ctx.fn.module.qualname(func)
            in (f"mindspore.ops.{func.attr}", f"mindspore.ops.function.{func.attr}")
        ):
            yield f"`ops.{func.attr}()`", call.args[1]
    for sub in ctx.of(ast.Subscript):
        parts = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
        slices = [p for p in parts if isinstance(p, ast.Slice)]
        if not slices or not ctx.types.is_tensor(sub.value):
            continue
        for part in slices:
            for bound in (part.lower, part.upper, part.step):
                if bound is not None:
                    yield "a slice bound", bound


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
    for use, other in _int_uses(ctx):
        rounded = _rounded_float(ctx, other)
        if rounded is None or id(other) in reported:
            continue
        reported.add(id(other))
        text = ast.unparse(rounded)
        yield ROUND_IN_GRAPH.finding(
            other,
            what=(
                f"`{text}` gives an int graph mode still types as a float, so {use} fails to "
                "compile at every level (it takes ints only)"
            ),
            advice=f"write `int({text})` instead",
        )
    for tensor, other in _operand_uses(ctx):
        rounded = _rounded_float(ctx, other)
        if rounded is None or id(other) in reported or not ctx.types.is_tensor(tensor):
            continue
        reported.add(id(other))
        text = ast.unparse(rounded)
        yield ROUND_IN_GRAPH.finding(
            other,
            what=(
                f"`{text}` gives an int graph mode still types as a float, so using it with "
                f"Tensor `{ast.unparse(tensor)}` fails to compile at every level (the "
                "cast fails on its Int64Imm value)"
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
