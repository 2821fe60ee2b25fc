"""MS385: rows of a list made by `[row] * n`, changed in place through one of them.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative: in Python `[[0, 0]] *
2` holds the same inner list twice, so `m[0][0] = 1` (or `m[0].append(v)`) shows in `m[1]`
too; graph mode copies the rows, so the other rows keep their old items and the program computes
something else. Measured to diverge: `m = [[0] * 2] * 2; m[0][0] = 1; m[1][0]`, `[[0, 0]] * 2`,
`2 * [[0, 0]]`, `[row] * 2` of a local `row = [0, 0]`, `[[0] * 3] * n` with `n = x.shape[0]`,
`[[]] * 2` then `m[0].append(x)` (`len(m[1])` 1 in PyNative, 0 compiled), `m[0].extend(...)`,
a `for i in range(3): m[i][i] = 1` fill, a `for row in m` sum, `Tensor(m)` after the fill,
returning `m`. Same values (not reported): `[[0] * 2 for _ in range(2)]`, rows replaced whole
(`m[0] = [1, 1]`), only read, `[[0, 0]] * 1`, the same constant row changed and read
(`m[1][1] = 5; m[1][1]`), tuples as rows, `@ms.jit` functions (PyNative compiles them too).
Rows that are dicts fail at LAX instead (not reported).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

REPEATED_ROW_CHANGED = Rule(
    "MS385",
    "repeated-row-changed",
    Group.DIVERGES,
    title="A row of a list made by `[row] * n` changed in place, then other rows read",
    message=(
        "`{name}` is `{made}`: in Python its rows are one list, so `{change}` changes every "
        "row, but graph mode copies them and only this one changes; build the rows apart "
        "(`[[...] for _ in range(n)]`)."
    ),
    why=(
        "List repetition repeats a reference in Python, so an in-place change through one row "
        "shows in all of them; compiled code holds each row as its own value."
    ),
    remedy="Build each row apart: `[[0] * k for _ in range(n)]`.",
    mindspore_says="(no error: the other rows keep their old items)",
)

_CHANGES = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if any(names.is_jit(module, d) for d in ctx.fn.node.decorator_list):
        return  # `@ms.jit` functions run compiled in PyNative too
    for assign in ctx.of(ast.Assign):
        made = assign.value
        if not (
            isinstance(made, ast.BinOp)
            and isinstance(made.op, ast.Mult)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
        ):
            continue
        name = assign.targets[0].id
        if not _repeats_a_list(ctx, made) or receivers.only_binding(ctx, name) is not made:
            continue
        found = _changed(ctx, name)
        if found is not None:
            change, row = found
            if _read_elsewhere(ctx, name, change, row):
                yield REPEATED_ROW_CHANGED.finding(
                    change, name=name, made=ast.unparse(made), change=ast.unparse(change)
                )


def _repeats_a_list(ctx: FunctionContext, made: ast.BinOp) -> bool:
    """`[row] * n` / `n * [row]` with `row` a list display (or a local bound once to one) and
    `n` not the constant 0 or 1."""
    for seq, count in ((made.left, made.right), (made.right, made.left)):
        if not (isinstance(seq, ast.List) and len(seq.elts) == 1):
            continue
        if isinstance(count, ast.Constant) and (type(count.value) is not int or count.value < 2):
            return False
        row = seq.elts[0]
        if isinstance(row, ast.Name):
            bound = receivers.only_binding(ctx, row.id)
            row = bound if bound is not None else row
        return isinstance(row, ast.List) or (
            isinstance(row, ast.BinOp)
            and isinstance(row.op, ast.Mult)
            and (isinstance(row.left, ast.List) or isinstance(row.right, ast.List))
        )
    return False


def _row_of(node: ast.expr, name: str) -> Optional[ast.Subscript]:
    """`m[i]` when `node` is that (not a slice)."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == name
        and not isinstance(node.slice, ast.Slice)
    ):
        return node
    return None


def _changed(ctx: FunctionContext, name: str) -> Optional[tuple[ast.AST, ast.Subscript]]:
    """The first in-place change through a row: `m[i][j] = v` or `m[i].append(v)`."""
    found = _changes(ctx, name)
    if not found:
        return None
    return min(found, key=lambda f: (f[0].lineno, f[0].col_offset))  # type: ignore[attr-defined]


def _changes(ctx: FunctionContext, name: str) -> list[tuple[ast.AST, ast.Subscript]]:
    """Each in-place change through a row, with the row it goes through."""
    found: list[tuple[ast.AST, ast.Subscript]] = []
    for sub in ctx.of(ast.Subscript):
        if isinstance(sub.ctx, ast.Store):
            row = _row_of(sub.value, name)
            if row is not None:
                found.append((sub, row))
    for call in ctx.of(ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _CHANGES:
            row = _row_of(func.value, name)
            if row is not None:
                found.append((call, row))
    return found


def _read_elsewhere(ctx: FunctionContext, name: str, change: ast.AST, row: ast.Subscript) -> bool:
    """`name` is read after the change other than through the same constant row."""
    index = row.slice
    same = ast.dump(index) if isinstance(index, ast.Constant) else None
    rows = {id(s.value): s for s in ctx.of(ast.Subscript) if isinstance(s.value, ast.Name)}
    start = (change.lineno, change.col_offset)  # type: ignore[attr-defined]
    changing = {id(r.value) for _, r in _changes(ctx, name)}
    for node in ctx.of(ast.Name):
        if node.id != name or not isinstance(node.ctx, ast.Load) or id(node) in changing:
            continue
        if (node.lineno, node.col_offset) <= start:
            continue
        sub = rows.get(id(node))
        if same is not None and sub is not None and ast.dump(sub.slice) == same:
            continue
        return True
    return False
