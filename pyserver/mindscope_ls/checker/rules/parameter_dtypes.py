"""MS1045, MS1048: a Parameter attribute rebound, in compiled code, to a value of a wider dtype
or of another shape.

Measured with MindSpore 2.10 on CPU, LAX and STRICT alike, against PyNative: in `construct` (or
a method it calls), `self.step = self.step + 0.5` with `self.step = Parameter(Tensor(0,
ms.int32))` fails to compile ("Data type conversion is not supported for a 'Parameter', nor for
the input tensor of an in-place operator, so data type Int32, which cannot be converted to data
type Float32 automatically"): graph mode turns the rebinding into an `Assign` into the
Parameter, which only converts a value to a dtype at least as wide. PyNative rebinds the
attribute and runs. Failing alike: `self.step / 2`, `self.step * 0.9`, `self.step + x.sum()`
(x float32), `self.step.astype(ms.float32)` and `ops.sqrt(self.step)` into an int32 Parameter
(also one made by `Tensor(0)`, int64, `Tensor(np.array([0], np.int32))` or
`initializer("zeros", [1], ms.int32)`), `self.step + Tensor(1)` (int64) into int32,
`self.p + Tensor(np.ones(3))` (float64) into float32, `self.p + x` (float32) into float16,
`x * 1` (float32) into a bool Parameter, under a Tensor `if` or in a method `construct` calls.
Compiling (left alone): a narrower or equal value (`self.p = x > 1.5` or
`x.astype(ms.int32)` into float32, `self.p.astype(ms.float16)` into float32,
`self.step + 1`, `self.step // 2`), and the augmented form `self.step += 0.5`, which compiles.
`ops.assign(self.step, self.step + 0.5)` fails in PyNative too: not a graph-mode failure.

MS1048, measured the same way: with `self.p = Parameter(Tensor(np.ones((3,), np.float32)))`,
`self.p = x * 2` for an input of shape (2, 3), `self.p = self.p + x` (broadcast to (2, 3)),
`self.p = x.sum()`, `self.p = ops.zeros((2, 2), ms.float32)` and `self.p = x[0:2]` fail to
compile ("For 'Assign','value' must have the same rank as 'variable'. But got 'value' rank: 2,
'variable' rank: 1", or "the same shape"); PyNative rebinds the attribute. A value of the
Parameter's shape compiles (`self.p = x[1:]` of a (4,) input, `self.p = x[0] + 1`,
`x.mean(axis=0)` of a (2, 3) input). A Python number (`self.p = 5.0`) fails in PyNative too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names, shared_values
from .helpers.abstract import (
    TO_FLOAT32,
    Abstract,
    Value,
    _simple_bindings,
    binop_dtype,
    to_float_dtype,
)
from .helpers.abstract import _dtype_name as dtype_name
from .helpers.base import FunctionContext
from .helpers.elements import tensor_shape
from .helpers.module_values import tensor_dtype
from .helpers.shapes import (
    FULL_REDUCTIONS,
    POSITIONAL_DIM,
    REARRANGING,
    SAME_SHAPE,
    Shape,
    broadcast,
    indexed,
    rearranged,
    reduced,
)

PARAMETER_WIDER_DTYPE = Rule(
    "MS1045",
    "parameter-rebound-to-wider-dtype",
    Group.FAILS,
    title="A Parameter attribute rebound in compiled code to a value of a wider dtype",
    message=(
        "`self.{name} = ...` stores a {value} value into the {param} Parameter "
        "`self.{name}`: graph mode assigns into the Parameter and cannot convert {value} "
        "to {param}; cast the value (`.astype(...)`) or make the Parameter {value}."
    ),
    why=(
        "In compiled code, rebinding an attribute that holds a Parameter becomes an `Assign` "
        "into that Parameter, which converts a value only to a dtype at least as wide. "
        'Measured: `self.step = self.step + 0.5` on an int32 Parameter fails ("Data type '
        "conversion is not supported for a 'Parameter' ... Int32, which cannot be converted "
        'to data type Float32"); PyNative rebinds the attribute.'
    ),
    remedy=(
        "Cast the value to the Parameter's dtype (`(self.step + 0.5).astype(ms.int32)`), "
        "or create the Parameter with the dtype it has to hold."
    ),
    mindspore_says=(
        "TypeError: Data type conversion is not supported for a 'Parameter', nor for the "
        "input tensor of an in-place operator, so data type Int32, which cannot be "
        "converted to data type Float32 automatically."
    ),
)

PARAMETER_OTHER_SHAPE = Rule(
    "MS1048",
    "parameter-rebound-to-other-shape",
    Group.FAILS,
    title="A Parameter attribute rebound in compiled code to a Tensor of another shape",
    message=(
        "`self.{name} = ...` stores a value of shape {value} into the Parameter "
        "`self.{name}` of shape {param}: graph mode assigns into the Parameter, which needs "
        "the same shape; keep the new value in a local, or create the Parameter with that "
        "shape."
    ),
    why=(
        "In compiled code, rebinding an attribute that holds a Parameter becomes an `Assign` "
        "into that Parameter, which keeps its shape. Measured: `self.p = x * 2` with `self.p` "
        "of shape (3,) and `x` of shape (2, 3) fails (\"For 'Assign','value' must have the "
        "same rank as 'variable'\"); PyNative rebinds the attribute."
    ),
    remedy=(
        "Use a local (or another attribute that is not a Parameter) for the new value, or "
        "create the Parameter with the shape it has to hold."
    ),
    mindspore_says=(
        "ValueError: For 'Assign','value' must have the same rank as 'variable'. But got "
        "'value' rank: 2, 'variable' rank: 1."
    ),
)

_INITIALIZER = frozenset(
    {"mindspore.common.initializer.initializer", "mindspore.common.initializer"}
)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    cls = ctx.fn.cls
    if cls is None or not cls.is_cell:
        return
    assigns: list[ast.Assign] = ctx.of(ast.Assign)
    for node in assigns:
        if len(node.targets) != 1:
            continue
        name = names.self_attribute(node.targets[0])
        if name is None:
            continue
        param = _parameter_dtype(ctx, name)
        if param is None:
            continue
        value = _dtype(ctx, node.value, shared_values.abstract(ctx, module=True))
        if value is not None and _wider(value, param):
            yield PARAMETER_WIDER_DTYPE.finding(
                node, name=name, value=value.rstrip("_"), param=param.rstrip("_")
            )
            continue
        held = _parameter_shape(ctx, name)
        if held is None:
            continue
        shape = _shape(ctx, node.value, name, held)
        if shape is not None and shape != held:
            yield PARAMETER_OTHER_SHAPE.finding(
                node, name=name, value=_text(shape), param=_text(held)
            )


def _parameter_shape(ctx: FunctionContext, name: str) -> Optional[Shape]:
    """The shape `self.<name> = Parameter(Tensor(...))` was created with, where it is written
    out."""
    data = _parameter_data(ctx, name)
    if data is None or names.callee(ctx.fn.module, data.func) not in names.TENSOR_FACTORIES:
        return None
    return tensor_shape(data)


def _shape(ctx: FunctionContext, expr: ast.expr, name: str, held: Shape) -> Optional[Shape]:
    """The static shape of the value: `self.<name> <op> v` broadcasts the Parameter's shape
    with `v`'s; other values that read an attribute are unknown."""
    shapes = shared_values.shapes(ctx)
    derived = _derived(ctx, expr, name, held, 0)
    if derived is not None:
        return derived
    if isinstance(expr, ast.BinOp) and not isinstance(expr.op, ast.MatMult):
        sides = [expr.left, expr.right]
        if any(names.self_attribute(side) == name for side in sides):
            other = (
                next(side for side in sides if names.self_attribute(side) != name)
                if any(names.self_attribute(side) != name for side in sides)
                else None
            )
            if other is None:
                return held
            if isinstance(other, ast.Constant):
                return held
            found = None if _reads_attribute(other) else shapes.of(other)
            return broadcast(held, found) if found is not None else None
    if _reads_attribute(expr) or not ctx.types.is_tensor(expr):
        return None
    return shapes.of(expr)


_OPS_REARRANGING = frozenset({"reshape", "expand_dims", "unsqueeze", "squeeze"})


def _derived(
    ctx: FunctionContext, expr: ast.expr, name: str, held: Shape, depth: int
) -> Optional[Shape]:
    """The shape of a value the Parameter `self.<name>` alone gives: itself, `.T`, a constant
    index (`self.p[None]`), `reshape`/`expand_dims`/`unsqueeze`/`squeeze`/`flatten` with
    constant arguments (methods, or `ops.` functions given it first), a full reduction, a
    cast; through a local bound once (`w = self.p.reshape(1, 3)`). None for anything else."""
    if depth > 6:
        return None
    if names.self_attribute(expr) == name:
        return held
    if isinstance(expr, ast.Name):
        bound = _simple_bindings(ctx.fn.node).get(expr.id)
        return _derived(ctx, bound[0], name, held, depth + 1) if bound and len(bound) == 1 else None
    if isinstance(expr, ast.Attribute) and expr.attr == "T":
        inner = _derived(ctx, expr.value, name, held, depth + 1)
        return tuple(reversed(inner)) if inner is not None else None
    if isinstance(expr, ast.Subscript) and isinstance(expr.ctx, ast.Load):
        inner = _derived(ctx, expr.value, name, held, depth + 1)
        return indexed(inner, expr.slice) if inner is not None else None
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Attribute):
        return None
    attr = expr.func.attr
    if names.is_ops_call(names.callee(ctx.fn.module, expr.func)):
        if attr not in _OPS_REARRANGING or not expr.args or expr.keywords:
            return None
        inner = _derived(ctx, expr.args[0], name, held, depth + 1)
        return rearranged(inner, attr, expr.args[1:]) if inner is not None else None
    inner = _derived(ctx, expr.func.value, name, held, depth + 1)
    if inner is None:
        return None
    if attr in REARRANGING:
        return None if expr.keywords else rearranged(inner, attr, expr.args)
    if attr in FULL_REDUCTIONS and not (expr.args and attr in POSITIONAL_DIM):
        return reduced(inner, expr)
    if attr in SAME_SHAPE and attr not in ("to",):
        return inner
    return None


def _reads_attribute(expr: ast.expr) -> bool:
    return any(
        isinstance(n, ast.Attribute) and names.self_attribute(n) is not None for n in ast.walk(expr)
    )


def _text(shape: Shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _parameter_data(ctx: FunctionContext, name: str) -> Optional[ast.Call]:
    """The first argument of `self.<name> = Parameter(<data>, ...)` in `__init__`, a call."""
    cls = ctx.fn.cls
    if cls is None:
        return None
    held = cls.attr(name)  # the first binding: `__init__`'s (a method's rebinding varies it)
    if held is None or held.kind != "tensor" or held.class_qualname not in names.PARAMETER:
        return None
    call = held.node
    if not isinstance(call, ast.Call):
        return None
    data = call.args[0] if call.args else None
    for kw in call.keywords:
        if kw.arg == "default_input":
            data = kw.value
    return data if isinstance(data, ast.Call) else None


def _parameter_dtype(ctx: FunctionContext, name: str) -> Optional[str]:
    """The dtype `self.<name> = Parameter(...)` was created with, where it is written out."""
    data = _parameter_data(ctx, name)
    if data is None:
        return None
    if names.callee(ctx.fn.module, data.func) in _INITIALIZER:
        given = data.args[2] if len(data.args) > 2 else None
        for kw in data.keywords:
            if kw.arg == "dtype":
                given = kw.value
        return dtype_name(ctx.types, given) if given is not None else "float32"
    if names.callee(ctx.fn.module, data.func) not in names.TENSOR_FACTORIES:
        return None
    return tensor_dtype(data)


def _dtype(ctx: FunctionContext, expr: ast.expr, values: Abstract) -> Optional[str]:
    found = _value(ctx, expr, values)
    return found.dtype if found is not None and found.kind == "tensor" else None


def _value(ctx: FunctionContext, expr: ast.expr, values: Abstract) -> Optional[Value]:
    name = names.self_attribute(expr)
    if name is not None:
        dtype = _parameter_dtype(ctx, name)
        return Value("tensor", dtype) if dtype is not None else None
    if isinstance(expr, ast.BinOp):
        left = _value(ctx, expr.left, values)
        right = _value(ctx, expr.right, values)
        dtype = _joined(left, right) or binop_dtype(left, right, expr.op)
        return Value("tensor", dtype) if dtype is not None else None
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in ("astype", "to")
        and expr.args
    ):
        dtype = dtype_name(ctx.types, expr.args[0])
        return Value("tensor", dtype) if dtype is not None else None
    operand = _to_float_operand(ctx, expr)
    if operand is not None:  # `ops.sqrt(self.step)`, `self.step.sqrt()`
        inner = _value(ctx, operand, values)
        dtype = to_float_dtype(inner.dtype) if inner is not None else None
        return Value("tensor", dtype) if dtype is not None else None
    if any(
        isinstance(n, ast.Attribute) and names.self_attribute(n) is not None for n in ast.walk(expr)
    ):
        return None  # an attribute the abstract values do not know
    return values.of(expr)


def _to_float_operand(ctx: FunctionContext, expr: ast.expr) -> Optional[ast.expr]:
    """`t` of `ops.sqrt(t)` / `t.sqrt()` (or `reciprocal`), whose result is float32 for an int."""
    if not isinstance(expr, ast.Call) or expr.keywords:
        return None
    func = expr.func
    if not isinstance(func, ast.Attribute) or func.attr not in TO_FLOAT32:
        return None
    if len(expr.args) == 1 and names.is_ops_call(names.callee(ctx.fn.module, func)):
        return expr.args[0]
    return func.value if not expr.args and ctx.types.is_tensor(func.value) else None


def _joined(left: Optional[Value], right: Optional[Value]) -> Optional[str]:
    """Two Tensors of known dtypes of one family: the wider (measured: int32 + int64 gives
    int64, float32 + float64 float64, float16 + float32 float32)."""
    if left is None or right is None or left.kind != "tensor" or right.kind != "tensor":
        return None
    a, b = left.dtype, right.dtype
    if a is None or b is None or a == b:
        return None
    for family in ("float", "int"):
        if a.startswith(family) and b.startswith(family):
            return a if _bits(a) >= _bits(b) else b
    return None


_BITS = {"8": 8, "16": 16, "32": 32, "64": 64}


def _wider(value: str, param: str) -> bool:
    """A value of dtype `value` cannot be assigned into a Parameter of dtype `param`
    (measured: float into int or bool, int64 into int32, float64 into float32, float32 into
    float16)."""
    if value == param or value.startswith(("bfloat", "complex")) or param.startswith("bfloat"):
        return False
    vfloat, pfloat = value.startswith("float"), param.startswith("float")
    if vfloat and not pfloat:
        return param == "bool_" or param.startswith(("int", "uint"))
    if (vfloat and pfloat) or (value.startswith("int") and param.startswith("int")):
        return _bits(value) > _bits(param)
    return False


def _bits(dtype: str) -> int:
    return _BITS.get(dtype.lstrip("abcdefghijklmnopqrstuvwxyz_"), 0)
