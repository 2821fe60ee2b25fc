"""MS275: a Python complex number returned or printed from compiled code, under STRICT.
MS1078: `abs()` of a Python complex number in Tensor arithmetic.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 34, `sc_`; a
Cell's `construct`, where PyNative runs Python):

- MS275: `complex(1, 2)` made in compiled code is a Python object LAX's fallback carries, which
  STRICT cannot put in the graph's output: `return complex(1, 2)`, `c = complex(1, 2);
  return c`, `return c + 1`, `return c * 2`, `return complex(1.5)` and
  `return complex(1, 2), x`, `return complex(1, 2) / 2`, `return c.conjugate()` failed under
  STRICT with "Illegal type in the graph:
  AbstractScalar(Type: External, Value: PythonObject(type: <class 'complex'> ...)", and
  `print(c)` with "Invalid value:PythonObject(type: <class 'complex'> ...)"; all compile at
  LAX. Its parts compile at both levels: `c.real + 1`, `c.conjugate().imag`,
  `c == complex(3, 4)`, `abs(complex(3, 4))` returned, `[complex(1, 2), 1]` returned.
- MS1078: `x * abs(complex(3, 4))` (or of a local bound to one) failed at LAX ("Default/Cast-op0
  does not support this kernel data type") and STRICT (the fallback's "the inputs should be
  constant"); `x * float(abs(c))` and `x * c.real` compile, as does `abs(c)` returned alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .divergence_scalars import _entry
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable

COMPLEX_OUTPUT_UNDER_STRICT = Rule(
    "MS275",
    "complex-output-strict",
    Group.STRICT,
    title="A Python complex number returned or printed from compiled code, under STRICT",
    message=(
        "`{text}` is a Python complex number, which STRICT cannot {use}; under "
        "jit_syntax_level=STRICT return its `.real` and `.imag`, or a complex Tensor."
    ),
    why=(
        "A `complex(...)` made in compiled code is a Python object that only LAX's fallback "
        "carries: under STRICT it cannot be an output of the graph or be printed, while "
        "`.real`, `.imag` and `abs()` of it compile."
    ),
    remedy="Return `c.real, c.imag`, or build a complex Tensor (`ops.Complex(re, im)`).",
    mindspore_says=(
        "RuntimeError: Illegal type in the graph: AbstractScalar(Type: External, Value: "
        "PythonObject(type: <class 'complex'>, value: (1+2j)) ...)"
    ),
)

COMPLEX_ABS_TENSOR = Rule(
    "MS1078",
    "complex-abs-tensor",
    Group.FAILS,
    title="`abs()` of a Python complex number in Tensor arithmetic",
    message=(
        "`{text}` mixes a Tensor with `abs()` of the Python complex number `{number}`, which "
        "graph mode cannot cast to a Tensor; write `float(abs({number}))`."
    ),
    why=(
        "`abs()` of a complex number made in compiled code stays a Python object of the "
        "fallback: returned alone it compiles, but a Tensor operator needs it cast, and the "
        "Cast kernel has no such type (LAX) or the fallback finds a Tensor among its inputs "
        "(STRICT)."
    ),
    remedy="Convert it first: `x * float(abs(c))`, or compute it outside the compiled code.",
    mindspore_says=(
        "RuntimeError: Default/Cast-op0 does not support this kernel data type: "
        "(<Float32xDefaultFormat>, object_type: [Tensor])"
    ),
)

_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls: list[ast.Call] = ctx.of(ast.Call)
    if not any(isinstance(c.func, ast.Name) and c.func.id == "complex" for c in calls):
        return
    if not builtin(ctx, "complex"):
        return
    yield from _tensor_abs(ctx)
    yield from _printed(ctx, calls)
    if not _entry(ctx):
        return
    for ret in ctx.of(ast.Return):
        value = ret.value
        parts = value.elts if isinstance(value, ast.Tuple) else [value] if value else []
        for part in parts:
            if _complex(ctx, part, 0):
                yield COMPLEX_OUTPUT_UNDER_STRICT.finding(
                    part, text=ast.unparse(part), use="return from the graph"
                )


def _printed(ctx: FunctionContext, calls: list[ast.Call]) -> Iterator[RawFinding]:
    for call in calls:
        if isinstance(call.func, ast.Name) and call.func.id == "print" and builtin(ctx, "print"):
            for arg in call.args:
                if _complex(ctx, arg, 0):
                    yield COMPLEX_OUTPUT_UNDER_STRICT.finding(
                        arg, text=ast.unparse(arg), use="print"
                    )


def _tensor_abs(ctx: FunctionContext) -> Iterator[RawFinding]:
    for node in ctx.of(ast.BinOp):
        if not isinstance(node.op, _ARITH):
            continue
        for side, other in ((node.left, node.right), (node.right, node.left)):
            number = _abs_of_complex(ctx, side)
            if number is not None and ctx.types.is_tensor(other):
                yield COMPLEX_ABS_TENSOR.finding(
                    node, text=ast.unparse(node), number=ast.unparse(number)
                )
                break


def _abs_of_complex(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return None if bound is None else _abs_of_complex(ctx, bound)
    inner = names.builtin_argument(expr, "abs")
    return inner if inner is not None and _complex(ctx, inner, 0) else None


def _complex(ctx: FunctionContext, expr: ast.expr, depth: int) -> bool:
    """A Python complex number: `complex(...)` of numbers or a str, a local bound once to one,
    or `+ - * /` of one with a number."""
    if depth > 6:
        return False
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
        return (  # `c.conjugate()` (measured: fails returned under STRICT)
            expr.func.attr == "conjugate"
            and not expr.args
            and _complex(ctx, expr.func.value, depth + 1)
        )
    if isinstance(expr, ast.Call):
        return (
            isinstance(expr.func, ast.Name)
            and expr.func.id == "complex"
            and 1 <= len(expr.args) <= 2
            and not expr.keywords
            and all(_plain_number(a) for a in expr.args)
        )
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _complex(ctx, bound, depth + 1)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, _ARITH):
        left, right = _complex(ctx, expr.left, depth + 1), _complex(ctx, expr.right, depth + 1)
        if left and right:
            return True
        return (left and _plain_number(expr.right)) or (right and _plain_number(expr.left))
    return False


def _plain_number(expr: ast.expr) -> bool:
    """An int, float or str literal, or a negated number literal."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float, str)
