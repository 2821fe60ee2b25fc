"""MS379: a list of dicts made by `*`, one item changed in place, the list read after (a list of
lists is MS385's, `list_rows.py`, measured on the same programs with more look-alikes).

Measured with MindSpore 2.10 on CPU (round 33, `dv_`), LAX and STRICT alike, against PyNative:
`[[0] * 2] * 2` (and `[[]] * 3`, `2 * [[0]]`, `[row] * 2` of a local list, `[{}] * 2`) is in
Python one inner list repeated, so `grid[0][1] = 1`, `grid[0][0] += 4`, `buckets[0].append(x)`,
`groups[1].extend(...)`, `ds[0]['k'] = 1` show in every item (PyNative: `[[0, 1], [0, 1]]`,
`len(buckets[1])` 1); graph mode builds each item as its own value, so only the written item
changes (`[[0, 1], [0, 0]]`, 0). What agrees: a comprehension (`[[0] * 2 for _ in
range(2)]`), an item rebound (`grid[0] = [5, 5]`), the list only read, `[x] * 2` of a Tensor
(its items are rebound, not changed), and an `@ms.jit` function (PyNative compiles it too).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import receivers
from .helpers.base import FunctionContext

REPEATED_INNER_CHANGED = Rule(
    "MS379",
    "repeated-inner-list-changed",
    Group.DIVERGES,
    title="A list of dicts made by `*` with one inner dict changed in place, in compiled code",
    message=(
        "`{name}` repeats one inner {inner} with `*`, so in PyNative this change shows in "
        "every item of `{name}`, while graph mode changes only `{target}`; build the items "
        "with a comprehension (`[dict() for _ in range(n)]`) to get one of each."
    ),
    why=(
        "Python's `[{}] * n` holds the same inner dict n times; graph mode builds each item "
        "as its own value: after `ds[0]['k'] = 1` PyNative's `ds[1]` had the key and "
        "GRAPH_MODE's did not (`len(ds[1])` 1 against 0)."
    ),
    remedy="Build the inner dicts with a comprehension so each item is its own dict.",
    mindspore_says="(compiles; result differs from PyNative)",
)

MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "sort"}
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.fn.level is not None:
        return  # a `jit` function: PyNative compiles it too, so both modes agree
    products = [
        b for b in ctx.of(ast.BinOp) if isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mult)
    ]
    if not products:
        return
    for assign in ctx.of(ast.Assign):
        if not (
            isinstance(assign, ast.Assign)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
            and isinstance(assign.value, ast.BinOp)
        ):
            continue
        name = assign.targets[0].id
        inner = _repeated_inner(ctx, assign.value)
        if inner != "dict" or receivers.only_binding(ctx, name) is not assign.value:
            continue  # rows that are lists: MS385 (`list_rows.py`), which reads more look-alikes
        found = _first_change(ctx, name, assign)
        if found is None:
            continue
        change, target = found
        if _read_after(ctx, name, change):
            yield REPEATED_INNER_CHANGED.finding(change, name=name, inner=inner, target=target)


def _repeated_inner(ctx: FunctionContext, product: ast.BinOp) -> Optional[str]:
    """'list' / 'dict' when `product` is `[inner] * n` or `n * [inner]` with `inner` a list or
    dict display (or a local bound once to one)."""
    if not isinstance(product.op, ast.Mult):
        return None
    for seq, count in ((product.left, product.right), (product.right, product.left)):
        if isinstance(seq, ast.List) and len(seq.elts) >= 1 and not isinstance(count, ast.List):
            kinds = {_container(ctx, e) for e in seq.elts}
            kinds.discard(None)
            if kinds:
                return sorted(k for k in kinds if k)[0]
    return None


def _container(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[str]:
    if isinstance(expr, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(expr, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        if isinstance(expr.left, ast.List) or isinstance(expr.right, ast.List):
            return "list"
        return None
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("list", "dict")
        and calls_shared.builtin(ctx, expr.func.id)
    ):
        return expr.func.id
    if isinstance(expr, ast.Name) and depth == 0:
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            return _container(ctx, bound, 1)
    return None


def _item_of(expr: ast.expr, name: str) -> bool:
    """`name[i]`."""
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == name
        and not isinstance(expr.slice, ast.Slice)
    )


def _first_change(
    ctx: FunctionContext, name: str, after: ast.Assign
) -> Optional[tuple[ast.stmt, str]]:
    """The first statement after `after` that changes an item of `name` in place:
    `name[i][j] = v`, `name[i][j] += v`, `name[i].append(v)` ..."""
    start = (after.lineno, after.col_offset)
    found: list[tuple[tuple[int, int], ast.stmt, str]] = []
    for stmt in ctx.of(ast.Assign, ast.AugAssign, ast.Expr):
        if (stmt.lineno, stmt.col_offset) <= start:
            continue
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, ast.AugAssign):
            targets = [stmt.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and _item_of(target.value, name):
                found.append(((stmt.lineno, stmt.col_offset), stmt, ast.unparse(target.value)))
        if isinstance(stmt, ast.Expr):
            call = stmt.value
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in MUTATORS
                and _item_of(call.func.value, name)
            ):
                found.append(((stmt.lineno, stmt.col_offset), stmt, ast.unparse(call.func.value)))
    if not found:
        return None
    _, first, shown = min(found, key=lambda f: f[0])
    return first, shown


def _read_after(ctx: FunctionContext, name: str, change: ast.stmt) -> bool:
    """`name` read after `change` (outside of statements that change its items): the caller
    sees the other items."""
    end = (change.end_lineno or change.lineno, change.end_col_offset or 0)
    loads: list[ast.Name] = ctx.of(ast.Name)
    for load in loads:
        if load.id != name or not isinstance(load.ctx, ast.Load):
            continue
        if (load.lineno, load.col_offset) > end:
            return True
    return False
