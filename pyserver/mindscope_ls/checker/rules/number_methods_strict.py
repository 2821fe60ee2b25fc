"""MS240: a method or attribute of a Python int or float (`n.bit_length()`, `f.is_integer()`,
`n.real`) in compiled code under STRICT.

Measured with MindSpore 2.10 on CPU against PyNative: LAX runs these through its Python
fallback; STRICT fails ("In JIT strict mode, cannot get attributes bit_length or the Int64
object has no attribute: 'bit_length'") for `(5).bit_length()`, `n.bit_length()` with `n = 5`,
`x.shape[0].bit_length()`, `n.bit_count()`, `(2.5).is_integer()`, `f.is_integer()` with
`f = 2.0 * x.shape[0]`, `(3).conjugate()`, `(1.5).hex()`, `(2.5).as_integer_ratio()`,
`(5).to_bytes(2, 'little')`, `(3).real`, `x.shape[1].real`, `(3).numerator`,
`(3).denominator`, `(2.5).imag` and `x.sum().item().real`. Arithmetic, `int()` / `float()` /
`abs()` / `round()` of the same numbers compile under STRICT.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..model import Group, RawFinding
from ..rule import Rule
from .bool_negation import unpacked_shape
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

NUMBER_ATTRIBUTE_UNDER_STRICT = Rule(
    "MS240",
    "number-attribute-strict",
    Group.STRICT,
    title="A method or attribute of a Python int or float under STRICT",
    message=(
        "`{text}` reads `.{attr}` of the Python {kind} `{number}`, which only LAX's Python "
        "fallback provides; under jit_syntax_level=STRICT compute it outside compiled code or "
        "with arithmetic."
    ),
    why=(
        "Under STRICT a Python int or float in the graph is a scalar with no Python methods or "
        "attributes (`bit_length`, `is_integer`, `real`, ...); LAX falls back to Python."
    ),
    remedy="Compute the value outside the compiled function, or with plain arithmetic.",
    mindspore_says=(
        "AttributeError: In JIT strict mode, cannot get attributes bit_length or the Int64 "
        "object has no attribute: 'bit_length'."
    ),
)

NUMBER_ATTRIBUTES = frozenset(
    {
        "bit_length",
        "bit_count",
        "to_bytes",
        "conjugate",
        "real",
        "imag",
        "numerator",
        "denominator",
        "as_integer_ratio",
        "is_integer",
        "hex",
    }
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    attrs: list[ast.Attribute] = ctx.of(ast.Attribute)
    for node in attrs:
        if node.attr not in NUMBER_ATTRIBUTES or not isinstance(node.ctx, ast.Load):
            continue
        kind = number_kind(ctx, node.value)
        if kind is None:
            continue
        yield NUMBER_ATTRIBUTE_UNDER_STRICT.finding(
            node,
            text=ast.unparse(node),
            attr=node.attr,
            kind=kind,
            number=ast.unparse(node.value),
        )


def number_kind(ctx: FunctionContext, expr: ast.expr) -> str | None:
    """ "int" or "float" when `expr` is surely a Python number of the graph (a literal, a
    shape item, a number read from a Tensor, a local the values know), else None."""
    if isinstance(expr, ast.Constant):
        kind = type(expr.value)
        return kind.__name__ if kind in (int, float) else None
    if ctx.types.is_tensor(expr):
        return None
    if isinstance(expr, ast.Subscript) and not isinstance(expr.slice, ast.Slice):
        held = expr.value
        if isinstance(held, ast.Attribute) and held.attr == "shape":
            return "int"
    if isinstance(expr, ast.Name) and unpacked_shape(ctx, expr.id):
        return "int"
    if receivers.runtime_scalar(ctx, expr):
        return "number"
    value = abstract(ctx).of(expr)
    if value is not None and value.kind == "scalar" and value.dtype in ("int", "float"):
        return value.dtype
    return None
