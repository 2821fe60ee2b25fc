"""MS1010: `x[mask] op= v`, with `mask` a bool Tensor.

Measured with MindSpore 2.10 on CPU against PyNative (`x` of shape (2, 3), `mask = x > 0.5`):
`x[x > 0.5] += 1`, `x[m] *= 2`, `x[m] -= y[0, 0]` and `x[m] = x[m] * 2` fail ("For
'BroadcastTo', in order to broadcast, each dimension pair must be equal ... But got x_shape:
{3, 1}, target shape: {2, 3}"): the masked read has a shape known only at run time, and the
masked write broadcasts the value to the whole Tensor. STRICT fails while compiling; LAX when
it runs, unless the mask happens to select every element (random inputs passed some runs).
`x[m] = 0.0`, `x[m] = Tensor(1.0)`, `x[m] = y` with `y` of `x`'s shape, and `x[0] += 1` /
`x[:, 0] *= 2` compile and run.

Also a row written through a mask of rows (`x` of shape (4, 6), `m = x.sum(1) > 10`): `x[m] =
x[0]`, `x[m] = x.mean(0)`, `x[m] = Tensor(np.ones((6,)))` fail at LAX and STRICT ("operands
could not be broadcast together with remapped shapes ... (6,1) and requested shape (4,6)";
PyNative writes the row into each selected one); a value of shape (1, 6) or (1,) compiles. So a
1-D value of static shape other than (1,) written into a 2-D Tensor through a mask is reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers, shared_values
from .helpers.base import FunctionContext, cacheable

MASKED_UPDATE = Rule(
    "MS1010",
    "masked-update-of-masked-values",
    Group.FAILS,
    title="`x[mask] op= v` (or a row `x[m] = x[0]`) with a bool Tensor mask",
    message=(
        "`{text}` writes {what} back through the bool mask `{mask}`, which graph mode cannot "
        "broadcast; write `{target} = ops.where({mask}, <new values>, {target})`."
    ),
    why=(
        "A read through a bool mask has a shape known only at run time; the masked write "
        "broadcasts its value to the whole Tensor's shape and fails (STRICT while compiling, "
        "LAX when it runs)."
    ),
    remedy="Use `ops.where(mask, new_values, x)`, or set masked elements to one scalar.",
    mindspore_says=(
        "ValueError: For 'BroadcastTo', in order to broadcast, each dimension pair must be "
        "equal or input dimension is 1 or target dimension is -1."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    nodes: list[ast.AugAssign | ast.Assign] = ctx.of(ast.AugAssign, ast.Assign)
    for node in nodes:
        target = node.target if isinstance(node, ast.AugAssign) else node.targets[0]
        if not isinstance(target, ast.Subscript) or not ctx.types.is_tensor(target.value):
            continue
        mask = _bool_mask(ctx, target.slice)
        if mask is None:
            continue
        what = "values computed from the masked elements"
        if isinstance(node, ast.Assign) and not _reads_masked(node.value, target):
            row = _row(ctx, node.value, target.value)
            if row is None:
                continue
            what = f"a value of shape {row}"
        yield MASKED_UPDATE.finding(
            node,
            what=what,
            text=ast.unparse(node),
            mask=ast.unparse(target.slice),
            target=ast.unparse(target.value),
        )


def _bool_mask(ctx: FunctionContext, index: ast.expr) -> Optional[ast.expr]:
    """A comparison of Tensors (`x > 0.5`, `(a == b) & m`), directly or through a local bound
    once to one."""
    if isinstance(index, ast.Name):
        index = receivers.only_binding(ctx, index.id) or index
    if isinstance(index, ast.BinOp) and isinstance(index.op, (ast.BitAnd, ast.BitOr)):
        sides = (index.left, index.right)
        return index if all(_bool_mask(ctx, s) is not None for s in sides) else None
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.Invert):
        return _bool_mask(ctx, index.operand)
    if isinstance(index, ast.Compare) and ctx.types.is_tensor(index):
        return index
    return None


def _reads_masked(value: ast.expr, target: ast.Subscript) -> bool:
    """The value reads `x[mask]`, the same masked elements it is written to."""
    wanted = ast.dump(target)
    return any(
        isinstance(n, ast.Subscript)
        and ast.dump(ast.Subscript(n.value, n.slice, target.ctx)) == wanted
        for n in ast.walk(value)
    )


def _row(ctx: FunctionContext, value: ast.expr, written: ast.expr) -> Optional[str]:
    """The static shape of a 1-D value (not `(1,)`) written into a 2-D Tensor (`x[0]`,
    `x.mean(0)`), as text."""
    shapes = shared_values.shapes(ctx)
    shape = shapes.of(value)
    whole = shapes.of(written)
    if shape is None or whole is None or len(whole) != 2 or len(shape) != 1:
        return None  # measured on a 2-D Tensor and a row
    if all(d == 1 for d in shape) or any(d < 0 for d in shape):
        return None
    return str(shape)
