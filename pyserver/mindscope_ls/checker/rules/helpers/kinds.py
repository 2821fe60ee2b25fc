"""What kind of value an expression is (tensor, scalar, tuple, None) and which kinds cannot join."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from .types import TensorTypes

# Pairs of result kinds MindSpore 2.10 was seen to refuse to join (at every level).
INCOMPATIBLE = {frozenset({"tensor", "scalar"}), frozenset({"tensor", "tuple"})}
# Joined at LAX (through the Python fallback) but refused under STRICT.
STRICT_ONLY = {frozenset({"tensor", "None"})}


@dataclass(frozen=True)
class Clash:
    strict_only: bool  # fails under STRICT only (MS205), else at every level (MS112)
    left: str
    right: str


def kind(types: TensorTypes, expr: Optional[ast.expr]) -> Optional[str]:
    """tensor / scalar / tuple / None for values the checker is sure about."""
    if expr is None:
        return "None"
    if types.is_tensor(expr):
        return "tensor"
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.Constant):
        expr = expr.operand  # -1, +2.0
    if isinstance(expr, ast.Constant):
        if expr.value is None:
            return "None"
        if isinstance(expr.value, (int, float)):
            return "scalar"
        return None
    if isinstance(expr, ast.Tuple) or (isinstance(expr, ast.Attribute) and expr.attr == "shape"):
        return "tuple"
    return None


def clash(types: TensorTypes, a: Optional[ast.expr], b: Optional[ast.expr]) -> Optional[Clash]:
    """How two values joined after a Tensor condition fail to join, or None if they may join."""
    ka, kb = kind(types, a), kind(types, b)
    if ka is not None and kb is not None:
        pair = frozenset({ka, kb})
        if pair in INCOMPATIBLE:
            return Clash(False, ka, kb)
        if pair in STRICT_ONLY:
            return Clash(True, ka, kb)
    if isinstance(a, ast.Tuple) and isinstance(b, ast.Tuple) and len(a.elts) == len(b.elts):
        for x, y in zip(a.elts, b.elts):
            inner = clash(types, x, y)
            if inner is not None:
                return Clash(
                    inner.strict_only,
                    f"tuple holding a {inner.left}",
                    f"tuple holding a {inner.right}",
                )
    return None
