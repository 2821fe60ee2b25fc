"""MS160: the truth value of a Tensor of several elements.

MindSpore 2.10 converts a Tensor to a bool only when its shape is `()` or `(1,)`, at every syntax
level: `if x:`, `while x:`, `a if x else b`, `assert x`, `not x`, `x and y` / `x or y` (the
operands whose truth decides) and chained comparisons `a < x < b` (each comparison but the last
is tested, as Python's `and` would) fail on a larger one. Measured on CPU (`cases/operators/`).
Only Tensors whose shape the source fixes (`helpers/shapes.py`) are judged: unknown says nothing.
Round 32: one element of two or more axes fails too (`if x:` of an input of shape (1, 1): "Only
tensor which shape is () or (1,) can be converted to bool, but got tensor shape is (1, 1)",
every level; PyNative takes its truth).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import shared_values
from .helpers.base import FunctionContext, cacheable
from .helpers.shapes import Shape, Shapes, broadcast, size

TENSOR_TRUTH = Rule(
    "MS160",
    "tensor-truth-several-elements",
    Group.FAILS,
    title="Truth value of a Tensor with several elements",
    message=(
        "{where} takes the truth value of a Tensor of shape {shape}, which graph mode converts "
        "to a bool only for shape () or (1,); reduce it first (`(x > 0).any()`, `.all()`) or test "
        "one element."
    ),
    why=(
        "A condition, `not`, `and`/`or` and each step of a chained comparison need a Python "
        "bool. MindSpore converts a Tensor to one only when its shape is `()` or `(1,)`, at "
        "every syntax level, so a Tensor with several elements cannot be compiled there."
    ),
    remedy=(
        "Say which truth is meant: `(x > 0).all()` or `.any()`, a reduction such as `x.sum() "
        "> 0`, or `ops.logical_and(a, b)` for an elementwise and; write a chained comparison "
        "as `(a < x) & (x < b)`."
    ),
    mindspore_says=(
        "ValueError: Only tensor which shape is () or (1,) can be converted to bool, but got "
        "tensor shape is (2, 3)"
    ),
)

TESTED = (ast.If, ast.While, ast.IfExp, ast.Assert)
WHERE = {ast.If: "`if`", ast.While: "`while`", ast.IfExp: "`... if ... else ...`"}


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    nodes: list[ast.AST] = ctx.of(*TESTED, ast.UnaryOp, ast.BoolOp, ast.Compare)
    if not nodes:
        return
    judge = _Judge(ctx)
    for node in nodes:
        if isinstance(node, TESTED):
            yield from judge.tested(node.test, WHERE.get(type(node), "`assert`"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield from judge.tested(node.operand, "`not`")
        elif isinstance(node, ast.BoolOp):
            word = "`and`" if isinstance(node.op, ast.And) else "`or`"
            for value in node.values[:-1]:
                yield from judge.tested(value, word)
        elif isinstance(node, ast.Compare) and len(node.ops) > 1:
            yield from judge.chained(node)


class _Judge:
    def __init__(self, ctx: FunctionContext) -> None:
        self.ctx = ctx

    @property
    def shapes(self) -> Shapes:
        return shared_values.shapes(self.ctx)

    def tested(self, expr: ast.expr, where: str) -> Iterator[RawFinding]:
        if isinstance(expr, ast.BoolOp):
            # the last operand is the value tested here; the others are tested by the BoolOp
            yield from self.tested(expr.values[-1], where)
            return
        if isinstance(expr, (ast.UnaryOp, ast.Constant)) or self._cheap_scalar(expr):
            return  # `not` is judged on its own; a literal has a truth value
        shape = self._several(expr)
        if shape is not None:
            yield TENSOR_TRUTH.finding(expr, where=where, shape=_text(shape))

    def chained(self, node: ast.Compare) -> Iterator[RawFinding]:
        """`a < b < c` is `(a < b) and (b < c)`: every comparison but the last is tested."""
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops[:-1]):
            if isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                continue
            pair = [self._operand(e) for e in operands[index : index + 2]]
            if pair[0] is None or pair[1] is None:
                continue
            if not any(self._tensor(e) for e in operands[index : index + 2]):
                continue
            shape = broadcast(pair[0], pair[1])
            if shape is not None and size(shape) > 1:
                where = "A chained comparison"
                yield TENSOR_TRUTH.finding(node, where=where, shape=_text(shape))
                return

    def _operand(self, expr: ast.expr) -> Optional[Shape]:
        if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
            return ()
        return self.shapes.of(expr) if self._tensor(expr) else None

    def _tensor(self, expr: ast.expr) -> bool:
        types = self.ctx.types
        return types.is_tensor(expr) and not types.is_constant_tensor(expr)

    def _several(self, expr: ast.expr) -> Optional[Shape]:
        if not self._tensor(expr):
            return None
        shape = self.shapes.of(expr)
        if shape is None:
            return None
        return shape if size(shape) > 1 or len(shape) >= 2 else None

    @staticmethod
    def _cheap_scalar(expr: ast.expr) -> bool:
        """`self.training`, `len(x) > 0`, `x is None`: never a Tensor (cheap exit)."""
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            return expr.value.id == "self"
        return isinstance(expr, ast.Compare) and isinstance(
            expr.ops[0], (ast.Is, ast.IsNot, ast.In, ast.NotIn)
        )


def _text(shape: Shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
