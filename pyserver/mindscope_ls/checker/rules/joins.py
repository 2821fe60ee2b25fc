"""MS112-MS114, MS119: control flow on Tensor conditions, where both paths are compiled."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import RawFinding
from ..walk import walk
from .base import FunctionContext
from .flow import Block, assigned_names, blocks_of, bound_before, exits, loads_after

# Pairs of result kinds MindSpore 2.10 was seen to refuse to join.
INCOMPATIBLE = {frozenset({"tensor", "scalar"}), frozenset({"tensor", "tuple"})}


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for block in blocks_of(ctx.fn.node):
        for index, stmt in enumerate(block):
            if isinstance(stmt, ast.If) and ctx.types.is_tensor(stmt.test):
                yield from _returns(ctx, stmt, block[index + 1 :])
                yield from _one_branch(ctx, stmt)
                yield from _assign_join(ctx, stmt)
            elif isinstance(stmt, ast.While) and ctx.types.is_tensor(stmt.test):
                yield from _while_bound(ctx, stmt)
    yield from _recursion(ctx)


def kind(ctx: FunctionContext, expr: Optional[ast.expr]) -> Optional[str]:
    """tensor / scalar / tuple / None for values the checker is sure about."""
    if expr is None:
        return None
    if ctx.types.is_tensor(expr):
        return "tensor"
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)):
        return "scalar"
    if isinstance(expr, ast.Tuple):
        return "tuple"
    return None


def _returns(ctx: FunctionContext, node: ast.If, rest: Block) -> Iterator[RawFinding]:
    then_ret = _tail_return(node.body)
    if then_ret is None:
        return
    other = _tail_return(node.orelse) if node.orelse else _first_return(rest)
    if other is None:
        return
    kinds = frozenset({kind(ctx, then_ret.value), kind(ctx, other.value)})
    if kinds in INCOMPATIBLE:
        a, b = kind(ctx, then_ret.value), kind(ctx, other.value)
        yield ctx.finding(
            "MS112",
            f"This branch returns a {a} but the other returns a {b}, and the condition is a "
            "Tensor so both are compiled and cannot be joined; return the same type from both.",
            then_ret.value or then_ret,
            related=[
                ctx.related(other.value or other, f"the other branch returns a {b}"),
                ctx.related(node.test, "the Tensor condition"),
            ],
        )
    yield from ()


def _tail_return(block: Block) -> Optional[ast.Return]:
    if block and isinstance(block[-1], ast.Return):
        return block[-1]
    return None


def _first_return(block: Block) -> Optional[ast.Return]:
    for stmt in block:
        if isinstance(stmt, ast.Return):
            return stmt
        if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass)):
            return None  # another branch or loop: too complex to pair returns
    return None


def _one_branch(ctx: FunctionContext, node: ast.If) -> Iterator[RawFinding]:
    if exits(node.body) or (node.orelse and exits(node.orelse)):
        return
    then_names = assigned_names(node.body)
    else_names = assigned_names(node.orelse)
    for name in sorted(set(then_names) ^ set(else_names)):
        where = then_names.get(name) or else_names.get(name)
        if where is None or bound_before(ctx.fn.node, name, node):
            continue
        use = loads_after(ctx.fn.node, name, node)
        if use is None:
            continue
        side = "true" if name in then_names else "false"
        yield ctx.finding(
            "MS113",
            f"`{name}` is bound only in the {side} branch of a Tensor condition but used after "
            "it; bind it before the `if` or in both branches.",
            use,
            related=[
                ctx.related(where, f"`{name}` bound here"),
                ctx.related(node.test, "the Tensor condition"),
            ],
        )


def _assign_join(ctx: FunctionContext, node: ast.If) -> Iterator[RawFinding]:
    """`y = x` in one branch and `y = (x, x)` in the other: the join after the `if` fails."""
    then_values = _last_assignments(node.body)
    else_values = _last_assignments(node.orelse)
    for name in sorted(set(then_values) & set(else_values)):
        a, b = kind(ctx, then_values[name].value), kind(ctx, else_values[name].value)
        if frozenset({a, b}) not in INCOMPATIBLE or loads_after(ctx.fn.node, name, node) is None:
            continue
        yield ctx.finding(
            "MS112",
            f"`{name}` is a {a} in this branch but a {b} in the other, and the condition is a "
            "Tensor so both are compiled and cannot be joined; give it the same type in both.",
            then_values[name].value,
            related=[
                ctx.related(else_values[name].value, f"`{name}` is a {b} here"),
                ctx.related(node.test, "the Tensor condition"),
            ],
        )


def _last_assignments(block: Block) -> dict[str, ast.Assign]:
    found: dict[str, ast.Assign] = {}
    for stmt in block:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                found[target.id] = stmt
    return found


def _while_bound(ctx: FunctionContext, node: ast.While) -> Iterator[RawFinding]:
    for name, where in sorted(assigned_names(node.body).items()):
        if bound_before(ctx.fn.node, name, node):
            continue
        use = loads_after(ctx.fn.node, name, node)
        if use is None:
            continue
        yield ctx.finding(
            "MS114",
            f"`{name}` is first bound inside a `while` on a Tensor condition and used after the "
            "loop; bind it before the `while`.",
            use,
            related=[
                ctx.related(where, f"`{name}` bound here"),
                ctx.related(node.test, "the Tensor condition"),
            ],
        )


def _recursion(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    has_tensor_if = any(
        isinstance(n, (ast.If, ast.IfExp)) and ctx.types.is_tensor(n.test) for n in walk(fn)
    )
    if not has_tensor_if:
        return
    for node in walk(fn):
        if isinstance(node, ast.Call) and _calls_itself(ctx, node):
            yield ctx.finding(
                "MS119",
                f"`{fn.name}` calls itself under a Tensor condition, which the compiler unrolls "
                "until its call-depth limit; use a `while` loop instead.",
                node,
                related=[ctx.related(fn, f"`{fn.name}` defined here")],
            )


def _calls_itself(ctx: FunctionContext, call: ast.Call) -> bool:
    name = ctx.fn.node.name
    func = call.func
    if ctx.fn.cls is not None:
        return (
            isinstance(func, ast.Attribute)
            and func.attr == name
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
        )
    return isinstance(func, ast.Name) and func.id == name
