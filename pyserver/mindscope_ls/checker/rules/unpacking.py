"""MS158: unpacking a value into names it cannot fill.

Measured with MindSpore 2.10 (`generated/unpacking/`): unpacking fewer items than names, None,
a scalar, a dict or a 0-d Tensor fails. Values the source does not fix are never reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import describe
from .helpers.abstract import Abstract
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
            problem = _unfillable(values, target, node.value)
            if problem is not None:
                what, advice = problem
                count = len(target.elts)
                yield UNPACK_MISMATCH.finding(node, count=count, what=what, advice=advice)
                return


def _unfillable(
    values: Abstract, target: ast.Tuple | ast.List, value: ast.expr
) -> Optional[tuple[str, str]]:
    if any(isinstance(e, ast.Starred) for e in target.elts):
        return None
    if zero_d(values, value):
        return "a 0-d Tensor", "index a Tensor with at least one axis"
    known = values.of(value)
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
                    inner = _unfillable(values, sub, item)
                    if inner is not None:
                        return inner
    return None
