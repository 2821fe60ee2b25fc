"""MS315: graph mode folds a division of constant Tensors, one integer, into a Float64 Tensor.

Measured with MindSpore 2.10 on CPU, LAX and STRICT, against PyNative: `a / b` (and
`ops.div(a, b)`) where both are integer Tensors known when compiling (`Tensor(7, ms.int32)`
built in the function, a module-level constant Tensor, a Tensor attribute of the Cell) is
computed by the compiler, which gives a Float64 Tensor; PyNative gives Float32 (the values agree).
One integer side is enough (`Tensor(7, ms.int32) / Tensor(2.0, ms.float32)`, and
`a.astype(ms.float32) / b` with `b` int32, gave Float64). The same division with a Tensor input,
a Python number, or float constants only stays Float32; casting the result, or multiplying it
with a Float32 input, brings it back to Float32: the dtype shows where the
result is returned or its dtype matters (a Float32 Parameter update, a concatenation, a dtype
check).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Optional

from ..model import Group, RawFinding
from ..rule import Rule
from .helpers import names
from .helpers.base import FunctionContext

CONSTANT_INT_DIVISION = Rule(
    "MS315",
    "constant-int-division-float64",
    Group.DIVERGES,
    title="Dividing constant Tensors, one of them integer, gives Float64 in graph mode",
    message=(
        "`{text}` divides Tensors known at compile time, one of them integer: graph mode folds it "
        "into a "
        "Float64 Tensor, PyNative gives Float32; cast the result (`({text}).astype(ms.float32)`) "
        "or divide by a Python number."
    ),
    why=(
        "Graph mode computes `a / b` itself when both are Tensors it knows while compiling and "
        "one is an integer Tensor, and its folded result is Float64 (PyNative's is Float32: "
        "GRAPH_MODE returned Tensor(3.5, Float64) where PyNative returned Tensor(3.5, Float32))."
    ),
    remedy=(
        "Cast the result, `(a / b).astype(ms.float32)`, or both sides to a float dtype; casting "
        "one side only still folds to Float64."
    ),
    mindspore_says="(compiles; result differs from PyNative)",
)

INT_DTYPES = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"})
FLOAT_DTYPES = frozenset({"float16", "float32", "float64", "bfloat16"})
TENSOR_CLASSES = frozenset({"mindspore.Tensor", "mindspore.common.tensor.Tensor"})
CASTS = frozenset({"astype", "float", "half", "int", "to"})
NUMPY_ARRAYS = frozenset({"numpy.array", "numpy.asarray"})
ARANGES = frozenset({"mindspore.ops.arange", "mindspore.numpy.arange"})
FILLS = frozenset({"mindspore.ops.ones", "mindspore.ops.zeros"})
DIVISIONS = frozenset({"mindspore.ops.div", "mindspore.ops.true_divide", "mindspore.ops.divide"})
DIVISION_NAMES = frozenset(q.rsplit(".", 1)[1] for q in DIVISIONS)  # a cheap first look


def _maybe_division(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr in DIVISION_NAMES
    return isinstance(func, ast.Name)


def check(ctx: FunctionContext) -> Iterator[RawFinding]:
    """Reads module-level constants (the module's tree): not cacheable."""
    binops: list[ast.BinOp] = ctx.of(ast.BinOp)
    # `ops.div(...)` by its attribute; a bare name may be an alias (`from ... import div as d`)
    calls = [c for c in ctx.of(ast.Call) if _maybe_division(c.func)]
    nodes: list[ast.expr] = [*binops, *calls]
    for node in nodes:
        if isinstance(node, ast.BinOp):
            if not isinstance(node.op, ast.Div):
                continue
            left, right = node.left, node.right
        elif (
            isinstance(node, ast.Call)
            and ctx.fn.module.qualname(node.func) in DIVISIONS
            and len(node.args) == 2
            and not node.keywords
        ):
            left, right = node.args
        else:
            continue
        kinds = {_constant_kind(ctx, left, node), _constant_kind(ctx, right, node)}
        if None in kinds and _constant_kind(ctx, left, node) == "int":
            # `Tensor([1, 2]) / 2`, `ops.arange(n) / n`: a Python number divisor folds too
            kinds = {"int"} if _static_number(ctx, right, node) else kinds
        if None in kinds or "int" not in kinds or _promoted_back(ctx, node, binops):
            continue
        yield CONSTANT_INT_DIVISION.finding(node, text=ast.unparse(node), left=ast.unparse(left))


def _promoted_back(ctx: FunctionContext, node: ast.expr, binops: list[ast.BinOp]) -> bool:
    """`x * (a / b)` with `x` not a constant: the Float32 operand brings the dtype back
    (measured: the product was Float32 in both modes); `(a / b).astype(...)` casts it."""
    for call in ctx.of(ast.Call):
        if (
            isinstance(call.func, ast.Attribute)
            and call.func.value is node
            and call.func.attr in CASTS
        ):
            return True
    for assign in ctx.of(ast.Assign):  # `t = a / b` then only `t.astype(...)` read
        if assign.value is node and len(assign.targets) == 1:
            target = assign.targets[0]
            if isinstance(target, ast.Name) and _only_cast(ctx, target.id):
                return True
    for parent in binops:
        if parent.left is node or parent.right is node:
            other = parent.right if parent.left is node else parent.left
            return _constant_kind(ctx, other, parent) is None
    return False


def _only_cast(ctx: FunctionContext, name: str) -> bool:
    loads = [n for n in ctx.of(ast.Name) if n.id == name and isinstance(n.ctx, ast.Load)]
    casts = {
        id(c.func.value)
        for c in ctx.of(ast.Call)
        if isinstance(c.func, ast.Attribute)
        and c.func.attr in CASTS
        and isinstance(c.func.value, ast.Name)
    }
    return bool(loads) and all(id(n) in casts for n in loads)


def _constant_kind(ctx: FunctionContext, expr: ast.expr, at: ast.AST) -> Optional[str]:
    """`int` or `float` for a Tensor known at compile time, else None (a cast of a constant is
    one: measured, `a.astype(ms.float32) / b` still folded to Float64 with `b` an int32)."""
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "astype"
        and len(expr.args) == 1
        and _constant_kind(ctx, expr.func.value, at) is not None
    ):
        name = _dtype_name(expr.args[0])
        return "int" if name in INT_DTYPES else "float" if name in FLOAT_DTYPES else None
    value = _definition(ctx, expr, at)
    if value is None:
        return None
    return _tensor_kind(ctx, value) or _built_kind(ctx, value, at)


def _built_kind(ctx: FunctionContext, value: ast.expr, at: ast.AST) -> Optional[str]:
    """`ops.arange(...)` of numbers known when compiling (no float dtype, no float bound) and
    `ops.ones/zeros(shape, <int dtype>)`: int constant Tensors the compiler folds (measured:
    `ops.arange(4) / 4` and `ops.ones((3,), ms.int32) / 2` gave Float64, PyNative Float32)."""
    if not isinstance(value, ast.Call):
        return None
    qualname = ctx.fn.module.qualname(value.func)
    if qualname in ARANGES:
        dtype = names.keyword(value, "dtype")
        if dtype is not None:
            return "int" if _dtype_name(dtype) in INT_DTYPES else None
        bounds = [a for a in value.args if not isinstance(a, ast.Starred)]
        if bounds and all(_static_number(ctx, a, at, ints=True) for a in bounds):
            return "int"
        return None
    if qualname in FILLS:
        dtype = value.args[1] if len(value.args) > 1 else names.keyword(value, "dtype")
        if dtype is not None and _dtype_name(dtype) in INT_DTYPES and value.args:
            return "int" if _static_shape(value.args[0]) else None
    return None


def _static_shape(expr: ast.expr) -> bool:
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(names.is_int_literal(e) or names.is_static_size(e) for e in expr.elts)
    return names.is_int_literal(expr) or names.is_static_size(expr)


def _static_number(ctx: FunctionContext, expr: ast.expr, at: ast.AST, ints: bool = False) -> bool:
    """A Python number known when compiling: a literal (int, or float unless `ints`), a
    shape item, or a local bound once to one of those before `at`."""
    if names.is_int_literal(expr) or names.is_static_size(expr):
        return True
    probe = expr.operand if isinstance(expr, ast.UnaryOp) else expr
    if not ints and isinstance(probe, ast.Constant) and isinstance(probe.value, float):
        return True
    if isinstance(expr, ast.Name) and not _is_parameter(ctx.fn.node, expr.id):
        local = [
            n
            for n in ctx.of(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == expr.id for t in _targets(n))
        ]
        if len(local) == 1 and (local[0].lineno, local[0].col_offset) < (
            getattr(at, "lineno", 0),
            getattr(at, "col_offset", 0),
        ):
            value = local[0].value
            return names.is_int_literal(value) or names.is_static_size(value)
    return False


def _definition(ctx: FunctionContext, expr: ast.expr, at: ast.AST) -> Optional[ast.expr]:
    """The expression a constant operand stands for: itself, the one binding of a local name
    before `at` (the function's own), the module's one binding, or the Cell attribute's."""
    if isinstance(expr, ast.Call):
        return expr
    if isinstance(expr, ast.Name):
        local = [
            n
            for n in ctx.of(ast.Assign)
            if any(isinstance(t, ast.Name) and t.id == expr.id for t in _targets(n))
        ]
        if local:
            if len(local) == 1 and (local[0].lineno, local[0].col_offset) < (
                getattr(at, "lineno", 0),
                getattr(at, "col_offset", 0),
            ):
                return local[0].value
            return None
        if _is_parameter(ctx.fn.node, expr.id):
            return None
        return _module_constant(ctx, expr.id)
    name = names.self_attribute(expr)
    if name is not None and ctx.fn.cls is not None:
        attr = ctx.fn.cls.attr(name)
        if attr is None or attr.kind not in ("tensor", "const_tensor"):
            return None
        node = attr.node
        if isinstance(node, ast.Assign):
            node = node.value
        return node if isinstance(node, ast.Call) else None
    return None


def _targets(node: ast.Assign) -> list[ast.expr]:
    out: list[ast.expr] = []
    for target in node.targets:
        out += target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
    return out


def _is_parameter(fn: ast.AST, name: str) -> bool:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    args = fn.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return any(a is not None and a.arg == name for a in every)


def _module_constant(ctx: FunctionContext, name: str) -> Optional[ast.expr]:
    tree = ctx.fn.module.tree
    if tree is None:
        return None
    found = [
        s
        for s in tree.body
        if isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in _targets(s))
    ]
    return found[0].value if len(found) == 1 else None


def _tensor_kind(ctx: FunctionContext, value: ast.expr) -> Optional[str]:
    """ "int" or "float" for `Tensor(<literal data>)`, `Tensor(<data>, <dtype>)` or
    `Tensor(np.array(<literal>, <dtype>))`, else None."""
    if not isinstance(value, ast.Call) or ctx.fn.module.qualname(value.func) not in TENSOR_CLASSES:
        return None
    if not value.args:
        return None
    data = value.args[0]
    dtype: Optional[ast.expr] = value.args[1] if len(value.args) > 1 else None
    for keyword in value.keywords:
        if keyword.arg == "dtype":
            dtype = keyword.value
    if isinstance(data, ast.Call) and ctx.fn.module.qualname(data.func) in NUMPY_ARRAYS:
        if not data.args:
            return None
        inner: Optional[ast.expr] = data.args[1] if len(data.args) > 1 else None
        for keyword in data.keywords:
            if keyword.arg == "dtype":
                inner = keyword.value
        dtype = dtype or inner
        data = data.args[0]
    literal = _literal_kind(data)
    if literal is None:
        return None
    if dtype is None:
        return literal
    name = _dtype_name(dtype)
    if name in INT_DTYPES:
        return "int"
    if name in FLOAT_DTYPES:
        return "float"
    return None


def _dtype_name(expr: ast.expr) -> Optional[str]:
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return None


def _literal_kind(expr: ast.expr) -> Optional[str]:
    """ "int" / "float" for a number literal or a non-empty list/tuple of them (any float makes
    it float), else None."""
    if isinstance(expr, ast.Constant):
        if isinstance(expr.value, bool):
            return None
        if isinstance(expr.value, int):
            return "int"
        return "float" if isinstance(expr.value, float) else None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return _literal_kind(expr.operand)
    if isinstance(expr, (ast.List, ast.Tuple)) and expr.elts:
        kinds = {_literal_kind(e) for e in expr.elts}
        if None in kinds:
            return None
        return "float" if "float" in kinds else "int"
    return None
