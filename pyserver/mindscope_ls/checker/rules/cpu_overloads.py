"""MS179: a Tensor method called PyTorch-style with `dim=`, which graph mode compiles to an op
that has no CPU kernel, while PyNative runs the call on CPU.

Which methods is data: the facts' compiles (`cpu_overloads`, probe_cpu_overloads.py) of every
Tensor method with `dim=` calls, run in PyNative and compiled at LAX on CPU. On MindSpore 2.10:
`cumsum` (CumsumExt), `sort` (SortExt), `argsort` (ArgSort), `argmin` (ArgMinExt), `std`
(Std), `median` (MedianDim), `chunk` (Chunk) and `split` (SplitTensor) fail at kernel selection
("Unsupported op [CumsumExt] on CPU"), at LAX and STRICT alike (measured on the cases too).
The `dim=` keyword selects the PyTorch-style overload; the same calls with `axis=` (and
`keepdims=` for `keepdim=`) or a positional axis select MindSpore's own overload, which compiles
and gave the same values in both modes for all eight. `split` with a list of sizes
(`x.split([1, 2], dim=1)`, SplitWithSize) compiles and is left alone; `var(dim=)`, `unique(dim=)`
fail in PyNative on CPU too, so they are not in the table.

`mindspore.mint` functions likewise (probe_cpu_mint.py, rows `mint.<name>` of the same table):
`mint.diff`, `mint.t`, `mint.nansum`, `mint.fmod` and others compile to ops without a CPU
kernel ("Kernel select failed") at LAX and STRICT while PyNative runs them on CPU; a function
is in the table only when every argument list PyNative ran failed so.

`int(t.item())` / `float(t.item())` (or of a local bound to `t.item()`) of an int8, int16,
int32, uint8 or float16 `t` fails at LAX and STRICT alike: the CPU `ScalarCast` kernel lacks
those dtypes ("Select CPU operator[ScalarCast] fail! Unsupported data type!"; float16 fails in
the same cast). `int(t)` / `float(t)` of the Tensor itself compile for all of them, and so does
`int(t.item())` of int64, float32, float64 or bool. The dtype must be known from the source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared, item_membership
from .helpers import names, receivers
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

DIM_OVERLOAD_WITHOUT_CPU_KERNEL = Rule(
    "MS179",
    "dim-overload-without-cpu-kernel",
    Group.FAILS,
    title=(
        "`x.cumsum(dim=...)`, `mint.diff(x)`, `int(t.item())` of an int32 `t` and kin: compiled "
        "to an op without a CPU graph kernel"
    ),
    message=("`{text}` {how} `{op}`, {kernel}, though PyNative runs it; {instead}."),
    why=(
        "Graph mode on CPU has no kernel for the op some calls compile to (MindSpore 2.10), "
        "while PyNative runs them: a `dim=` keyword selects the PyTorch-style overload of these "
        "Tensor methods, some `mint` functions compile to such ops, and `int()`/`float()` of a "
        "`.item()` casts a scalar of a dtype the CPU `ScalarCast` kernel lacks."
    ),
    remedy=(
        "Name the axis `axis=` (and `keepdims=` for `keepdim=`): `x.cumsum(axis=1)`, "
        "`x.sort(axis=1, descending=True)`, `x.split(1, axis=1)`; convert the Tensor itself "
        "(`int(t)`, not `int(t.item())`); the values are the same."
    ),
    mindspore_says=(
        "RuntimeError: Kernel select failed: Unsupported op [CumsumExt] on CPU, Please confirm "
        "whether the device target setting is correct"
    ),
    cpu_only=True,
)

RENAMED = {"dim": "axis", "keepdim": "keepdims"}
MINT = "mindspore.mint."
# The dtypes whose `.item()` graph mode's CPU `ScalarCast` cannot cast with `int()`/`float()`
# (measured: int8, int16, int32, uint8, float16; int64, float32, float64 and bool compile).
SCALAR_CAST_MISSING = frozenset({"int8", "int16", "int32", "uint8", "float16"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if not isinstance(func, ast.Attribute) or not any(k.arg == "dim" for k in call.keywords):
            continue
        op = FACTS.cpu_overload(func.attr)
        if op is None or _sizes_list(func.attr, call):
            continue
        if not receivers.tensor_or_parameter(ctx, func.value):
            continue
        yield DIM_OVERLOAD_WITHOUT_CPU_KERNEL.finding(
            call,
            text=ast.unparse(call),
            how="selects the `dim=` overload, which graph mode compiles to",
            op=op,
            kernel=_no_kernel(op),
            instead=f"write `{_fixed(call)}`",
        )


@cacheable
def check_mint(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`mint.diff(x)`: a `mindspore.mint` function the facts' probe (probe_cpu_mint.py) found
    compiled to an op without a CPU kernel for every argument list PyNative ran."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        qualname = names.callee(ctx.fn.module, call.func)
        if qualname is None or not qualname.startswith(MINT):
            continue
        op = FACTS.cpu_overload("mint." + qualname[len(MINT) :])
        if op is None:
            continue
        yield DIM_OVERLOAD_WITHOUT_CPU_KERNEL.finding(
            call,
            text=ast.unparse(call),
            how="is compiled by graph mode to",
            op=op,
            kernel=_no_kernel(op),
            instead=(
                "on CPU compute it with other ops (or the `ops.`/Tensor-method spelling, if it "
                "compiles) or keep this part out of compiled code"
            ),
        )


@cacheable
def check_scalar_cast(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`int(t.item())` / `float(t.item())` of a Tensor whose dtype `ScalarCast` lacks on CPU."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    values: Optional[Abstract] = None
    for call in calls:
        func = call.func
        if not (
            isinstance(func, ast.Name)
            and func.id in ("int", "float")
            and len(call.args) == 1
            and not call.keywords
            and calls_shared.builtin(ctx, func.id)
        ):
            continue
        tensor = item_membership.item_of(ctx, call.args[0])
        if tensor is None:
            continue
        if values is None:
            values = abstract(ctx, module=True)
        dtype = values.dtype(tensor)
        if dtype not in SCALAR_CAST_MISSING:
            continue
        yield DIM_OVERLOAD_WITHOUT_CPU_KERNEL.finding(
            call,
            text=ast.unparse(call),
            how=f"casts the {dtype} scalar `{ast.unparse(call.args[0])}` with",
            op="ScalarCast",
            kernel=(
                f'whose CPU kernel lacks {dtype} ("Select CPU operator[ScalarCast] fail! '
                'Unsupported data type!")'
            ),
            instead=f"convert the Tensor itself: `{func.id}({ast.unparse(tensor)})`",
        )


def _no_kernel(op: str) -> str:
    return f'an op with no CPU kernel ("Unsupported op [{op}] on CPU")'


def _sizes_list(method: str, call: ast.Call) -> bool:
    """`x.split([1, 2], dim=1)`: sizes given as a list or tuple select SplitWithSize, which has
    a CPU kernel."""
    return (
        method == "split"
        and bool(call.args)
        and isinstance(call.args[0], (ast.List, ast.Tuple, ast.ListComp))
    )


def _fixed(call: ast.Call) -> str:
    renamed = ast.Call(
        func=call.func,
        args=call.args,
        keywords=[
            ast.keyword(arg=RENAMED.get(k.arg or "", k.arg), value=k.value) for k in call.keywords
        ],
    )
    return ast.unparse(renamed)
