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
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import calls_shared
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
    title="A Parameter formatted into a str in compiled code",
    message=(
        "`{text}` writes the Parameter's values in graph mode (as its Tensor prints) where "
        "PyNative writes `Parameter (name=..., shape=..., ...)`; format `self.w.asnumpy()` or "
        "the name outside compiled code if the text matters."
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
    if ctx.fn.cls is None or not ctx.fn.cls.is_cell or ctx.level == SyntaxLevel.STRICT:
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


def _parameter(ctx: FunctionContext, expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and receivers.kind_of(ctx, expr) == receivers.PARAMETER
