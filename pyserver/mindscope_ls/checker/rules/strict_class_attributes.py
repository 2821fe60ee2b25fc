"""MS246: arithmetic on a class attribute that compiled code also assigns, under STRICT.

Measured with MindSpore 2.10 (`tests/graphmode/cases/user2/`): under STRICT, a compiled
function that assigns `Cls.attr` (a class of the module: a Cell's counter, a plain registry)
sees every `Cls.attr` it reads as a Python object of the fallback, and an operator on one fails
("When handling script '__input_key_0__ + __input_key_1__ in graph mode', the inputs should be
constant"), MindSpore naming the operator's line: `Step.count = Step.count + 1`,
`Step.count += 1`, `Step.scale = 2.0` then `x * Step.scale`. Reading it without assigning it,
and assigning it without an operator on it, compile; LAX runs both through its fallback.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding, SyntaxLevel
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext, cacheable

CLASS_ATTRIBUTE_ARITHMETIC_UNDER_STRICT = Rule(
    "MS246",
    "class-attribute-write-under-strict",
    Group.STRICT,
    title="An operator on a class attribute that compiled code assigns (STRICT)",
    message=(
        "`{target}` is assigned in this compiled function, so under STRICT it is a Python "
        "object here and `{op}` cannot take it; keep the value in a Parameter (or an attribute "
        "set in `__init__`) and update that instead."
    ),
    why=(
        "Assigning a class attribute in compiled code goes through the Python fallback; under "
        "STRICT the values read from it are then not constants the graph can compute with."
    ),
    remedy=(
        "Keep counters and other mutable state in a Parameter updated with `ops.assign`, "
        "update it outside the network, or use the default LAX level."
    ),
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ + __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_0__' to be nonconstant."
    ),
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    if ctx.level != SyntaxLevel.STRICT:
        return
    classes = ctx.types.module.classes
    attributes: list[ast.Attribute] = ctx.of(ast.Attribute)
    written = {
        key
        for key in (_key(a, classes) for a in attributes if not isinstance(a.ctx, ast.Load))
        if key is not None
    }
    if not written:
        return
    found: list[tuple[ast.AugAssign | ast.BinOp, str, str]] = []
    augmented: list[ast.AugAssign] = ctx.of(ast.AugAssign)
    for aug in augmented:
        key = _key(aug.target, classes)
        if key in written and isinstance(aug.op, names.ARITHMETIC_OPERATORS):
            found.append((aug, ast.unparse(aug.target), names.OPERATOR_SYMBOLS[type(aug.op)]))
    operations: list[ast.BinOp] = ctx.of(ast.BinOp)
    for op in operations:
        if not isinstance(op.op, names.ARITHMETIC_OPERATORS):
            continue
        for side in (op.left, op.right):
            if _key(side, classes) in written:
                found.append((op, ast.unparse(side), names.OPERATOR_SYMBOLS[type(op.op)]))
                break
    if found:
        node, target, symbol = min(found, key=lambda f: (f[0].lineno, f[0].col_offset))
        yield CLASS_ATTRIBUTE_ARITHMETIC_UNDER_STRICT.finding(node, target=target, op=symbol)


def _class_name(node: ast.Attribute, classes: dict[str, ast.ClassDef]) -> Optional[str]:
    value = node.value
    if isinstance(value, ast.Name) and value.id in classes:
        return value.id
    return None


def _key(node: ast.expr, classes: dict[str, ast.ClassDef]) -> Optional[tuple[str, str]]:
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load | ast.Store):
        name = _class_name(node, classes)
        if name is not None:
            return name, node.attr
    return None
