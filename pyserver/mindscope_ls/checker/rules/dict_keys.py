"""MS189: a dict indexed by a key chosen under a Tensor condition.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`): `level = "hard" if loss.mean() >
0.3 else "easy"` joins two strings under a Tensor condition, so `level` is a string known only
when the graph runs; indexing a dict (or a CellDict) with it fails at every level ("dict_getitem
evaluator key only supports string, number, type, none, constant tensor and tuple, but got
ValueAny"), MindSpore naming the subscript. A tuple indexed by such an int compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable

DICT_KEY_FROM_TENSOR_CONDITION = Rule(
    "MS189",
    "dict-key-from-tensor-condition",
    Group.FAILS,
    title="A dict indexed by a key chosen under a Tensor condition",
    message=(
        "`{key}` is chosen by a Tensor condition, so it is not a constant when compiling, and a "
        "{kind} can only be indexed by constant keys; compute both values and select with "
        "`ops.select`/`ops.where`, or decide the key from a Python value."
    ),
    why=(
        "Both sides of a Tensor condition are compiled and the chosen string is only known when "
        "the graph runs; a dict's item is looked up when compiling."
    ),
    remedy=(
        "Read both items and choose between the results with `ops.where(cond, a, b)`, or keep "
        "the choice on a Python value (an attribute, a constant)."
    ),
    mindspore_says=(
        "RuntimeError: dict_getitem evaluator key only supports string, number, type, none, "
        "constant tensor and tuple, but got ValueAny"
    ),
)
CELL_DICT = "mindspore.nn.CellDict"


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    subscripts: list[ast.Subscript] = ctx.of(ast.Subscript)
    for node in subscripts:
        if not isinstance(node.ctx, ast.Load):
            continue
        kind = _dict_kind(ctx, node.value)
        if kind is None:
            continue
        if _chosen_by_tensor(ctx, node.slice):
            yield DICT_KEY_FROM_TENSOR_CONDITION.finding(
                node, key=ast.unparse(node.slice), kind=kind
            )


def _dict_kind(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    held = receivers.self_attr(ctx, expr)
    if held is not None:
        if held.kind == "cell" and held.class_qualname == CELL_DICT:
            return "CellDict"
        return "dict" if receivers.attr_kind(ctx, held) == receivers.DICT else None
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return "dict" if isinstance(bound, ast.Dict) else None
    return None


def _constant_key(expr: Optional[ast.expr]) -> bool:
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str)


def _chosen_by_tensor(ctx: FunctionContext, key: ast.expr) -> bool:
    if isinstance(key, ast.IfExp):
        return (
            ctx.types.is_condition(key.test)
            and _constant_key(key.body)
            and _constant_key(key.orelse)
            and key.body.value != key.orelse.value  # type: ignore[attr-defined]
        )
    if not isinstance(key, ast.Name):
        return False
    bound = receivers.only_binding(ctx, key.id)
    if bound is not None:
        return _chosen_by_tensor(ctx, bound)
    return _branches_bind(ctx, key.id)


def _branches_bind(ctx: FunctionContext, name: str) -> bool:
    """`if <Tensor>: name = "a"` / `else: name = "b"`, name bound nowhere else."""
    stores: list[ast.Name] = ctx.of(ast.Name)
    count = sum(1 for n in stores if n.id == name and not isinstance(n.ctx, ast.Load))
    ifs: list[ast.If] = ctx.of(ast.If)
    for node in ifs:
        if not node.orelse or not ctx.types.is_condition(node.test):
            continue
        then, other = _constant_binding(node.body, name), _constant_binding(node.orelse, name)
        if then is not None and other is not None and then != other and count == 2:
            return True
    return False


def _constant_binding(block: list[ast.stmt], name: str) -> Optional[str]:
    for stmt in block:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == name
            and _constant_key(stmt.value)
        ):
            return stmt.value.value  # type: ignore[attr-defined,no-any-return]
    return None
