"""MS339: swapping two parts of one Tensor with `y[i], y[j] = y[j], y[i]`.

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike: PyNative's `y[j]` is a view of
`y`, so after `y[i] = y[j]` the view `y[i]` read on the right already holds the new values and
both parts end equal (`[[2, 3], [2, 3], [4, 5]]` for rows 0 and 1 of arange(6).reshape(3, 2));
graph mode reads values and really swaps them (`[[2, 3], [0, 1], [4, 5]]`). The same for
columns (`y[:, 0], y[:, 1] = y[:, 1], y[:, 0]`), rows 0 and 2, and a parameter `x` swapped in
place. What agrees: copies on the right (`y[1].copy(), y[0].copy()`), and a `@jit` function
(PyNative compiles it as well).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable

SWAP_OF_VIEWS = Rule(
    "MS339",
    "tensor-swap-views",
    Group.DIVERGES,
    title="Swapping two parts of one Tensor with a tuple assignment",
    message=(
        "PyNative reads `{right}` as views of `{name}`, so both parts end equal, while graph "
        "mode swaps them; copy the right side first (`{copy}`)."
    ),
    why=(
        "In PyNative a Tensor index gives a view; the first store changes what the second view "
        "holds, so the swap copies one part over the other. Graph mode reads values and swaps."
    ),
    remedy="Copy the parts on the right (`y[j].copy(), y[i].copy()`) or index with a permutation.",
    mindspore_says="(compiles; PyNative gives a different result)",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.level is not None:
        return  # a `jit` function: PyNative compiles it too, so both modes swap
    for assign in ctx.of(ast.Assign):
        if not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
            continue
        target, value = assign.targets[0], assign.value
        if not isinstance(target, ast.Tuple) or not isinstance(value, ast.Tuple):
            continue
        name = _swapped(target.elts, value.elts)
        if name is None or not ctx.types.is_tensor(target.elts[0].value):  # type: ignore[attr-defined]
            continue
        right = ", ".join(ast.unparse(e) for e in value.elts)
        copy = ", ".join(f"{ast.unparse(e)}.copy()" for e in value.elts)
        yield SWAP_OF_VIEWS.finding(assign, right=right, name=name, copy=copy)


def _swapped(targets: list[ast.expr], values: list[ast.expr]) -> str | None:
    """The Tensor name when `targets` are `n[a], n[b]` and `values` are `n[b], n[a]`."""
    if len(targets) != 2 or len(values) != 2:
        return None
    subs = [e for e in (*targets, *values) if isinstance(e, ast.Subscript)]
    if len(subs) != 4 or not all(isinstance(s.value, ast.Name) for s in subs):
        return None
    names = {s.value.id for s in subs if isinstance(s.value, ast.Name)}
    if len(names) != 1:
        return None
    keys = [ast.dump(s.slice) for s in subs]
    if keys[0] == keys[1] or keys[0] != keys[3] or keys[1] != keys[2]:
        return None
    return names.pop()
