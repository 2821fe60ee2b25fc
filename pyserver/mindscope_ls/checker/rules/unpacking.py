"""MS158: unpacking a value into names it cannot fill.

Measured with MindSpore 2.10 (`generated/unpacking/`): unpacking fewer items than names, None,
a scalar, a dict or a 0-d Tensor fails. Values the source does not fix are never reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..index.module import FunctionNode
from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import describe, module_function, tensor_shape_of
from .helpers.abstract import Abstract, Value
from .helpers.base import FunctionContext

UNPACK_MISMATCH = Rule(
    "MS158",
    "unpack-mismatch",
    Group.FAILS,
    title="Unpacking a value into targets it cannot fill",
    message="{count} names are unpacked from {what}; {advice}.",
    why=(
        "Graph mode unpacks by indexing the value `0..n-1` when it compiles: a tuple or list of "
        "another length, None, a scalar, a dict (no key 0) or a 0-d Tensor has no such items."
    ),
    remedy="Unpack no more names than the tuple/list has items, or index the value explicitly.",
    mindspore_says=(
        "IndexError: TupleGetItem evaluator index should be in range[-2, 2), but got 2."
    ),
)


# Multi-output ops and how many items their tuple has.
TUPLE_COUNTS = {"topk": 2, "sort": 2}
# Reductions that give a 0-d Tensor when called with no axis.
REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "all", "any"})


def zero_d(values: Abstract, expr: ast.expr) -> bool:
    """`t.sum()`, `t.mean()`, ... of a Tensor with no axis: a 0-d Tensor."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)):
        return False
    if expr.func.attr not in REDUCTIONS or expr.args or expr.keywords:
        return False
    receiver = values.of(expr.func.value)
    return receiver is not None and receiver.kind == "tensor"


def check_assign(ctx: FunctionContext, values: Abstract, node: ast.Assign) -> Iterator[RawFinding]:
    for target in node.targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            problem = _unfillable(ctx, values, target, node.value)
            if problem is not None:
                what, advice = problem
                count = len(target.elts)
                yield UNPACK_MISMATCH.finding(node, count=count, what=what, advice=advice)
                return


def _unfillable(
    ctx: FunctionContext, values: Abstract, target: ast.Tuple | ast.List, value: ast.expr
) -> Optional[tuple[str, str]]:
    if any(isinstance(e, ast.Starred) for e in target.elts):
        return None
    if zero_d(values, value):
        return "a 0-d Tensor", "index a Tensor with at least one axis"
    known = values.of(value)
    counted = _counted(ctx, values, value, known)
    if counted is not None:
        what, count = counted
        return (what, f"unpack at most {count} names") if count < len(target.elts) else None
    if known is None:
        return None
    if known.kind in ("None", "scalar"):
        return describe(known), "unpack a tuple or list"
    if known.kind == "dict":
        return "a dict", "unpack `d.values()` or `d.items()`, or index the dict by key"
    if known.kind in ("tuple", "list") and known.items is not None and known.op is None:
        # Graph mode indexes items 0..n-1: more items than names compile, fewer fail.
        if len(known.items) < len(target.elts):
            return (
                f"a {known.kind} of {len(known.items)}",
                f"unpack at most {len(known.items)} names",
            )
        if isinstance(value, (ast.Tuple, ast.List)):
            for sub, item in zip(target.elts, value.elts):
                if isinstance(sub, (ast.Tuple, ast.List)):
                    inner = _unfillable(ctx, values, sub, item)
                    if inner is not None:
                        return inner
    return None


def _counted(
    ctx: FunctionContext, values: Abstract, value: ast.expr, known: Optional[Value]
) -> Optional[tuple[str, int]]:
    """How many items unpacking `value` gives, when the source fixes it: the rank of a Tensor's
    `.shape`, a Tensor's first axis, a multi-output op's tuple, a module function that always
    returns a written-out tuple of one length."""
    if isinstance(value, ast.Attribute) and value.attr == "shape":
        owner = values.of(value.value)
        shape = tensor_shape_of(ctx, value.value) if owner and owner.kind == "tensor" else None
        return (f"a shape of rank {len(shape)}", len(shape)) if shape is not None else None
    if known is not None and known.kind == "tensor":
        shape = tensor_shape_of(ctx, value)
        if shape:  # graph mode unpacks a Tensor along its first axis
            return f"a Tensor of {shape[0]} rows (shape {shape})", shape[0]
        return None
    if known is not None and known.op in TUPLE_COUNTS:
        return f"the `{known.op}()` result, a tuple of 2", TUPLE_COUNTS[known.op]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        target = module_function(ctx, value.func.id)
        count = _returned_count(target) if target is not None else None
        if count is not None:
            return f"the `{value.func.id}()` result, a tuple of {count}", count
    return None


def _returned_count(fn: FunctionNode) -> Optional[int]:
    """The length of the tuple every `return` of `fn` writes out, if they agree."""
    counts: set[Optional[int]] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not fn:
            return None  # a nested def's returns are its own: not worth telling apart
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return None
        if isinstance(node, ast.Return):
            value = node.value
            plain = isinstance(value, ast.Tuple) and not any(
                isinstance(e, ast.Starred) for e in value.elts
            )
            counts.add(len(value.elts) if plain and isinstance(value, ast.Tuple) else None)
    return counts.pop() if len(counts) == 1 else None
