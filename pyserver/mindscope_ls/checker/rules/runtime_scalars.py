"""MS1008, MS1009: builtins and operators graph mode lacks for a scalar read from a Tensor.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative, with `n = int(x.sum())`
(likewise `float(t)`, `t.item()`), which graph mode keeps a variable scalar:
- `abs(n)`, `abs(-n)`, `abs(int(x.sum()))` fail at every level ("For Operator[Abs], input's type
  'Int64' does not match expected type 'Tensor'"): MS1008. `-n`, `n % 3`, `n // 2`, `n ** 2`,
  `n & 1`, `n | 2` compile, and `abs()` of a constant or of a Tensor too.
- `n ^ 1`, `n << 1`, `n >> 1` fail at every level for want of a CPU kernel ("Unsupported op
  [bit_xor] on CPU"): MS1009, a CPU-only finding (information when the code runs on Ascend).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

ABS_OF_RUNTIME_SCALAR = Rule(
    "MS1008",
    "abs-of-runtime-scalar",
    Group.FAILS,
    title="`abs()` of a number read from a Tensor",
    message=(
        "`{text}` takes `abs()` of a number read from a Tensor in the graph, which graph mode "
        "runs as the Tensor op `Abs` and refuses for a scalar; take `.abs()` of the Tensor "
        "(`{tensor}`) before reading the number."
    ),
    why=(
        "A Python number read from a graph Tensor (`int(t)`, `t.item()`) stays a variable "
        "scalar in graph mode, and graph mode's `abs` maps to the `Abs` operator, which takes "
        "Tensors only."
    ),
    remedy="Apply `.abs()` to the Tensor before reading the number (`int(t.abs())`).",
    mindspore_says=(
        "TypeError: For Operator[Abs], input's type 'Int64' does not match expected type 'Tensor'."
    ),
)

BIT_OP_OF_RUNTIME_SCALAR = Rule(
    "MS1009",
    "bit-op-of-runtime-scalar",
    Group.FAILS,
    title="`^` / `<<` / `>>` on a number read from a Tensor (no CPU kernel)",
    message=(
        "`{text}` applies `{op}` to a number read from a Tensor in the graph, and graph mode has "
        "no CPU kernel for it; compute it on the Tensor (`ops.bitwise_xor`, "
        "`ops.bitwise_left_shift`, ...) or on Python constants."
    ),
    why=(
        "A number read from a graph Tensor stays a variable scalar; graph mode's scalar "
        "`bit_xor` / `left_shift` / `right_shift` have no CPU kernel (`&` and `|` do)."
    ),
    remedy="Use the Tensor ops (`ops.bitwise_xor`, ...) on the Tensor itself.",
    mindspore_says="RuntimeError: Unsupported op [bit_xor] on CPU",
    cpu_only=True,
)

_BIT_OPS = {ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [c for c in ctx.of(ast.Call) if _abs_call(c)]
    if calls and calls_shared.builtin(ctx, "abs"):
        for call in calls:
            arg = call.args[0]
            if not ctx.types.is_tensor(arg) and receivers.runtime_scalar(ctx, arg):
                yield ABS_OF_RUNTIME_SCALAR.finding(
                    call, text=ast.unparse(call), tensor=_source(ctx, arg)
                )
    nodes: list[ast.BinOp | ast.AugAssign] = ctx.of(ast.BinOp, ast.AugAssign)
    for node in nodes:
        op = _BIT_OPS.get(type(node.op))
        if op is None:
            continue
        if isinstance(node, ast.AugAssign):
            sides: tuple[ast.expr, ...] = (node.target, node.value)
        else:
            sides = (node.left, node.right)
        if any(ctx.types.is_tensor(side) for side in sides):
            continue
        if any(receivers.runtime_scalar(ctx, side) for side in sides):
            yield BIT_OP_OF_RUNTIME_SCALAR.finding(node, text=ast.unparse(node), op=op)


def _abs_call(call: ast.Call) -> bool:
    return (
        isinstance(call.func, ast.Name)
        and call.func.id == "abs"
        and len(call.args) == 1
        and not call.keywords
        and not isinstance(call.args[0], ast.Starred)
    )


def _source(ctx: FunctionContext, arg: ast.expr) -> str:
    """The Tensor a number was read from, for the message (`t` of `int(t)`), else `t`."""
    if isinstance(arg, ast.Name):
        arg = receivers.only_binding(ctx, arg.id) or arg
    if isinstance(arg, ast.Call):
        func = arg.func
        if isinstance(func, ast.Attribute) and func.attr == "item":
            return ast.unparse(func.value)
        if arg.args:
            return ast.unparse(arg.args[0])
    return "t"
