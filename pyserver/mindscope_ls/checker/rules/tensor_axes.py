"""MS1014: a Tensor where a Tensor method takes Python ints (its shape or axes one by one).

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (all ran there), `x` of
shape (2, 3, 4) and `k` a 0-d int64 or int32 Tensor argument:
- `x.reshape(k, -1)`, `x.reshape(2, k * 3, -1)`, `x.view(k, -1)`, `x.transpose(0, k, 2)`,
  `x.permute(k, 0, 2)` fail at every level ("reshape(): argument 'shape' (position 1) must be
  tuple of int, not Tensor"): graph mode reads the sizes given one by one as ints. The tuple
  spellings `x.reshape((k, -1))` and `x.view((k, -1))` compile.
- `x.squeeze(k)`, `x.squeeze(axis=k)`, `ops.squeeze(x, k)` fail at every level ("Failed calling
  squeeze with squeeze(axis=Tensor)").
- A Tensor of one literal (folded to a constant) as a reduction axis: `x.sum(Tensor(1))`,
  `x.sum(axis=Tensor(1))`, `x.sum(Tensor(1, ms.int32))`, `x.mean(Tensor(1))`,
  `ops.sum(x, Tensor(1))`, `ops.reduce_sum(x, Tensor(1))` fail at every level ("'int'
  object is not iterable"), while `x.sum(k)` and `x.sum(k + 0)` of a Tensor computed in the
  graph, and `x.argmax(Tensor(1))`, compile.
A graph input is taken for a Tensor here only when its callers pass one (its dtype is known):
an entry point's parameter may hold a Python int, which these calls take.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.module_values import parameters
from .helpers.shared_values import abstract

TENSOR_AS_INT_ARGUMENT = Rule(
    "MS1014",
    "tensor-as-int-argument",
    Group.FAILS,
    title="A Tensor as one of `x.reshape(a, b)`'s sizes, `squeeze`'s axis or a reduction axis",
    message=(
        "`{arg}` is a Tensor passed as {what} of `{call}`, which graph mode takes only as a "
        "Python int; {instead}."
    ),
    why=(
        "Graph mode resolves these Tensor methods' arguments as Python ints (sizes given one by "
        "one, a squeeze axis, a reduction axis folded from a constant Tensor) and refuses a "
        "Tensor there, while PyNative converts it."
    ),
    remedy=(
        "Pass a Python int (`int(k)`, a shape entry); for reshape/view give the sizes as one "
        "tuple (`x.reshape((k, -1))`)."
    ),
    mindspore_says=(
        "TypeError: reshape(): argument 'shape' (position 1) must be tuple of int, not Tensor."
    ),
)

# Tensor methods taking their sizes or axes one by one as ints (measured).
SIZES_ONE_BY_ONE = frozenset({"reshape", "view", "transpose", "permute"})
REDUCTIONS = frozenset({"sum", "mean"})
OPS_REDUCTIONS = frozenset({"sum", "reduce_sum"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    values: Optional[Abstract] = None
    for call in calls:
        for arg, what, constant in _int_arguments(ctx, call):
            if constant:
                if not _literal_tensor(ctx, arg):
                    continue
                instead = f"write the axis as an int (`{_literal_text(arg)}`)"
            else:
                if values is None:
                    values = abstract(ctx, module=True)
                if not _certain_tensor(ctx, values, arg):
                    continue
                instead = _advice(call)
            yield TENSOR_AS_INT_ARGUMENT.finding(
                arg, arg=ast.unparse(arg), what=what, call=ast.unparse(call), instead=instead
            )


def _int_arguments(ctx: FunctionContext, call: ast.Call) -> Iterator[tuple[ast.expr, str, bool]]:
    """(argument, what it is, whether only a constant Tensor fails there) for the calls above."""
    func = call.func
    if any(isinstance(a, ast.Starred) for a in call.args):
        return
    qualname = names.callee(ctx.fn.module, func)
    if qualname is not None and qualname.startswith("mindspore.ops."):
        op = qualname.rsplit(".", 1)[-1]
        axis = _given(call, 1, "axis")
        if op == "squeeze" and axis is not None:
            yield axis, "the axis", False
        elif op in OPS_REDUCTIONS and axis is not None:
            yield axis, "the axis", True
        return
    if not isinstance(func, ast.Attribute) or not receivers.tensor_or_parameter(ctx, func.value):
        return
    if func.attr in SIZES_ONE_BY_ONE and len(call.args) >= 2:
        yield from ((a, "one of the sizes or axes", False) for a in call.args)
    elif func.attr == "squeeze":
        axis = _given(call, 0, "axis")
        if axis is not None:
            yield axis, "the axis", False
    elif func.attr in REDUCTIONS:
        axis = _given(call, 0, "axis")
        if axis is not None:
            yield axis, "the axis", True


def _given(call: ast.Call, position: int, keyword: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[position] if position < len(call.args) else None


def _certain_tensor(ctx: FunctionContext, values: Abstract, arg: ast.expr, depth: int = 0) -> bool:
    """A Tensor computed in the graph (an op's or a Tensor method's result, arithmetic or an
    item of one), or a parameter (or a local bound once to one) whose callers pass a Tensor of
    known dtype: other parameters may hold ints, and a workspace function, `x.size(1)` or
    arithmetic on shapes give ints (model-zoo code passes those one by one)."""
    if depth > 8 or not ctx.types.is_tensor(arg) or ctx.types.is_constant_tensor(arg):
        return False
    base = arg
    if isinstance(base, ast.Name):
        base = receivers.only_binding(ctx, base.id) or base
    if isinstance(base, ast.Name):
        return base.id in parameters(ctx.fn.node) and values.dtype(base) is not None
    if isinstance(base, ast.BinOp):
        sides = (base.left, base.right)
        return any(_certain_tensor(ctx, values, side, depth + 1) for side in sides)
    if isinstance(base, ast.UnaryOp):
        return _certain_tensor(ctx, values, base.operand, depth + 1)
    if isinstance(base, ast.Subscript):
        return _certain_tensor(ctx, values, base.value, depth + 1)
    if not isinstance(base, ast.Call):
        return False
    func = base.func
    if names.is_ops_call(names.callee(ctx.fn.module, func)):
        return True
    return (
        isinstance(func, ast.Attribute)
        and func.attr not in NOT_TENSOR_RESULTS
        and _certain_tensor(ctx, values, func.value, depth + 1)
    )


# Tensor methods whose result is a Python number or a sequence (`size(1)` in torch-style code).
NOT_TENSOR_RESULTS = names.NON_TENSOR_METHODS | names.NON_TENSOR_ATTRS | {"size", "dim"}


def _literal_tensor(ctx: FunctionContext, arg: ast.expr) -> bool:
    """`Tensor(1)`: a Tensor of one literal int, folded into a constant when compiled."""
    if isinstance(arg, ast.Name):
        arg = receivers.only_binding(ctx, arg.id) or arg
    return (
        isinstance(arg, ast.Call)
        and names.callee(ctx.fn.module, arg.func) in names.TENSOR_FACTORIES
        and 1 <= len(arg.args) <= 2
        and isinstance(arg.args[0], ast.Constant)
        and type(arg.args[0].value) is int
        and all(k.arg == "dtype" for k in arg.keywords)
    )


def _literal_text(arg: ast.expr) -> str:
    if isinstance(arg, ast.Call) and arg.args and isinstance(arg.args[0], ast.Constant):
        return repr(arg.args[0].value)
    return "1"


def _advice(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("reshape", "view"):
        sizes = ", ".join(ast.unparse(a) for a in call.args)
        return f"give the sizes as one tuple (`{ast.unparse(func)}(({sizes}))`) or pass ints"
    return "pass a Python int (`int(...)` of the Tensor, or a shape entry)"
