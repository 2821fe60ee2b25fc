"""MS390: `//` and `%` of Python ints beyond float32's 24 bits. MS391: a negative Python number
raised to a fractional power is nan in compiled code.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (a Cell's `construct`;
round 34, `sc_`):

- MS390: graph mode divides two Python ints through float32 and floors the quotient, then
  takes `a % b` as `a - (a // b) * b` in int64. An operand float32 cannot hold exactly
  (beyond 2 ** 24) makes both wrong: `123456789 // 10` returned 12345679 and `123456789 % 10`
  -1 (PyNative 12345678, 9); `1700000000 % 60` -40 (20); `a = 2 ** 40 + 1; a % 3` -32767
  (2); `s % 10` of an LCG state 1250496027 gave 27 (7); `16777217 // 1` 16777216.
  `16777216 // 3`, `2 ** 60 // 4`, `1000003 % 7`, `-123456789 // 10` (the float32 quotient
  floors to the same int) and `7 % 100000007` agree. The rule computes both and reports only
  a difference; operands are what the source fixes: int literals and their arithmetic, locals
  bound once, `sys.maxsize`, a dim of a Tensor whose static shape the module gives, and an int
  attribute `__init__` sets once.
- MS391: graph mode computes a Python number's power in floats, so a negative base with a
  fractional exponent is nan, where Python gives a complex number: `(-4) ** 0.5`,
  `(-8) ** (1 / 3)`, `pow(-8, 1 / 3)`, `a = -9.0; a ** 0.5`, `self.a ** 0.5` with
  `self.a = -4.0`, `n ** 0.5` with `n = -x.shape[0]` returned nan (PyNative
  `(1.2e-16+2j)`, ...), and `x * abs((-4) ** 0.5)` was all nan (PyNative 2.0). An exponent
  with an integer value (`(-2) ** 3.0`, `(-1.5) ** 2`) and a positive base agree.
"""

from __future__ import annotations

import ast
import math
import struct
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .calls_shared import builtin
from .divergence_int_pow import _int_of
from .divergence_scalars import powers
from .helpers import names, receivers
from .helpers.base import FunctionContext, cacheable
from .scalars import INT64, constant_int_locals, fold_int

INT_DIVISION_FLOAT32 = Rule(
    "MS390",
    "int-division-float32",
    Group.DIVERGES,
    title="`//` or `%` of Python ints beyond float32's precision in compiled code",
    message=(
        "`{text}` is {pynative} in Python, but graph mode divides Python ints through float32 "
        "and gets {graph}; compute it outside the compiled code or on an int64 Tensor."
    ),
    why=(
        "Graph mode floors the float32 quotient of two Python ints and takes `a % b` as "
        "`a - (a // b) * b`, so an int beyond 2 ** 24 gives a wrong quotient and remainder: "
        "`123456789 % 10` returned -1 in GRAPH_MODE where PyNative returned 9, and "
        "`1700000000 % 60` returned -40 for 20."
    ),
    remedy=(
        "Compute the number before calling the compiled code, or use an int64 Tensor "
        "(`ms.Tensor(a, ms.int64) % 10`)."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

NEGATIVE_FRACTIONAL_POWER = Rule(
    "MS391",
    "negative-fractional-power-nan",
    Group.DIVERGES,
    title="A negative Python number raised to a fractional power is nan in compiled code",
    message=(
        "`{text}` raises a negative number (`{base}`) to a fractional power: Python gives a "
        "complex number, graph mode computes it in floats and gets nan; take the power of "
        "`abs()` or use `complex()` outside the compiled code."
    ),
    why=(
        "Graph mode computes powers of Python numbers as floats: `(-4) ** 0.5` and "
        "`pow(-8, 1 / 3)` returned nan in GRAPH_MODE where PyNative returned "
        "(1.2246467991473532e-16+2j) and (1.0000000000000002+1.7320508075688772j)."
    ),
    remedy="Raise `abs(base)` to the power (and restore the sign), or keep it out of the graph.",
    mindspore_says="(compiles; result differs from PyNative)",
)

FLOAT32_EXACT = 2**24
_DIVISIONS = (ast.FloorDiv, ast.Mod)
_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    yield from _divisions(ctx)
    yield from _negative_powers(ctx)


def _divisions(ctx: FunctionContext) -> Iterator[RawFinding]:
    ops: list[ast.BinOp] = [b for b in ctx.of(ast.BinOp) if isinstance(b.op, _DIVISIONS)]
    if not ops:
        return
    constants = constant_int_locals(ctx)
    for node in ops:
        huge = _huge_int(ctx, node.left)
        if huge is not None:
            yield INT_DIVISION_FLOAT32.finding(
                node,
                text=ast.unparse(node),
                pynative="the exact result",
                graph=f"another number (`{huge}` is an int far beyond 2 ** 24)",
            )
            continue
        left = _pair(ctx, node.left, constants, 0)
        right = _pair(ctx, node.right, constants, 0)
        if left is None or right is None or left[0] != left[1] or right[0] != right[1]:
            continue  # unknown, or an operand diverged already (reported there)
        a, b = left[0], right[0]
        if b == 0 or max(abs(a), abs(b)) <= FLOAT32_EXACT:
            continue
        pynative, graph = _divide(node.op, a, b)
        if pynative != graph and INT64[0] <= graph <= INT64[1]:
            yield INT_DIVISION_FLOAT32.finding(
                node, text=ast.unparse(node), pynative=str(pynative), graph=str(graph)
            )


def _huge_int(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> Optional[str]:
    """`id(o)` or `hash(v)` of a str, bytes, tuple or fractional float literal, or int arithmetic
    on one: ints far beyond 2 ** 24 (measured round 36: `id(self) % 5`, `hash('abc') % 5`,
    `hash(0.5) % 7` differed from PyNative; `hash(12) % 5` is 12 % 5 and agrees)."""
    if depth > 6:
        return None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, _INT_OPS):
        return _huge_int(ctx, expr.left, depth + 1) or _huge_int(ctx, expr.right, depth + 1)
    if not (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("id", "hash")
        and len(expr.args) == 1
        and not expr.keywords
        and builtin(ctx, expr.func.id)
    ):
        return None
    arg = expr.args[0]
    if expr.func.id == "id":
        return ast.unparse(expr)
    if isinstance(arg, ast.Tuple) or (
        isinstance(arg, ast.Constant)
        and (
            isinstance(arg.value, (str, bytes))
            or (isinstance(arg.value, float) and not arg.value.is_integer())
        )
    ):
        return ast.unparse(expr)
    return None


def _f32(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def _divide(op: ast.operator, a: int, b: int) -> tuple[int, int]:
    """(Python's, graph mode's) `a // b` or `a % b` of two ints."""
    quotient = math.floor(_f32(_f32(float(a)) / _f32(float(b))))
    if isinstance(op, ast.FloorDiv):
        return a // b, quotient
    return a % b, a - quotient * b


def _pair(
    ctx: FunctionContext, expr: ast.expr, constants: dict[str, ast.expr], depth: int
) -> Optional[tuple[int, int]]:
    """(Python's, graph mode's) value of an int expression whose operands the source fixes."""
    if depth > 12:
        return None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, _INT_OPS):
        left = _pair(ctx, expr.left, constants, depth + 1)
        right = _pair(ctx, expr.right, constants, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(expr.op, _DIVISIONS):
            if left[1] == 0 or right[0] == 0 or right[1] == 0:
                return None
            pynative = _divide(expr.op, left[0], right[0])[0]
            if max(abs(left[1]), abs(right[1])) <= FLOAT32_EXACT:
                return pynative, _divide(expr.op, left[1], right[1])[0]
            return pynative, _divide(expr.op, left[1], right[1])[1]
        if isinstance(expr.op, ast.Add):
            found = left[0] + right[0], left[1] + right[1]
        elif isinstance(expr.op, ast.Sub):
            found = left[0] - right[0], left[1] - right[1]
        else:
            found = left[0] * right[0], left[1] * right[1]
        if not all(INT64[0] <= v <= INT64[1] for v in found):
            return None  # the graph fails on the overflow (MS175)
        return found
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if isinstance(bound, ast.BinOp):
            return _pair(ctx, bound, constants, depth + 1)
    held = _int_attribute(ctx, expr)
    value = held if held is not None else _int_of(ctx, expr, constants)
    if value is None or not INT64[0] <= value <= INT64[1]:
        return None
    return value, value


def _int_attribute(ctx: FunctionContext, expr: ast.expr) -> Optional[int]:
    """The int literal the class's one `self.<attr> = ...` binds (`self.seed = 42`)."""
    held = _attribute_value(ctx, expr)
    return None if held is None else fold_int(held, {})


def _attribute_value(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """The value of the class's one `self.<attr> = value` (none augmented)."""
    attr = names.self_attribute(expr)
    cls = ctx.fn.cls
    return cls.bound_once(attr) if attr is not None and cls is not None else None


def _negative_powers(ctx: FunctionContext) -> Iterator[RawFinding]:
    pows = powers(ctx)
    if not pows:
        return
    for node, base, exponent in pows:
        power = _number(ctx, exponent, 0)
        if power is None or not math.isfinite(power) or power == int(power):
            continue
        sign = _sign(ctx, base, 0)
        if sign is None or sign >= 0:
            continue
        yield NEGATIVE_FRACTIONAL_POWER.finding(
            node, text=ast.unparse(node), base=ast.unparse(base), exponent=ast.unparse(exponent)
        )


def _number(ctx: FunctionContext, expr: ast.expr, depth: int) -> Optional[float]:
    """A number the source fixes: literals, `- + * /` of them, a local bound once to one."""
    if depth > 8:
        return None
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        return float(expr.value)  # type: ignore[arg-type]
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        inner = _number(ctx, expr.operand, depth + 1)
        return None if inner is None else (-inner if isinstance(expr.op, ast.USub) else inner)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        left, right = _number(ctx, expr.left, depth + 1), _number(ctx, expr.right, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(expr.op, ast.Add):
            return left + right
        if isinstance(expr.op, ast.Sub):
            return left - right
        if isinstance(expr.op, ast.Mult):
            return left * right
        return None if right == 0 else left / right
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return None if bound is None else _number(ctx, bound, depth + 1)
    held = _attribute_value(ctx, expr)  # `self.a = -4.0` in `__init__`
    if held is None or depth > 4:
        return None
    return _number(ctx, held, 8) if isinstance(held, ast.Constant) else _literal(held)


def _literal(expr: ast.expr) -> Optional[float]:
    """`-4.0`, `-4`: a negated number literal."""
    if (
        isinstance(expr, ast.UnaryOp)
        and isinstance(expr.op, ast.USub)
        and isinstance(expr.operand, ast.Constant)
        and type(expr.operand.value) in (int, float)
    ):
        return -float(expr.operand.value)  # type: ignore[arg-type]
    return None


def _sign(ctx: FunctionContext, expr: ast.expr, depth: int) -> Optional[float]:
    """The sign of a number: one the source fixes, or a negated static size (`-x.shape[0]`)."""
    if depth > 8:
        return None
    if names.is_static_size(expr):
        return 1.0
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _sign(ctx, expr.operand, depth + 1)
        return None if inner is None else -inner
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is not None:
            return _sign(ctx, bound, depth + 1)
    value = _number(ctx, expr, depth + 1)
    return None if value is None else value
