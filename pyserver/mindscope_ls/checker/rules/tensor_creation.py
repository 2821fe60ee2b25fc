"""MS1055, MS1056, MS248, MS373: Tensors created in compiled code from values graph mode reads
differently than PyNative.

Measured with MindSpore 2.10 on CPU at LAX and STRICT against PyNative (round 32, `tc_` probes;
every program below ran in PyNative):
- MS1055, every level: `ops.tuple_to_array(seq)` of a list (`[1, 2]`, a local bound to one,
  `self.sizes = [1, 2, 3]` from `__init__`, a list comprehension) fails ("Failed calling
  TupleToTensor with "input_tuple=List[Int64*3]""), and so does a tuple mixing ints, floats
  and bools (`(1, 2.5)`, `(1.0, 2)`, `(-1, 0.5)`, `(1, True)`, `(x.shape[0], 2.5)`,
  `(len(x), 1.5)`, `(x.ndim, 0.5)`; `ops.functional.tuple_to_array` alike): "the tuple
  elements type must be same, first element type = 35 cur_type = 43". PyNative's
  `tuple_to_array` only looks at the first item (int: int32, else float32) and runs both.
  Compile: `(1, 2, 3)`, `(1.0, 2.5)`, `(True, False)`, `tuple(l)` of the list, `x.shape`,
  `range(3)`, a tuple comprehension, `self.sizes = (1, 2, 3)`, `(x.sum().item(), 1.0)`.
- MS1056, every level: `mnp.arange(n)` (also as start, stop or step) of a number read from a
  Tensor (`int(t)`, `t.item()`) or of a Tensor fails ("must be real number, not NoneType",
  "zero shape Tensor is not currently supported"): `mindspore.numpy` computes the length in
  Python when compiling. `mnp.linspace(0, 1, t.item())` fails alike. `mnp.arange(x.shape[0])`,
  `mnp.arange(len(x))`, `mnp.linspace(x.min(), x.max(), 4)` and `ops.arange(t.item())` compile.
  `mnp.arange(x)` of an input the caller passes `mutable(3)` for fails as well.
- MS248, STRICT only: `mnp.zeros(int(t))`, `mnp.ones(t.item())`, `mnp.zeros((t.item(), 2))`,
  `mnp.ones((n, n))`, `mnp.full(t.item(), 1.0)`, `mnp.eye(t.item())`, `mnp.identity(t.item())`
  fail ("output index [0] large than the output size [0] of node!") and compile at LAX;
  `ops.ones((int(t),))`, `ops.zeros((t.item(), 2))` and `mnp.full((2, 2), t.item())` (the fill
  value) compile at both.
- MS373, every level (no error): `Tensor(v)` / `ms.tensor(v)` returned, without a dtype, of a
  NumPy float64 or float16 scalar (`np.float64(0.5)`, `np.sqrt(2.0)`, `np.log(10.0)`,
  `np.exp(1.0)`, `np.float16(1.5)`, the `.sum()` of a float64 NumPy array,
  `np.mean([1.0, 2.0])`, a module constant or `self.m` set to one) is Float32 in graph mode
  (the scalar is taken as a Python float) and Float64 / Float16 in PyNative. Alike in both:
  with `dtype=`, `np.float32(1.5)`, `np.int32(3)`, `np.int64(3)`, `np.bool_(True)`, `np.pi`,
  a list of NumPy scalars, `ops.scalar_to_tensor(np.float64(2.5))`, a NumPy array,
  `float(np.float64(1.5))`, the sum of an int64 array; `x * Tensor(np.float64(0.1))` with a
  float32 `x` is Float32 in both (so only a returned Tensor is reported); an `@jit` function is
  compiled in PyNative too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .decorated_helpers import compiled_by_jit
from .helpers import names, receivers, shared_values
from .helpers.base import FunctionContext, cacheable
from .helpers.default_dtypes import numpy_default_dtype
from .helpers.module_values import global_binding, parameters
from .mutable_scalars import mutable_number, mutable_parameters

TUPLE_TO_ARRAY_ARGUMENT = Rule(
    "MS1055",
    "tuple-to-array-argument",
    Group.FAILS,
    title="`ops.tuple_to_array()` of a list, or of a tuple mixing ints, floats and bools",
    message=(
        "`ops.tuple_to_array` in graph mode takes a tuple of numbers of one type, and `{arg}` "
        "is {what}; pass {instead}."
    ),
    why=(
        "Graph mode compiles `tuple_to_array` to TupleToTensor, which takes a tuple whose "
        "items all have the same type; PyNative looks only at the first item and converts a "
        "list or a mixed tuple (truncating floats when the first item is an int)."
    ),
    remedy=(
        "Pass a tuple (`tuple(l)`) of numbers of one type (`(1.0, 2.5)`), or build the Tensor "
        "with `Tensor(...)` outside the graph."
    ),
    mindspore_says=(
        "TypeError: the tuple elements type must be same, first element type = 35 cur_type = 43"
    ),
)

MNP_RANGE_OF_VARIABLE = Rule(
    "MS1056",
    "mnp-range-of-variable",
    Group.FAILS,
    title="`mnp.arange()` / `mnp.linspace()` with a length known only when the graph runs",
    message=(
        "`{arg}` is {what}, and `mindspore.numpy.{func}` computes its length in Python when "
        "the graph is compiled, where it has no value; use `ops.arange` / `ops.linspace`, or "
        "a constant."
    ),
    why=(
        "`mindspore.numpy.arange` and `linspace` work out the number of elements with Python "
        "arithmetic in compile-time helpers; a number read from a Tensor, a Tensor or a "
        "`mutable()` number has no value there."
    ),
    remedy="Use `ops.arange(n)` / `ops.linspace(start, stop, n)`, which take run-time values.",
    mindspore_says="TypeError: must be real number, not NoneType",
)

MNP_SHAPE_OF_VARIABLE_STRICT = Rule(
    "MS248",
    "mnp-shape-of-variable-under-strict",
    Group.STRICT,
    title="A `mindspore.numpy` creator given a size read from a Tensor, under STRICT",
    message=(
        "`{arg}` is a number read from a Tensor, given to `mindspore.numpy.{func}` as a size, "
        "which jit_syntax_level=STRICT cannot compile; use `ops.{ops}` or the default LAX level."
    ),
    why=(
        "`mindspore.numpy`'s creators check and build the shape with compile-time helpers; "
        "under STRICT a size read from a Tensor leaves them with no output."
    ),
    remedy="Use `ops.zeros((n,))` / `ops.ones` / `ops.full` / `ops.eye`, or the LAX level.",
    mindspore_says="RuntimeError: output index [0] large than the output size [0] of node!",
)

NUMPY_FLOAT_SCALAR_TENSOR = Rule(
    "MS373",
    "numpy-float-scalar-tensor",
    Group.DIVERGES,
    title="`Tensor()` of a NumPy float64 / float16 scalar without a dtype, returned from the graph",
    message=(
        "`{arg}` is a NumPy {dtype} scalar, which graph mode takes as a Python float: the "
        "Tensor is Float32 there and {pretty} in PyNative; pass `dtype=ms.{dtype}` (or "
        "`ms.float32`) to get the same in both."
    ),
    why=(
        "Graph mode turns a NumPy float scalar into a Python float constant, and `Tensor()` of "
        "a Python float is float32; PyNative keeps the NumPy scalar's dtype."
    ),
    remedy="Give the dtype: `Tensor(v, ms.float64)` or `Tensor(v, ms.float32)`.",
    mindspore_says="(no error: `Tensor(np.sqrt(2.0))` is Float32 in graph mode, Float64 otherwise)",
)

_TUPLE_TO_ARRAY = "tuple_to_array"
_MNP = ("mindspore.numpy.", "mindspore.numpy.array_creations.")
# mnp function -> the arguments (positions, keywords) that set its length
_MNP_RANGES = {
    "arange": ((0, 1, 2), ("start", "stop", "step")),
    "linspace": ((2,), ("num",)),
    "logspace": ((2,), ("num",)),
    "geomspace": ((2,), ("num",)),
}
# mnp creator -> (its size arguments, the ops function to use)
_MNP_SHAPES = {
    "zeros": ((0,), ("shape",), "zeros"),
    "ones": ((0,), ("shape",), "ones"),
    "empty": ((0,), ("shape",), "zeros"),
    "full": ((0,), ("shape",), "full"),
    "eye": ((0, 1), ("N", "M"), "eye"),
    "identity": ((0,), ("n",), "eye"),
}
_NUMPY_FLOATS = {
    "numpy.float64": "float64",
    "numpy.double": "float64",
    "numpy.float16": "float16",
    "numpy.half": "float16",
}
# NumPy functions giving a float64 scalar of Python numbers
_NUMPY_MATH = frozenset(
    {
        "sqrt",
        "exp",
        "log",
        "log2",
        "log10",
        "log1p",
        "expm1",
        "sin",
        "cos",
        "tan",
        "arcsin",
        "arccos",
        "arctan",
        "sinh",
        "cosh",
        "tanh",
        "deg2rad",
        "radians",
        "cbrt",
    }
)
_NUMPY_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var"})


def _mnp_name(ctx: FunctionContext, func: ast.expr) -> Optional[str]:
    if not isinstance(func, (ast.Name, ast.Attribute)):
        return None
    qualname = ctx.fn.module.qualname(func) or ""
    for prefix in _MNP:
        if qualname.startswith(prefix):
            return qualname[len(prefix) :]
    return None


def _arguments(
    call: ast.Call, positions: tuple[int, ...], keywords: tuple[str, ...]
) -> list[ast.expr]:
    found = [call.args[i] for i in positions if i < len(call.args)]
    found += [k.value for k in call.keywords if k.arg in keywords]
    return [a for a in found if not isinstance(a, ast.Starred)]


def _variable(ctx: FunctionContext, arg: ast.expr) -> Optional[str]:
    """What makes `arg` a value graph mode knows only when it runs, else None."""
    if ctx.types.is_tensor(arg) and not ctx.types.is_constant_tensor(arg):
        return "a Tensor"
    if receivers.runtime_scalar(ctx, arg):
        return "a number read from a Tensor"
    if mutable_number(ctx, arg):
        return "a `mutable()` number"
    return None


@cacheable
def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    module = ctx.fn.module
    if not (module.mentions(_TUPLE_TO_ARRAY) or module.mentions("numpy")):
        return
    calls: list[ast.Call] = ctx.of(ast.Call)
    for call in calls:
        func = call.func
        last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if last == _TUPLE_TO_ARRAY:
            yield from _tuple_to_array(ctx, call)
            continue
        name = _mnp_name(ctx, func)
        if name in _MNP_RANGES:
            for arg in _arguments(call, *_MNP_RANGES[name]):
                what = _variable(ctx, arg)
                if what is not None:
                    yield MNP_RANGE_OF_VARIABLE.finding(
                        arg, arg=ast.unparse(arg), what=what, func=name
                    )
                    break
        elif name in _MNP_SHAPES:
            positions, keywords, ops_name = _MNP_SHAPES[name]
            sizes: list[ast.expr] = []
            for arg in _arguments(call, positions, keywords):
                sizes += arg.elts if isinstance(arg, (ast.Tuple, ast.List)) else [arg]
            for size in sizes:
                if not ctx.types.is_tensor(size) and receivers.runtime_scalar(ctx, size):
                    yield MNP_SHAPE_OF_VARIABLE_STRICT.finding(
                        size, arg=ast.unparse(size), func=name, ops=ops_name
                    )
                    break


def check_parameters(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS1056 through a parameter every call of the entry point passes `mutable(k)` for
    (measured: `mnp.arange(x)` in construct with `Net()(mutable(3))` fails at every level, the
    same message); it reads the callers, so it is not cacheable."""
    module = ctx.fn.module
    if not module.mentions("mutable") or not module.mentions("numpy"):
        return
    found = [
        (call, name)
        for call in ctx.of(ast.Call)
        if (name := _mnp_name(ctx, call.func)) in _MNP_RANGES
    ]
    if not found:
        return
    params = mutable_parameters(ctx)
    for call, name in found:
        for arg in _arguments(call, *_MNP_RANGES[name]):
            if isinstance(arg, ast.Name) and arg.id in params:
                yield MNP_RANGE_OF_VARIABLE.finding(
                    arg, arg=arg.id, what="a `mutable()` number", func=name
                )
                break


def _tuple_to_array(ctx: FunctionContext, call: ast.Call) -> Iterator[RawFinding]:
    qualname = names.callee(ctx.fn.module, call.func) or ""
    if not (qualname.startswith("mindspore.ops.") and len(call.args) == 1) or call.keywords:
        return
    arg = call.args[0]
    seq: Optional[ast.expr] = arg
    if isinstance(arg, ast.Name):
        seq = receivers.only_binding(ctx, arg.id)
    if (
        isinstance(seq, (ast.List, ast.ListComp))
        or _list_attribute(ctx, arg)
        or _passed_list(ctx, arg)
    ):
        yield TUPLE_TO_ARRAY_ARGUMENT.finding(
            call, arg=ast.unparse(arg), what="a list", instead="a tuple (`tuple(...)`)"
        )
        return
    if not isinstance(seq, ast.Tuple):
        return
    kinds = [_number_kind(ctx, e) for e in seq.elts]
    known = {k for k in kinds if k is not None}
    if len(known) > 1:
        yield TUPLE_TO_ARRAY_ARGUMENT.finding(
            call,
            arg=ast.unparse(arg),
            what=f"a tuple mixing {' and '.join(sorted(known))} items",
            instead="numbers of one type (e.g. all floats)",
        )


def _passed_list(ctx: FunctionContext, arg: ast.expr) -> bool:
    """A helper's parameter every call gives a list display (`self.make([2, 3])`)."""
    if not isinstance(arg, ast.Name) or arg.id not in parameters(ctx.fn.node):
        return False
    value = shared_values.abstract(ctx, module=True).of(arg)
    return value is not None and value.kind == "list"


def _list_attribute(ctx: FunctionContext, arg: ast.expr) -> bool:
    held = receivers.self_attr(ctx, arg)
    return held is not None and receivers.attr_kind(ctx, held) == receivers.LIST


def _number_kind(ctx: FunctionContext, expr: ast.expr) -> Optional[str]:
    """'int' / 'float' / 'bool' for a number whose Python type the source shows."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    if isinstance(expr, ast.Constant):
        value = expr.value
        if isinstance(value, bool):
            return "bool"
        return "int" if isinstance(value, int) else "float" if isinstance(value, float) else None
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
        and ctx.types.is_tensor(expr.value.value)
    ):
        return "int"
    if isinstance(expr, ast.Attribute) and expr.attr == "ndim" and ctx.types.is_tensor(expr.value):
        return "int"
    if isinstance(expr, ast.Name) and expr.id in parameters(ctx.fn.node):
        passed = shared_values.abstract(ctx, module=True).of(expr)  # what every caller passes
        return passed.dtype if passed is not None and passed.kind == "scalar" else None
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("len", "int", "float")
        and len(expr.args) == 1
        and expr.func.id not in ctx.fn.module.functions
    ):
        return "float" if expr.func.id == "float" else "int"
    return None


@cacheable
def check_numpy_scalars(ctx: FunctionContext) -> Iterator[RawFinding]:
    """MS373: `Tensor(<NumPy float64/float16 scalar>)` without a dtype, returned (directly, in a
    returned tuple, or through a local bound once to it): used in arithmetic with a float32
    Tensor it gives float32 in both modes (measured), so only the returned Tensor differs."""
    module = ctx.fn.module
    if not module.mentions("numpy"):
        return
    returns: list[ast.Return] = ctx.of(ast.Return)
    outputs: list[ast.expr] = []
    for node in returns:
        value = node.value
        if value is None:
            continue
        outputs += value.elts if isinstance(value, ast.Tuple) else [value]
    found: list[ast.Call] = []
    for out in outputs:
        if isinstance(out, ast.Name):
            out = receivers.only_binding(ctx, out.id) or out
        if (
            isinstance(out, ast.Call)
            and names.callee(module, out.func) in names.TENSOR_FACTORIES
            and len(out.args) == 1
            and not out.keywords
        ):
            found.append(out)
    if not found or compiled_by_jit(ctx):
        return
    for call in found:
        dtype = _numpy_float_scalar(ctx, call.args[0], 0)
        if dtype is not None:
            yield NUMPY_FLOAT_SCALAR_TENSOR.finding(
                call,
                arg=ast.unparse(call.args[0]),
                dtype=dtype,
                pretty=dtype.capitalize(),
            )


def _numpy_float_scalar(ctx: FunctionContext, expr: ast.expr, depth: int) -> Optional[str]:
    """'float64' / 'float16' when `expr` is surely a NumPy scalar of that dtype."""
    if depth > 4:
        return None
    module = ctx.fn.module
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None and not any(
            isinstance(n, ast.Name) and n.id == expr.id and not isinstance(n.ctx, ast.Load)
            for n in ctx.of(ast.Name)
        ):
            assign = global_binding(module, expr.id)
            bound = assign.value if assign is not None else None
        return _numpy_float_scalar(ctx, bound, depth + 1) if bound is not None else None
    held = receivers.self_attr(ctx, expr)
    if held is not None:
        cls = ctx.fn.cls
        name = names.self_attribute(expr)
        if cls is None or name is None or cls.attr_varies(name):
            return None
        node = held.node
        return _numpy_float_scalar(ctx, node, depth + 1) if isinstance(node, ast.expr) else None
    if not isinstance(expr, ast.Call) or expr.keywords:
        return None
    qualname = names.callee(module, expr.func) or ""
    if qualname in _NUMPY_FLOATS and len(expr.args) == 1 and names.is_number_literal(expr.args[0]):
        return _NUMPY_FLOATS[qualname]
    if (
        qualname.startswith("numpy.")
        and qualname[len("numpy.") :] in _NUMPY_MATH
        and len(expr.args) == 1
        and names.is_number_literal(expr.args[0])
    ):
        return "float64"
    if (
        qualname.startswith("numpy.")
        and qualname[len("numpy.") :] in _NUMPY_REDUCTIONS
        and len(expr.args) == 1
        and isinstance(expr.args[0], (ast.List, ast.Tuple))
        and _float_numbers(expr.args[0].elts)
    ):
        return "float64"  # `np.mean([1.0, 2.0])`
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr in _NUMPY_REDUCTIONS and not expr.args:
        return "float64" if _float64_array(ctx, func.value) else None
    return None


def _float64_array(ctx: FunctionContext, expr: ast.expr) -> bool:
    if isinstance(expr, ast.Name):
        bound = receivers.only_binding(ctx, expr.id)
        if bound is None:
            return False
        expr = bound
    if not isinstance(expr, ast.Call):
        return False
    qualname = names.callee(ctx.fn.module, expr.func) or ""
    if qualname.startswith("numpy.random."):
        return numpy_default_dtype(expr, qualname[len("numpy.random.") :], True) == "float64"
    if qualname.startswith("numpy.") and qualname.count(".") == 1:
        return numpy_default_dtype(expr, qualname[len("numpy.") :], False) == "float64"
    return False


def _float_numbers(items: list[ast.expr]) -> bool:
    """Python numbers, one of them a float literal (NumPy makes a float64 array of them)."""
    return (
        bool(items)
        and all(names.is_number_literal(e) for e in items)
        and any(isinstance(e, ast.Constant) and isinstance(e.value, float) for e in items)
    )
