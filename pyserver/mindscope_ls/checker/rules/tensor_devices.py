"""MS1034: `x.to("cpu")` in compiled code (no CPU graph kernel for the copy to the host).
MS1036: `x.move_to(...)` in compiled code (refused by graph mode's `Tensor.move_to`).

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike (PyNative runs them all):
`x.to("cpu")`, `x.to("CPU")`, `x.to(device="cpu")`, `x.to("cpu", ms.float16)`,
`x.to("cpu", non_blocking=True)`, `x.to(device="cpu", dtype=ms.float16)` and `d = "cpu";
x.to(d)` compile to `CopyToHost`, which has no CPU kernel in graph mode ("Unsupported op
[CopyToHost] on CPU"). `x.to(ms.float16)`, `x.to(dtype=ms.float16)` and `x.to(y)` (a cast)
compile. `x.to("cpu:0")` fails in PyNative too, and so does any other device on a CPU build:
left alone.

`x.move_to("CPU")` fails at every level whatever the device: graph mode's `Tensor.move_to` is
`raise ValueError("The method 'move_to' is not supported in jit.")` (standard_method.py).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .tensor_views import only_binding

TO_CPU = Rule(
    "MS1034",
    "tensor-to-cpu-in-graph",
    Group.FAILS,
    title='`x.to("cpu")` in compiled code (no CPU graph kernel)',
    message=(
        "`{text}` copies the Tensor to the host, which graph mode compiles to `CopyToHost`, an "
        "op with no CPU kernel (fails at every level, PyNative runs it); drop the device move "
        "from compiled code (`{fixed}`)."
    ),
    why=(
        "Graph mode compiles `Tensor.to(device)` to a device copy op; on CPU MindSpore 2.10 has "
        "no kernel for `CopyToHost`, while PyNative moves (or keeps) the Tensor."
    ),
    remedy=(
        "Move Tensors between devices outside compiled code (on the network's outputs); inside, "
        "keep only the dtype conversion (`x.to(ms.float16)` / `x.astype(ms.float16)`)."
    ),
    mindspore_says=(
        "RuntimeError: Kernel select failed: Unsupported op [CopyToHost] on CPU, Please confirm "
        "whether the device target setting is correct"
    ),
    cpu_only=True,
)

MOVE_TO = Rule(
    "MS1036",
    "tensor-move-to-in-graph",
    Group.FAILS,
    title="`x.move_to(...)` in compiled code",
    message=(
        "`{text}` cannot be compiled: graph mode's `Tensor.move_to` raises \"The method "
        "'move_to' is not supported in jit\" at every level (PyNative runs it); move the Tensor "
        "outside compiled code."
    ),
    why=(
        "Graph mode resolves `Tensor.move_to` to a method that only raises: a compiled graph "
        "cannot move its values between host and device."
    ),
    remedy="Call `move_to` on the network's inputs or outputs, outside `construct`/`@jit` code.",
    mindspore_says="ValueError: 'The method 'move_to' is not supported in jit.'",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("to", "move_to"):
            continue
        if not receivers.tensor_or_parameter(ctx, func.value):
            continue
        if func.attr == "move_to":
            if call.args or call.keywords:
                yield MOVE_TO.finding(call, text=ast.unparse(call))
            continue
        device = _device(call)
        if device is not None and _is_cpu(ctx, device):
            yield TO_CPU.finding(call, text=ast.unparse(call), fixed=_fixed(call))


def _device(call: ast.Call) -> Optional[ast.expr]:
    """The device argument of `x.to(device, dtype)` / `x.to(device=...)`."""
    for keyword in call.keywords:
        if keyword.arg == "device":
            return keyword.value
        if keyword.arg is None:
            return None
    return call.args[0] if call.args else None


def _is_cpu(ctx: FunctionContext, expr: ast.expr) -> bool:
    value = only_binding(ctx, expr) if isinstance(expr, ast.Name) else expr
    return (
        isinstance(value, ast.Constant)
        and isinstance(value.value, str)
        and value.value.lower() == "cpu"
    )


def _fixed(call: ast.Call) -> str:
    """The call with its device dropped, or the receiver alone when nothing else is left."""
    receiver = ast.unparse(call.func.value) if isinstance(call.func, ast.Attribute) else "x"
    by_keyword = any(k.arg == "device" for k in call.keywords)
    rest = [ast.unparse(a) for a in (call.args if by_keyword else call.args[1:])]
    rest += [
        f"{k.arg}={ast.unparse(k.value)}"
        for k in call.keywords
        if k.arg not in ("device", "non_blocking", "copy")
    ]
    return f"{receiver}.to({', '.join(rest)})" if rest else receiver
