"""MS357: a Tensor taken out of another (index, slice, view method), written by item, the
original read afterwards.

Measured with MindSpore 2.10 on CPU at LAX against PyNative: in PyNative an indexed Tensor
or a view shares the original's memory, so writing one of its items writes the original; in
GRAPH_MODE it is a new value and the original keeps its items. `y = x[0]; y[1] = 9.0;
return x` gave x with a 9 in PyNative and x unchanged in GRAPH_MODE; so did `y = x[:, 1]`,
`y = x[1:]` then `y[...] = 0.0`, `y = x[x > 5]` and `y = x[[0, 1]]` (PyNative writes back
even through these), `y[1] += 9.0`, `y = x.reshape(12)` / `x.view(12)` / `x.T` /
`x.narrow(0, 0, 1)` / `x[0:1].squeeze(0)`, a Parameter's row (`r = self.p[0]; r[0] = 1.0`),
and the chained `x[1:][0] = 7.0` / `x[1:][0] += 5.0`. They agree: `y = x[0].copy()`,
`y = x[0] * 1`, `y += 1` on the whole of `y`, `y` rebound before the write, `x` not read
after the write, and chained writes graph mode rewrites into one index (`x[1][2] = 5.0`,
`x[0][1:] = 0.0`, `x[:, 0][1] = 5.0`, `x[..., 0][1] = 5.0`, `x[1:, :][0] = 7.0`), and an
`@ms.jit` function (PyNative compiles it as well). `y = x.astype(x.dtype)` (the same Tensor
in PyNative) and `ops.reshape(x, ...)` diverge too but are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .decorated_helpers import compiled_by_jit
from .helpers import names
from .helpers.base import FunctionContext, cacheable
from .helpers.walk import of_type

VIEW_WRITE = Rule(
    "MS357",
    "tensor-view-item-written",
    Group.DIVERGES,
    title="An item of a Tensor taken out of another written, the original read afterwards",
    message=(
        "`{write}` writes into `{name}`, {how} `{base}`: PyNative shares the memory and "
        "changes `{base}` too, but in GRAPH_MODE `{name}` is a new Tensor and `{base}`, read "
        "afterwards, keeps its old values; write into `{base}` itself (`{hint}`)."
    ),
    why=(
        "In PyNative an index, slice or view of a Tensor shares its storage, so an item "
        "assignment through it changes the original; graph mode compiles the index into a "
        "new value and the assignment into an update of that value only."
    ),
    remedy=(
        "Assign through the original with one index (`x[0, 1] = v`), or take a `.copy()` "
        "when the original must not change."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

# methods whose result PyNative shares with the receiver (measured: each diverges)
_VIEW_METHODS = frozenset(
    {
        "reshape",
        "view",
        "narrow",
        "squeeze",
        "flatten",
        "expand_dims",
        "unsqueeze",
        "transpose",
        "swapaxes",
    }
)
_VIEW_ATTRS = frozenset({"T"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if compiled_by_jit(ctx):  # PyNative compiles an `@ms.jit` function too: both agree
        return
    fn = ctx.fn.node
    for write in _item_writes(fn):
        target = write.targets[0] if isinstance(write, ast.Assign) else write.target
        if not isinstance(target, ast.Subscript):
            continue
        inner = target.value
        if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Slice):
            # `x[1:][0] = v`: a slice's item (graph mode folds other chained indexes)
            base = _base_key(inner.value)
            if (
                base is not None
                and _plain_slice(inner.slice)
                and ctx.types.is_tensor(inner.value)
                and _read_after(fn, base, write)
            ):
                yield _finding(write, ast.unparse(inner), "a slice of", base)
            continue
        if not isinstance(inner, ast.Name):
            continue
        source = _single_view_binding(ctx, fn, inner.id, write)
        if source is None:
            continue
        assign, base, how = source
        if _rebound_between(fn, base, assign, write) or not _read_after(fn, base, write):
            continue
        yield _finding(write, inner.id, how, base)


def _finding(write: ast.stmt, name: str, how: str, base: str) -> RawFinding:
    return VIEW_WRITE.finding(
        write,
        write=names.short(write),
        name=name,
        how=how,
        base=base,
        hint=f"{base}[i, j] = v",
    )


def _item_writes(fn: ast.AST) -> list[ast.Assign | ast.AugAssign]:
    found: list[ast.Assign | ast.AugAssign] = []
    for node in of_type(fn, ast.Assign, ast.AugAssign):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            if isinstance(node.targets[0], ast.Subscript):
                found.append(node)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript):
            found.append(node)
    found.sort(key=lambda n: (n.lineno, n.col_offset))
    return found


def _plain_slice(s: ast.Slice) -> bool:
    """`1:` / `1:3` / `::2` with constant bounds (what was measured)."""
    parts = [p for p in (s.lower, s.upper, s.step) if p is not None]
    return bool(parts) and all(isinstance(p, ast.Constant) for p in parts)


def _base_key(expr: ast.AST) -> Optional[str]:
    """`x` or `self.p`: a base whose later reads can be found by its text."""
    if isinstance(expr, ast.Name):
        return expr.id
    attr = names.self_attribute(expr) if isinstance(expr, ast.expr) else None
    return None if attr is None else f"self.{attr}"


def _single_view_binding(
    ctx: FunctionContext, fn: ast.AST, name: str, write: ast.stmt
) -> Optional[tuple[ast.Assign, str, str]]:
    """The one binding of `name` in the function, before `write`, to an index or view of a
    Tensor base (`y = x[0]`, `y = self.p[1:]`, `y = x.reshape(12)`, `y = x.T`)."""
    bindings = [
        n
        for n in ast.walk(fn)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
    ]
    if len(bindings) != 1:
        return None
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and node.targets[0] is bindings[0]
            and (node.lineno, node.col_offset) < (write.lineno, write.col_offset)
        ):
            return _view_of(ctx, node)
    return None


def _view_of(ctx: FunctionContext, assign: ast.Assign) -> Optional[tuple[ast.Assign, str, str]]:
    value = assign.value
    if isinstance(value, ast.Subscript) and isinstance(value.ctx, ast.Load):
        base = _base_key(value.value)
        if base is not None and ctx.types.is_tensor(value.value):
            return assign, base, "read by index out of"
        return None
    if isinstance(value, ast.Attribute) and value.attr in _VIEW_ATTRS:
        base = _base_key(value.value)
        if base is not None and ctx.types.is_tensor(value.value):
            return assign, base, f"`.{value.attr}` of"
        return None
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in _VIEW_METHODS
    ):
        receiver = value.func.value
        if isinstance(receiver, ast.Subscript):  # `x[0:1].squeeze(0)`
            receiver = receiver.value
        base = _base_key(receiver)
        if base is not None and ctx.types.is_tensor(value.func.value):
            return assign, base, f"a `.{value.func.attr}()` view of"
    return None


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _end(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def _rebound_between(fn: ast.AST, base: str, start: ast.stmt, stop: ast.stmt) -> bool:
    """`base` bound anew between the view's binding and the write (`x = x * 2`)."""
    for node in ast.walk(fn):
        if (
            isinstance(node, (ast.Name, ast.Attribute))
            and isinstance(node.ctx, ast.Store)
            and _base_key(node) == base
            and _end(start) <= _pos(node) < _pos(stop)
        ):
            return True
    return False


def _read_after(fn: ast.AST, base: str, write: ast.stmt) -> bool:
    """`base` read after the write, before any rebinding of it."""
    end = _end(write)
    loads = sorted(
        (
            n
            for n in ast.walk(fn)
            if isinstance(n, (ast.Name, ast.Attribute))
            and isinstance(n.ctx, ast.Load)
            and _base_key(n) == base
            and _pos(n) >= end
        ),
        key=_pos,
    )
    if not loads:
        return False
    first = _pos(loads[0])
    for node in ast.walk(fn):
        if (
            isinstance(node, (ast.Name, ast.Attribute))
            and isinstance(node.ctx, ast.Store)
            and _base_key(node) == base
            and end <= _pos(node) < first
        ):
            return False
    return True
