"""MS339: a view of a Tensor read after that part of the Tensor is written (swaps).

Measured with MindSpore 2.10 on CPU, at LAX and STRICT alike: PyNative's `y[i]` (a constant
index or slice) is a view of `y`, so it shows a later `y[i] = ...`; graph mode reads values.
`y[0], y[1] = y[1], y[0]` leaves both rows equal in PyNative (`[[2, 3], [2, 3], [4, 5]]` for
arange(6).reshape(3, 2)) and swaps them in graph mode (`[[2, 3], [0, 1], [4, 5]]`); the same
for columns (`y[:, 0], y[:, 1] = y[:, 1], y[:, 0]`), rows 0 and 2, a parameter `x` swapped in
place, the swap through a temporary (`tmp = y[0]; y[0] = y[1]; y[1] = tmp`), and
`old = y[0]; y[0] = 0; return old` (PyNative: zeros). What agrees: copies
(`y[1].copy()`, `y[0] * 1`), writing another part (`old = y[0]; y[1] = 5`), and a `@jit`
function (PyNative compiles it as well).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext
from .helpers.walk import of_type

STALE_VIEW = Rule(
    "MS339",
    "tensor-view-read-after-write",
    Group.DIVERGES,
    title="A view of a Tensor read after that part is written (e.g. a swap)",
    message=(
        "PyNative's `{view}` is a view of `{name}` and shows the write to `{written}`, while "
        "graph mode keeps the value read before; copy it first (`{view}.copy()`)."
    ),
    why=(
        "In PyNative indexing a Tensor gives a view, so a part read before a write to the same "
        "part changes with it (a swap copies one part over the other); graph mode reads values."
    ),
    remedy="Copy the part you keep (`y[i].copy()`) before writing, or index with a permutation.",
    mindspore_says="(compiles; PyNative gives a different result)",
)

BODIES = ("body", "orelse", "finalbody")


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    # Not cacheable: whether the function is a `jit` one may be said elsewhere (`jit(fn)`)
    if ctx.fn.level is not None:
        return  # a `jit` function: PyNative compiles it too, so both modes agree
    subscripts: list[ast.Subscript] = ctx.of(ast.Subscript)
    if not any(isinstance(s.ctx, ast.Store) for s in subscripts):
        return  # nothing written through an index (most functions): the walk below is costly
    for assign in ctx.of(ast.Assign):
        if isinstance(assign, ast.Assign):
            yield from _tuple_swap(ctx, assign)
    for node in ctx.nodes():
        for field in BODIES:
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield from _temporaries(ctx, block)


def _tuple_swap(ctx: FunctionContext, assign: ast.Assign) -> Iterator[RawFinding]:
    """`y[a], y[b] = y[b], y[a]`: the second value is read after `y[a]` is written."""
    if len(assign.targets) != 1:
        return
    target, value = assign.targets[0], assign.value
    if not isinstance(target, ast.Tuple) or not isinstance(value, ast.Tuple):
        return
    if len(target.elts) != 2 or len(value.elts) != 2:
        return
    views = [_view(ctx, e) for e in (*target.elts, *value.elts)]
    found = [v for v in views if v is not None]
    if len(found) != 4 or len({n for n, _ in found}) != 1:
        return
    keys = [k for _, k in found]
    if keys[0] == keys[1] or keys[0] != keys[3] or keys[1] != keys[2]:
        return
    view = value.elts[1]
    yield STALE_VIEW.finding(
        view, view=ast.unparse(view), name=found[0][0], written=ast.unparse(target.elts[0])
    )


def _temporaries(ctx: FunctionContext, block: list[ast.stmt]) -> Iterator[RawFinding]:
    """`t = y[k]`, later `y[k] = ...` (or `y[k] += ...`) in the same block, then `t` read."""
    for i, stmt in enumerate(block):
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            continue
        held = _view(ctx, stmt.value)
        if held is None:
            continue
        temp, (name, key) = stmt.targets[0].id, held
        written: Optional[ast.expr] = None
        for later in block[i + 1 :]:
            if written is not None:
                read = _first_load(later, temp)
                if read is not None:
                    yield STALE_VIEW.finding(
                        read, view=ast.unparse(stmt.value), name=name, written=ast.unparse(written)
                    )
                    break
            if _stores_name(later, (temp, name)):
                break
            if written is None:
                written = _writes(ctx, later, name, key)


def _view(ctx: FunctionContext, expr: ast.expr) -> Optional[tuple[str, str]]:
    """(Tensor name, index) of `y[k]` with a constant index or slice."""
    if not (isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name)):
        return None
    if not _basic(expr.slice) or not ctx.types.is_tensor(expr.value):
        return None
    return expr.value.id, _key(expr)


def _key(expr: ast.Subscript) -> str:
    return ast.dump(expr.slice)


def _basic(index: ast.expr) -> bool:
    if isinstance(index, ast.Tuple):
        return all(_basic(e) for e in index.elts)
    if isinstance(index, ast.Slice):
        parts = (index.lower, index.upper, index.step)
        return all(p is None or _int(p) for p in parts)
    return _int(index)


def _int(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) is int


def _writes(ctx: FunctionContext, stmt: ast.stmt, name: str, key: str) -> Optional[ast.expr]:
    """The `y[k]` this statement writes, when it is `y[k] = ...` or `y[k] op= ...`."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
    elif isinstance(stmt, ast.AugAssign):
        target = stmt.target
    else:
        return None
    return target if _view(ctx, target) == (name, key) else None


def _stores_name(stmt: ast.stmt, names: tuple[str, ...]) -> bool:
    return any(
        n.id in names and isinstance(n.ctx, (ast.Store, ast.Del)) for n in of_type(stmt, ast.Name)
    )


def _first_load(stmt: ast.stmt, name: str) -> Optional[ast.Name]:
    loads = [n for n in of_type(stmt, ast.Name) if n.id == name and isinstance(n.ctx, ast.Load)]
    return min(loads, key=lambda n: (n.lineno, n.col_offset)) if loads else None
