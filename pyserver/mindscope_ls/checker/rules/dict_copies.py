"""MS1020: LAX: a copy of a dict holding graph Tensors (`e = d.copy()`, `e = dict(d)`) changed,
while the original (or, after `update`, the copy) is read.

Measured with MindSpore 2.10 on CPU (PyNative runs them all; STRICT refuses `d.copy()` and
`dict(d)` of graph values first, MS217 / MS206): at LAX, `e = d.copy(); e["a"] = x * 3` then
`d["a"]` or `d["b"]` read anywhere in the function (before the copy too), and
`e.update({...})` then `e[...]` or `d[...]` read, fail with "For 'TupleGetItem', input[0] should
be Sequence, but got Dictionary[...]" / "'NoneType' object is not subscriptable"; so does a loop
`for k in ks: e[k] = d[k] * 2`. What compiles: writing the copy and reading only the copy
(`e["a"] = ...; return e["a"], e["b"]`, a new key too), writing the original and reading the
copy, and copies of dicts of numbers (`{"a": 1.0}`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from . import calls_shared
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

CHANGED_DICT_COPY = Rule(
    "MS1020",
    "dict-copy-changed-lax",
    Group.FAILS,
    title="LAX: a copy of a dict holding Tensors changed while the dicts are read",
    message=(
        "`{change}` changes `{copy}`, a copy of `{original}` (which holds graph Tensors), while "
        "{read} is read: LAX fails to compile this; build the new dict as a display instead "
        "(`{copy} = {{**...}}` or `{{k: v for k, v in {original}.items()}}`) and set its keys."
    ),
    why=(
        "At LAX graph mode runs `d.copy()` / `dict(d)` of a dict holding graph Tensors as a "
        "Python call; changing the copy then breaks how the original (or, after `update`, the "
        "copy) is read back."
    ),
    remedy=(
        "Build the new dict with a comprehension or a display of the original's items, or keep "
        "the changed values in their own names."
    ),
    mindspore_says=(
        "TypeError: For 'TupleGetItem', input[0] should be Sequence, but got "
        "Dictionary[[a,],[Tensor[Float32]]]"
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level == SyntaxLevel.STRICT:
        return
    copies = _copies(ctx)
    if not copies:
        return
    for copy, original in copies.items():
        change = _first_change(ctx, copy)
        if change is None:
            continue
        node, updated = change
        readers = {original, copy} if updated else {original}
        read = _read(ctx, readers, node)
        if read is None:
            continue
        yield CHANGED_DICT_COPY.finding(
            node,
            change=ast.unparse(node).split("\n")[0],
            copy=copy,
            original=original,
            read=f"`{read}`",
        )


def _copies(ctx: FunctionContext) -> dict[str, str]:
    """copy name -> original name, for `e = d.copy()` / `e = dict(d)` of a local dict holding
    graph Tensors, each bound once."""
    found: dict[str, str] = {}
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for assign in assigns:
        target = assign.targets[0]
        if len(assign.targets) != 1 or not isinstance(target, ast.Name):
            continue
        original = _copied(ctx, assign.value)
        if original is None or receivers.only_binding(ctx, target.id) is not assign.value:
            continue
        bound = receivers.only_binding(ctx, original)
        if isinstance(bound, ast.Dict) and any(
            v is not None and ctx.types.is_tensor(v) for v in bound.values
        ):
            found[target.id] = original
    return found


def _copied(ctx: FunctionContext, value: ast.expr) -> Optional[str]:
    if not isinstance(value, ast.Call) or value.keywords:
        return None
    func = value.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "copy"
        and not value.args
        and isinstance(func.value, ast.Name)
    ):
        return func.value.id
    if (
        isinstance(func, ast.Name)
        and func.id == "dict"
        and len(value.args) == 1
        and isinstance(value.args[0], ast.Name)
        and calls_shared.builtin(ctx, "dict")
    ):
        return value.args[0].id
    return None


def _first_change(ctx: FunctionContext, copy: str) -> Optional[tuple[ast.stmt, bool]]:
    """The first item write `copy[k] = v` or `copy.update(...)` statement (True: update)."""
    for stmt in ctx.statements():
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == copy
            for t in stmt.targets
        ):
            return stmt, False
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and stmt.value.func.attr == "update"
            and isinstance(stmt.value.func.value, ast.Name)
            and stmt.value.func.value.id == copy
        ):
            return stmt, True
    return None


def _read(ctx: FunctionContext, names: set[str], change: ast.stmt) -> Optional[str]:
    """The text of a read of an item of one of `names` (`d["a"]`, `d.get(...)`, `d[k]`), outside
    the change statement's targets."""
    targets = (
        {id(t) for t in change.targets if isinstance(t, ast.Subscript)}
        if isinstance(change, ast.Assign)
        else set()
    )
    subs: list[ast.Subscript] = ctx.of(ast.Subscript)
    for sub in subs:
        if (
            isinstance(sub.ctx, ast.Load)
            and id(sub) not in targets
            and isinstance(sub.value, ast.Name)
            and sub.value.id in names
        ):
            return ast.unparse(sub)
    return None
