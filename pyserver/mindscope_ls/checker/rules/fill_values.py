"""MS3046: a Float64 / Int64 Tensor filled with a Python number graph mode narrows first.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 37, `mt_`): graph
mode hands a Python number to a fill as a 32-bit scalar, so the Tensor holds the float32 (or
int32) value even when its dtype is 64-bit:

- `ops.full((1,), 0.1, dtype=ms.float64)` gave 0.10000000149011612 (PyNative 0.1); also
  `-0.1`, `1 / 3`, `ops.fill(ms.float64, (1,), 1e-7)`, `ops.full_like(x, 0.1,
  dtype=ms.float64)`, `ops.full_like(y64, v)`, `y64.fill(0.1)`, `ops.full(y.shape, 0.1,
  dtype=y.dtype)` of a float64 `y`, `ops.scalar_to_tensor(0.1, ms.float64)`, and a value read
  from a Tensor (`x.sum().item() / 7`).
- `ops.full((1,), 2 ** 40 + 1, dtype=ms.int64)` and `ops.fill(ms.int64, ...)` gave 1 (the low
  32 bits; PyNative 1099511627777).
- `Tensor(0.1 * 3, ms.float64)`, `ms.tensor(x.shape[0] / 3, ms.float64)` and `Tensor([1 / 3,
  0.5], ms.float64)` (a number the graph computes) gave the float32 value; a literal
  (`Tensor(0.1, ms.float64)`, `ms.tensor([0.1, 0.2], ms.float64)`, `Tensor(1e-7, ms.float64)`)
  and `Tensor(2 ** 40)` agree.
- The same for the value `ops.index_fill` and `ops.pad(..., value=...)` write into a Float64
  Tensor (0.10000000149011612), or `ops.masked_fill` into an Int64 one (`2 ** 40` gave 0), and
  `ops.full((1,), 2 ** 40)` (Int64 by default) gave 0. `masked_fill(y64, m, 0.1)` agrees.
- Agree: values float32 holds exactly (`0.5`, `16777217` into float64), a float32 target,
  and arithmetic with a Float64 Tensor (`ops.ones(2, ms.float64) * 0.1`, `+ 1e-7`,
  `ops.maximum(y64, 1.1)`, `ops.where(..., 0.1, 0.2)`: the scalar is float32 in both modes,
  0.10000000149011612 in PyNative too).
"""

from __future__ import annotations

import ast
import struct
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import receivers
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

FILL_VALUE_NARROWED = Rule(
    "MS3046",
    "fill-value-narrowed",
    Group.DIVERGES,
    title="A Float64 or Int64 Tensor filled with a Python number graph mode narrows to 32 bits",
    message=(
        "`{text}` fills a {dtype} Tensor with `{value}`, which graph mode passes as a {narrow} "
        "number: the Tensor holds {graph} where PyNative holds {pynative}; create the Tensor "
        "outside the compiled code (an input or an attribute set in `__init__`)."
    ),
    why=(
        "Graph mode converts a Python number given to a fill (`ops.full`, `ops.fill`, "
        "`full_like`, `Tensor.fill`, `scalar_to_tensor`, or a `Tensor(...)` of a number it "
        "computes) to a 32-bit scalar first: `ops.full((1,), 0.1, dtype=ms.float64)` held "
        "0.10000000149011612 (PyNative 0.1) and `ops.full((1,), 2 ** 40 + 1, dtype=ms.int64)` "
        "held 1."
    ),
    remedy=(
        "Create the 64-bit Tensor outside the compiled code (an attribute set in `__init__`, or "
        "an input); a literal written in the call, `ms.tensor(0.1, ms.float64)`, keeps its value."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

FILLS = frozenset({"full", "fill", "full_like", "scalar_to_tensor"})
# ops that write a number into a Tensor of their input's dtype: (input, value position, keyword)
FILLS_INTO = {"masked_fill": (2, "value"), "index_fill": (3, "value"), "pad": (3, "value")}
# the same as Tensor methods: the value's position
METHODS_INTO = {"masked_fill": 1, "index_fill": 2}
TENSORS = frozenset({"Tensor", "tensor"})
CHEAP = FILLS | TENSORS | frozenset(FILLS_INTO)
FLOAT64 = frozenset({"float64", "double"})
INT64 = frozenset({"int64", "long"})
INT32_RANGE = range(-(2**31), 2**31)


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    calls = [
        c
        for c in ctx.of(ast.Call)
        if (isinstance(c.func, ast.Attribute) and c.func.attr in CHEAP)
        or (isinstance(c.func, ast.Name) and c.func.id in CHEAP)
    ]
    for call in calls:
        found = _fill(ctx, call)
        if found is None:
            continue
        dtype, value, literal_ok = found
        narrowed = _narrowed(ctx, value, dtype, literal_ok)
        if narrowed is None:
            continue
        graph, pynative = narrowed
        yield FILL_VALUE_NARROWED.finding(
            call,
            text=ast.unparse(call),
            dtype="Float64" if dtype == "float64" else "Int64",
            value=ast.unparse(value),
            narrow="float32" if dtype == "float64" else "int32",
            graph=graph,
            pynative=pynative,
            want=dtype,
        )


def _fill(ctx: FunctionContext, call: ast.Call) -> Optional[tuple[str, ast.expr, bool]]:
    """(the target dtype, the fill value, whether a literal value is judged) of a fill call."""
    func = call.func
    qualname = ctx.fn.module.qualname(func) or ""
    name = qualname.rsplit(".", 1)[-1]
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    if qualname.startswith("mindspore.ops.") and name in FILLS and qualname.count(".") == 2:
        if name == "full":
            value = _arg(call, keywords, 1, "fill_value")
            dtype = _dtype(ctx, keywords.get("dtype"))
            known = _constant(value) if value is not None else None
            if "dtype" not in keywords and len(call.args) < 3 and known is not None:
                dtype = "int64" if isinstance(known, int) else None  # the default
        elif name == "fill":
            value = _arg(call, keywords, 2, "value")
            dtype = _dtype(ctx, _arg(call, keywords, 0, "type"))
        elif name == "full_like":
            value = _arg(call, keywords, 1, "fill_value")
            given = keywords.get("dtype")
            source = _arg(call, keywords, 0, "input")
            dtype = _dtype(ctx, given) if given is not None else _tensor_dtype(ctx, source)
        else:  # scalar_to_tensor
            value = _arg(call, keywords, 0, "input_x")
            dtype = _dtype(ctx, _arg(call, keywords, 1, "dtype"))
        return (dtype, value, True) if dtype and value is not None else None
    if qualname.startswith("mindspore.ops.") and name in FILLS_INTO and qualname.count(".") == 2:
        position, keyword = FILLS_INTO[name]
        value = _arg(call, keywords, position, keyword)
        dtype = _tensor_dtype(ctx, _arg(call, keywords, 0, "input"))
        if name == "masked_fill" and dtype == "float64":
            return None  # measured: `masked_fill(y64, m, 0.1)` keeps 0.1
        return (dtype, value, True) if dtype and value is not None else None
    if (
        isinstance(func, ast.Attribute)
        and func.attr in METHODS_INTO
        and len(call.args) == METHODS_INTO[func.attr] + 1
        and not call.keywords
        and not qualname.startswith("mindspore.")
    ):
        dtype = _tensor_dtype(ctx, func.value)
        if func.attr == "masked_fill" and dtype == "float64":
            return None
        return (dtype, call.args[-1], True) if dtype else None
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "fill"
        and len(call.args) == 1
        and not call.keywords
        and qualname != "mindspore.ops.fill"
    ):
        dtype = _tensor_dtype(ctx, func.value)
        return (dtype, call.args[0], True) if dtype else None
    if qualname in ("mindspore.Tensor", "mindspore.tensor", "mindspore.common.tensor.Tensor"):
        value = _arg(call, keywords, 0, "input_data")
        dtype = _dtype(ctx, _arg(call, keywords, 1, "dtype"))
        if dtype != "float64" or value is None:
            return None
        if ctx.level == "STRICT" and any(isinstance(n, ast.Call) for n in ast.walk(value)):
            return None  # `Tensor(t.item() / 7, ...)` fails under STRICT (MS230)
        if isinstance(value, (ast.List, ast.Tuple)):
            computed = [e for e in value.elts if isinstance(e, ast.BinOp)]
            return (dtype, computed[0], False) if computed else None
        return (dtype, value, False)
    return None


def _arg(
    call: ast.Call, keywords: dict[str, ast.expr], index: int, name: str
) -> Optional[ast.expr]:
    if len(call.args) > index and not any(isinstance(a, ast.Starred) for a in call.args):
        return call.args[index]
    return keywords.get(name)


def _dtype(ctx: FunctionContext, expr: Optional[ast.expr]) -> Optional[str]:
    """'float64' / 'int64' for `ms.float64`, `mstype.double`, `y.dtype` of such a Tensor."""
    if expr is None:
        return None
    if isinstance(expr, ast.Attribute) and expr.attr == "dtype":
        return _tensor_dtype(ctx, expr.value)
    qualname = ctx.fn.module.qualname(expr) or ""
    if not qualname.startswith("mindspore."):
        return None
    last = qualname.rsplit(".", 1)[-1]
    return "float64" if last in FLOAT64 else "int64" if last in INT64 else None


def _tensor_dtype(ctx: FunctionContext, expr: Optional[ast.expr]) -> Optional[str]:
    if expr is None or not ctx.types.is_tensor(expr):
        return None
    found = abstract(ctx).of(expr)
    dtype = found.dtype if found is not None and found.kind == "tensor" else None
    return dtype if dtype in ("float64", "int64") else None


def _narrowed(
    ctx: FunctionContext, value: ast.expr, dtype: str, literal_ok: bool
) -> Optional[tuple[str, str]]:
    """(graph's value, PyNative's) as text when the fill value loses bits in 32; None when it
    does not or the source does not show."""
    literal = isinstance(value, ast.Constant) or (
        isinstance(value, ast.UnaryOp)
        and isinstance(value.op, ast.USub)
        and isinstance(value.operand, ast.Constant)
    )
    if literal and not literal_ok:
        return None
    known = _constant(value)
    if dtype == "int64":
        if isinstance(known, int) and not isinstance(known, bool) and known not in INT32_RANGE:
            low = (known + 2**31) % 2**32 - 2**31
            return str(low), str(known)
        return None
    if isinstance(known, float):  # an int fill stays an int (16777217 into float64 agrees)
        exact = known
        single = struct.unpack("f", struct.pack("f", exact))[0]
        if single == exact:
            return None
        return repr(single), repr(exact)
    if known is None and _computed_float(ctx, value):
        return "its float32 value", "the float64 one"
    return None


def _constant(expr: ast.expr, depth: int = 0) -> object:
    """The value of number literals and their arithmetic (`2 ** 40 + 1`, `1 / 3`), else None."""
    if depth > 12:
        return None
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float):
        return expr.value
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _constant(expr.operand, depth + 1)
        return -inner if isinstance(inner, (int, float)) else None
    if isinstance(expr, ast.BinOp):
        left, right = _constant(expr.left, depth + 1), _constant(expr.right, depth + 1)
        if not isinstance(left, (int, float)) or not isinstance(right, (int, float)):
            return None
        try:
            if isinstance(expr.op, ast.Add):
                return left + right
            if isinstance(expr.op, ast.Sub):
                return left - right
            if isinstance(expr.op, ast.Mult):
                return left * right
            if isinstance(expr.op, ast.Div):
                return left / right
            if isinstance(expr.op, ast.Pow) and abs(right) <= 64:
                return left**right
        except (ZeroDivisionError, OverflowError):
            return None
    return None


def _computed_float(ctx: FunctionContext, expr: ast.expr, depth: int = 0) -> bool:
    """A Python float the graph computes: a `/` (or arithmetic with a float literal) of numbers
    the graph holds (`x.shape[0] / 3`, `t.item() / 7`, a local bound once to one)."""
    if depth > 6 or not isinstance(expr, ast.BinOp):
        return False
    if not isinstance(expr.op, (ast.Div, ast.Mult, ast.Add, ast.Sub)):
        return False
    leaves = [expr.left, expr.right]
    if not all(_scalar_leaf(ctx, e, depth) for e in leaves):
        return False
    return isinstance(expr.op, ast.Div) or any(
        isinstance(e, ast.Constant) and isinstance(e.value, float) for e in leaves
    )


def _scalar_leaf(ctx: FunctionContext, expr: ast.expr, depth: int) -> bool:
    if isinstance(expr, ast.Constant):
        return type(expr.value) in (int, float)
    if isinstance(expr, ast.BinOp):
        return _computed_float(ctx, expr, depth + 1) or all(
            _scalar_leaf(ctx, e, depth + 1) for e in (expr.left, expr.right)
        )
    if ctx.types.is_tensor(expr):
        return False
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        return bound is not None and _scalar_leaf(ctx, bound, depth + 1)
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "item" and not expr.args:
            return ctx.types.is_tensor(func.value)
        return isinstance(func, ast.Name) and func.id in ("len", "int", "float")
    return (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
    )
