"""MS397: a `for` over a local list that its own body changes in place.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 35, Cells'
`construct`): graph mode unrolls `for v in vals:` over the items `vals` holds when the loop
starts, so a change the body makes to `vals` is not iterated. `vals = [1, 2]` then
`if v < 2: vals.append(v + 5)` in the body summed 1 + 2 in GRAPH_MODE (PyNative also visits
the appended 6); so did `vals.extend([3, 4])`, `vals += [3]`, `vals.pop()` (PyNative stops
one item early), `vals.clear()` (PyNative stops at once), `enumerate(vals)`, a list of
Tensors (`outs.append(t * 2)` under `if len(outs) < 3`), a list built by `list(...)` or a
comprehension. They agree (and are left alone): the change followed by `break`/`return`,
iterating a copy (`vals[:]`, `list(vals)`), rebinding (`vals = vals + [3]`), appending to
another list, and a `while i < len(vals)` worklist (graph mode re-reads `len`).
`vals.remove(v)` is MS306's, `self.vals` MS302's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext, cacheable, within

LIST_CHANGED_WHILE_ITERATED = Rule(
    "MS397",
    "list-changed-while-iterated",
    Group.DIVERGES,
    title="A `for` over a list that its own body changes",
    message=(
        "`{write}` changes `{name}` while this `for` iterates it: graph mode unrolls the loop "
        "over the items `{name}` holds when the loop starts, so {effect} (PyNative iterates "
        "the changed list); loop with `while i < len({name}):` instead."
    ),
    why=(
        "Graph mode unrolls a `for` over a list at compile time, one pass per item the list "
        "has when the loop is entered; items the body adds are never visited, and items it "
        "removes still are, where Python's list iterator follows the list as it changes."
    ),
    remedy=(
        "Iterate by index with `while i < len(vals):` (graph mode re-reads the length), or "
        "collect the new items in another list and loop over it afterwards."
    ),
    mindspore_says="(compiles; `vals.append(...)` in `for v in vals:` is not iterated)",
)

_GROWS = frozenset({"append", "extend", "insert"})
_SHRINKS = frozenset({"pop", "clear"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.For] = ctx.of(ast.For)
    if not loops:
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    augs: list[ast.AugAssign] = ctx.of(ast.AugAssign)
    for loop in loops:
        name = _iterated_name(loop.iter)
        if name is None or not _list_before(ctx, name, loop):
            continue
        write = _first_change(loop, name, within(loop, calls), within(loop, augs))
        if write is None:
            continue
        shrinks = isinstance(write, ast.Call) and _method(write) in _SHRINKS
        effect = (
            "the items it removes are still visited"
            if shrinks
            else "the items it adds are not visited"
        )
        yield LIST_CHANGED_WHILE_ITERATED.finding(
            write, write=names.short(write), name=name, effect=effect
        )


def _method(call: ast.Call) -> Optional[str]:
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _iterated_name(it: ast.expr) -> Optional[str]:
    """`vals` of `for v in vals:` or `for i, v in enumerate(vals):`."""
    if isinstance(it, ast.Name):
        return it.id
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "enumerate"
        and len(it.args) == 1
        and not it.keywords
        and isinstance(it.args[0], ast.Name)
    ):
        return it.args[0].id
    return None


def _list_before(ctx: FunctionContext, name: str, loop: ast.For) -> bool:
    """The last `name = ...` before the loop binds a list display, comprehension or
    `list(...)`, and nothing else binds `name` before the loop after it."""
    start = (loop.lineno, loop.col_offset)
    last: Optional[ast.Assign] = None
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        if (assign.lineno, assign.col_offset) >= start:
            break
        if any(isinstance(t, ast.Name) and t.id == name for t in assign.targets):
            last = assign
    if last is None or len(last.targets) != 1:
        return False
    stores: list[ast.Name] = ctx.of(ast.Name)
    after = (last.lineno, last.col_offset)
    if any(
        n.id == name and isinstance(n.ctx, ast.Store) and after < (n.lineno, n.col_offset) < start
        for n in stores
    ):
        return False
    value = last.value
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    return (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list"
    )


def _first_change(
    loop: ast.For, name: str, calls: list[ast.Call], augs: list[ast.AugAssign]
) -> Optional[ast.expr | ast.AugAssign]:
    """The first in-place change of `name` in the loop's body, as a statement of its own that
    the loop goes on after (not followed by `break`/`return` in its block); None if the
    body rebinds `name` or defines a function (its changes are judged elsewhere)."""
    body_start = (loop.body[0].lineno, loop.body[0].col_offset)
    found: list[tuple[tuple[int, int], ast.expr | ast.AugAssign]] = []
    for stmt in _statements(loop.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return None
        if isinstance(stmt, ast.Assign) and any(
            isinstance(n, ast.Name) and n.id == name for t in stmt.targets for n in ast.walk(t)
        ):
            return None
    for call in calls:
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == name
            and func.attr in _GROWS | _SHRINKS
            and (call.lineno, call.col_offset) >= body_start
        ):
            found.append(((call.lineno, call.col_offset), call))
    for aug in augs:
        if (
            isinstance(aug.target, ast.Name)
            and aug.target.id == name
            and isinstance(aug.op, ast.Add)
            and isinstance(aug.value, (ast.List, ast.Tuple))
        ):
            found.append(((aug.lineno, aug.col_offset), aug))
    for _, write in sorted(found, key=lambda pair: pair[0]):
        place = _statement_of(loop.body, write)
        if place is None:
            continue
        block, index = place
        if any(isinstance(s, (ast.Break, ast.Return, ast.Raise)) for s in block[index + 1 :]):
            continue
        return write
    return None


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(stmt, field, []) or [])
        for handler in getattr(stmt, "handlers", []) or []:
            yield from _statements(handler.body)


def _statement_of(
    body: list[ast.stmt], write: ast.expr | ast.AugAssign
) -> Optional[tuple[list[ast.stmt], int]]:
    """The block holding `write` as its own statement (`vals.append(v)` or `vals += [v]`),
    and its index there; None when the change is part of a larger expression."""
    for index, stmt in enumerate(body):
        if stmt is write or (isinstance(stmt, (ast.Expr, ast.Assign)) and stmt.value is write):
            return body, index
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if inner:
                found = _statement_of(inner, write)
                if found is not None:
                    return found
        for handler in getattr(stmt, "handlers", []) or []:
            found = _statement_of(handler.body, write)
            if found is not None:
                return found
    return None
