"""MS256: under STRICT, an arithmetic operator of a Python object's class with a Tensor.

Measured with MindSpore 2.10 on CPU (round31 `ob_op_*`, `ob_sop_*`): `self.o + x` where
`self.o` is an instance of a plain class or `@jit_class` that defines `__add__` (so `-`, `*`
with `__sub__`, `__mul__`), and `x` a Tensor of the graph (an input, or `x.sum()`), compiles
at LAX, which runs the dunder through its Python fallback, and fails under STRICT ("When
handling script '__input_key_0__ + __input_key_1__ in graph mode', the inputs should be
constant"); so does `self.o == x` with `__eq__` (round31 `ob_obj_eq_tensor`). With a constant
operand (`self.o + 1`), a comparison with a constant (`self.o < 3`), a unary
operator (`-self.o`), `self.o[2]`, `len(self.o)` and `self.o == 5` STRICT compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import python_objects
from .helpers.base import FunctionContext

OBJECT_OPERATOR_UNDER_STRICT = Rule(
    "MS256",
    "object-operator-under-strict",
    Group.STRICT,
    title="An operator or comparison a Python object's class defines, with a Tensor, under STRICT",
    message=(
        "`{text}` calls `{dunder}` of {what} with a Tensor computed in the graph, which only "
        "LAX's Python fallback runs; call a method that takes the Tensor, or use the default "
        "LAX level."
    ),
    why=(
        "Graph mode has no translation for a Python class's operator methods: LAX runs them "
        "through its Python fallback, which STRICT does not have beyond constant folding."
    ),
    remedy="Write the arithmetic on the object's attributes (`self.o.v + x`), or use LAX.",
    mindspore_says=(
        "ValueError: When handling script '__input_key_0__ + __input_key_1__ in graph mode', "
        "the inputs should be constant, but found variable '__input_key_1__' to be nonconstant."
    ),
)

_DUNDERS = {
    ast.Add: "__add__",
    ast.Sub: "__sub__",
    ast.Mult: "__mul__",
    ast.Div: "__truediv__",
    ast.FloorDiv: "__floordiv__",
    ast.MatMult: "__matmul__",
    ast.Mod: "__mod__",
    ast.Pow: "__pow__",
}
# Measured: `self.o == x` with `__eq__` fails alike ("'__input_key_0__ == __input_key_1__'").
_COMPARISONS = {
    ast.Eq: "__eq__",
    ast.NotEq: "__ne__",
    ast.Lt: "__lt__",
    ast.LtE: "__le__",
    ast.Gt: "__gt__",
    ast.GtE: "__ge__",
}
_ALL = frozenset([*_DUNDERS.values(), *_COMPARISONS.values()])


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Not cacheable: reads the module's global instances."""
    if not python_objects.defines_any(ctx.fn.module, _ALL):
        return  # the common case: no class of the module defines an operator
    pairs: list[tuple[ast.expr, Optional[str], ast.expr, ast.expr]] = [
        (node, _DUNDERS.get(type(node.op)), node.left, node.right) for node in ctx.of(ast.BinOp)
    ]
    for compare in ctx.of(ast.Compare):
        if len(compare.ops) == 1:
            op = type(compare.ops[0])
            pairs.append((compare, _COMPARISONS.get(op), compare.left, compare.comparators[0]))
    for node, dunder, left, right in pairs:
        if dunder is None or not ctx.types.is_tensor(right):
            continue
        what = python_objects.python_object(ctx, left)
        if what is None or what.startswith("the Enum"):
            continue
        info = python_objects.object_class(ctx, left)
        if info is None or info.find_method(dunder) is None:
            continue
        yield OBJECT_OPERATOR_UNDER_STRICT.finding(
            node, text=ast.unparse(node), dunder=dunder, what=what
        )
