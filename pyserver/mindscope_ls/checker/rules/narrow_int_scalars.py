"""MS1012, MS1013: scalars of a dtype other than int64 where graph mode takes an int64 index,
slice bound, axis or shape.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (all ran there), `x` of
shape (2, 3, 4):
- MS1012, every level: a Tensor built from one literal number, of a dtype other than int64 or
  bool, as a slice bound: `x[Tensor(1, ms.int32):]`, `x[:Tensor(2, ms.int32)]`,
  `x[::Tensor(2, ms.int32)]`, `x[0, ms.tensor(1, ms.int32):]`, `x[Tensor(np.int32(1)):]`,
  through a local or a `self.<attr>` set in `__init__`, and slicing a tuple or list likewise
  ("The type of input of the MakeSlice operator must be int64 bot got AbstractScalar(Type:
  Int32, Value: 1 ...)"; int8 / int16 / uint8 / uint32 / float32: "must be int or bool"). The
  compiler folds the constant Tensor into a scalar of its dtype. `x[Tensor(1):]` (int64),
  `x[Tensor(1, ms.int64):]`, `x[Tensor(True):]`, `x[int(Tensor(1, ms.int32)):]`, an index
  `x[Tensor(1, ms.int32)]` and a slice bound that is a Tensor computed in the graph compile.
- MS1013, every level, CPU: `t.item()` of an int32 / int16 / uint8 Tensor computed in the graph
  (directly or through a local bound once to it) as an index or slice bound of a Tensor
  (`x[n]`, `x[n:]`, `x[:, n]`), an index of a tuple or list (`(a, b)[n]`), or an axis or
  shape of reshape, view, zeros, ones, full's shape, tile, broadcast_to, transpose, permute,
  squeeze, unsqueeze, expand_dims, flip, sum, mean, prod, amax, argmax, max, softmax,
  log_softmax, concat, gather: CPU kernel selection
  finds no kernel for the 32-bit scalar ("Select CPU operator[StridedSlice] fail! Unsupported
  data type!", "RealMakeTuple ... does not support this kernel data type: (<Int32...>,
  <Int64...>)"). `.item()` of an int64 Tensor, `int(t)` of the int32 Tensor itself,
  `t.item() + 1` (promoted to int64), and the item as `ops.cumsum`'s axis, `ops.topk`'s k,
  `ops.full`'s fill value, `ops.clamp`, `ops.arange`, `x.pow(n)`, `x * n` or a tuple slice
  compile; so does `.item()` of `t.sum()`, `ops.sum(t)`, `t.argmax()` or `t.astype(ms.int64)`
  (int64), while `t.max()`, `t.abs()`, `t + 1`, `t[0]` and `t.argmin()` keep int32.
  Round 32: int8 as well (`x[t.item()]`: "For 'ScalarAdd', the x and y type should be int or
  float, but got x type: Int8"; `x[t.item():]`, `x.reshape(t.item(), -1)`, `(a, b, c)[t.item()]`:
  kernel select failed); `x[int(t)]` of the int8 Tensor compiles. And in arithmetic: `t.item()`
  of an int8 / uint8 / float16 Tensor as an operand of `+ - * / //`, a comparison or unary `-`
  (`x.item() * 2`: "For 'ScalarMul', the x and y type should be int or float, but got x type:
  Int8 y type: Int64"; uint8 / float16 and comparisons: kernel select failed), also through a
  local `n = x.item()`, of `x.max()` and `(x + 1)`; int16 in `+ - *` with a number (int16
  `/`, `>` and `ones * n` compile); `**` of an int8 / int16 / uint8 / float16 item; and
  `range(t.item())` of an int8 / int16 / uint8 Tensor ("For 'make_range', the 0th input should
  be a int scalar but got AbstractScalar(Type: Int8...", naming the `for`). `x.sum().item() * 2`
  (int64), `int(t) * 2`, int32 and bool items compile, `range()` and `**` of int32 ones too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from . import item_membership
from .calls_shared import builtin
from .helpers import names, receivers
from .helpers.abstract import Abstract
from .helpers.base import FunctionContext, cacheable
from .helpers.shared_values import abstract

NON_INT64_SLICE_BOUND = Rule(
    "MS1012",
    "non-int64-tensor-slice-bound",
    Group.FAILS,
    title="A constant int32 (or other non-int64) Tensor as a slice bound",
    message=(
        "`{bound}` is a constant {dtype} Tensor used as a slice bound, which graph mode folds "
        "into a scalar of that dtype, and slices take int64 scalars only; write the bound "
        "as a Python int (`{value}`) or an int64 Tensor."
    ),
    why=(
        "Graph mode folds a Tensor built from literals into a scalar of its dtype; a slice "
        "(MakeSlice) takes int64 or bool scalars only."
    ),
    remedy="Use a Python int for the bound, or a Tensor of dtype int64 (`Tensor(1)`).",
    mindspore_says=(
        "TypeError: The type of input of the MakeSlice operator must be int64 bot got "
        "AbstractScalar(Type: Int32, Value: 1, Shape: NoShape)"
    ),
)

NARROW_ITEM_AS_INDEX = Rule(
    "MS1013",
    "narrow-item-as-index",
    Group.FAILS,
    title="`t.item()` of an int32 Tensor as an index, axis or shape (of int8 also in arithmetic)",
    message=(
        "`{arg}` is the {dtype} `.item()` of `{tensor}`, used as {what}, for which graph mode "
        "on CPU has no kernel taking a scalar of that dtype; read it with `{read}({tensor})`, "
        "which gives {gives} number."
    ),
    why=(
        "`.item()` of an int32 / int16 / int8 / uint8 Tensor computed in the graph is a variable "
        "scalar of that dtype; the CPU kernels of slicing, reshaping and axis arguments take "
        "int64 scalars only, and those of scalar arithmetic and comparisons refuse int8, uint8 "
        "and float16 scalars (int16 in `+ - *`)."
    ),
    remedy="Use `int(t)` (or `t.astype(ms.int64).item()`) to read the number.",
    mindspore_says=(
        "TypeError: Kernel select failed: Select CPU operator[StridedSlice] fail! Unsupported "
        "data type!"
    ),
    cpu_only=True,
)

# Dtypes a slice refuses for a folded constant (measured: int8, int16, int32, uint8, uint32,
# float32; the floats fail with the same "must be int or bool").
SLICE_REFUSED = frozenset(
    {"int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "float32", "float64"}
)
NUMPY_DTYPES = SLICE_REFUSED | {"int64", "bool_"}
# `.item()` dtypes the CPU kernels refuse as an index/axis/shape (measured).
NARROW_ITEMS = frozenset({"int8", "int16", "int32", "uint8"})
RANGE = "an argument of `range()`"
# `.item()` dtypes whose scalar no CPU kernel of Python arithmetic or comparison takes
# (measured: int8 `+ - * // ` `-n` `==` `>`, `t * n`; uint8 `+ * /` `>`, `t * n`; float16
# `* /` `>`, `t * n`); int16 fails in `+ - *` with a number only (`/`, `>`, `t * n` compile),
# int32 and bool compile.
ARITHMETIC_REFUSED = frozenset({"int8", "uint8", "float16"})
ARITHMETIC = names.ARITHMETIC_OPERATORS
INT16_REFUSED = frozenset(
    {"an operand of `+`", "an operand of `-`", "an operand of `*`", "an operand of `**`", RANGE}
)
# Ops whose every argument after the input is an axis or a shape (measured failing with a
# 32-bit `.item()` there); `full` takes its shape first, its fill value is a plain number.
AXIS_OPS = frozenset(
    {
        "reshape",
        "view",
        "zeros",
        "ones",
        "tile",
        "broadcast_to",
        "transpose",
        "permute",
        "squeeze",
        "unsqueeze",
        "expand_dims",
        "flip",
        "sum",
        "mean",
        "prod",
        "amax",
        "argmax",
        "max",
        "softmax",
        "log_softmax",
        "concat",
        "cat",
        "gather",
    }
)
# `ops.zeros(shape)`, `ops.ones(shape)`: the shape is their first argument.
SHAPE_FIRST = frozenset({"zeros", "ones"})


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    subscripts: list[ast.Subscript] = ctx.of(ast.Subscript)
    for node in subscripts:
        for bound in _slice_bounds(node.slice):
            dtype = _constant_dtype(ctx, bound)
            if dtype in SLICE_REFUSED:
                yield NON_INT64_SLICE_BOUND.finding(
                    bound, bound=ast.unparse(bound), dtype=dtype, value=_literal(ctx, bound)
                )


@cacheable
def check_items(ctx: FunctionContext) -> Iterator[RawFinding]:
    values: Optional[Abstract] = None
    for arg, what in _index_uses(ctx):
        tensor = item_membership.item_of(ctx, arg)
        if tensor is None:
            continue
        if values is None:
            values = abstract(ctx, module=True)
        dtype = values.dtype(tensor)
        if dtype in NARROW_ITEMS:
            yield NARROW_ITEM_AS_INDEX.finding(
                arg,
                arg=ast.unparse(arg),
                dtype=dtype,
                tensor=ast.unparse(tensor),
                what=what,
                read="int",
                gives="an int64",
            )


@cacheable
def check_item_arithmetic(ctx: FunctionContext) -> Iterator[RawFinding]:
    """`t.item()` of an int8 / uint8 / float16 Tensor as an operand of arithmetic or a
    comparison, or of an int16 one in `+`, `-`, `*` with a number (measured, round 32)."""
    items = [c for c in ctx.of(ast.Call) if _item_call(c)]
    if not items:
        return  # no `.item()` in the function: the common case
    item_names = {
        a.targets[0].id
        for a in ctx.of(ast.Assign)
        if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and _item_call(a.value)
    }
    operands: list[tuple[ast.expr, str, list[ast.expr], ast.AST]] = []
    binops: list[ast.BinOp] = ctx.of(ast.BinOp)
    for node in binops:
        if isinstance(node.op, ARITHMETIC):
            sides = [node.left, node.right]
            symbol = names.OPERATOR_SYMBOLS[type(node.op)]
            operands += [(side, f"an operand of `{symbol}`", sides, node) for side in sides]
    compares: list[ast.Compare] = ctx.of(ast.Compare)
    for cmp in compares:
        if not any(isinstance(op, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) for op in cmp.ops):
            sides = [cmp.left, *cmp.comparators]
            operands += [(side, "an operand of a comparison", [], cmp) for side in sides]
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name) and func.id == "range" and builtin(ctx, "range"):
            operands += [(arg, RANGE, [], call) for arg in call.args]
    unary: list[ast.UnaryOp] = ctx.of(ast.UnaryOp)
    operands += [
        (u.operand, "the operand of `-`", [], u) for u in unary if isinstance(u.op, ast.USub)
    ]
    if not operands:
        return
    values: Optional[Abstract] = None
    done: set[int] = set()
    for arg, what, sides, parent in operands:
        if id(parent) in done:
            continue
        if not (_item_call(arg) or (isinstance(arg, ast.Name) and arg.id in item_names)):
            continue
        tensor = item_membership.item_of(ctx, arg)
        if tensor is None:
            continue
        if values is None:
            values = abstract(ctx, module=True)
        dtype = values.dtype(tensor)
        if dtype in ARITHMETIC_REFUSED and not (what == RANGE and dtype == "float16"):
            pass
        elif dtype == "int16" and what in INT16_REFUSED:
            if any(s is not arg and ctx.types.is_tensor(s) for s in sides):
                continue  # `t * n` of an int16 `n` compiles
        else:
            continue
        read = "float" if dtype == "float16" else "int"
        done.add(id(parent))
        yield NARROW_ITEM_AS_INDEX.finding(
            arg,
            arg=ast.unparse(arg),
            dtype=dtype,
            tensor=ast.unparse(tensor),
            what=what,
            read=read,
            gives="a float32" if read == "float" else "an int64",
        )


def _item_call(expr: ast.expr) -> bool:
    """`t.item()` written there."""
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "item"
        and not expr.args
    )


def _slice_bounds(index: ast.expr) -> Iterator[ast.expr]:
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    for part in parts:
        if isinstance(part, ast.Slice):
            yield from (b for b in (part.lower, part.upper, part.step) if b is not None)


def _constant_tensor(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.Call]:
    """The `Tensor(<literal>, ...)` call `expr` is, directly, through a local bound once to it
    or a `self.<attr>` `__init__` sets once to it."""
    if isinstance(expr, ast.Name):
        expr = receivers.only_binding(ctx, expr.id) or expr
    name = names.self_attribute(expr)
    cls = ctx.fn.cls
    if name is not None and cls is not None and not cls.attr_varies(name):
        held = cls.attr(name)
        if held is not None and isinstance(held.node, ast.expr):
            expr = held.node
    if not isinstance(expr, ast.Call) or not expr.args or len(expr.args) > 2:
        return None
    if names.callee(ctx.fn.module, expr.func) not in names.TENSOR_FACTORIES:
        return None
    return expr


def _constant_dtype(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """The dtype of a Tensor built from one literal number: its `dtype` argument, else its
    NumPy data's dtype (`np.int32(1)`, `np.array(1, np.int32)`), else int64 / float32."""
    call = _constant_tensor(ctx, expr)
    if call is None:
        return None
    data = call.args[0]
    number = _number(data)
    numpy_dtype = None
    if number is None:
        found = _numpy_scalar(ctx, data)
        if found is None:
            return None
        number, numpy_dtype = found
    dtype_arg = call.args[1] if len(call.args) > 1 else None
    for keyword in call.keywords:
        if keyword.arg == "dtype":
            dtype_arg = keyword.value
        elif keyword.arg is None:
            return None
    if dtype_arg is not None:
        return _dtype_name(ctx, dtype_arg, "mindspore.")
    if numpy_dtype is not None:
        return numpy_dtype
    if isinstance(number, bool):
        return "bool_"
    return "int64" if isinstance(number, int) else "float32"


def _number(expr: ast.expr) -> Optional[object]:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (bool, int, float)):
        return expr.value
    return None


def _numpy_scalar(ctx: FunctionContext, data: ast.expr) -> Optional[tuple[object, str]]:
    """(the number, its dtype) of `np.int32(1)` or `np.array(1, np.int32)` (or `dtype=`)."""
    if not isinstance(data, ast.Call) or not data.args:
        return None
    number = _number(data.args[0])
    if number is None:
        return None
    qualname = names.callee(ctx.fn.module, data.func) or ""
    if qualname == "numpy.array":
        dtype_arg = data.args[1] if len(data.args) > 1 else None
        for keyword in data.keywords:
            if keyword.arg == "dtype":
                dtype_arg = keyword.value
        dtype = _dtype_name(ctx, dtype_arg, "numpy.") if dtype_arg is not None else None
    else:
        dtype = _dtype_name(ctx, data.func, "numpy.")
    return (number, dtype) if dtype is not None else None


def _dtype_name(ctx: FunctionContext, expr: ast.expr, module: str) -> Optional[str]:
    """`ms.int32` / `mstype.int32` (module "mindspore.") or `np.int32` ("numpy.") -> int32."""
    qualname = ctx.fn.module.qualname(expr) or ""
    if not qualname.startswith(module):
        return None
    last = qualname.rsplit(".", 1)[-1]
    last = "bool_" if last in ("bool", "bool_") else last
    return last if last in NUMPY_DTYPES else None


def _literal(ctx: FunctionContext, bound: ast.expr) -> str:
    call = _constant_tensor(ctx, bound)
    data = call.args[0] if call is not None else bound
    number = _number(data)
    if number is None and isinstance(data, ast.Call) and data.args:
        number = _number(data.args[0])
    return repr(int(number)) if isinstance(number, (int, float)) else "1"


def _index_uses(ctx: FunctionContext) -> Iterator[tuple[ast.expr, str]]:
    """(expression, what it is) for each index or slice bound of a Tensor subscript and each
    axis or shape argument of the `AXIS_OPS`."""
    subscripts: list[ast.Subscript] = ctx.of(ast.Subscript)
    for node in subscripts:
        if _sequence(ctx, node.value) and not isinstance(node.slice, (ast.Slice, ast.Tuple)):
            yield node.slice, "an index"  # `(a, b)[n]` fails too; a slice of it compiles
            continue
        if not ctx.types.is_tensor(node.value):
            continue
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if isinstance(part, ast.Slice):
                for bound in (part.lower, part.upper, part.step):
                    if bound is not None:
                        yield bound, "a slice bound"
            else:
                yield part, "an index"
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        name, args = _axis_arguments(ctx, call)
        if name is None:
            continue
        what = f"an axis or shape of `{name}`"
        for arg in args:
            if isinstance(arg, (ast.Tuple, ast.List)):
                yield from ((e, what) for e in arg.elts)
            else:
                yield arg, what


def _sequence(ctx: FunctionContext, expr: ast.expr) -> bool:
    """A tuple or list written out, directly or through a local bound once to one."""
    if isinstance(expr, ast.Name):
        expr = receivers.only_binding(ctx, expr.id) or expr
    return isinstance(expr, (ast.Tuple, ast.List))


def _axis_arguments(ctx: FunctionContext, call: ast.Call) -> tuple[Optional[str], list[ast.expr]]:
    """(the op, its axis/shape arguments) for a call of one of the `AXIS_OPS` (an `ops.`
    function or a Tensor method), or `full`'s shape."""
    func = call.func
    qualname = names.callee(ctx.fn.module, func)
    keywords = [k.value for k in call.keywords if k.arg is not None]
    if (
        qualname is not None
        and qualname.startswith("mindspore.ops.")
        and names.is_ops_call(qualname)
    ):
        op = qualname.rsplit(".", 1)[-1]
        if op == "full":
            size = [k.value for k in call.keywords if k.arg == "size"]
            return op, [*call.args[:1], *size]
        if op in SHAPE_FIRST:
            return op, [*call.args[:1], *keywords]
        return (op, [*call.args[1:], *keywords]) if op in AXIS_OPS else (None, [])
    if (
        isinstance(func, ast.Attribute)
        and func.attr in AXIS_OPS
        and receivers.tensor_or_parameter(ctx, func.value)
    ):
        return func.attr, [*call.args, *keywords]
    return None, []
