"""MS1037: a hand-written primitive built inside compiled code from a number read from a Tensor.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (all ran there), `x` of
shape (2, 2), `n = int(t)` of an int32 Tensor argument: `ops.L2Normalize(axis=n)(x)`,
`P.L2Normalize(axis=n)` (`from mindspore.ops import operations as P`),
`ops.L2Normalize(axis=0, epsilon=float(t) * 1e-4)`, `ops.L2Normalize(axis=mutable(1))`,
`ops.Pad(((n, n), (0, 0)))`, `ops.MaxPool(kernel_size=n, strides=1)`, `ops.TopK(sorted=n > 0)`,
`ops.Stack(axis=n)`, `ops.Unstack(axis=n)`, `ops.Sort(axis=n)`, `ops.LRN(depth_radius=n)` and
`ops.SplitV(size_splits=[n, 1], ...)` fail at every level, as does `ops.L2Normalize(axis=m)`
of a parameter `m` the caller passes `mutable(1)` for: "TypeError: When creating an
instance of 'L2Normalize', all arguments are required to be constants, but input 0 is a
variable". These primitives register their `__init__` arguments as attributes
(`@prim_attr_register`), read while the graph is built; `FACTS.constant_argument_primitives`
lists them, read from MindSpore's sources. Compile at both levels (not reported): the same with
constants, with `x.ndim - 1`, with a parameter given a Python number by the caller, and the
primitives generated from op definitions, which take their arguments as inputs
(`ops.Softmax(axis=n)`, `ops.OneHot(axis=n)`, `ops.Squeeze(axis=n)`, `ops.CumProd`,
`ops.Concat(n)`, `ops.ArgMaxWithValue(axis=n)`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..facts import FACTS
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .mutable_scalars import mutable_number, through_mutable_parameters

VARIABLE_PRIMITIVE_ARGUMENT = Rule(
    "MS1037",
    "variable-primitive-argument",
    Group.FAILS,
    title="A primitive built in compiled code from a number read from a Tensor",
    message=(
        "`{arg}` is a variable in the graph, passed to `{primitive}(...)`, whose arguments "
        "graph mode needs as constants when it builds the primitive; build it with constants "
        "in `__init__`, or use the `ops.` function that takes the value as an input."
    ),
    why=(
        "Hand-written primitives keep their constructor arguments as attributes, which must be "
        "known when the graph is built; a number read from a Tensor (`int(t)`, `t.item()`) or "
        "made by `mutable()` is a variable there."
    ),
    remedy=(
        "Create the primitive in `__init__` with Python constants, or call the functional form "
        "(`ops.stack(xs, axis)`, `ops.sort(x, axis)`), several of which accept a variable."
    ),
    mindspore_says=(
        "TypeError: When creating an instance of 'L2Normalize', all arguments are required to "
        "be constants, but input 0 is a variable"
    ),
)
OPS = ("mindspore.ops.", "mindspore.ops.operations.")


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _findings(ctx, frozenset())


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The same through a parameter every call of the entry point passes `mutable(k)` for
    (`Net()(x, mutable(1))`, measured: the same error); reads the callers: not cacheable."""
    if not ctx.fn.module.mentions("mutable"):
        return
    built = [(c, p) for c in ctx.of(ast.Call) if (p := _primitive(ctx, c)) is not None]
    if built:
        yield from through_mutable_parameters(ctx, lambda params: _findings(ctx, params, built))


def _findings(
    ctx: FunctionContext,
    params: frozenset[str],
    built: Optional[list[tuple[ast.Call, str]]] = None,
) -> Iterator[RawFinding]:
    """The first variable argument of each primitive built, counting `params` as `mutable()`
    numbers."""
    if built is None:
        built = [(c, p) for c in ctx.of(ast.Call) if (p := _primitive(ctx, c)) is not None]
    for call, primitive in built:
        for arg in _arguments(call):
            if _variable(ctx, arg, params):
                yield VARIABLE_PRIMITIVE_ARGUMENT.finding(
                    arg, arg=ast.unparse(arg), primitive=primitive
                )
                break  # MindSpore names the first one


def _primitive(ctx: FunctionContext, call: ast.Call) -> Optional[str]:
    """The primitive's dotted name as written, when `call` builds a hand-written one."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name is None or name not in FACTS.constant_argument_primitives:
        return None
    qualname = names.callee(ctx.fn.module, func)
    if qualname is None or not qualname.startswith(OPS) or not qualname.endswith("." + name):
        return None
    return ast.unparse(func)


def _arguments(call: ast.Call) -> Iterator[ast.expr]:
    """Every argument, and the items of tuples and lists given as one (`((n, n), (0, 0))`)."""
    todo = [*call.args, *(k.value for k in call.keywords)]
    while todo:
        arg = todo.pop(0)
        if isinstance(arg, (ast.Tuple, ast.List)):
            todo[:0] = arg.elts
        elif not isinstance(arg, ast.Starred):
            yield arg


def _variable(ctx: FunctionContext, arg: ast.expr, params: frozenset[str] = frozenset()) -> bool:
    """A number read from a Tensor, made by `mutable()` (here or by the callers, for
    `params`), or a comparison or `not` of one."""
    if isinstance(arg, ast.Compare):
        sides = [arg.left, *arg.comparators]
        return not any(ctx.types.is_tensor(s) for s in sides) and any(
            _variable(ctx, s, params) for s in sides
        )
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.Not):
        return _variable(ctx, arg.operand, params)
    if ctx.types.is_tensor(arg):
        return False  # a Tensor argument fails in PyNative too: not this rule's to say
    return receivers.runtime_scalar(ctx, arg) or mutable_number(ctx, arg, params=params)
