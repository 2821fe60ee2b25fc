"""MS178: an in-place Tensor method that graph mode has no CPU kernel for, while PyNative runs it.
MS326: `y.set_(src)` as a statement, which LAX does not apply to `y`.

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

`clone()` on a Parameter is another case (measured the same way): `self.p.clone()` in
`construct` (or a method it calls) fails in graph mode ("Unsupported op [Clone] on CPU"), while
PyNative runs `Parameter.clone()`, a Python method that copies the Parameter; `x.clone()` of an
input or a local fails in PyNative too ("The kernel Clone unregistered"), so only a Parameter
receiver is reported; `self.p.copy()` compiles.

MS326, measured the same way: `y.set_(src)` at LAX returns `src` but leaves `y` as it was, while
PyNative makes `y` hold `src` (`y = x * 2 + 1; y.set_(x); return y` gave `x * 2 + 1` in graph
mode, `x` in PyNative; `y.set_(x * 3)` then `y.sum()`: 13.0 against 6.0). `z = y.set_(x)` and
`y = y.set_(x)` agree in both modes, and a `y` nothing reads afterwards shows no difference: left
alone. STRICT refuses `set_` itself (MS201).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import loads_after

IN_PLACE_WITHOUT_GRAPH_KERNEL = Rule(
    "MS178",
    "in-place-method-without-graph-kernel",
    Group.FAILS,
    title="`tensor.exp_()`, or `clone()` of a Parameter, in compiled code (no CPU graph kernel)",
    message=(
        "`{receiver}.{method}()` compiles to `{primitive}`, which graph mode has no CPU kernel "
        'for ("Unsupported op [{primitive}] on CPU"), though PyNative runs it; write '
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
    cpu_only=True,
)

SET_NOT_APPLIED = Rule(
    "MS326",
    "tensor-set-not-applied",
    Group.DIVERGES,
    title="`y.set_(src)` leaves `y` unchanged in graph mode (LAX)",
    message=(
        "`{name}.set_(...)` returns the source but leaves `{name}` as it was in graph mode "
        "(LAX), while PyNative makes `{name}` hold the source, so the later read of `{name}` "
        "differs; write `{name} = {source}`."
    ),
    why=(
        "Graph mode runs `Tensor.set_` through the Python fallback on a copy: its result is the "
        "source Tensor, but the name it was called on keeps its old value; PyNative changes the "
        "Tensor itself."
    ),
    remedy="Rebind the name to the new value (`y = src`), the same in both modes.",
    mindspore_says="(compiles; result differs from PyNative)",
)

# Measured (see the module's docstring): method -> (primitive, functional form).
METHODS = {"exp_": ("InplaceExp", "exp")}
# Only on a Parameter (a plain Tensor's `clone()` fails in PyNative too): method -> (primitive,
# the method to write instead).
PARAMETER_METHODS = {"clone": ("Clone", "copy")}


@cacheable
def check_set(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return
    statements: list[ast.Expr] = ctx.of(ast.Expr)
    for stmt in statements:
        call = stmt.value
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "set_"
            and len(call.args) == 1
            and not call.keywords
            and isinstance(call.func.value, ast.Name)
            and ctx.types.is_tensor(call.func.value)
        ):
            continue
        name = call.func.value.id
        read = loads_after(ctx.fn.node, name, call)
        if read is not None:
            yield SET_NOT_APPLIED.finding(call, name=name, source=ast.unparse(call.args[0]))


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        receiver = func.value
        if func.attr in PARAMETER_METHODS:
            if receivers.kind_of(ctx, receiver) != receivers.PARAMETER:
                continue
            primitive, instead = PARAMETER_METHODS[func.attr]
            source = ast.unparse(receiver)
            yield IN_PLACE_WITHOUT_GRAPH_KERNEL.finding(
                call,
                receiver=source,
                method=func.attr,
                primitive=primitive,
                plain=f"{source}.{instead}()",
            )
            continue
        if func.attr not in METHODS or not receivers.tensor_or_parameter(ctx, receiver):
            continue
        primitive, plain = METHODS[func.attr]
        source = ast.unparse(receiver)
        yield IN_PLACE_WITHOUT_GRAPH_KERNEL.finding(
            call,
            receiver=source,
            method=func.attr,
            primitive=primitive,
            plain=f"{source} = {source}.{plain}()"
            if isinstance(receiver, ast.Name)
            else f"{source}.{plain}()",
        )
