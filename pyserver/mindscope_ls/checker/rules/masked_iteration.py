"""MS1035: a Tensor of run-time length (`ops.masked_select(...)`, `ops.unique(...)`'s values)
looped over by `enumerate`/`zip`, or collected into a list that `ops.stack` is given.

Measured with MindSpore 2.10 on CPU (PyNative runs them all), with `u = ops.masked_select(x,
x > k)` of a (4, 6) `x` and `u, _ = ops.unique(y)`:
- `for i, v in enumerate(u)` fails to compile at every level (LAX: no `RealMakeTuple` kernel;
  STRICT: "the primitive 'sequence_len' does not support" it), and `for a, b in zip(u, u)` /
  `zip(u, x.reshape(-1))` too ("For 'zip', the dynamic length input is unsupported in graph
  mode"), whatever the number selected;
- `[v * 2 for v in u]` or `for v in u: l.append(v)`, then `ops.stack(l)`: the graph's list is
  empty ("For 'Stack', the 'len of input_x' must be int and must >= 1, but got '0'"), at
  every level, whatever the number selected.
Left alone, because the verdict depends on the data: a plain `for v in u: s = s + v`, `list(u)`,
`tuple(u)` (an index past the selected elements fails for 18 of 24 selected, not for 11),
`list(enumerate(u))` unused (LAX compiles it), `ops.concat` of such a list (STRICT compiled it
for `unique`). `len(u)` (which reads a wrong number: MS372), `u.sum()`, `u.shape[0]`,
`a, b = u[:2]` compile; `x[x > 3]` and `ops.nonzero(...)` iterated compiled, and
`mint.unique` has no CPU kernel (PyNative fails too).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional, Union

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.dynamic_shapes import dynamic_call, unpacked_unique
from .tensor_views import only_binding

ITERATED_DYNAMIC_LENGTH = Rule(
    "MS1035",
    "dynamic-length-tensor-looped",
    Group.FAILS,
    title="A `masked_select`/`unique` result zipped, enumerated or stacked from a loop",
    message=(
        "{how} `{source}`, whose length is known only when it runs: graph mode {fails} at every "
        "level (PyNative runs it); compute on the whole Tensor instead (`ops.where(mask, x, 0)`, "
        "`u.sum()`, `u * w`)."
    ),
    why=(
        "`masked_select` and `unique` give Tensors of dynamic shape; graph mode's `enumerate` and "
        "`zip` need a static length, and a Python list grown over such a Tensor stays empty in "
        "the compiled graph."
    ),
    remedy=(
        "Keep the full shape and mask the values (`ops.where(mask, x, 0)`), or compute on the "
        "selected Tensor with Tensor ops instead of a Python loop."
    ),
    mindspore_says=(
        "RuntimeError: For 'zip', the dynamic length input is unsupported in graph mode. / "
        "ValueError: For 'Stack', the 'len of input_x' must be int and must >= 1, but got '0'"
    ),
)

STACK = frozenset({"mindspore.ops.stack", "mindspore.ops.function.array_func.stack"})
Loop = Union[ast.For, ast.comprehension]


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    if not any(_dynamic_call(ctx, c) for c in calls):
        return
    loops: list[Loop] = [*ctx.of(ast.For), *ctx.of(ast.comprehension)]
    for loop in loops:
        yield from _zipped(ctx, loop.iter)
    stacked, stacked_names = _stacked(ctx, calls)
    for loop in loops:
        source = _source(ctx, loop.iter)
        if source is not None and _collected_for_stack(ctx, loop, stacked, stacked_names):
            yield ITERATED_DYNAMIC_LENGTH.finding(
                loop.iter,
                how="A list collected over",
                source=source,
                fails="keeps that list empty and `ops.stack` of it fails ('len of input_x' 0)",
            )


def _zipped(ctx: FunctionContext, it: ast.expr) -> Iterator[RawFinding]:
    """`enumerate(u)` / `zip(..., u, ...)` as a loop's iterable."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)) or it.keywords:
        return
    name = it.func.id
    if name not in ("enumerate", "zip") or not calls_shared.builtin(ctx, name):
        return
    args = it.args[:1] if name == "enumerate" else it.args
    for arg in args:
        source = _source(ctx, arg)
        if source is not None:
            fails = (
                "cannot enumerate such a Tensor"
                if name == "enumerate"
                else "cannot zip such a Tensor ('the dynamic length input is unsupported')"
            )
            yield ITERATED_DYNAMIC_LENGTH.finding(
                arg, how=f"`{name}()` loops over", source=source, fails=fails
            )
            return


def _stacked(ctx: FunctionContext, calls: list[ast.Call]) -> tuple[set[int], set[str]]:
    """The ids of the list expressions `ops.stack` is given (a name's one value too), and the
    names it is given."""
    found: set[int] = set()
    found_names: set[str] = set()
    for call in calls:
        if not call.args or names.callee(ctx.fn.module, call.func) not in STACK:
            continue
        first = call.args[0]
        found.add(id(first))
        value = only_binding(ctx, first)
        if value is not None:
            found.add(id(value))
        if isinstance(first, ast.Name):
            found_names.add(first.id)
    return found, found_names


def _collected_for_stack(
    ctx: FunctionContext, loop: Loop, stacked: set[int], stacked_names: set[str]
) -> bool:
    """The loop builds a list `ops.stack` is given: a list comprehension, or a `for` whose body
    appends to a name that is stacked."""
    if isinstance(loop, ast.comprehension):
        comps: list[ast.ListComp] = ctx.of(ast.ListComp)
        return any(loop in c.generators and id(c) in stacked for c in comps)
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in stacked_names
        ):
            return True
    return False


def _source(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The text of the run-time-length Tensor `expr` is: the call itself, or a name's one
    binding (`u = ops.masked_select(...)`, `u, _ = ops.unique(...)`)."""
    if _dynamic_call(ctx, expr) == "masked_select":
        return ast.unparse(expr)
    if not isinstance(expr, ast.Name):
        return None
    value = only_binding(ctx, expr)
    if value is not None:
        return f"{expr.id} = {ast.unparse(value)}" if _dynamic_call(ctx, value) else None
    unpacked = unpacked_unique(ctx, expr.id)
    return f"{expr.id} = {ast.unparse(unpacked)}[0]" if unpacked is not None else None


def _dynamic_call(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """ "masked_select" / "unique" when `expr` calls one of them (`nonzero` iterated compiled)."""
    found = dynamic_call(ctx, expr)
    return found if found in ("masked_select", "unique") else None
