"""MS112-MS114, MS119, MS205: control flow on Tensor conditions, where both paths are compiled."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import RawFinding, Related
from .helpers.base import FunctionContext, cacheable
from .helpers.flow import (
    Block,
    assigned_names,
    blocks_of,
    bound_before,
    definitely_assigned,
    exits,
    loads_after,
)
from .helpers.kinds import Clash, clash
from .helpers.walk import of_type

Binding = tuple[ast.AST, ast.expr]  # the binding statement, the value bound


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    for block in blocks_of(ctx.fn.node):
        for index, stmt in enumerate(block):
            if isinstance(stmt, ast.If) and ctx.types.is_condition(stmt.test):
                yield from _returns(ctx, stmt, block[index + 1 :])
                yield from _one_branch(ctx, stmt)
                yield from _assign_join(ctx, stmt)
            elif isinstance(stmt, ast.While) and ctx.types.is_condition(stmt.test):
                yield from _while_bound(ctx, stmt)
    for node in ctx.of(ast.IfExp):
        if ctx.types.is_condition(node.test):
            yield from _if_exp(ctx, node)
    yield from _recursion(ctx)


def _report(
    ctx: FunctionContext, found: Clash, what: str, at: ast.AST, other: ast.AST, test: ast.AST
) -> RawFinding:
    a, b = found.left, found.right
    if found.code == "MS205":
        message = (
            f"{what} a {a} here but {b} on the other path of a Tensor condition; STRICT cannot "
            "join a Tensor with None: give both paths a Tensor (e.g. `ops.zeros_like(x)`)."
        )
    else:
        message = (
            f"{what} a {a} here but a {b} on the other path, and the condition is a Tensor so "
            "both are compiled and cannot be joined; give both paths the same type."
        )
    return ctx.finding(
        found.code,
        message,
        at,
        related=[
            ctx.related(other, f"the other path gives a {b}"),
            ctx.related(test, "the Tensor condition"),
        ],
    )


def _returns(ctx: FunctionContext, node: ast.If, rest: Block) -> Iterator[RawFinding]:
    then_ret = _tail_return(node.body)
    if then_ret is None:
        return
    other = _tail_return(node.orelse) if node.orelse else _first_return(rest)
    if other is None:
        return
    found = clash(ctx.types, then_ret.value, other.value)
    if found is not None:
        yield _report(
            ctx, found, "This branch returns", then_ret.value or then_ret, other, node.test
        )


def _if_exp(ctx: FunctionContext, node: ast.IfExp) -> Iterator[RawFinding]:
    found = clash(ctx.types, node.body, node.orelse)
    if found is not None:
        yield _report(ctx, found, "This conditional expression gives", node.body, node.orelse, node)


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
    runtime = ctx.types.is_condition
    both = definitely_assigned(node.body, runtime) & definitely_assigned(node.orelse, runtime)
    for name in sorted((set(then_names) | set(else_names)) - both):
        where = then_names.get(name) or else_names.get(name)
        if where is None or bound_before(ctx.fn.node, name, node):
            continue
        use = loads_after(ctx.fn.node, name, node)
        if use is None:
            continue
        if name in then_names and name in else_names:
            side = "on every path"
        else:
            side = "in the true branch" if name in then_names else "in the false branch"
        yield ctx.finding(
            "MS113",
            f"`{name}` is bound only {side} of a Tensor condition but used after it; bind it "
            "before the `if` or in both branches."
            if side != "on every path"
            else f"`{name}` is not bound on every path of a Tensor condition but used after it; "
            "bind it before the `if` or on every path.",
            use,
            related=_bound_here(ctx, name, where, node.test),
        )


def _bound_here(ctx: FunctionContext, name: str, where: ast.AST, test: ast.AST) -> list[Related]:
    return [ctx.related(where, f"`{name}` bound here"), ctx.related(test, "the Tensor condition")]


def _assign_join(ctx: FunctionContext, node: ast.If) -> Iterator[RawFinding]:
    """`y = x` in one branch and `y = (x, x)` (or an earlier `y = 0`) on the other path."""
    then_values = _last_bindings(node.body)
    else_values = _last_bindings(node.orelse)
    fn = ctx.fn.node
    for name in sorted(set(then_values) | set(else_values)):
        if name in then_values and name in else_values:
            (_, value), (other_at, other) = then_values[name], else_values[name]
        elif exits(node.body) or (node.orelse and exits(node.orelse)):
            continue
        else:
            _, value = then_values.get(name) or else_values[name]
            before = _binding_before(fn, name, node)
            if before is None:
                continue
            other_at, other = before
        found = clash(ctx.types, value, other)
        use = loads_after(fn, name, node)
        if found is None or use is None:
            continue
        finding = _report(ctx, found, f"`{name}` is", value, other_at, node.test)
        finding.related.append(ctx.related(use, f"`{name}` is used here, after the join"))
        yield finding


def _last_bindings(block: Block) -> dict[str, Binding]:
    found: dict[str, Binding] = {}
    for stmt in block:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                found[target.id] = (stmt, stmt.value)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            value = ast.BinOp(stmt.target, stmt.op, stmt.value)
            found[stmt.target.id] = (stmt, ast.copy_location(value, stmt.value))
    return found


def _binding_before(fn: ast.AST, name: str, node: ast.stmt) -> Optional[Binding]:
    """The last `name = value` that starts before `node` (in source order)."""
    best: Optional[ast.Assign] = None
    start = (node.lineno, node.col_offset)
    for sub in of_type(fn, ast.Assign):
        if (
            len(sub.targets) == 1
            and isinstance(sub.targets[0], ast.Name)
            and sub.targets[0].id == name
            and (sub.lineno, sub.col_offset) < start
            and (best is None or (sub.lineno, sub.col_offset) > (best.lineno, best.col_offset))
        ):
            best = sub
    return (best, best.value) if best is not None else None


def _while_bound(ctx: FunctionContext, node: ast.While) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    last = _last_bindings(node.body)
    for name, where in sorted(assigned_names(node.body).items()):
        use = loads_after(fn, name, node)
        if use is None:
            continue
        if not bound_before(fn, name, node):
            yield ctx.finding(
                "MS114",
                f"`{name}` is first bound inside a `while` on a Tensor condition and used after "
                "the loop; bind it before the `while`.",
                use,
                related=_bound_here(ctx, name, where, node.test),
            )
            continue
        before = _binding_before(fn, name, node)
        if before is None or name not in last:
            continue
        found = clash(ctx.types, last[name][1], before[1])
        if found is not None:
            yield _report(ctx, found, f"`{name}` is", use, before[0], node.test)


def _recursion(ctx: FunctionContext) -> Iterator[RawFinding]:
    fn = ctx.fn.node
    if ctx.fn.cls is None:
        return
    has_tensor_if = any(ctx.types.is_condition(n.test) for n in ctx.of(ast.If)) or any(
        ctx.types.is_condition(n.test) for n in ctx.of(ast.IfExp)
    )
    if not has_tensor_if:
        return
    for node in ctx.of(ast.Call):
        if _calls_itself(ctx, node):
            yield ctx.finding(
                "MS119",
                f"`{fn.name}` calls itself under a Tensor condition, which the compiler unrolls "
                "until its call-depth limit; use a `while` loop instead.",
                node,
                related=[ctx.related(fn, f"`{fn.name}` defined here")],
            )


def _calls_itself(ctx: FunctionContext, call: ast.Call) -> bool:
    """`self.<this method>(...)`. A module function calling itself compiles in MindSpore 2.10
    (its recursion is resolved as a graph), so only methods are reported."""
    func = call.func
    return (
        ctx.fn.cls is not None
        and isinstance(func, ast.Attribute)
        and func.attr == ctx.fn.node.name
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    )
