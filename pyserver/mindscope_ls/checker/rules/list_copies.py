"""MS1067 / MS384: a `.copy()` of a list holding Tensors, changed in place, at LAX.

Measured with MindSpore 2.10 on CPU at LAX against PyNative (STRICT refuses `list.copy()`
itself: MS217). Graph mode has no `list.copy`: LAX runs it in its Python fallback, which gives
back an interpreted object when the list holds a Tensor computed in the graph (a list of
constants is folded and behaves). Changing that object in place breaks it:

MS1067 (error): after `m = l.copy(); m.append(v)` (or `insert` / `extend`) with `l = [x, x +
1]` or `[x, 1]`, graph mode holds None for `m`: `m[2]`, `m[0]`, `m[-1]`, `len(m)`, `for t in
m` and a second `m.append(...)` (an append in a loop) fail ("'NoneType' object is not
subscriptable" / "has no attribute '__len__'" / "is not iterable" / "has no attribute
'append'", no line named).

MS384 (warning): the same `m` returned or handed to an op compiles to something else (`return m`
gives None, `ops.stack(m)` a Float64 `[[0.]]`), and `m.pop()` of such a copy gives another
value (a row of the last item; `m[0]` after it too).

Compiles with PyNative's values: a copy only read (`m[0]`, `len(m)`, `ops.stack(l.copy())`),
reads before the change, `m += [x]`, `l.copy() + [x]`, the original changed instead, a copy of
a list of numbers, a copy of a list the caller passes, `list(l)` / `l[:]` copies, dict copies.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

CHANGED_LIST_COPY = Rule(
    "MS1067",
    "changed-list-copy",
    Group.FAILS,
    title="LAX: a `.copy()` of a list holding Tensors changed in place, then read",
    message=(
        "`{name}` is `{copy}` of a list holding Tensors, which LAX makes in its Python "
        "fallback; after `{call}` graph mode holds None for it, so `{use}` fails; build the "
        "copy with `list({source})` (or `{source}[:]`) instead."
    ),
    why=(
        "Graph mode has no `list.copy`: LAX runs it in its Python fallback, and an in-place "
        "change of the object it gives back leaves None in the graph."
    ),
    remedy="Copy with `list(l)` or `l[:]`, which graph mode compiles itself.",
    mindspore_says="TypeError: 'NoneType' object is not subscriptable",
)

CHANGED_LIST_COPY_VALUE = Rule(
    "MS384",
    "changed-list-copy-value",
    Group.DIVERGES,
    title="LAX: a `.copy()` of a list holding Tensors changed in place gives other values",
    message=(
        "`{name}` is `{copy}` of a list holding Tensors, which LAX makes in its Python "
        "fallback; after `{call}`, `{use}` gives another value than in PyNative; build the "
        "copy with `list({source})` (or `{source}[:]`) instead."
    ),
    why=(
        "Graph mode has no `list.copy`: LAX runs it in its Python fallback, and an in-place "
        "change of the object it gives back is not what PyNative's list does."
    ),
    remedy="Copy with `list(l)` or `l[:]`, which graph mode compiles itself.",
    mindspore_says="(no error: the returned list is None, `ops.stack` of it a Float64 [[0.]])",
)

_GROW = frozenset({"append", "insert", "extend"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return  # `list.copy` itself fails there (MS217)
    calls: list[ast.Call] = ctx.of(ast.Call)
    copies = [
        c
        for c in calls
        if isinstance(c.func, ast.Attribute) and c.func.attr == "copy" and not c.args
    ]
    if not copies:
        return
    values = None
    for assign in ctx.of(ast.Assign):
        value = assign.value
        if not (
            isinstance(value, ast.Call)
            and any(value is c for c in copies)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)
        ):
            continue
        name = assign.targets[0].id
        if receivers.only_binding(ctx, name) is not value:
            continue
        assert isinstance(value.func, ast.Attribute)
        source = value.func.value
        if values is None:
            values = abstract(ctx)
        held = values.of(source)
        if held is None or held.kind != "list" or not held.items:
            continue
        if not any(v is not None and v.kind == "tensor" for v in held.items):
            continue
        yield from _changed(ctx, calls, name, ast.unparse(value), ast.unparse(source))


def _changed(
    ctx: FunctionContext, calls: list[ast.Call], name: str, copy: str, source: str
) -> Iterator[RawFinding]:
    """The first in-place change of the copy `name` and what reads it after."""
    changes = [
        c
        for c in calls
        if isinstance(c.func, ast.Attribute)
        and c.func.attr in (*_GROW, "pop")
        and isinstance(c.func.value, ast.Name)
        and c.func.value.id == name
    ]
    if not changes:
        return
    change = min(changes, key=lambda c: (c.lineno, c.col_offset))
    assert isinstance(change.func, ast.Attribute)
    text = ast.unparse(change)
    if change.func.attr == "pop":
        yield CHANGED_LIST_COPY_VALUE.finding(
            change, name=name, copy=copy, call=text, use=text, source=source
        )
        return
    if _in_loop(ctx, change):
        yield CHANGED_LIST_COPY.finding(
            change, name=name, copy=copy, call=text, use=f"{text} run again", source=source
        )
        return
    end = (change.end_lineno or change.lineno, change.end_col_offset or 0)
    later = [
        n
        for n in ctx.of(ast.Name)
        if n.id == name and isinstance(n.ctx, ast.Load) and (n.lineno, n.col_offset) > end
    ]
    if not later:
        return
    failing, other = _uses(ctx, name, later)
    if failing is not None:
        yield CHANGED_LIST_COPY.finding(
            change, name=name, copy=copy, call=text, use=failing, source=source
        )
    elif other is not None:
        yield CHANGED_LIST_COPY_VALUE.finding(
            change, name=name, copy=copy, call=text, use=other, source=source
        )


def _in_loop(ctx: FunctionContext, node: ast.AST) -> bool:
    loops: list[ast.For | ast.While] = ctx.of(ast.For, ast.While)
    return any(
        loop.lineno < node.lineno <= (loop.end_lineno or loop.lineno)  # type: ignore[attr-defined]
        for loop in loops
    )


def _uses(
    ctx: FunctionContext, name: str, later: list[ast.Name]
) -> tuple[Optional[str], Optional[str]]:
    """(a later read that fails, another later read) of `name`."""
    ids = {id(n) for n in later}
    failing: Optional[str] = None
    for sub in ctx.of(ast.Subscript):
        if id(sub.value) in ids:
            failing = failing or ast.unparse(sub)
    for call in ctx.of(ast.Call):
        func = call.func
        arg = call.args[0] if call.args else None
        if isinstance(func, ast.Name) and func.id == "len" and id(arg) in ids:
            failing = failing or ast.unparse(call)
        if isinstance(func, ast.Attribute) and id(func.value) in ids:
            failing = failing or ast.unparse(call)
    loops: list[ast.For | ast.comprehension] = ctx.of(ast.For, ast.comprehension)
    for loop in loops:
        if id(loop.iter) in ids:
            failing = failing or f"for ... in {name}"
    if failing is not None:
        return failing, None
    return None, ast.unparse(later[0])
