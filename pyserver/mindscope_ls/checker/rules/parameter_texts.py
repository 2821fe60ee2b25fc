"""MS1111, MS3002: a Parameter turned into text in compiled code.

Measured with MindSpore 2.10 on CPU (round 36, `sf_`) against PyNative, where `str(p)` of a
Parameter is `Parameter (name=w, shape=(3,), dtype=Float32, requires_grad=True)`:
- `str(self.w)` fails at LAX ("the 'Parameter' object's method '__str__' is not supported in
  'construct'", no line named); under STRICT `str()` of any Tensor is MS204's. MS1111.
- `f'{self.w}'`, `f'w={self.w}'` (also printed) and `'{}'.format(self.w)` compile at LAX and
  give the Parameter's values (`[1. 1. 1.]`) where PyNative gives its repr: MS3002. Under STRICT
  they are MS309's / MS215's.
What agrees at LAX: `repr(self.w)`, `'%s' % self.w` (the fallback runs them in Python),
`str(self.w.shape)`, `str(self.w * 1)` (a Tensor computed from it: its values in both modes).

Round 37 (`cb_`), MS3002 widened to `print`: `print(self.w)` in a Cell's compiled code (also
`print('w:', self.w)`, `print((self.w, x))`, a local bound once to it, a helper method, a Tensor
`if`, after an `ops.assign`, `self.fc.weight` of a layer, `self.sub.w` of a workspace sub-Cell,
`for w in self.ws: print(w)` over a ParameterTuple)
writes the Parameter's values (`Tensor(shape=[3], ..., value=[...])`) at LAX and STRICT alike,
where PyNative writes `Parameter (name=w, shape=(3,), ...)`. Agree (no warning): `print` in an
`@ms.jit` method or function (PyNative compiles it too), `print(self.w * 1)`,
`print(self.w.value())`, `self.w.data`, `self.w.shape[0]`, `self.w.name`, a plain Tensor attribute,
and `ops.Print()(self.w)` (values in both modes).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import calls_shared
from .divergence_print_format import cell_prints
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

PARAMETER_STR = Rule(
    "MS1111",
    "parameter-str",
    Group.FAILS,
    title="`str()` of a Parameter in compiled code",
    message=(
        "`{text}`: graph mode has no `__str__` for a Parameter (at LAX; STRICT fails on "
        "`str()` of any Tensor); build the text outside compiled code, e.g. in `__init__`."
    ),
    why=(
        "A Parameter in compiled code is a reference to the graph's weight, not the Python "
        "object: its `__str__` is not among the methods graph mode translates."
    ),
    remedy="Keep `str(self.w)` (or `self.w.name`) in `__init__` and read that str in `construct`.",
    mindspore_says=(
        "RuntimeError: Failed to compile in GRAPH_MODE because the 'Parameter' object's method "
        "'__str__' is not supported in 'construct' or function with @jit decorator."
    ),
)

PARAMETER_TEXT = Rule(
    "MS3002",
    "parameter-formatted-as-values",
    Group.DIVERGES,
    title="A Parameter formatted into a str, or printed, in a Cell's compiled code",
    message=(
        "`{text}` writes the Parameter's values in graph mode (as its Tensor prints) where "
        "PyNative writes `Parameter (name=..., shape=..., ...)`; print or format "
        "`self.w.value()` (the values in both modes), or the name outside compiled code, if "
        "the text matters."
    ),
    why=(
        "Graph mode formats a Parameter like the Tensor it holds: `f'{self.w}'` gave "
        "'[1. 1. 1.]' in GRAPH_MODE where PyNative gave 'Parameter (name=w, shape=(3,), "
        "dtype=Float32, requires_grad=True)'."
    ),
    remedy="Build the text outside compiled code, or format the Tensor's values on purpose.",
    mindspore_says="(compiles; result differs from PyNative)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.cls is None or not ctx.fn.cls.is_cell:
        return
    yield from _printed(ctx)
    if ctx.level == SyntaxLevel.STRICT:
        return  # STRICT: `str()` of a Tensor is MS204's, formatting MS215's / MS309's
    for call in ctx.of(ast.Call):
        func = call.func
        if (
            isinstance(func, ast.Name)
            and func.id == "str"
            and len(call.args) == 1
            and _parameter(ctx, call.args[0])
            and calls_shared.builtin(ctx, "str")
        ):
            yield PARAMETER_STR.finding(call, text=ast.unparse(call))
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "format"
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
            and any(_parameter(ctx, a) for a in call.args)
        ):
            yield PARAMETER_TEXT.finding(call, text=ast.unparse(call))
    if ctx.fn.level is not None:
        return  # a `jit` function's f-strings: PyNative compiles them too
    for joined in ctx.of(ast.JoinedStr):
        for part in joined.values:
            if (
                isinstance(part, ast.FormattedValue)
                and part.conversion in (-1, ord("s"))
                and part.format_spec is None
                and _parameter(ctx, part.value)
            ):
                yield PARAMETER_TEXT.finding(part, text=ast.unparse(joined))
                break


def _printed(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`print(self.w)`: graph mode prints the values (both levels), PyNative the repr."""
    for call in cell_prints(ctx):
        if call.keywords:
            continue
        for arg in call.args:
            items = arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]
            if any(_printed_parameter(ctx, _held(ctx, item)) for item in items):
                yield PARAMETER_TEXT.finding(arg, text=ast.unparse(call))
                break


def _printed_parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`self.w`, `self.fc.weight`, or an item of a ParameterTuple (`for w in self.ws`)."""
    if isinstance(expr, (ast.Name, ast.Subscript)):
        return receivers.kind_of(ctx, expr) == receivers.PARAMETER
    return _parameter(ctx, expr)


def _held(ctx: FunctionContext, expr: ast.expr) -> ast.expr:
    """A local bound once (`p = self.w`) stands for its value."""
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            return bound
    return expr


def _parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and receivers.kind_of(ctx, expr) == receivers.PARAMETER
