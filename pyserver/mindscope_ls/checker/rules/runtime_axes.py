"""MS1011, MS236: a number read from a graph Tensor where an op needs a compile-time constant.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (all ran there), `x` of
shape (2, 3, 4) and `n = int(k)` of an int32 Tensor argument (likewise `int(f)` of a float32
Tensor, `k64.item()` of an int64 one, `int(k) * 2 - 1`), which graph mode keeps a variable
scalar; so does a number made by `mutable()`, here (`axis = mutable(1)`) or by every caller
(`Net()(x, mutable(2))`: measured the same for `ops.stack`, `ops.split`, `ops.chunk`,
`ops.sort`, `ops.tril`, `ops.pad`, and at STRICT `x.expand_dims` and `ops.swapaxes`):
- MS1011, every level: a split size or count (`ops.split(x, n, 1)`, `x.split(n, 1)`,
  `ops.chunk(x, n, 1)`, `x.chunk(n, 1)`, `ops.tensor_split(x, n, 1)`: "For Split, the
  output_num is ValueAny"), the axis of `ops.tensor_split` / `x.tensor_split` (round 36: "Graph
  cycle exists" at LAX), the axis of `ops.split` / `x.split` / `ops.chunk` / `x.chunk`,
  `ops.stack(xs, n)` / `ops.unstack(x, n)` / `ops.unbind(x, n)` / `x.unbind(n)` ("When creating
  an instance of 'Stack', all arguments are required to be constants"), the repeats or axis of
  `ops.repeat_interleave` / `x.repeat_interleave`, `ops.movedim` / `ops.moveaxis` (and the
  methods) with a run-time source or destination (also inside a tuple), the axis of `ops.sort`,
  `ops.argsort`, `ops.median` (and the methods: "When creating an instance of 'Sort', all
  arguments are required to be constants"), `ops.index_select`, `ops.glu`, `ops.renorm`,
  `ops.vector_norm`, `ops.topk`'s `dim` (its `k` compiles), `ops.tril`'s diagonal (`ops.triu`'s
  compiles), `ops.diag_embed`'s offset, `ops.eye(n + 1, m)` (arithmetic on the number: a
  plain `n = int(k)` or `int(x[0, 3])` as `eye`'s size compiles, measured again), and an
  element of `ops.pad`'s padding
  ("there are unknown values in the paddings value"), `ops.adaptive_avg_pool2d`'s output size,
  the kernel size of `ops.avg_pool1d` / `ops.max_pool2d`, `ops.cross`'s dim, `ops.dropout`'s p
  and `ops.unsorted_segment_sum`'s segment count.
- MS236, STRICT only: `x.expand_dims(n)` (the method; `ops.expand_dims(x, n)` compiles),
  `ops.swapaxes` / `x.swapaxes` / `ops.swapdims` / `x.swapdims` ("output index [0] large than
  the output size [0] of node!"), `ops.flatten(x, start_dim=n)` / `x.flatten(end_dim=n)`, the
  axis of `ops.std` / `ops.var` / `ops.std_mean` / `x.std` / `x.var`, an element of
  `ops.interpolate`'s size, `ops.adaptive_avg_pool1d`'s output size, the axis of
  `ops.cummin` / `ops.logcumsumexp`, of `x.cumsum(n)` / `x.cumsum(axis=n)` (the method; round
  36: `ops.cumsum(x, n)` compiles), `ops.diff`'s n, a boundary of `ops.bucketize`, and any
  of `ops.narrow(x, axis, start, length)` / `x.narrow(...)`: their argument checks run as
  Python through the fallback, which STRICT refuses for a variable.
Compile at both levels (so are not reported): `ops.concat(xs, n)`, `ops.cat`, `ops.gather(x,
i, n)`, `x.sum(axis=n)`, `x.mean(n)`, `ops.argmax(x, n)`, `ops.softmax(x, n)`,
`ops.cumsum(x, n)`, `x.reshape(n, -1)`, `x.view(n, -1)`, `ops.tile(x, (n, 1, 1))`,
`x.transpose(n, 0, 2)`, `x.permute(...)`, `ops.zeros((n, 2))`, `ops.full`, `ops.ones(n)`,
`ops.squeeze`, `ops.unsqueeze`, `ops.flip`, `ops.broadcast_to`, `ops.topk(x, n)`,
`ops.narrow` at LAX, `x[n:]`, `x[:, n:]`, `x[::n]`, `x[n]`, `ops.split(x, [n, 2], 1)` (sizes
as a list), `ops.triu`, `ops.diagonal`, `ops.cumprod`, `ops.logsumexp`, `ops.norm(x, dim=n)`,
`ops.linspace`, `ops.range`, `ops.one_hot`, `ops.cummax`, `ops.rot90`, `ops.randperm`,
`ops.multinomial`, `ops.amin`, `ops.min`/`ops.max`/`ops.mean`/`ops.prod`/`ops.all` axes,
`ops.gather_elements`, `ops.scatter`, `ops.split(x, (n, 3), 0)`, and primitives built with
one (`ops.Concat(n)`, `ops.Softmax(n)`, `ops.ArgMaxWithValue(axis=n)`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import NamedTuple, Optional

from ..facts import FACTS
from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .mutable_scalars import mutable_number, through_mutable_parameters

RUNTIME_COUNT_OR_AXIS = Rule(
    "MS1011",
    "runtime-count-or-axis",
    Group.FAILS,
    title="A number read from a Tensor as a split count or a stack/split axis",
    message=(
        "`{arg}` is a variable number in the graph (read from a Tensor or made by `mutable()`), "
        "passed as {what} of `{call}`, which graph mode needs as a constant; use a Python "
        "constant or a shape "
        "(`x.shape[i]`) there."
    ),
    why=(
        "A Python number read from a graph Tensor (`int(t)`, `t.item()`) stays a variable "
        "scalar in graph mode; the number of outputs of a split and the axis of a stack, "
        "split or move must be known when the graph is built."
    ),
    remedy=(
        "Pass a Python constant or a value derived from static shapes (`x.shape[1] // 2`); "
        "for a run-time size, slice the Tensor (`x[:, :n]`) instead."
    ),
    mindspore_says=(
        "RuntimeError: For Split, the output_num is ValueAny, which is not supported now."
    ),
)

RUNTIME_AXIS_UNDER_STRICT = Rule(
    "MS236",
    "runtime-axis-under-strict",
    Group.STRICT,
    title="A number read from a Tensor as the axis of `expand_dims`/`swapaxes`/`flatten`/`narrow`",
    message=(
        "`{arg}` is a variable number in the graph (read from a Tensor or made by `mutable()`), "
        "passed as {what} of `{call}`, whose checks jit_syntax_level=STRICT runs only on "
        "constants; use a Python constant "
        "there{alternative}."
    ),
    why=(
        "A Python number read from a graph Tensor stays a variable scalar; these calls check "
        "their axis arguments in Python code that only LAX's fallback can run on a variable."
    ),
    remedy=(
        "Pass a Python constant or a shape-derived value; `ops.expand_dims(x, n)` / "
        "`ops.unsqueeze(x, n)` accept a variable axis; or use the default LAX level."
    ),
    mindspore_says=(
        "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the "
        "inputs should be constant, but found variable '__input_0__' to be nonconstant."
    ),
)


class Param(NamedTuple):
    position: Optional[int]  # in the `ops.` function, the Tensor first; None: keyword-only
    keyword: str
    what: str
    elements: bool = False  # a tuple/list given there fails when one of its elements would
    computed: bool = False  # only arithmetic on the number fails (a plain `int(t)` compiles)


class Op(NamedTuple):
    function: bool  # `ops.<name>(x, ...)` is affected
    method: bool  # `x.<name>(...)` is affected
    params: tuple[Param, ...]


_AXIS = "the axis"
_MOVED = (
    Param(1, "source", "the source axis", elements=True),
    Param(2, "destination", _AXIS, elements=True),
)
# MS1011: fail at every level with a run-time value (measured, see the docstring).
EVERY_LEVEL: dict[str, Op] = {
    "split": Op(
        True,
        True,
        (Param(1, "split_size_or_sections", "the split size"), Param(2, "axis", _AXIS)),
    ),
    "chunk": Op(True, True, (Param(1, "chunks", "the number of chunks"), Param(2, "axis", _AXIS))),
    "tensor_split": Op(
        True,
        True,
        (Param(1, "indices_or_sections", "the number of sections"), Param(2, "axis", _AXIS)),
    ),
    "stack": Op(True, False, (Param(1, "axis", _AXIS),)),
    "unstack": Op(True, False, (Param(1, "axis", _AXIS),)),
    "unbind": Op(True, True, (Param(1, "dim", _AXIS),)),
    "repeat_interleave": Op(
        True, True, (Param(1, "repeats", "the repeats"), Param(2, "axis", _AXIS))
    ),
    "movedim": Op(True, True, _MOVED),
    "moveaxis": Op(True, True, _MOVED),
    "sort": Op(True, True, (Param(1, "axis", _AXIS),)),
    "argsort": Op(True, True, (Param(1, "axis", _AXIS),)),
    "median": Op(True, True, (Param(1, "axis", _AXIS),)),
    "index_select": Op(True, True, (Param(1, "axis", _AXIS),)),
    "tril": Op(True, True, (Param(1, "diagonal", "the diagonal"),)),
    "renorm": Op(True, True, (Param(2, "axis", _AXIS),)),
    "topk": Op(True, True, (Param(2, "dim", _AXIS),)),
    "glu": Op(True, False, (Param(1, "axis", _AXIS),)),
    "vector_norm": Op(True, False, (Param(2, "dim", _AXIS),)),
    "diag_embed": Op(True, False, (Param(1, "offset", "the offset"),)),
    "eye": Op(
        True,
        False,
        (
            Param(0, "n", "the number of rows", computed=True),
            Param(1, "m", "the columns", computed=True),
        ),
    ),
    "pad": Op(True, False, (Param(1, "padding", "the padding", elements=True),)),
    "adaptive_avg_pool2d": Op(
        True, False, (Param(1, "output_size", "the output size", elements=True),)
    ),
    "avg_pool1d": Op(True, False, (Param(1, "kernel_size", "the kernel size"),)),
    "max_pool2d": Op(True, False, (Param(1, "kernel_size", "the kernel size", elements=True),)),
    "cross": Op(True, False, (Param(2, "dim", _AXIS),)),
    "dropout": Op(True, False, (Param(1, "p", "the drop probability"),)),
    "unsorted_segment_sum": Op(True, False, (Param(2, "num_segments", "the segment count"),)),
}
# MS236: fail at STRICT only.
STRICT_ONLY: dict[str, Op] = {
    "expand_dims": Op(False, True, (Param(1, "axis", _AXIS),)),
    "swapaxes": Op(True, True, (Param(1, "axis0", _AXIS), Param(2, "axis1", _AXIS))),
    "swapdims": Op(True, True, (Param(1, "dim0", _AXIS), Param(2, "dim1", _AXIS))),
    "flatten": Op(
        True, True, (Param(None, "start_dim", "the start axis"), Param(None, "end_dim", _AXIS))
    ),
    "narrow": Op(
        True,
        True,
        (Param(1, "axis", _AXIS), Param(2, "start", "the start"), Param(3, "length", "the length")),
    ),
    "std": Op(True, True, (Param(1, "axis", _AXIS),)),
    "var": Op(True, True, (Param(1, "axis", _AXIS),)),
    "std_mean": Op(True, False, (Param(1, "axis", _AXIS),)),
    "interpolate": Op(True, False, (Param(1, "size", "the size", elements=True),)),
    "adaptive_avg_pool1d": Op(True, False, (Param(1, "output_size", "the output size"),)),
    "cummin": Op(True, False, (Param(1, "axis", _AXIS),)),
    "logcumsumexp": Op(True, False, (Param(1, "axis", _AXIS),)),
    "cumsum": Op(False, True, (Param(1, "axis", _AXIS),)),
    "diff": Op(True, False, (Param(1, "n", "the order"),)),
    "bucketize": Op(True, False, (Param(1, "boundaries", "a boundary", elements=True),)),
}
OPS = "mindspore.ops."
_AFFECTED = frozenset(EVERY_LEVEL) | frozenset(STRICT_ONLY)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _findings(ctx, frozenset())


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The same through a parameter every call of the entry point passes `mutable(k)` for
    (`Net()(x, mutable(1))`, then `ops.stack(xs, m)`: measured, the same errors); it reads
    the callers, so it is not cacheable."""
    if not ctx.fn.module.mentions("mutable"):
        return
    if not any(_called(ctx, call)[0] in _AFFECTED for call in ctx.of(ast.Call)):
        return
    yield from through_mutable_parameters(ctx, lambda params: _findings(ctx, params))


def _findings(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    """Every argument that is a variable number, counting `params` as `mutable()` ones."""
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        name, shift = _called(ctx, call)
        if name is None:
            continue
        for arg, what in _runtime_arguments(ctx, call, EVERY_LEVEL.get(name), shift, params):
            yield RUNTIME_COUNT_OR_AXIS.finding(
                arg, arg=ast.unparse(arg), what=what, call=ast.unparse(call)
            )
        for arg, what in _runtime_arguments(ctx, call, STRICT_ONLY.get(name), shift, params):
            yield RUNTIME_AXIS_UNDER_STRICT.finding(
                arg,
                arg=ast.unparse(arg),
                what=what,
                call=ast.unparse(call),
                alternative=_alternative(name),
            )


def _runtime_arguments(
    ctx: FunctionContext,
    call: ast.Call,
    op: Optional[Op],
    shift: int,
    params: frozenset[str] = frozenset(),
) -> Iterator[tuple[ast.expr, str]]:
    """(argument, what it is) for each of `op`'s parameters given a variable number: read from
    a Tensor or made by `mutable()` (here, or by the callers of `params`)."""
    if op is None or not (op.method if shift else op.function):
        return
    for param in op.params:
        arg = _argument(call, param, shift)
        if arg is None:
            continue
        given = arg.elts if param.elements and isinstance(arg, (ast.Tuple, ast.List)) else [arg]
        for value in given:
            if ctx.types.is_tensor(value):
                continue
            if _variable(ctx, value, params) and not (
                param.computed and not _arithmetic(ctx, value)
            ):
                yield value, param.what


def _variable(ctx: FunctionContext, value: ast.expr, params: frozenset[str]) -> bool:
    return receivers.runtime_scalar(ctx, value) or mutable_number(ctx, value, params=params)


def _arithmetic(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """`n + 1`, `-n`, `int(k) * 2 - 3` (directly or through a local bound once to it): graph
    mode feeds `eye` a scalar op's output, which it refuses ("a tensor type is required but the
    actual is scalar"); a plain `n = int(k)` / `k.item()` compiles (measured on 2.10)."""
    if isinstance(expr, ast.Name) and depth < 8:
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _arithmetic(ctx, bound, depth + 1)
    return isinstance(expr, ast.BinOp) or (
        isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub)
    )


def _called(ctx: FunctionContext, call: ast.Call) -> tuple[Optional[str], int]:
    """(the op's name, 1 for a Tensor method / 0 for an `ops.` function), or (None, 0)."""
    func = call.func
    qualname = names.callee(ctx.fn.module, func)
    if qualname is not None and qualname.startswith(OPS) and names.is_ops_call(qualname):
        return qualname.rsplit(".", 1)[-1], 0
    if isinstance(func, ast.Attribute) and receivers.tensor_or_parameter(ctx, func.value):
        # `x.split(n, dim=1)` selects the `dim=` overload MS179 reports on CPU
        if FACTS.cpu_overload(func.attr) is not None and any(k.arg == "dim" for k in call.keywords):
            return None, 0
        return func.attr, 1
    return None, 0


def _argument(call: ast.Call, param: Param, shift: int) -> Optional[ast.expr]:
    """The argument given for `param` (positions count the Tensor for `ops.` functions)."""
    for keyword in call.keywords:
        if keyword.arg == param.keyword:
            return keyword.value
    if param.position is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    index = param.position - shift
    return call.args[index] if index < len(call.args) else None


def _alternative(name: str) -> str:
    if name == "expand_dims":
        return " or call `ops.expand_dims(x, n)`, which accepts a variable axis"
    return ""
