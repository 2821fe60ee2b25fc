"""MS364: a `mindspore.numpy` function given a list or tuple holding Tensors, in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT alike (no error; PyNative gives the
values): `mindspore.numpy` turns a list or tuple argument into a Tensor with a `@constexpr`
helper (`asarray_const`, `_to_tensor`), which runs when the graph is compiled, where a Tensor
has no value, so each Tensor element becomes 0. In a Cell's `construct` (a helper method and a
module function it calls alike): `mnp.array([x[0, 0], x[1, 1]])` gave `[0, 0]` (PyNative
`[0, 4]`), likewise `mnp.asarray`, `mnp.asfarray`, a tuple, nested lists, `[x.sum(),
x.mean()]`, `[1.0, x[1, 1]]` (`[1, 0]`), a local list built from Tensors or appended to in a
loop, elements of a constant Tensor or of a Parameter, `from mindspore.numpy import array`,
`ms.numpy.array`; and the element-wise functions and reductions with such a list as an operand:
`mnp.add([x[0, 0], x[1, 1]], 1.0)` gave `[1, 1]`, `mnp.add(x[0], [x[0, 0], ...])`,
`subtract`, `maximum`, `minimum`, `divide`, `power`, `square`, `sqrt`, `exp`, `log` (`-inf`),
`mean`, `sum`, `std`. Compile alike: lists of numbers or shape items (`mnp.array([x.shape[1],
1, 1])`), a Tensor argument (`mnp.array(x)`, `mnp.asarray(x, mnp.int32)`), `mnp.stack` /
`mnp.concatenate` of Tensors, `mnp.full(shape, x[1, 1])`; an `@jit` function gives zeros in
PyNative too (it is compiled there as well), so it is left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .decorated_helpers import compiled_by_jit
from .helpers import names
from .helpers.base import FunctionContext

MNP_LIST_OF_TENSORS = Rule(
    "MS364",
    "mnp-list-of-tensors",
    Group.DIVERGES,
    title="A `mindspore.numpy` function given a list or tuple holding Tensors in compiled code",
    message=(
        "`{func}` converts the {what} `{arg}` to a Tensor when the graph is compiled, where "
        "its Tensor elements have no value yet: graph mode computes with zeros in their place "
        "(PyNative with their values); build the Tensor with `ops.stack([...])` instead."
    ),
    why=(
        "`mindspore.numpy` converts a list or tuple argument with a `@constexpr` helper, "
        "which runs at compile time: a Tensor inside it (an input, a value computed from one, "
        "even a Parameter) is replaced by zeros. `mnp.array([x[0, 0], x[1, 1]])` gave `[0, 0]` "
        "in graph mode and `[0, 4]` in PyNative."
    ),
    remedy=(
        "Stack the Tensors (`ops.stack([a, b])`, `mnp.stack([a, b])`) and pass the Tensor, or "
        "pass numbers known when the code is written."
    ),
    mindspore_says="(no error: `mnp.array([x[0, 0], x[1, 1]])` gave zeros in graph mode)",
)

# mindspore.numpy functions that convert a list/tuple operand with a constexpr (measured)
_CONVERTING = frozenset(
    {
        "array",
        "asarray",
        "asfarray",
        "add",
        "subtract",
        "maximum",
        "minimum",
        "divide",
        "true_divide",
        "power",
        "square",
        "sqrt",
        "exp",
        "log",
        "mean",
        "sum",
        "std",
    }
)


def _mnp_function(ctx: FunctionContext, func: ast.expr) -> Optional[str]:
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return None
    qualname = ctx.fn.module.qualname(func)
    if qualname is None:
        return None
    for prefix in (
        "mindspore.numpy.",
        "mindspore.numpy.array_creations.",
        "mindspore.numpy.math_ops.",
    ):
        if qualname.startswith(prefix) and qualname[len(prefix) :] in _CONVERTING:
            return qualname[len(prefix) :]
    return None


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if not ctx.fn.module.mentions("numpy"):
        return
    calls = [c for c in ctx.of(ast.Call) if _mnp_function(ctx, c.func) is not None]
    if not calls or compiled_by_jit(ctx):
        return
    for call in calls:
        operands = [
            *call.args,
            *(k.value for k in call.keywords if k.arg in ("a", "obj", "x", "x1", "x2")),
        ]
        for arg in operands:
            what = _tensor_sequence(ctx, arg, call)
            if what is not None:
                yield MNP_LIST_OF_TENSORS.finding(
                    call, func=names.short(call.func), what=what, arg=names.short(arg)
                )
                break


def _holds_tensor(ctx: FunctionContext, data: ast.expr) -> bool:
    """A list or tuple display holding a Tensor, at any depth."""
    if not isinstance(data, (ast.List, ast.Tuple)):
        return False
    return any(_is_tensor(ctx, e) or _holds_tensor(ctx, e) for e in data.elts)


def _is_tensor(ctx: FunctionContext, expr: ast.expr) -> bool:
    if ctx.types.is_tensor(expr) or ctx.types.is_constant_tensor(expr):
        return True
    # an element of a constant Tensor bound to a local (`c = Tensor(...); c[0]`)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
        bound = _only_value(ctx, expr.value.id)
        return bound is not None and ctx.types.is_constant_tensor(bound)
    return False


def _only_value(ctx: FunctionContext, name: str) -> Optional[ast.expr]:
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    found = [
        a.value
        for a in assigns
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name
    ]
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    return found[0] if len(found) == 1 and len(stores) == 1 else None


def _tensor_sequence(ctx: FunctionContext, arg: ast.expr, call: ast.Call) -> Optional[str]:
    if _holds_tensor(ctx, arg):
        return "list" if isinstance(arg, ast.List) else "tuple"
    if not isinstance(arg, ast.Name):
        return None
    bound = _only_value(ctx, arg.id)
    if bound is None:
        return None
    if _holds_tensor(ctx, bound):
        return "list" if isinstance(bound, ast.List) else "tuple"
    if isinstance(bound, ast.List) and not bound.elts and _appended_tensor(ctx, arg.id, call):
        return "list"
    return None


def _appended_tensor(ctx: FunctionContext, name: str, before: ast.Call) -> bool:
    """`name.append(t)` of a Tensor before `before`."""
    for call in ctx.of(ast.Call):
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "append"
            and isinstance(func.value, ast.Name)
            and func.value.id == name
            and len(call.args) == 1
            and (call.lineno, call.col_offset) < (before.lineno, before.col_offset)
            and _is_tensor(ctx, call.args[0])
        ):
            return True
    return False
