"""MS152 (widened): a list that was empty before a `while` on a Tensor condition, appended to in
the loop, and indexed by a constant after it.

Measured with MindSpore 2.10 on CPU (`tests/graphmode/cases/user2/c_while_*list*`): the
appends in a loop the compiler cannot unroll make a list whose length is known only at run
time, and one that started empty has no item the compiler can type, so `outs[0]` / `outs[-1]`
after the loop fails at LAX and STRICT ("For primitive:'list_getitem', cannot get item by index
from an empty sequence"), MindSpore naming the loop and the read. A list holding an item before
the loop (`outs = [x]`) indexes fine, and so do `len(outs)` and `for o in outs`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import RawFinding
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import SCOPES
from .subscripts import CONSTANT_INDEX

# List methods that add items; any of them outside the loop makes the length unknown here.
GROWING = frozenset({"append", "extend", "insert"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    loops: list[ast.While] = ctx.of(ast.While)
    for loop in loops:
        if not ctx.types.is_condition(loop.test):
            continue
        for name in sorted(appended(loop)):
            if not _empty_before(ctx, name, loop):
                continue
            read = _constant_read_after(ctx, name, loop)
            if read is not None:
                yield CONSTANT_INDEX.finding(
                    read,
                    related=[
                        ctx.related(loop.test, "the Tensor condition"),
                    ],
                    text=ast.unparse(read),
                    problem=(
                        f"`{name}` was empty before the `while` on a Tensor condition that "
                        "appends to it, so graph mode sees a list of run-time length with no "
                        "item it can type (start the list with its first item, or fill a "
                        "pre-allocated Tensor)"
                    ),
                )


def appended(loop: ast.While) -> set[str]:
    """Names the loop body grows with `name.append(...)` (outside nested scopes)."""
    return appended_in(loop.body)


def appended_in(block: list[ast.stmt]) -> set[str]:
    """Names the statements grow with `name.append(...)` (outside nested scopes)."""
    found: set[str] = set()
    stack: list[ast.AST] = list(block)
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPES):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name)
        ):
            found.add(node.func.value.id)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _empty_before(ctx: FunctionContext, name: str, loop: ast.While) -> bool:
    """`name = []` is the function's only binding of `name`, before the loop, and nothing but
    the loop grows it (no parameter, no other store, no growing call outside the loop)."""
    args = ctx.fn.node.args
    if name in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
        return False
    stores = [n for n in ctx.of(ast.Name) if n.id == name and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1 or (stores[0].lineno, stores[0].col_offset) >= (loop.lineno, 0):
        return False
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    binding = next(
        (a for a in assigns if len(a.targets) == 1 and a.targets[0] is stores[0]),
        None,
    )
    if binding is None or not _empty_list(binding.value):
        return False
    inside = {id(n) for n in ast.walk(loop)}
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if (
            id(call) not in inside
            and isinstance(func, ast.Attribute)
            and func.attr in GROWING
            and isinstance(func.value, ast.Name)
            and func.value.id == name
        ):
            return False
    return True


def _empty_list(value: ast.expr) -> bool:
    if isinstance(value, ast.List):
        return not value.elts
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "list"
        and not value.args
        and not value.keywords
    )


def _constant_read_after(ctx: FunctionContext, name: str, loop: ast.While) -> Optional[ast.AST]:
    """The first `name[<int constant>]` read after the loop ends."""
    end = (loop.end_lineno or loop.lineno, loop.end_col_offset or 0)
    reads: list[ast.Subscript] = ctx.of(ast.Subscript)
    for node in reads:
        if not (
            isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and (node.lineno, node.col_offset) >= end
        ):
            continue
        index = node.slice
        if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
            index = index.operand
        if isinstance(index, ast.Constant) and type(index.value) is int:
            return node
    return None
