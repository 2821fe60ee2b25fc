"""MS178: an in-place Tensor method that graph mode has no CPU kernel for, while PyNative runs it.

Measured with MindSpore 2.10 on CPU (GRAPH_MODE at LAX and STRICT, against PyNative), each
method on a local Tensor and its result read afterwards: `y.exp_()` in compiled code fails at
kernel selection ("Unsupported op [InplaceExp] on CPU"), on a local or a Parameter alike, while
PyNative runs it (returning the result). Every other in-place method of `Tensor` was measured
too and is left alone: `copy_`, `sub_`, `requires_grad_`, `set_` compile (`add_`/`mul_`/`div_`/
`floor_divide_`/`remainder_` compile and diverge: MS311); `normal_`, `uniform_`,
`exponential_`, `random_`, `log_`, `fill_`, `zero_`, `clone()`, `masked_fill_`, `clamp_`,
`index_fill_`, `index_copy_`, `index_add_`, `index_put_`, `put_`, `scatter_add_`,
`masked_scatter_`, `tanh_`, `sigmoid_`, `sign_`, `floor_`, `erfinv_`, `addmm_`, `bernoulli_`,
`fill_diagonal_` fail in graph mode but fail in PyNative on CPU as well ("The kernel Clone
unregistered", "Create kernelmod for op InplaceNormal failed"): not a graph-mode failure. (A
`normal_()` whose Tensor is never read afterwards runs in PyNative: only its shape was used.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

IN_PLACE_WITHOUT_GRAPH_KERNEL = Rule(
    "MS178",
    "in-place-method-without-graph-kernel",
    Group.FAILS,
    title="`tensor.exp_()` in compiled code (no CPU graph kernel)",
    message=(
        "`{receiver}.{method}()` compiles to `{primitive}`, which graph mode has no CPU kernel "
        "for (\"Unsupported op [{primitive}] on CPU\"), though PyNative runs it; write "
        "`{plain}` and use the result."
    ),
    why=(
        "Graph mode selects one kernel per primitive when compiling; `InplaceExp` has none on "
        "CPU in MindSpore 2.10, while PyNative runs `exp_()` (as a new Tensor)."
    ),
    remedy=(
        "Use the functional form and rebind: `y = ops.exp(y)` (or `y = y.exp()`), the same "
        "result in both modes."
    ),
    mindspore_says=(
        "RuntimeError: Kernel select failed: Unsupported op [InplaceExp] on CPU, Please "
        "confirm whether the device target setting is correct"
    ),
)

# Measured (see the module's docstring): method -> (primitive, functional form).
METHODS = {"exp_": ("InplaceExp", "exp")}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in METHODS:
            continue
        receiver = func.value
        if not (
            ctx.types.is_tensor(receiver)
            or receivers.kind_of(ctx, receiver) == receivers.PARAMETER
        ):
            continue
        primitive, plain = METHODS[func.attr]
        source = ast.unparse(receiver)
        yield IN_PLACE_WITHOUT_GRAPH_KERNEL.finding(
            call,
            receiver=source,
            method=func.attr,
            primitive=primitive,
            plain=f"{source} = {source}.{plain}()" if isinstance(receiver, ast.Name)
            else f"{source}.{plain}()",
        )
