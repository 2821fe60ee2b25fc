"""The dtype a Tensor or numpy array gets when the source writes no dtype: Python's numbers and
numpy's defaults (measured with MindSpore 2.10 on Linux).

`Tensor([1.0, 2.0])`, `Tensor((1, 2.5))`, `Tensor(1.0)` are float32 and `Tensor([1, 2])`,
`Tensor(3)` int64 (MindSpore's own defaults for Python numbers); a numpy array keeps numpy's:
`np.ones((3, 4))`, `np.random.randn(2)`, `np.arange(4.0)`, `np.array([1.0, 2])` are float64,
`np.arange(4)`, `np.array([1, 2])`, `np.full(s, 3)`, `np.random.randint(0, 5, s)` int64.
Anything else (a name, a mix of bools and numbers, an unknown call) is unknown.
"""

from __future__ import annotations

import ast
from typing import Optional

# numpy calls whose array is float64 when no dtype is given
FLOAT_ARRAYS = frozenset({"ones", "zeros", "empty", "eye", "identity", "linspace"})
FLOAT_RANDOM = frozenset(
    {"randn", "rand", "random", "random_sample", "standard_normal", "uniform", "normal"}
)
# array methods whose result keeps the receiver's dtype
SAME_DTYPE_METHODS = frozenset({"reshape", "transpose", "copy", "flatten", "ravel", "squeeze"})


def python_tensor_dtype(expr: ast.expr) -> Optional[str]:
    """The dtype of `Tensor(<expr>)` for a number or a (nested) list/tuple of numbers."""
    kinds = _number_kinds(expr)
    if not kinds:
        return None
    if kinds == {bool}:
        return "bool_"
    if bool in kinds:
        return None  # a mix of bools and numbers: not measured
    return "float32" if float in kinds else "int64"


def numpy_default_dtype(call: ast.Call, name: str, random: bool) -> Optional[str]:
    """The dtype of `np.<name>(...)` (`np.random.<name>` when `random`) given no dtype."""
    if any(k.arg == "dtype" for k in call.keywords):
        return None
    if random:
        if name in FLOAT_RANDOM:
            return "float64"
        return "int64" if name == "randint" else None
    if name in FLOAT_ARRAYS:
        return "float64"
    if name == "arange":
        kinds = {k for a in call.args for k in _number_kinds(a)}
        if not call.args or len(call.args) > 3 or not kinds or bool in kinds:
            return None
        return "float64" if float in kinds else "int64"
    if name in ("array", "asarray") and len(call.args) == 1:
        kinds = _number_kinds(call.args[0])
        if not kinds:
            return None
        if kinds == {bool}:
            return "bool_"
        return None if bool in kinds else "float64" if float in kinds else "int64"
    if name == "full" and len(call.args) == 2:
        kinds = _number_kinds(call.args[1])
        if kinds == {int}:
            return "int64"
        return "float64" if kinds == {float} else None
    return None


def _number_kinds(expr: ast.expr) -> set[type]:
    """The Python types of the numbers in a number or a (nested) list/tuple literal of them;
    empty when anything else is there."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    if isinstance(expr, ast.Constant):
        kind = type(expr.value)
        return {kind} if kind in (int, float, bool) else set()
    if isinstance(expr, (ast.List, ast.Tuple)) and expr.elts:
        found: set[type] = set()
        for item in expr.elts:
            kinds = _number_kinds(item)
            if not kinds:
                return set()
            found |= kinds
        return found
    return set()
