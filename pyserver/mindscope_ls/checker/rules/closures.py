"""MS174: a list the enclosing compiled function indexes, filled only by a nested function.

Measured with MindSpore 2.10 (`generated/errors/`): a `def` or `lambda` inside compiled code is
its own graph, and the lists it reads from the enclosing function are values passed in, not the
enclosing function's variable: `acc.append(v)` inside the nested function leaves the enclosing
`acc` as written (`[]`), so `acc[0]` after the calls fails ("For primitive:'list_getitem',
cannot get item by index from an empty sequence"). PyNative appends to the one list.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers.base import FunctionContext, cacheable
from .helpers.walk import own_nodes

CLOSURE_LIST_WRITE_UNSEEN = Rule(
    "MS174",
    "closure-list-write-unseen",
    Group.FAILS,
    title="Indexing a list that only a nested function fills",
    message=(
        "`{name}` is filled only inside the nested `{inner}`, whose appends the compiled "
        "function does not see: `{name}` is still empty here; return the values from "
        "`{inner}` instead."
    ),
    why=(
        "A nested function in compiled code is its own graph; the enclosing list it appends to "
        "is passed in as a value, so the enclosing function's list keeps the items it was "
        "written with."
    ),
    remedy="Return the new items from the nested function and build the list where it is used.",
    mindspore_says=(
        "ValueError: For primitive:'list_getitem', cannot get item by index from an empty sequence."
    ),
)

FILLING = frozenset({"append", "extend", "insert"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    if not any(n is not fn for n in ctx.of(ast.FunctionDef, ast.Lambda)):
        return
    for node, name, inner in indexed_unseen(fn):
        yield CLOSURE_LIST_WRITE_UNSEEN.finding(node, name=name, inner=inner)


def indexed_unseen(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
) -> Iterator[tuple[ast.Subscript, str, str]]:
    """(the first `name[<int>]`, `name`, the nested function's name) for each list `fn` binds
    to `[]` that only a nested function fills."""
    own = list(own_nodes(fn))
    empty = _empty_lists(own)
    if not empty:
        return
    filled_by: dict[str, str] = {}
    for node in own:
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            for name in empty:
                if _fills(node, name):
                    filled_by.setdefault(name, getattr(node, "name", "lambda"))
    for node in own:
        if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
            continue
        value = node.value
        if not (isinstance(value, ast.Name) and value.id in filled_by):
            continue
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
            yield node, value.id, filled_by.pop(value.id)


def _empty_lists(own: list[ast.AST]) -> set[str]:
    """Names the function binds once, to `[]`, and never changes itself."""
    bound: dict[str, int] = {}
    empty: set[str] = set()
    changed: set[str] = set()
    for node in own:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] = bound.get(node.id, 0) + 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            value = node.value
            if isinstance(target, ast.Name) and isinstance(value, ast.List) and not value.elts:
                empty.add(target.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = _name(node.func.value)
            if receiver is not None:
                changed.add(receiver)  # any method call on it may change it
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            receiver = _name(node.value)
            if receiver is not None:
                changed.add(receiver)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            changed.update(node.names)
    return {n for n in empty if bound.get(n) == 1 and n not in changed}


def _name(expr: ast.expr) -> Optional[str]:
    return expr.id if isinstance(expr, ast.Name) else None


def _fills(scope: ast.FunctionDef | ast.Lambda, name: str) -> bool:
    """`scope` appends to the enclosing `name` (it does not bind `name` itself)."""
    args = scope.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    if name in params:
        return False
    fills = False
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, (ast.Nonlocal, ast.Global)) and name in node.names:
            return False
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in FILLING
            and _name(node.func.value) == name
        ):
            fills = True
    return fills
