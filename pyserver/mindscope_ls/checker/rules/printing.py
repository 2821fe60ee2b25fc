"""MS199: `print` of a tuple or list of Python numbers of different types, in compiled code.

Measured with MindSpore 2.10 on CPU (GRAPH_MODE, LAX and STRICT alike; PyNative prints them):
graph mode's `print` turns a flat tuple or list of Python numbers into one value of the first
element's type, so an element of another type fails while compiling ("Cast failed, original
value: 2, type: Int64Imm", no line named): `print((1.5, 2))`, `print([0.5, 3])`,
`print((1, True))`, `print("cfg", self.mixed)` with `self.mixed = (0.5, 3)` set in `__init__`,
a local `t = (1.5, 2)` printed. A tuple of bools alone fails as well (`print((True, False))`:
"RealTupleGetItem ... does not support this kernel data type"). What compiles: numbers of one
type (`(1, 2)`, `(1.5, 2.5)`), numbers as separate arguments (`print(1.5, 2)`), a tuple that
holds a Tensor anywhere (`(x, 1.5, 2)`, `(1, 2.5, x)`: each item printed), numbers of different
types after a str (`("loss", 1.5, 2)`, `(1, 's', 2.5)`), a nested tuple (`((1.5, 2), 3)`).
Round 33 (`dv_`): the numbers before the first str or None are cast, so `(1, 2.5, 's')`,
`(1.5, 2, 's')`, `(1, True, 's')`, `(1, 2.5, None)`, `[4, 0.1, 'adam']` and
`self.cfg = (3, 0.5, 'relu')` printed fail, and so does one bool alone (`(True,)`, `[False]`);
`(True, 1, 's')` prints. `x.shape[0]` and
`len(...)` count as ints (`print((x.shape[0], self.ratio))` fails, `print((x.shape[0],
x.shape[1]))` compiles); other unknown elements are left alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import calls_shared
from .helpers import names, receivers, shared_values
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable

MIXED_NUMBERS_PRINTED = Rule(
    "MS199",
    "print-mixed-numbers",
    Group.FAILS,
    title="`print` of a tuple or list of numbers of different types in compiled code",
    message=(
        "`{arg}` holds Python numbers {types}, which graph mode's `print` cannot convert to "
        "one type (at every level); print them as separate arguments "
        "(`print({example})`) or make them one type."
    ),
    why=(
        "Graph mode prints a tuple or list of Python numbers as one value of its first "
        "element's type; an element of another type (an int after a float, a bool among "
        "ints, or bools alone) cannot be cast while compiling."
    ),
    remedy=(
        "Pass the numbers as separate arguments (`print(lr, step)`), make them one type "
        "(`(1.5, 2.0)`), or print them from Python outside the compiled function."
    ),
    mindspore_says="RuntimeError: Cast failed, original value: 2, type: Int64Imm",
)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    prints = [c for c in ctx.of(ast.Call) if isinstance(c.func, ast.Name) and c.func.id == "print"]
    if not prints or not calls_shared.builtin(ctx, "print"):
        return
    abstract = shared_values.abstract(ctx, module=True)
    for call in prints:
        for arg in call.args:
            types = _number_types(ctx, abstract, arg)
            if types is None or not types or (len(types) < 2 and types != ["bool"]):
                continue
            if len(set(types)) > 1 or (
                set(types) == {"bool"} and len(types) == len(_elements(ctx, arg) or ())
            ):
                kinds = list(dict.fromkeys(types))
                shown = (
                    f"of different types ({', '.join(kinds)})"
                    if len(kinds) > 1
                    else "that are all bools"
                )
                text = ast.unparse(arg)
                example = ", ".join(f"{text}[{i}]" for i in range(len(types)))
                yield MIXED_NUMBERS_PRINTED.finding(arg, arg=text, types=shown, example=example)


def _number_types(ctx: FunctionContext, abstract: Abstract, arg: ast.expr) -> Optional[list[str]]:
    """The Python types of the elements of a flat tuple or list of numbers `arg` holds (a
    written-out one, a local bound only to one, or `self.<attr>` set once to one of constants),
    or None when any element is not surely a number."""
    elts = _elements(ctx, arg)
    if elts is None:
        return None
    types: list[str] = []
    if any(ctx.types.is_tensor(e) for e in elts):
        return None  # measured: `(1, 2.5, x)` prints each item
    for elt in elts:
        if _int_of_size(ctx, elt):
            types.append("int")
            continue
        value = abstract.of(elt)
        if value is not None and value.kind in ("str", "None"):
            # Round 33 (`dv_`): only the numbers before the first str or None are cast
            # to the first one's type: `(1, 2.5, 's')`, `(1.5, 2, 's')`, `(1, True, 's')`,
            # `(1, 2.5, None)` fail; `(1, 's', 2.5)`, `('s', 1, 2.5)`, `(True, 1, 's')` print.
            if types and types[0] == "bool":
                return None
            return types
        if value is None or value.kind != "scalar" or value.dtype not in ("bool", "int", "float"):
            return None
        types.append(value.dtype)
    return types


def _int_of_size(ctx: FunctionContext, expr: ast.expr) -> bool:
    """`x.shape[0]` of a Tensor (a constant index) or `len(...)`: an int (measured:
    `print((x.shape[0], self.ratio))` and `print((len(self.blocks), 0.5))` fail)."""
    if isinstance(expr, ast.Subscript):
        shape = expr.value
        return (
            isinstance(shape, ast.Attribute)
            and shape.attr == "shape"
            and ctx.types.is_tensor(shape.value)
            and isinstance(expr.slice, ast.Constant)
            and isinstance(expr.slice.value, int)
        )
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "len"
        and len(expr.args) == 1
        and not expr.keywords
        and calls_shared.builtin(ctx, "len")
    )


def _elements(ctx: FunctionContext, arg: ast.expr) -> Optional[list[ast.expr]]:
    if isinstance(arg, ast.Name):
        bound = receivers.only_binding(ctx, arg.id)
        if bound is None:
            return None
        arg = bound
    elif isinstance(arg, ast.Attribute):
        held = _self_sequence(ctx, arg)
        if held is None:
            return None
        arg = held
    if not isinstance(arg, (ast.Tuple, ast.List)):
        return None
    if any(isinstance(e, ast.Starred) for e in arg.elts):
        return None
    return list(arg.elts)


def _self_sequence(ctx: FunctionContext, expr: ast.Attribute) -> Optional[ast.expr]:
    """`self.<attr>` that its class sets once, in `__init__`, to a written-out tuple or list of
    constants."""
    cls = ctx.types.cls
    name = names.self_attribute(expr)
    if cls is None or name is None or name not in cls.attrs or cls.module is not ctx.fn.module:
        return None
    value = cls.attrs[name].node
    if not isinstance(value, (ast.Tuple, ast.List)):
        return None
    if not all(isinstance(e, ast.Constant) for e in value.elts):
        return None
    return value if len(cls.attribute_stores(name)) == 1 else None
