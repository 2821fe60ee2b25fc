"""MS222: a tuple or list holding Tensors sliced at a bound known only at run time, under STRICT.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (each ran in PyNative):
with `t = (x, x + 1, x + 2)` or the list `[x, x + 1, x + 2]`, `t[n:]`, `t[:n]`, `t[0:n:1]` fail
under STRICT when `n` is `mutable(1)`, a parameter every caller passes `mutable(1)` for, or a
number read from a Tensor (`n = int(x[0])`): "In JIT strict mode, the primitive
'SequenceSlice' does not support the following argument types". LAX compiles them (its
fallback slices), and so does STRICT for `t[n]` (an item), a tuple of numbers `(1, 2, 3)[n:]`
and a Tensor `x[n:]`. A Tensor bound is MS220's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .builtins import variable_number
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract
from .mutable_scalars import through_mutable_parameters
from .subscripts import SEQUENCES, not_all_0d

VARIABLE_SLICE_UNDER_STRICT = Rule(
    "MS222",
    "variable-slice-of-tensors-under-strict",
    Group.STRICT,
    title="A tuple or list of Tensors sliced at a run-time bound, under STRICT",
    message=(
        "`{text}` slices a {kind} holding Tensors at `{bound}`, {what}; under "
        "jit_syntax_level=STRICT the sequence slice takes only constant bounds for Tensor "
        "items: slice with constants, or stack the items into a Tensor and slice that."
    ),
    why=(
        "Graph mode compiles a slice of a tuple or list with a variable bound to the "
        "`SequenceSlice` primitive, which under STRICT accepts sequences of numbers only; LAX "
        "hands such a slice of Tensors to its Python fallback."
    ),
    remedy=(
        "Slice with constant bounds, `ops.stack` the items and slice the Tensor, or keep the "
        "number a Python constant (not `mutable()`, not read from a Tensor)."
    ),
    mindspore_says=(
        "TypeError: In JIT strict mode, the primitive 'SequenceSlice' does not support the "
        "following argument types."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _findings(ctx, frozenset())


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """The same through a parameter every call of the entry point passes `mutable(k)` for; it
    reads the callers, so it is not cacheable."""
    if any(isinstance(s.slice, ast.Slice) for s in ctx.of(ast.Subscript)):
        yield from through_mutable_parameters(ctx, lambda params: _findings(ctx, params))


def _findings(ctx: FunctionContext, params: frozenset[str]) -> Iterator[RawFinding]:
    slices = [
        s
        for s in ctx.of(ast.Subscript)
        if isinstance(s.slice, ast.Slice) and isinstance(s.ctx, ast.Load)
    ]
    if not slices:
        return
    values = abstract(ctx)
    for node in slices:
        index = node.slice
        assert isinstance(index, ast.Slice)
        found = next(
            (
                (b, what)
                for b in (index.lower, index.upper, index.step)
                if b is not None and (what := variable_number(ctx, [b], True, params))
            ),
            None,
        )
        if found is None:
            continue
        target = values.of(node.value)
        if target is None or target.kind not in SEQUENCES:
            continue
        if not any(v is not None and v.kind == "tensor" for v in target.items or ()):
            continue
        if not not_all_0d(ctx, values, node.value):
            continue
        bound, what = found
        yield VARIABLE_SLICE_UNDER_STRICT.finding(
            node, text=ast.unparse(node), kind=target.kind, bound=ast.unparse(bound), what=what
        )
