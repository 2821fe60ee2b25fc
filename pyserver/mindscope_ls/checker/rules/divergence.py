"""MS301-MS304: code that compiles but computes something other than PyNative."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..fixes.edits import make_fix, replace_node, segment
from ..model import Fix, RawFinding
from .helpers.base import FunctionContext, cacheable, within
from .helpers.flow import loads_after

LIST_MUTATORS = frozenset({"append", "extend", "insert"})
SIMPLE = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _globals(ctx)
    aliases = _tensor_aliases(ctx)
    for node in ctx.of(ast.Call, ast.AugAssign, ast.For, ast.While):
        if isinstance(node, ast.Call):
            yield from _list_attribute_mutation(ctx, node)
        elif isinstance(node, ast.AugAssign):
            yield from _alias_update(ctx, node, aliases)
        elif isinstance(node, (ast.For, ast.While)):
            yield from _lambdas_in_loop(ctx, node)


def _globals(ctx: FunctionContext) -> Iterator[RawFinding]:
    declared: dict[str, ast.Global] = {}
    for statement in ctx.of(ast.Global):
        for name in statement.names:
            declared.setdefault(name, statement)
    if not declared:
        return
    for node in ctx.of(ast.Name):
        if isinstance(node.ctx, ast.Store) and node.id in declared:
            yield ctx.finding(
                "MS301",
                f"Writing the global `{node.id}` in compiled code is not seen by the graph, which "
                "read it at compile time; keep the state in a Parameter or pass it in.",
                node,
                related=[ctx.related(declared[node.id], "declared global here")],
            )


def _list_attribute_mutation(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in LIST_MUTATORS):
        return
    owner = func.value
    if not (
        isinstance(owner, ast.Attribute)
        and isinstance(owner.value, ast.Name)
        and owner.value.id == "self"
        and ctx.fn.cls is not None
    ):
        return
    attr = ctx.fn.cls.attr(owner.attr)
    if attr is None or attr.kind != "list":
        return
    yield ctx.finding(
        "MS302",
        f"`self.{owner.attr}.{func.attr}(...)` in compiled code changes a compile-time copy, not "
        "the Cell's list; build a local list or move this out of compiled code.",
        call,
        related=[ctx.related(attr.node, f"`self.{owner.attr}` created here")] if attr.node else [],
    )


def _tensor_aliases(ctx: FunctionContext) -> dict[str, tuple[str, ast.Assign]]:
    """`y = x` where x is a Tensor: y -> (x, the assignment)."""
    aliases: dict[str, tuple[str, ast.Assign]] = {}
    for node in ctx.of(ast.Assign):
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
            and ctx.types.is_tensor(node.value)
        ):
            aliases.setdefault(node.targets[0].id, (node.value.id, node))
    return aliases


def _alias_update(
    ctx: FunctionContext, node: ast.AugAssign, aliases: dict[str, tuple[str, ast.Assign]]
) -> Iterator[RawFinding]:
    if not isinstance(node.target, ast.Name) or node.target.id not in aliases:
        return
    original, assign = aliases[node.target.id]
    if loads_after(ctx.fn.node, original, node) is None:
        return
    name = node.target.id
    yield ctx.finding(
        "MS303",
        f"`{name}` aliases `{original}`, and in graph mode this in-place update changes "
        f"`{original}` too (PyNative does not); write `{name} = {name} <op> <value>` instead.",
        node,
        related=[ctx.related(assign, f"`{name}` aliases `{original}` here")],
        fix=_rebind_fix(ctx, node),
    )


def _rebind_fix(ctx: FunctionContext, node: ast.AugAssign) -> Optional[Fix]:
    op = _OPERATORS.get(type(node.op))
    value = segment(ctx.lines, node.value)
    if op is None or value is None or "\n" in value or not isinstance(node.target, ast.Name):
        return None
    if not isinstance(node.value, SIMPLE):
        value = f"({value})"
    name = node.target.id
    return make_fix(
        f"Rewrite as `{name} = {name} {op} ...`",
        replace_node(node, f"{name} = {name} {op} {value}"),
    )


_OPERATORS: dict[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}


def _lambdas_in_loop(ctx: FunctionContext, loop: ast.For | ast.While) -> Iterator[RawFinding]:
    calls = ctx.of(ast.Call)
    for stmt in loop.body:
        for node in within(stmt, calls):
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr == "append"
                and node.args
                and isinstance(node.args[0], ast.Lambda)
            ):
                yield ctx.finding(
                    "MS304",
                    "Lambdas collected in a loop are not called as in Python by graph mode "
                    "(the result can be None); define one function outside the loop and pass the "
                    "loop value as an argument.",
                    node.args[0],
                )
